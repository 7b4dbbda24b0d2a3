// ++ and -- on memory read and write it: WGTRACE_UPDATE around the operand.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
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
  i++;
  // CHECK: i++;
  a[0] = x + i;
  (void)wg;
}
