// ++ and -- on memory read and write it: WGTRACE_UPDATE around the operand.
// The result of a prefix ++ or -- is not read back (as an assignment's is
// not): `int y = --a[x]` is one update, no load, and nothing untraced.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags 2> %t.err | FileCheck --match-full-lines %s
// RUN: not grep warning: %t.err
#include <wgtrace/wgtrace.h>

struct Counter {
  int hits;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, int *a, Counter *c,
                        int i) {
  a[i]++;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, a[i])++;
  ++a[i];
  // CHECK: ++WGTRACE_UPDATE_AT({{[0-9]+}}, a[i]);
  --c->hits;
  // CHECK: --WGTRACE_UPDATE_AT({{[0-9]+}}, c->hits);
  int x = c->hits--;
  // CHECK: int x = WGTRACE_UPDATE_AT({{[0-9]+}}, c->hits)--;
  int y = --a[x];
  // CHECK: int y = --WGTRACE_UPDATE_AT({{[0-9]+}}, a[x]);
  a[++a[1]] = y;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[++WGTRACE_UPDATE_AT({{[0-9]+}}, a[1])]) = y;
  i++;
  // CHECK: i++;
  a[0] = x + i;
  (void)wg;
}
