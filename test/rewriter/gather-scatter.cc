// Gathers and scatters: the index loads inside a subscript are accesses of
// their own, wrapped inside the outer access.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *out,
                        const float *a, const int *idx, int n) {
  for (int i = 0; i < n; ++i)
    out[idx[i]] = a[idx[i]];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[WGTRACE_LOAD_AT({{[0-9]+}}, idx[i])]) = WGTRACE_LOAD_AT({{[0-9]+}}, a[WGTRACE_LOAD_AT({{[0-9]+}}, idx[i])]);
  out[idx[idx[0]]] += 1;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[WGTRACE_LOAD_AT({{[0-9]+}}, idx[WGTRACE_LOAD_AT({{[0-9]+}}, idx[0])])]) += 1;
  (void)wg;
}
