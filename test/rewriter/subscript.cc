// A load and a store through one-dimensional subscripts, with the prologue
// inserted after the kernel's opening brace.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

#include <cstdint>

WGTRACE_DISPATCH void copy(const wgtrace::Workgroup &wg, const float *a,
                           float *c, uint32_t n) {
  // CHECK: float *c, uint32_t n) { WGTRACE_WORKGROUP(wg, 0); WGTRACE_BUFFERS(a, c);
  for (uint32_t i = 0; i < n; ++i)
    c[i] = a[i];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, c[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, a[i]);
  float x = a[n - 1] + a[0];
  // CHECK: float x = WGTRACE_LOAD_AT({{[0-9]+}}, a[n - 1]) + WGTRACE_LOAD_AT({{[0-9]+}}, a[0]);
  c[0] = x;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, c[0]) = x;
  c[1] = 1[a];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, c[1]) = WGTRACE_LOAD_AT({{[0-9]+}}, 1[a]);
}
