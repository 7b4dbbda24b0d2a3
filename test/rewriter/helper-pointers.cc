// What a helper reaches through a pointer that comes from its parameters
// may be the kernel's own stack however the pointer moved or was copied:
// `*begin++` of a pointer parameter, a local pointer given a parameter's
// value, either side of `?:`, `data()` of a std::array handed over by
// reference, a pointer whose address escapes. Those accesses use the _REF_
// macros, which record only outside the kernel's stack (miniFE's
// `fill(begin, end, val)` zeroing a loop body's local recorded a store per
// element, and `races` reported the locals of successive iterations as
// racing). A pointer the kernel derives from its own parameters is memory.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <array>
#include <utility>

template <class T> void fill(T *begin, T *end, const T &val) {
  while (begin != end) {
    *begin++ = val;
    // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, *begin++) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, val);
  }
}

static void scale(float *x, int n) {
  float *p = x;
  for (int i = 0; i < n; ++i)
    p[i] *= 2;
  // CHECK: WGTRACE_UPDATE_REF_AT({{[0-9]+}}, p[i]) *= 2;
  float *q;
  q = p + 1;
  ++q;
  *q = 0;
  // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, *q) = 0;
}

static void pick(float *x, float *y, bool first) {
  float *t = first ? x : y;
  t[0] = 1;
  // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, t[0]) = 1;
}

static void first(std::array<float, 4> &a) {
  float *d = a.data();
  d[0] = 3;
  // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, d[0]) = 3;
}

static float *g_spare;

static void swapped(float *x) {
  float *s = g_spare;
  std::swap(s, x);
  s[1] = 4;
  // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, s[1]) = 4;
}

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *out, int n) {
  float local[8];
  fill(local, local + 8, 1.0f);
  fill(out, out + n, 0.0f);
  scale(local, 4);
  pick(local, out, wg.id[0] == 0);
  std::array<float, 4> acc{};
  first(acc);
  swapped(out);
  float *p = out + 2;
  *p++ = local[0] + acc[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, *p++) = local[0] + acc[0];
  float *r = wg.id[0] ? out : out + 1;
  r[0] = 5;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, r[0]) = 5;
}
