// Header helpers: a recursive one calls its own copy, one in extern "C"
// is copied (with C++, internal linkage), default arguments on the
// definition stay with it. Not copied, with the reason: an explicit
// specialization (its primary template is copied, so the call of another
// instantiation goes to the copy) and definitions whose default arguments
// are on an earlier declaration. One that cannot be copied but touches no
// memory (mag<double>) loses nothing: its calls are not reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "copied-edge.h"

// CHECK: template <class T> static inline T g_wgtrace_0(const T *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]); }
// CHECK: static inline int fact_wgtrace_1(const int *p, int n) { return n ? WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[n]) * fact_wgtrace_1(p, n - 1) : 1; }
// CHECK: static inline float cfun_wgtrace_2(const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[5]); }
// CHECK: static inline float own_default_wgtrace_3(const float *p, int n = 6) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[n]); }
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, int *b) {
  a[9] = g(a) + static_cast<float>(g(b)) + dflt(a) + tdef<>(a) + cfun(a);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[9]) = g(a) + static_cast<float>(g_wgtrace_0(b)) + dflt(a) + tdef<>(a) + cfun_wgtrace_2(a);
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:10: warning: call of 'g' is not traced: 'g' is defined in {{.*}}copied-edge.h, which is not rewritten, and cannot be copied into this file (it is an explicit specialization of a template)
  // WARN-DAG: {{.*}}.cc:[[@LINE-3]]:44: warning: call of 'dflt' is not traced: 'dflt' is defined in {{.*}}copied-edge.h, which is not rewritten, and cannot be copied into this file (its default arguments are on another declaration)
  // WARN-DAG: {{.*}}.cc:[[@LINE-4]]:54: warning: call of 'tdef' is not traced: 'tdef' is defined in {{.*}}copied-edge.h, which is not rewritten, and cannot be copied into this file (its default arguments are on another declaration)
  b[0] = fact(b, 3) + static_cast<int>(own_default(a));
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, b[0]) = fact_wgtrace_1(b, 3) + static_cast<int>(own_default_wgtrace_3(a));
  a[10] = static_cast<float>(mag(static_cast<double>(a[1]))) + mag(a[2]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[10]) = static_cast<float>(mag(static_cast<double>(WGTRACE_LOAD_AT({{[0-9]+}}, a[1])))) + mag(WGTRACE_LOAD_AT({{[0-9]+}}, a[2]));
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:64: warning: call of 'mag' is not traced: 'mag' is defined in {{.*}}copied-edge.h, which is not rewritten, and cannot be copied into this file (it is an explicit specialization of a template)
  (void)wg;
}
