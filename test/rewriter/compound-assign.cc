// Compound assignment reads and writes its target: WGTRACE_UPDATE. A file
// without atomic operations records with non-temporal stores (atomics.cc).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines --implicit-check-not='#define WGTRACE_TEMP{{O}}RAL_RECORDS' %s
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *acc,
                        const float *x, unsigned *bits, int i) {
  acc[i] += x[i];
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, acc[i]) += WGTRACE_LOAD_AT({{[0-9]+}}, x[i]);
  acc[i] *= 2.0f;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, acc[i]) *= 2.0f;
  *bits |= 1u << i;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, *bits) |= 1u << i;
  float sum = 0;
  sum += x[0];
  // CHECK: sum += WGTRACE_LOAD_AT({{[0-9]+}}, x[0]);
  acc[0] = sum;
  (void)wg;
}
