// Helpers defined in the project's headers are copied into the rewritten
// file, instrumented: internal linkage, their namespace, a new name
// (`<name>_wgtrace_<N>`, one per overload set), templates as templates. The
// copy goes before the first top-level declaration that calls it, between
// #line directives that keep every line of this file at its number. The
// kernels' calls (and the copies' calls of each other) go to the copies;
// the header is untouched. Helpers that cannot be copied get a warning.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines --strict-whitespace %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "copied-helpers.h"

#define CALL_FIRST(p) lib::first(p)

namespace app {
// CHECK:#define CALL_FIRST(p) lib::first(p)
// CHECK-EMPTY:
// CHECK-NEXT:namespace lib {
// CHECK-NEXT:#line 21 "{{.*}}Inputs/copied-helpers.h"
// CHECK-NEXT:static inline float later_wgtrace_{{[0-9]}}(const float *p);
// CHECK-NEXT:}
// CHECK-NEXT:namespace lib {
// CHECK-NEXT:#line 9 "{{.*}}Inputs/copied-helpers.h"
// CHECK-NEXT:static inline float first_wgtrace_[[FIRST:[0-9]]](const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]); }
// CHECK-NEXT:}
// CHECK-NEXT:namespace lib {
// CHECK-NEXT:#line 11 "{{.*}}Inputs/copied-helpers.h"
// CHECK-NEXT:template <class T> static inline T twice_wgtrace_[[TWICE:[0-9]]](const T *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]) * 2; }
// CHECK-NEXT:}
// CHECK-NEXT:namespace lib {
// CHECK-NEXT:#line 13 "{{.*}}Inputs/copied-helpers.h"
// CHECK-NEXT:static inline float over_wgtrace_[[OVER:[0-9]]](const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[1]); }
// CHECK-NEXT:}
// CHECK-NEXT:namespace lib {
// CHECK-NEXT:#line 14 "{{.*}}Inputs/copied-helpers.h"
// CHECK-NEXT:static inline double over_wgtrace_[[OVER]](const double *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[1]); }
// CHECK-NEXT:}
// CHECK-NEXT:namespace lib {
// CHECK-NEXT:#line 17 "{{.*}}Inputs/copied-helpers.h"
// CHECK-NEXT:static inline void chain_wgtrace_[[CHAIN:[0-9]]](float *p) {
// CHECK-NEXT:  WGTRACE_STORE_REF_AT({{[0-9]+}}, p[2]) = later_wgtrace_[[LATER:[0-9]]](p) + first_wgtrace_[[FIRST]](p);
// CHECK-NEXT:}
// CHECK-NEXT:}
// CHECK-NEXT:namespace lib {
// CHECK-NEXT:#line 21 "{{.*}}Inputs/copied-helpers.h"
// CHECK-NEXT:static inline float later_wgtrace_[[LATER]](const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[3]); }
// CHECK-NEXT:}
// CHECK:namespace lib { namespace {
// CHECK-NEXT:#line 34 "{{.*}}Inputs/copied-helpers.h"
// CHECK-NEXT:static inline void hidden_wgtrace_[[HIDDEN:[0-9]]](float *p) { WGTRACE_STORE_REF_AT({{[0-9]+}}, p[4]) = 1; }
// CHECK-NEXT:} }
// CHECK-NEXT:#line 20 "{{.*}}helpers-copied.cc.tmp.cc"
// CHECK-NEXT:namespace app {
template <class T>
WGTRACE_DISPATCH void k1(const wgtrace::Workgroup &wg, T *t, float *a,
                         int *n, lib::Acc acc) {
  static_assert(__LINE__ == 62, "lines keep their numbers");
  t[1] = lib::twice(t) + lib::over(t);
  // CHECK:  WGTRACE_STORE_AT({{[0-9]+}}, t[1]) = lib::twice_wgtrace_[[TWICE]](t) + lib::over_wgtrace_[[OVER]](t);
  using namespace lib;
  a[0] = first(a) + static_cast<float>(counter(n));
  // CHECK:  WGTRACE_STORE_AT({{[0-9]+}}, a[0]) = first_wgtrace_[[FIRST]](a) + static_cast<float>(counter(n));
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:40: warning: call of 'lib::counter' is not traced: 'lib::counter' is defined in {{.*}}copied-helpers.h, which is not rewritten, and cannot be copied into this file (it has a static local variable, which a copy would duplicate)
  chain(a);
  hidden(a);
  // CHECK:  chain_wgtrace_[[CHAIN]](a);
  // CHECK-NEXT:  hidden_wgtrace_[[HIDDEN]](a);
  acc.add(1);
  // CHECK:  ::lib::Acc_add_wgtrace_{{[0-9]+}}(acc, 1);
  a[1] = CALL_FIRST(a);
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:10: warning: call of 'lib::first' is not traced: it is spelled in a macro expansion and is not redirected to the instrumented copy of 'lib::first': what that call accesses is not recorded
  (void)wg;
}
template void k1(const wgtrace::Workgroup &, float *, float *, int *,
                 lib::Acc);
template void k1(const wgtrace::Workgroup &, double *, float *, int *,
                 lib::Acc);
} // namespace app

#include "copied-later.h"

// CHECK:#line 4 "{{.*}}Inputs/copied-later.h"
// CHECK-NEXT:static inline float late_load_wgtrace_[[LATE:[0-9]]](const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[5]); }
// CHECK-NEXT:#line 91 "{{.*}}helpers-copied.cc.tmp.cc"
// CHECK-NEXT:WGTRACE_DISPATCH void k2(const wgtrace::Workgroup &wg, float *a) { WGTRACE_WORKGROUP(wg, 1); WGTRACE_BUFFERS(a);
WGTRACE_DISPATCH void k2(const wgtrace::Workgroup &wg, float *a) {
  a[6] = late_load(a) + lib::first(a);
  // CHECK:  WGTRACE_STORE_AT({{[0-9]+}}, a[6]) = late_load_wgtrace_[[LATE]](a) + lib::first_wgtrace_[[FIRST]](a);
  static_assert(__LINE__ == 94, "lines keep their numbers");
  {
    using lib::later;
    a[7] = later(a);
    // CHECK:    WGTRACE_STORE_AT({{[0-9]+}}, a[7]) = ::lib::later_wgtrace_[[LATER]](a);
  }
  (void)wg;
}
