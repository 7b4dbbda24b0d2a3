// A const member function whose body is one return statement is a getter,
// not a helper (helpers.cc), unless that return calls work: then it is a
// helper like any other member. A header's one of a class template is not
// copied (MemberCopy.h): the call gets a warning and an untraced entry, an
// error under --strict, instead of losing what the work reads in silence
// (siv::BasicPerlinNoise<double>::octave2D_01 through a pointer). Getters
// that call only getters stay getters, quietly; one of the file that calls
// a helper of the file is instrumented in place, with that helper.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags -I %S/Inputs 2>&1 | FileCheck --check-prefix=STRICT %s
#include <wgtrace/wgtrace.h>

#include "getter-calls.h"

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 40, 10, "k", "call of 'lib::Table::sum2'", "'lib::Table::sum2' is defined in {{.*}}getter-calls.h, which is not rewritten, and cannot be copied into this file (it is a member function of a template)"},
// CHECK-NEXT: };

static float scale(const float *p) { return 2 * p[0]; }
// CHECK: static float scale(const float *p) { return 2 * WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]); }

struct Scaled {
  const float *p;
  float value() const { return scale(p); }
  // CHECK: float value() const { return scale(WGTRACE_LOAD_REF_AT({{[0-9]+}}, p)); }
  int count() const { return 1; }
  // CHECK: int count() const { return 1; }
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg,
                        const lib::Table<float> *t, const Scaled *s,
                        float *a) {
  // The header's getters stay quiet; sum2 calls at(), work.
  if (t->empty() || t->size() < 2 || s->count() != 1)
    return;
  a[0] = t->sum2(static_cast<int>(wg.id[0])) + s->value();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[0]) = t->sum2(static_cast<int>(wg.id[0])) + s->value();
  // WARN: {{.*}}.cc:[[@LINE-2]]:10: warning: call of 'lib::Table::sum2' is not traced: 'lib::Table::sum2' is defined in {{.*}}getter-calls.h, which is not rewritten, and cannot be copied into this file (it is a member function of a template)
  // STRICT: {{.*}}.cc:[[@LINE-3]]:10: error: call of 'lib::Table::sum2' is not traced: {{.*}}(it is a member function of a template)
}
