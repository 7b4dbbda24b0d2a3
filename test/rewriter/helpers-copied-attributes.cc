// A copied helper starts with the attributes written before it, whole
// (`[[...]]`, scoped names, lists, `__attribute__((...))`, macros); internal
// linkage is added after them.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "copied-attributes.h"

// CHECK: {"k", "{{[^"]*}}", "{{[^"]*}}", "{{\[\[}}gnu::noinline]] WGTRACE_DISPATCH void k({{.*}}
// CHECK: {{\[\[}}nodiscard]] static inline float nd_wgtrace_0(const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]); }
// CHECK: {{\[\[}}gnu::always_inline]] static inline float ga_wgtrace_1(const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[1]); }
// CHECK: {{\[\[}}nodiscard, gnu::pure]] static inline float both_wgtrace_2(const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[2]); }
// CHECK: static __attribute__((pure)) inline float gp_wgtrace_3(const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[3]); }
// CHECK: static FORCE_INLINE float fi_wgtrace_4(const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[4]); }
[[gnu::noinline]] WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg,
                                          float *a) {
  a[9] = nd(a) + ga(a) + both(a) + gp(a) + fi(a);
  (void)wg;
}
// CHECK: #line 19 "{{.*}}.cc"
// CHECK-NEXT: {{\[\[}}gnu::noinline]] WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg,
