// Chained assignment stores every target and reads the source once: the
// value of an assignment is not re-read from its target.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

struct P {
  float x, y;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, float *b,
                        P *p) {
  a[0] = b[0] = a[1];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[0]) = WGTRACE_STORE_AT({{[0-9]+}}, b[0]) = WGTRACE_LOAD_AT({{[0-9]+}}, a[1]);
  float t;
  t = a[2] = 5;
  // CHECK: t = WGTRACE_STORE_AT({{[0-9]+}}, a[2]) = 5;
  p->x = p->y = t;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, p->x) = WGTRACE_STORE_AT({{[0-9]+}}, p->y) = t;
  a[3] += b[3] = 1;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, a[3]) += WGTRACE_STORE_AT({{[0-9]+}}, b[3]) = 1;
  (void)wg;
}
