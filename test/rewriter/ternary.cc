// A conditional used as an lvalue: each branch is wrapped, so the branch
// that runs is the one recorded. A conditional that selects a pointer is an
// ordinary subscript base.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, float *b,
                        bool f, int i) {
  (f ? a[i] : b[i]) = 1.0f;
  // CHECK: (f ? WGTRACE_STORE_AT({{[0-9]+}}, a[i]) : WGTRACE_STORE_AT({{[0-9]+}}, b[i])) = 1.0f;
  (f ? a[i] : b[i]) += 2.0f;
  // CHECK: (f ? WGTRACE_UPDATE_AT({{[0-9]+}}, a[i]) : WGTRACE_UPDATE_AT({{[0-9]+}}, b[i])) += 2.0f;
  float x = f ? a[0] : b[0];
  // CHECK: float x = f ? WGTRACE_LOAD_AT({{[0-9]+}}, a[0]) : WGTRACE_LOAD_AT({{[0-9]+}}, b[0]);
  (f ? a : b)[i] = x;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, (f ? a : b)[i]) = x;
  float local = 0;
  (f ? local : a[1]) = 3;
  // CHECK: (f ? local : WGTRACE_STORE_AT({{[0-9]+}}, a[1])) = 3;
  (void)wg;
}
