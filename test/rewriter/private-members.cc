// A header member using private or protected members (LULESH's Domain
// getters and nodeElemCornerList) is copied as a free function: the copy
// names them through explicit instantiations, where access is not checked
// (rewriter/PrivateAccess.h): `(self.*wgtrace_member(Tag{}))`, a static
// member through its plain pointer, a private member function called
// through `this` by its member pointer (whose type picks the overload).
// So `d->numElem()` on kernel memory records its load. A class template's
// member is copied as a function template over the class's parameters,
// called with the object's arguments (`::Box_get_wgtrace_9<float>(*box)`):
// its private members through a tag template specialized for each
// specialization the file uses (`Box_v<Box<float>>`). What no pointer
// names (a bit-field, a member reached through a private base, a static
// constant) is reported at each call.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "private-members.h"

// Each member's tag once, at namespace scope, before the first copy.
// CHECK: namespace wgtrace_access { namespace {
// CHECK: struct Domain_m_numElem { using type = WgtraceMember<int, Domain>; friend type wgtrace_member(Domain_m_numElem); };
// CHECK-NEXT: template struct WgtraceAccess<Domain_m_numElem, &Domain::m_numElem>;
// CHECK: struct Domain_scaled { using type = WgtraceMember<double (int) const, Domain>; friend type wgtrace_member(Domain_scaled); };
// CHECK-NEXT: template struct WgtraceAccess<Domain_scaled, &Domain::scaled>;
// CHECK-NEXT: struct Domain_clampIndex { using type = WgtracePointer<int (int)>; friend type wgtrace_member(Domain_clampIndex); };
// CHECK-NEXT: template struct WgtraceAccess<Domain_clampIndex, &Domain::clampIndex>;
// CHECK-NEXT: struct Domain_pick { using type = WgtraceMember<double (int) const, Domain>; friend type wgtrace_member(Domain_pick); };
// CHECK-NEXT: template struct WgtraceAccess<Domain_pick, &Domain::pick>;
// CHECK-NEXT: struct Domain_pick_2 { using type = WgtraceMember<double (double) const, Domain>; friend type wgtrace_member(Domain_pick_2); };
// CHECK-NEXT: template struct WgtraceAccess<Domain_pick_2, &Domain::pick>;
// CHECK-NEXT: struct Domain_s_bias { using type = WgtracePointer<double>; friend type wgtrace_member(Domain_s_bias); };
// CHECK-NEXT: template struct WgtraceAccess<Domain_s_bias, &Domain::s_bias>;
// CHECK: struct Base_b { using type = WgtraceMember<double, Base>; friend type wgtrace_member(Base_b); };
// CHECK-NEXT: template struct WgtraceAccess<Base_b, &Base::b>;
// CHECK-NEXT: template <typename C> struct Box_v;
// CHECK-NEXT: template <> struct Box_v<Box<float>> { using type = WgtraceMember<float, Box<float>>; friend type wgtrace_member(Box_v<Box<float>>); };
// CHECK-NEXT: template struct WgtraceAccess<Box_v<Box<float>>, &Box<float>::v>;
// CHECK-NEXT: } }
// Copies calling a later one (scaled, pick) declare it first.
// CHECK: static inline Real_t Domain_pick_wgtrace_[[PICK:[0-9]+]](const ::Domain &self, Real_t t);
// CHECK: static inline Index_t Domain_numElem_wgtrace_{{[0-9]+}}(const ::Domain &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Domain_m_numElem{}))); }
// CHECK: return &(self.*wgtrace_member(::wgtrace_access::Domain_m_nodeElemCornerList{}))[WGTRACE_LOAD_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Domain_m_nodeElemStart{}))[idx])];
// CHECK: return ::Domain_scaled_wgtrace_{{[0-9]+}}(self, ::Domain_clampIndex_wgtrace_{{[0-9]+}}(idx)) + ::Domain_pick_wgtrace_[[PICK]](self, idx) + ::Domain_pick_wgtrace_[[PICK]](self, 0.5) + WGTRACE_LOAD_AT({{[0-9]+}}, (*wgtrace_member(::wgtrace_access::Domain_s_bias{})));
// CHECK: static inline void Domain_bump_wgtrace_{{[0-9]+}}(::Domain &self, Index_t idx) { WGTRACE_UPDATE_AT({{[0-9]+}}, ((&self)->*wgtrace_member(::wgtrace_access::Domain_m_x{}))[idx]) += WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Domain_m_scale{}))); }
// CHECK: static inline Real_t Domain_scaled_wgtrace_{{[0-9]+}}(const ::Domain &self, Index_t idx)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Domain_m_scale{}))) * WGTRACE_LOAD_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Domain_m_x{}))[idx]); }
// CHECK: WGTRACE_UPDATE_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Vec_v{}))[0]) += WGTRACE_LOAD_REF_AT({{[0-9]+}}, (o.*wgtrace_member(::wgtrace_access::Vec_v{}))[0]);
// CHECK: static inline Real_t Derived_twice_wgtrace_{{[0-9]+}}(const ::Derived &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Base_b{}))) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Base_b{}))); }
// CHECK: template <class T> static inline T Box_get_wgtrace_[[GET:[0-9]+]](const ::Box<T> &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Box_v<::Box<T>>{}))); }
// CHECK: template <class T> static inline T Box_twice_wgtrace_[[TWICE:[0-9]+]](const ::Box<T> &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Box_v<::Box<T>>{}))) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Box_v<::Box<T>>{}))); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Domain *d, Vec *v,
                        const Derived *der, const Flags *fl, const Closed *cl,
                        const Box<float> *box, const Fixed *fx,
                        double *out) {
  Index_t i = static_cast<Index_t>(wg.id[0]);
  // The reference accessor names memory: quiet, the kernel's use recorded.
  out[i] = d->x(i) + d->numElem() + *d->nodeElemCornerList(i) +
           d->weighted(i);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, d->x(i)) + ::Domain_numElem_wgtrace_{{[0-9]+}}(*d) + WGTRACE_LOAD_AT({{[0-9]+}}, *::Domain_nodeElemCornerList_wgtrace_{{[0-9]+}}(*d, i)) +
  // CHECK-NEXT: ::Domain_weighted_wgtrace_{{[0-9]+}}(*d, i);
  d->bump(i);
  // CHECK: ::Domain_bump_wgtrace_{{[0-9]+}}(*d, i);
  v[i] += v[i + 1];
  // CHECK: ::Vec_operatorPlusEqual_wgtrace_{{[0-9]+}}(v[i] , v[i + 1]);
  out[i] += v[i].x() + der->twice();
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += ::Vec_x_wgtrace_{{[0-9]+}}(v[i]) + ::Derived_twice_wgtrace_{{[0-9]+}}(*der);
  out[i] += fl->twice();
  // WARN: {{.*}}.cc:[[@LINE-1]]:13: warning: call of 'Flags::twice' is not traced: 'Flags::twice' is defined in {{.*}}private-members.h, which is not rewritten, and cannot be copied into this file (it is a member function and it uses the non-public bit-field 'f' (no pointer to member names a bit-field), which a free copy cannot)
  out[i] += cl->twice();
  // WARN: {{.*}}.cc:[[@LINE-1]]:13: warning: call of 'Closed::twice' is not traced: {{.*}}(it is a member function and it uses the non-public member 'pub' of 'Open' (not a public base of its object's class), which a free copy cannot)
  out[i] += box->twice() + box->get();
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += ::Box_twice_wgtrace_[[TWICE]]<float>(*box) + ::Box_get_wgtrace_[[GET]]<float>(*box);
  out[i] += fx->sum();
  // WARN: {{.*}}.cc:[[@LINE-1]]:13: warning: call of 'Fixed::sum' is not traced: {{.*}}(it is a member function and it uses the non-public static constant 'N' (a pointer gives neither its value as a constant nor, without its definition, an address), which a free copy cannot)
  // A private static member function (clampIndex, called by weighted) is
  // copied as a public one is, and weighted's copy calls its copy.
}
