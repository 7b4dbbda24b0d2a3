// Helpers defined in this file and called from a kernel (directly or through
// other helpers, also templates and member functions) are instrumented
// without a prologue: their accesses belong to the calling workgroup.
// WGTRACE_NO_INSTRUMENT opts a function out; an opted-out kernel keeps its
// prologue. Functions no kernel calls, accessors and getters stay as written.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <algorithm>

static float dot(const float *a, const float *b, int n);

template <class T> T twice(const T *p) { return p[0] * 2; }
// CHECK: template <class T> T twice(const T *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]) * 2; }

WGTRACE_NO_INSTRUMENT static void skipped(float *x) { x[0] = 1; }
// CHECK: WGTRACE_NO_INSTRUMENT static void skipped(float *x) { x[0] = 1; }

static void inner(float *x) { x[1] += 1; }
// CHECK: static void inner(float *x) { WGTRACE_UPDATE_REF_AT({{[0-9]+}}, x[1]) += 1; }
static void outer(float *x) {
  inner(x);
  x[2] = 0;
  // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, x[2]) = 0;
}

void unused(float *x) { x[3] = 0; }
// CHECK: void unused(float *x) { x[3] = 0; }

struct Tile {
  float *data;
  int n;
  float &at(int i) { return data[i]; }
  // CHECK: float &at(int i) { return data[i]; }
  int size() const { return n; }
  // CHECK: int size() const { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, n); }
  void scale(float f) {
    for (int i = 0; i < size(); ++i)
      data[i] *= f;
    // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, data)[i]) *= f;
  }
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, float *b,
                        double *d, Tile &t) {
  a[0] = dot(a, b, 4) + twice(a) + static_cast<float>(twice(d));
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[0]) = dot(a, b, 4) + twice(a) + static_cast<float>(twice(d));
  skipped(a);
  outer(b);
  t.at(1) = static_cast<float>(t.size());
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, t.at(1)) = static_cast<float>(t.size());
  t.scale(2);
  std::fill(a, a + 4, 0.0f);
  (void)wg;
}

WGTRACE_DISPATCH WGTRACE_NO_INSTRUMENT void quiet(const wgtrace::Workgroup &wg,
                                                  float *a) {
  // CHECK: float *a) { WGTRACE_WORKGROUP(wg, 1); WGTRACE_BUFFERS(a);
  a[0] = 1;
  // CHECK: {{^}}  a[0] = 1;
  (void)wg;
}

static float dot(const float *a, const float *b, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  // CHECK: s += WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[i]) * WGTRACE_LOAD_REF_AT({{[0-9]+}}, b[i]);
  return s;
}
