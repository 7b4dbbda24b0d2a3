// Bit-fields reached through the implicit `this` of a member function (a
// helper the kernel calls, or a lambda in it that captures this): the
// member's own text becomes an explicit access through `this`, keeping a
// qualifier. A field of a base class is recorded at the base's offset in
// the object, through `this` or through a pointer to the derived class.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc %}
#include <wgtrace/wgtrace.h>

struct Pad {
  double d;
};
struct Flags {
  unsigned a : 3;
  unsigned b : 7;
  void set(unsigned v) {
    a = v;
    // CHECK: ::wgtrace::detail::bitfieldAccess<0, 1, true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}), this)->a = v;
    Flags::b += 1;
    // CHECK: ::wgtrace::detail::bitfieldAccess<0, 2, true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), this)->Flags::b += 1;
    auto bump = [this] { ++a; };
    // CHECK: auto bump = [this] { ++::wgtrace::detail::bitfieldAccess<0, 1, true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), this)->a; };
    bump();
  }
};
struct Derived : Pad, Flags {
  unsigned total() { return a + b; }
  // CHECK: unsigned total() { return ::wgtrace::detail::bitfieldAccess<8, 1, false, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), this)->a + ::wgtrace::detail::bitfieldAccess<8, 2, false, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), this)->b; }
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Flags *p, Derived *d,
                        unsigned *out) {
  p->set(3);
  out[0] = d->total() + d->b;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[0]) = d->total() + ::wgtrace::detail::bitfieldAccess<8, 2, false, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), d)->b;
  (void)wg;
}
