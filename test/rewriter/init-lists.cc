// The elements of a braced list are read where the list is built: `float
// t[2] = {a[0], a[1]}`, an aggregate, std::initializer_list (also handed
// to std::max), `new T[n]{...}`, a `return {...}`. Each initializer read
// from memory is wrapped (they were silently untraced: the reads are in
// the list's semantic form, which the AST visitor does not walk by
// default); locals stay unwrapped and nothing is wrapped twice.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -std=c++20 -Wall -Wextra -Werror -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <algorithm>
#include <initializer_list>
#include <vector>

struct Pt {
  float x, y;
};
struct Box {
  Pt lo, hi;
  int tag;
};

static Pt pair(const float *a) { return {a[0], a[1]}; }
// CHECK: static Pt pair(const float *a) { return {WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[0]), WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[1])}; }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, Pt *p,
                        Box *bx, int *t) {
  unsigned i = wg.id[0];
  float tile[2] = {a[i], a[i + 1]};
  // CHECK: float tile[2] = {WGTRACE_LOAD_AT({{[0-9]+}}, a[i]), WGTRACE_LOAD_AT({{[0-9]+}}, a[i + 1])};
  Pt ps[2] = {p[0], p[1]};
  // CHECK: Pt ps[2] = {WGTRACE_LOAD_AT({{[0-9]+}}, p[0]), WGTRACE_LOAD_AT({{[0-9]+}}, p[1])};
  Box b{{p[0].x, tile[0]}, p[1], t[0]};
  // CHECK: Box b{{[{][{]}}WGTRACE_LOAD_AT({{[0-9]+}}, p[0].x), tile[0]}, WGTRACE_LOAD_AT({{[0-9]+}}, p[1]), WGTRACE_LOAD_AT({{[0-9]+}}, t[0])};
  Pt d{.x = a[2], .y = 1};
  // CHECK: Pt d{.x = WGTRACE_LOAD_AT({{[0-9]+}}, a[2]), .y = 1};
  float m = std::max({a[3], a[4], tile[1]});
  // CHECK: float m = std::max({WGTRACE_LOAD_AT({{[0-9]+}}, a[3]), WGTRACE_LOAD_AT({{[0-9]+}}, a[4]), tile[1]});
  std::vector<float> v{a[5], a[6]};
  // CHECK: std::vector<float> v{WGTRACE_LOAD_AT({{[0-9]+}}, a[5]), WGTRACE_LOAD_AT({{[0-9]+}}, a[6])};
  float *h = new float[2]{a[7], a[8]};
  // CHECK: float *h = new float[2]{WGTRACE_LOAD_AT({{[0-9]+}}, a[7]), WGTRACE_LOAD_AT({{[0-9]+}}, a[8])};
  bx[i] = {ps[0], ps[1], t[1]};
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, bx[i]) = {ps[0], ps[1], WGTRACE_LOAD_AT({{[0-9]+}}, t[1])};
  Pt q = pair(a + 9);
  a[11] = tile[1] + b.lo.x + d.x + m + v[0] + h[1] + q.y;
  delete[] h;
}
