// Locals (scalars, arrays, structs) and by-value parameters are not memory:
// nothing of them is wrapped.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

struct Pair {
  int a, b;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, int n, Pair byval,
                        int *out) {
  int acc = 0;
  int tile[16];
  Pair p = byval;
  // CHECK: Pair p = byval;
  for (int i = 0; i < 16; ++i)
    tile[i] = i * n;
  // CHECK: tile[i] = i * n;
  for (int i = 0; i < 16; ++i)
    acc += tile[i] + p.a + byval.b;
  // CHECK: acc += tile[i] + p.a + byval.b;
  n = acc;
  // CHECK: n = acc;
  out[0] = n;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[0]) = n;
  (void)wg;
}
