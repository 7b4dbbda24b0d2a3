// A reference parameter refers to memory: accesses through it are recorded.
// Binding a reference or taking an address records nothing.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

struct Stats {
  float sum;
  int count;
};

static void use(const float &) {}

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float &total,
                        Stats &s, const float *x) {
  total = x[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, total) = WGTRACE_LOAD_AT({{[0-9]+}}, x[0]);
  s.sum += total;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, s.sum) += WGTRACE_LOAD_AT({{[0-9]+}}, total);
  s.count++;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, s.count)++;
  const float &r = x[1];
  // CHECK: const float &r = x[1];
  const float *addr = &x[2];
  // CHECK: const float *addr = &x[2];
  use(x[3]);
  // CHECK: use(x[3]);
  total = r + *addr;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, total) = WGTRACE_LOAD_AT({{[0-9]+}}, r) + WGTRACE_LOAD_AT({{[0-9]+}}, *addr);
  (void)wg;
}
