// a[i][j] is one access, whether a is a pointer to arrays, a pointer to
// pointers (then a[i] is loaded first) or a global 2-D array.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

float grid[8][8];

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float (*m)[4],
                        double **rows, int i, int j) {
  m[i][j] = grid[j][i];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, m[i][j]) = WGTRACE_LOAD_AT({{[0-9]+}}, grid[j][i]);
  rows[i][j] += 1.0;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, rows[i])[j]) += 1.0;
  (void)wg;
}
