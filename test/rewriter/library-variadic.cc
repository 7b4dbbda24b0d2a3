// A C variadic function reads or writes kernel memory through the
// arguments past its parameters as its format says: printf reads the
// string each %s prints, scanf writes where each pointer points. Such a
// call is reported untraced, as one given kernel memory through a
// parameter is (Prolangs-C++ garage.cpp's `printf("car with plate %s\n",
// plate)` went unreported). A value printed, a pointer printed with %p,
// a literal and a local string are no kernel memory read in library code.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <cstdio>

struct Vehicle {
  char *plate;
  void identify() { std::printf("car with plate %s\n", plate); }
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:21: warning: call 'std::printf("car with plate %s\n", plate)' is not traced: 'printf' is given kernel memory ('plate') by pointer or reference and reads or writes it in library code, which wgtrace does not record
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Vehicle *v, int *a,
                        const char *name) {
  unsigned i = wg.id[0];
  v[i].identify();
  std::printf("%d %p %s\n", a[i], static_cast<void *>(a), "literal");
  char local[8] = "local";
  std::printf("%s\n", local);
  std::fprintf(stderr, "%s: %d\n", name, a[i]);
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:3: warning: call 'std::fprintf(stderr, "%s: %d\n", name, a[i])' is not traced: 'fprintf' is given kernel memory ('name') by pointer or reference and reads or writes it in library code, which wgtrace does not record
  std::scanf("%d", &a[i]);
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:3: warning: call 'std::scanf("%d", &a[i])' is not traced: 'scanf' is given kernel memory ('&a[i]') by pointer or reference and reads or writes it in library code, which wgtrace does not record
}
