// A read of a variable the compiler emits as a constant is not an access:
// Clang folds any const, non-volatile variable whose initializer it can
// evaluate (`static const double DT = 1.0`, which the language does not
// count as a constant expression) and loads nothing. A const variable it
// cannot evaluate (defined elsewhere), a volatile one, and the elements of
// a const array are loads. A function handed to library code (std::endl)
// is code, not kernel memory: no warning.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %count 0 < %t.err
#include <wgtrace/wgtrace.h>

#include <iostream>

static const double DT = 1.0;
static const int Steps = 4;
const volatile double Tick = 2.0;
const float Weights[2] = {1, 2};
extern const double Elsewhere;

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, double *a) {
  a[0] += DT * Steps + Tick + Weights[1] + Elsewhere;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, a[0]) += DT * Steps + WGTRACE_LOAD_AT({{[0-9]+}}, Tick) + WGTRACE_LOAD_AT({{[0-9]+}}, Weights[1]) + WGTRACE_LOAD_AT({{[0-9]+}}, Elsewhere);
  std::cout << a[1] << std::endl;
  // CHECK: std::cout << WGTRACE_LOAD_AT({{[0-9]+}}, a[1]) << std::endl;
  (void)wg;
}
