// Lambdas defined in a kernel are instrumented with it, generic ones through
// their instantiations. Captures are not memory: a by-copy capture is a
// member of the closure, a by-reference capture of a local is the local.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, float *b,
                        float &r) {
  float sum = 0;
  auto l1 = [&](int j) {
    a[j] += sum;
    return b[j];
  };
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, a[j]) += sum;
  // CHECK: return WGTRACE_LOAD_AT({{[0-9]+}}, b[j]);
  auto l2 = [=](int j) { return r + a[j]; };
  // CHECK: auto l2 = [=](int j) { return r + WGTRACE_LOAD_AT({{[0-9]+}}, a[j]); };
  auto l3 = [&](auto j) { return a[j] * 2; };
  // CHECK: auto l3 = [&](auto j) { return WGTRACE_LOAD_AT({{[0-9]+}}, a[j]) * 2; };
  auto l4 = [x = a[0]]() { return x; };
  // CHECK: auto l4 = [x = WGTRACE_LOAD_AT({{[0-9]+}}, a[0])]() { return x; };
  auto l5 = [&r] { r = 1; };
  // CHECK: auto l5 = [&r] { WGTRACE_STORE_AT({{[0-9]+}}, r) = 1; };
  l5();
  // [&] captures a reference parameter, and a local reference bound to
  // memory, as what they refer to; [=] copies them into the closure.
  float &e = b[1];
  auto l6 = [&] { r += e; e = 0; };
  // CHECK: auto l6 = [&] { WGTRACE_UPDATE_AT({{[0-9]+}}, r) += WGTRACE_LOAD_AT({{[0-9]+}}, e); WGTRACE_STORE_AT({{[0-9]+}}, e) = 0; };
  auto l7 = [=] { return r + e; };
  // CHECK: auto l7 = [=] { return r + e; };
  l6();
  sum += l7();
  sum += l1(1) + l2(2) + l3(3) + l3(3L) + l4();
  a[wg.id[0]] = sum;
}
