// A lambda given to wgtrace::dispatch is a kernel: inline or through a
// named variable, generic (through its instantiations) or written in a
// function template (one kernel for every instantiation). Its export is
// "lambda at FILE:LINE" (kind 2, its source from `[` to `}`), the layout
// names its captures. What it captures by reference is memory (outside the
// kernel, shared by its workgroups), except a pointer, which is a handle
// like a pointer parameter; what it captures by copy is a local.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

// CHECK:    {"lambda at {{.*}}.cc:31", "{{[^"]*}}", "(const wgtrace::Workgroup &wg, float *c) captures: [&]", "[&](const wgtrace::Workgroup &wg, float *c) {\n        unsigned i = wg.id[0];\n{{.*}}      }", "{{.*}}.cc", 31, 7, 2, wgtrace_params_ + 0, 1},
// CHECK-NEXT:    {"lambda at {{.*}}.cc:44", "{{[^"]*}}", "(const wgtrace::Workgroup &wg, float *c) captures: [=]", "{{.*}}", "{{.*}}.cc", 44, 12, 2, wgtrace_params_ + 1, 1},
// CHECK-NEXT:    {"lambda at {{.*}}.cc:50", "{{[^"]*}}", "(const auto &wg, auto *c)", "[](const auto &wg, auto *c) { c[wg.id[0]] += 1; }", "{{.*}}.cc", 50, 12, 2, wgtrace_params_ + 2, 1},
// CHECK-NEXT:    {"lambda at {{.*}}.cc:56:21", {{.*}}
// CHECK-NEXT:    {"lambda at {{.*}}.cc:56:123", {{.*}}
// CHECK-NEXT:    {"lambda at {{.*}}.cc:63", "{{[^"]*}}", "(const wgtrace::Workgroup &wg) captures: [p]", {{.*}}
// CHECK:    {"lambda at {{.*}}.cc:31", "{{.*}}.cc:30"},
// CHECK-NEXT:    {"lambda at {{.*}}.cc:44", "{{.*}}.cc:47"},
// CHECK-NEXT:    {"lambda at {{.*}}.cc:44", "{{.*}}.cc:48"},

float gScale = 2;

void run(float *a, float *b, int n) {
  float acc[4] = {0, 0, 0, 0};
  float total = 0;
  int m = n;
  wgtrace::dispatch(
      [&](const wgtrace::Workgroup &wg, float *c) {
        unsigned i = wg.id[0];
        c[i] = a[i] * gScale + m;
        acc[i % 4] += b[i];
        total += a[i];
      },
      wgtrace::Grid{4, 1, 1}, b);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(0),
  // CHECK-NEXT: [&](const wgtrace::Workgroup &wg, float *c) { WGTRACE_WORKGROUP(wg, 0); WGTRACE_BUFFERS(c);
  // CHECK-NEXT: unsigned i = wg.id[0];
  // CHECK-NEXT: WGTRACE_STORE_AT({{[0-9]+}}, c[i]) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[i]) * WGTRACE_LOAD_AT({{[0-9]+}}, gScale) + WGTRACE_LOAD_AT({{[0-9]+}}, m);
  // CHECK-NEXT: WGTRACE_UPDATE_AT({{[0-9]+}}, acc[i % 4]) += WGTRACE_LOAD_REF_AT({{[0-9]+}}, b[i]);
  // CHECK-NEXT: WGTRACE_UPDATE_AT({{[0-9]+}}, total) += WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[i]);
  auto k = [=](const wgtrace::Workgroup &wg, float *c) {
    c[wg.id[0]] = a[wg.id[0]] + n + acc[0] + total;
  };
  wgtrace::dispatch(k, wgtrace::Grid{4, 1, 1}, b);
  wgtrace::dispatch(k, wgtrace::Grid{2, 1, 1}, b);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, c[wg.id[0]]) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[wg.id[0]]) + n + acc[0] + total;
  auto g = [](const auto &wg, auto *c) { c[wg.id[0]] += 1; };
  // CHECK: auto g = [](const auto &wg, auto *c) { WGTRACE_WORKGROUP(wg, 2); WGTRACE_BUFFERS(c); WGTRACE_UPDATE_AT({{[0-9]+}}, c[wg.id[0]]) += 1; };
  double d[4] = {0, 0, 0, 0};
  wgtrace::dispatch(g, wgtrace::Grid{2, 1, 1}, a);
  wgtrace::dispatch(g, wgtrace::Grid{2, 1, 1}, d);
  // Two on one line: the column tells them apart.
  wgtrace::dispatch([](const wgtrace::Workgroup &, float *c) { c[0] = 1; }, wgtrace::Grid{1, 1, 1}, a); wgtrace::dispatch([&r = total](const wgtrace::Workgroup &wg) { r += wg.id[0]; }, wgtrace::Grid{1, 1, 1});
  // An unnamed Workgroup parameter gets a name for the prologue; a
  // reference init-capture refers outside the kernel.
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(5), [](const wgtrace::Workgroup & wgtrace_workgroup_, float *c) { WGTRACE_WORKGROUP(wgtrace_workgroup_, 3); WGTRACE_BUFFERS(c); WGTRACE_STORE_AT({{[0-9]+}}, c[0]) = 1; }, wgtrace::Grid{1, 1, 1}, a); wgtrace::dispatch(WGTRACE_SITE(6), [&r = total](const wgtrace::Workgroup &wg) { WGTRACE_WORKGROUP(wg, 4); WGTRACE_UPDATE_AT({{[0-9]+}}, r) += wg.id[0]; }, wgtrace::Grid{1, 1, 1});
}

template <class T> void twice(T *p) {
  wgtrace::dispatch([p](const wgtrace::Workgroup &wg) { p[wg.id[0]] *= 2; }, wgtrace::Grid{2, 1, 1});
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(7), [p](const wgtrace::Workgroup &wg) { WGTRACE_WORKGROUP(wg, 5); WGTRACE_UPDATE_REF_AT({{[0-9]+}}, p[wg.id[0]]) *= 2; }, wgtrace::Grid{2, 1, 1});
}
void both(float *f, int *i) {
  twice(f);
  twice(i);
}

// A lambda dispatched from inside a kernel belongs to that kernel.
WGTRACE_DISPATCH void outer(const wgtrace::Workgroup &wg, float *a) {
  wgtrace::dispatch([a](const wgtrace::Workgroup &w2) { a[w2.id[0]] = 0; }, wgtrace::Grid{1, 1, 1});
  a[wg.id[0]] = 1;
}
// CHECK: wgtrace::dispatch(WGTRACE_SITE(8), [a](const wgtrace::Workgroup &w2) { WGTRACE_STORE_AT({{[0-9]+}}, a[w2.id[0]]) = 0; }, wgtrace::Grid{1, 1, 1});
