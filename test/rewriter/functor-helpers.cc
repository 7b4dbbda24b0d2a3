// A function object handed to a library function (a standard algorithm)
// is called from library code: its class's call operator is a helper all
// the same, instrumented in place, so that what it reads and writes
// beyond the elements it is given (a static member, a global: bigfib.cpp
// of llvm-test-suite keeps its carry in one) is recorded. A lambda is
// instrumented where it is written; an operator that touches nothing but
// its parameters is bookkeeping and stays as it is. One of a project
// header is reported at the argument: the library runs the header's
// original.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "functor-header.h"

#include <algorithm>

struct Carry {
  static unsigned long head;
  unsigned long operator()(unsigned long a, unsigned long b) const {
    unsigned long v = a + b + head;
    head = v / 10;
    return v % 10;
  }
};
// CHECK: unsigned long v = a + b + WGTRACE_LOAD_AT({{[0-9]+}}, head);
// CHECK: WGTRACE_STORE_AT({{[0-9]+}}, head) = v / 10;
unsigned long Carry::head = 0;

double total;
struct Sum {
  void operator()(double x) const { total += x; }
};
// CHECK: void operator()(double x) const { WGTRACE_UPDATE_AT({{[0-9]+}}, total) += x; }

struct Twice {
  double operator()(double x) const { return 2 * x; }
};
// CHECK: double operator()(double x) const { return 2 * x; }

WGTRACE_DISPATCH void add(const wgtrace::Workgroup &wg, const unsigned long *a,
                          const unsigned long *b, unsigned long *out,
                          double *d) {
  Carry::head = wg.id[0];
  std::transform(a, a + 4, b, out, Carry());
  std::for_each(d, d + 4, Sum{});
  std::transform(d, d + 4, d, Twice());
  std::for_each(d, d + 4, Count());
  // WARN: {{.*}}.cc:[[@LINE-1]]:27: warning: call of 'Count::operator()' is not traced: 'Count::operator()' is defined in {{.*}}functor-header.h, which is not rewritten, and cannot be copied into this file (a library function calls it, which runs the header's original, and a header's member function is instrumented only as a copy)
}

void run(const unsigned long *a, const unsigned long *b, unsigned long *out,
         double *d) {
  wgtrace::dispatch(add, wgtrace::Grid{1, 1, 1}, a, b, out, d);
}
