// The macros keep the operand's type, value category, const and volatile:
// a volatile access stays volatile, a const one const, and returning a
// reference to a wrapped element still refers to that element.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <type_traits>

static float &pick(float *a, int i) { return a[i]; }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, volatile int *flag,
                        const float *in, float *out) {
  while (*flag == 0) {
  }
  // CHECK: while (WGTRACE_LOAD_AT({{[0-9]+}}, *flag) == 0) {
  *flag = 0;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, *flag) = 0;
  static_assert(std::is_same_v<decltype((in[0])), const float &>);
  // CHECK: static_assert(std::is_same_v<decltype((in[0])), const float &>);
  pick(out, 1) = in[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, pick(out, 1)) = WGTRACE_LOAD_AT({{[0-9]+}}, in[0]);
  float &r = (out[2] = 3);
  // CHECK: float &r = (WGTRACE_STORE_AT({{[0-9]+}}, out[2]) = 3);
  r += static_cast<float>(sizeof(out[0]));
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, r) += static_cast<float>(sizeof(out[0]));
  (void)wg;
}
