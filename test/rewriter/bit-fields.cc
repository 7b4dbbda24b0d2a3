// A bit-field has no address: the bytes of the containing object that hold
// its bits are recorded (offset and length in the template arguments), through
// the address of the object, which is passed on unchanged. Reads record a
// load, assignments a store, compound assignment and ++ both.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

struct Flags {
  unsigned a : 3;
  unsigned b : 7;
  int pad;
  unsigned c : 12;
};
struct Node {
  Flags f;
  Node *next;
  Flags *flags;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Flags *p, Flags &r,
                        Node *n) {
  Flags local{};
  p->a = 1;
  // CHECK: ::wgtrace::detail::bitfieldAccess<0, 1, true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}), p)->a = 1;
  r.b += p[1].c;
  // CHECK: (*::wgtrace::detail::bitfieldAccess<0, 2, true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), __builtin_addressof(r))).b += (*::wgtrace::detail::bitfieldAccess<8, 2, false, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), __builtin_addressof(p[1]))).c;
  n->next->f.c++;
  // CHECK: (*::wgtrace::detail::bitfieldAccess<8, 2, true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), __builtin_addressof(WGTRACE_LOAD_AT({{[0-9]+}}, n->next)->f))).c++;
  n->flags->a = 2;
  // CHECK: ::wgtrace::detail::bitfieldAccess<0, 1, true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}), WGTRACE_LOAD_AT({{[0-9]+}}, n->flags))->a = 2;
  unsigned x = n->f.b;
  local.a = x;
  // CHECK: local.a = x;
  p->b = local.a;
  // CHECK: ::wgtrace::detail::bitfieldAccess<0, 2, true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}), p)->b = local.a;
  (void)wg;
}
