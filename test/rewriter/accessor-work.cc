// Accessors, operators and constructors are a class's bookkeeping, not
// helpers, while their body only computes what they return (an element's
// address, a field's value) from the object's own fields and their
// parameters: `T &operator()(i, j) { return data_[i * stride_ + j]; }`
// records nothing of its own, the kernel's use of the element is the
// access. One that reads or writes memory beyond the object (an element
// load inside the address, as LULESH's nodeElemCornerList, a functor's
// loop over an array, a constructor filling the array it is given, a
// by-value read of an element) is a helper: instrumented in place here
// (the returned lvalue itself still not loaded), copied from a header
// (private fields too; a class template's member as a function template),
// or reported at each call when it cannot be (a functor's operator()), an
// error under --strict; never lost in silence.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags -I %S/Inputs 2>&1 | FileCheck --check-prefix=STRICT %s
#include <wgtrace/wgtrace.h>

#include "accessor-work.h"

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 98, 10, "header", "call of 'lib::Sum::operator()'", {{.*}}(it is a member operator(), operator[] or operator->)"},
// CHECK-NEXT:     {"{{.*}}.cc", 100, 13, "header", "call of 'lib::Fill::Fill'", {{.*}}(it is a member function)"},
// CHECK-NEXT: };

struct Mesh {
  int *start;
  float *list;
  float *corner(int i) { return &list[start[i]]; }
  // CHECK: float *corner(int i) { return &WGTRACE_LOAD_REF_AT({{[0-9]+}}, list)[WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, start)[i])]; }
  float &at(int i) { return list[start[i]]; }
  // CHECK: float &at(int i) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, list)[WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, start)[i])]; }
  float &plain(int i) { return list[i]; }
  // CHECK: float &plain(int i) { return list[i]; }
  int count() const { return start[0]; }
  // CHECK: int count() const { return WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, start)[0]); }
};

struct Dot {
  const float *w;
  float operator()(const float *a, int n) const {
    float s = 0;
    while (n-- > 0)
      s += w[n] * a[n];
    // CHECK: s += WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, w)[n]) * WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[n]);
    return s;
  }
};

struct Clear {
  float last;
  Clear(float *p, int n, const float *src) : last(src[n - 1]) {
    // CHECK: Clear(float *p, int n, const float *src) : last(WGTRACE_LOAD_REF_AT({{[0-9]+}}, src[n - 1])) {
    for (float *q = p; q != p + n; ++q)
      *q = last;
    // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, *q) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, last);
  }
};

WGTRACE_DISPATCH void here(const wgtrace::Workgroup &wg, Mesh *m, float *a) {
  int i = static_cast<int>(wg.id[0]);
  Dot dot{a + 8};
  a[0] = *m->corner(i) + m->at(i) + m->plain(i) + dot(a, 3) + m->count();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[0]) = WGTRACE_LOAD_AT({{[0-9]+}}, *m->corner(i)) + WGTRACE_LOAD_AT({{[0-9]+}}, m->at(i)) + WGTRACE_LOAD_AT({{[0-9]+}}, m->plain(i)) + dot(a, 3) + m->count();
  Clear c(a + 4, 2, a);
  (void)c;
}

// Domain's members reading its private fields are copied, the fields
// named through explicit instantiations (rewriter/PrivateAccess.h).
// CHECK: namespace wgtrace_access { namespace {
// CHECK: struct lib_Domain_m_nodeElemCornerList { using type = WgtraceMember<std::vector<int, std::allocator<int>>, lib::Domain>; friend type wgtrace_member(lib_Domain_m_nodeElemCornerList); };
// CHECK-NEXT: template struct WgtraceAccess<lib_Domain_m_nodeElemCornerList, &lib::Domain::m_nodeElemCornerList>;
// CHECK: static inline int *Domain_nodeElemCornerList_wgtrace_[[CORNER:[0-9]+]](::lib::Domain &self, int idx) {
// CHECK-NEXT: return &(self.*wgtrace_member(::wgtrace_access::lib_Domain_m_nodeElemCornerList{}))[WGTRACE_LOAD_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Domain_m_nodeElemStart{}))[idx])];
// CHECK: static inline int Domain_numNode_wgtrace_{{[0-9]+}}(const ::lib::Domain &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Domain_m_numNode{}))); }
// CHECK: static inline double Domain_first_wgtrace_{{[0-9]+}}(const ::lib::Domain &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Domain_m_first{}))[0]); }
WGTRACE_DISPATCH void header(const wgtrace::Workgroup &wg, lib::Domain *d,
                             lib::View<float> v, float *a, lib::Vec2 *p) {
  int i = static_cast<int>(wg.id[0]);
  // The accessors that only name memory stay quiet; first() and
  // numNode(), returning a private field's value, are copied (below).
  d->x(i) = d->at(i) + d->first() + d->nodelist(i)[0] + d->numNode();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, d->x(i)) = WGTRACE_LOAD_AT({{[0-9]+}}, d->at(i)) + ::lib::Domain_first_wgtrace_[[FIRST:[0-9]+]](*d) + WGTRACE_LOAD_AT({{[0-9]+}}, d->nodelist(i)[0]) + ::lib::Domain_numNode_wgtrace_[[NUM:[0-9]+]](*d);
  a[0] = v(i, 1) + v.data()[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[0]) = WGTRACE_LOAD_AT({{[0-9]+}}, v(i, 1)) + WGTRACE_LOAD_AT({{[0-9]+}}, v.data()[0]);
  a[1] = static_cast<float>(d->nodeElemCornerList(i)[0]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[1]) = static_cast<float>(WGTRACE_LOAD_AT({{[0-9]+}}, ::lib::Domain_nodeElemCornerList_wgtrace_[[CORNER]](*d, i)[0]));
  // A class template's by-value read of an element: copied as a function
  // template, called with View's arguments.
  a[2] = v.get(i);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[2]) = ::lib::View_get_wgtrace_{{[0-9]+}}<float>(v, i);
  // STRICT: {{.*}}.cc:[[@LINE+2]]:10: error: call of 'lib::Sum::operator()' is not traced: {{.*}}(it is a member operator(), operator[] or operator->)
  lib::Sum sum{3};
  a[3] = sum(a);
  // WARN: {{.*}}.cc:[[@LINE-1]]:10: warning: call of 'lib::Sum::operator()' is not traced: {{.*}}(it is a member operator(), operator[] or operator->)
  lib::Fill f(a + 4, 2);
  // WARN: {{.*}}.cc:[[@LINE-1]]:13: warning: call of 'lib::Fill::Fill' is not traced: {{.*}}(it is a member function)
  // Vec2's members reach only its public fields: copied as free
  // functions taking the object first, the calls redirected.
  lib::Vec2 s = p[0].scaled(2) + p[1];
  // CHECK: lib::Vec2 s = ::lib::Vec2_operatorPlus_wgtrace_{{[0-9]+}}(::lib::Vec2_scaled_wgtrace_{{[0-9]+}}(p[0], 2) , p[1]);
  a[6] = s.x;
  s = p[0].scaled(3);
  // CHECK: ::lib::Vec2_operatorEqual_wgtrace_{{[0-9]+}}(s , ::lib::Vec2_scaled_wgtrace_{{[0-9]+}}(p[0], 3));
  s = p[1];
  // CHECK: ::lib::Vec2_operatorEqual_wgtrace_{{[0-9]+}}(s , p[1]);
  a[7] = s.y;
}
