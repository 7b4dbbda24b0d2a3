// A load and a store through one-dimensional subscripts, with the prologue
// inserted after the kernel's opening brace.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

#include <cstdint>

WGTRACE_DISPATCH void copy(const wgtrace::Workgroup &wg, const float *a,
                           float *c, uint32_t n) {
  // CHECK: float *c, uint32_t n) { WGTRACE_WORKGROUP(wg, 0);
  for (uint32_t i = 0; i < n; ++i)
    c[i] = a[i];
  // CHECK: WGTRACE_STORE(c[i]) = WGTRACE_LOAD(a[i]);
  float x = a[n - 1] + a[0];
  // CHECK: float x = WGTRACE_LOAD(a[n - 1]) + WGTRACE_LOAD(a[0]);
  c[0] = x;
  // CHECK: WGTRACE_STORE(c[0]) = x;
  c[1] = 1[a];
  // CHECK: WGTRACE_STORE(c[1]) = WGTRACE_LOAD(1[a]);
}
