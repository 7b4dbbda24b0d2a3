// Member chains through pointers, references and arrays are one access; a
// pointer read on the way (p->next) is an access of its own.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

struct Vec3 {
  float x, y, z;
};
struct Node {
  Vec3 arr[4];
  Node *next;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Node *s, Node &r,
                        int i) {
  s->arr[i].x = r.arr[i].y;
  // CHECK: WGTRACE_STORE(s->arr[i].x) = WGTRACE_LOAD(r.arr[i].y);
  s->next->next->arr[0].z = 1;
  // CHECK: WGTRACE_STORE(WGTRACE_LOAD(WGTRACE_LOAD(s->next)->next)->arr[0].z) = 1;
  Node local{};
  local.arr[i].x = 3;
  // CHECK: local.arr[i].x = 3;
  float f = local.arr[i].y;
  // CHECK: float f = local.arr[i].y;
  r.arr[1].z = f;
  // CHECK: WGTRACE_STORE(r.arr[1].z) = f;
  (void)wg;
}
