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
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, s->arr[i].x) = WGTRACE_LOAD_AT({{[0-9]+}}, r.arr[i].y);
  s->next->next->arr[0].z = 1;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, s->next)->next)->arr[0].z) = 1;
  Node local{};
  local.arr[i].x = 3;
  // CHECK: local.arr[i].x = 3;
  float f = local.arr[i].y;
  // CHECK: float f = local.arr[i].y;
  r.arr[1].z = f;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, r.arr[1].z) = f;
  (void)wg;
}
