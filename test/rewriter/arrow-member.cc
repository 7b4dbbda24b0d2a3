// Members reached through a pointer are memory.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

struct Particle {
  float x, y;
  double mass;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Particle *p) {
  p->x = p->y;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, p->x) = WGTRACE_LOAD_AT({{[0-9]+}}, p->y);
  p[wg.id[0]].mass = 2.0 * p->mass;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, p[wg.id[0]].mass) = 2.0 * WGTRACE_LOAD_AT({{[0-9]+}}, p->mass);
  (*p).y = 0;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, (*p).y) = 0;
}
