// memcpy, memmove and memset, however spelled, call a recording copy of the
// function: one load of the source range and one store of the destination
// range (the runtime splits ranges longer than 65535 bytes). A range in a
// local array is not recorded; a call on locals only stays as it is.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -mavx2 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -mavx2 -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <cstring>
#include <string.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a,
                        const float *b, int n) {
  float tmp[8];
  std::memcpy(a, b, n * sizeof(float));
  // CHECK: ::wgtrace::detail::tracedMemcpy<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a, b, n * sizeof(float));
  memcpy(tmp, b, sizeof(tmp));
  // CHECK: ::wgtrace::detail::tracedMemcpy<false, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(tmp, b, sizeof(tmp));
  memcpy(a + 8, tmp, sizeof(tmp));
  // CHECK: ::wgtrace::detail::tracedMemcpy<true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a + 8, tmp, sizeof(tmp));
  memcpy(tmp, tmp + 4, 16);
  // CHECK: memcpy(tmp, tmp + 4, 16);
  std::memmove(a + 1, a, 100000);
  // CHECK: ::wgtrace::detail::tracedMemmove<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a + 1, a, 100000);
  ::memset(a, 0, 64);
  // CHECK: ::wgtrace::detail::tracedMemset(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a, 0, 64);
  __builtin_memcpy(a, b, 4);
  // CHECK: ::wgtrace::detail::tracedMemcpy<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a, b, 4);
  (void)wg;
}
