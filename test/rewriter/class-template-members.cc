// A member of a class template in a project header is copied as a
// function template over the class's parameters, taking the object
// (`template <class T, int N> static inline T Vec_x_wgtrace_0(const
// ::geo::Vec<T, N> &self)`); its call is redirected with the object's
// template arguments, every name from the global scope
// (`::geo::Vec_x_wgtrace_0<double>(p[i])`), a call through `this` in
// another copy with the class's parameters (`Vec_dot_wgtrace_2<T, N>(self,
// ...)`), and the class's own name without arguments becomes the
// template-id (`Vec<T, N>`). Private members are named through a tag
// template, specialized for each specialization the file uses. So the
// one-field getter `get()` of `Acc<T>` records its load, as a class's
// getter does. In a template kernel, a member call is redirected when
// every instantiation calls the same copy, which deduces the class's
// arguments (`::Acc_get_wgtrace_5(a[i])`), also from its other arguments
// when each has its parameter's type. A member template, a partial
// specialization's member, a protected member of a dependent base, a
// private member of another specialization, a template's call of a copy
// with an argument that converts to its parameter's type, and a
// template's call whose instantiations call different functions are
// reported at each call.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "class-templates.h"

// CHECK: template <typename C> struct Acc_v;
// CHECK-NEXT: template <> struct Acc_v<Acc<float>> { using type = WgtraceMember<float, Acc<float>>; friend type wgtrace_member(Acc_v<Acc<float>>); };
// CHECK-NEXT: template struct WgtraceAccess<Acc_v<Acc<float>>, &Acc<float>::v>;
// CHECK: template <> struct Acc_v<Acc<double>> { using type = WgtraceMember<double, Acc<double>>; friend type wgtrace_member(Acc_v<Acc<double>>); };
// CHECK: template <typename C> struct Acc_half;
// CHECK: template <> struct Acc_s_scale<Acc<float>> { using type = WgtracePointer<float>; friend type wgtrace_member(Acc_s_scale<Acc<float>>); };
// CHECK-NEXT: template struct WgtraceAccess<Acc_s_scale<Acc<float>>, &Acc<float>::s_scale>;
// CHECK: template <class T, int N> static inline T Vec_dot_wgtrace_[[DOT:[0-9]+]](const ::geo::Vec<T, N> &self, const Vec<T, N> &o);
// CHECK: template <class T, int N> static inline T Vec_x_wgtrace_[[X:[0-9]+]](const ::geo::Vec<T, N> &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.e[0]); }
// CHECK: template <class T, int N> static inline T Vec_norm2_wgtrace_[[NORM:[0-9]+]](const ::geo::Vec<T, N> &self)  { return ::geo::Vec_dot_wgtrace_[[DOT]]<T, N>(self, *(&self)); }
// CHECK: template <class T, int N> static inline T Vec_dot_wgtrace_[[DOT]](const ::geo::Vec<T, N> &self, const Vec<T, N> &o)  {
// CHECK: s += WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.e[i]) * WGTRACE_LOAD_REF_AT({{[0-9]+}}, o.e[i]);
// CHECK: template <class T, int N> static inline Vec<T, N> &Vec_operatorPlusEqual_wgtrace_[[PLUS:[0-9]+]](::geo::Vec<T, N> &self, const Vec<T, N> &o) {
// CHECK: WGTRACE_UPDATE_REF_AT({{[0-9]+}}, self.e[i]) += WGTRACE_LOAD_REF_AT({{[0-9]+}}, o.e[i]);
// CHECK: template <class T, int N> static inline Vec<T, N> Vec_scaled_wgtrace_[[SCALED:[0-9]+]](const ::geo::Vec<T, N> &self, T t)  {
// CHECK-NEXT: Vec<T, N> r;
// CHECK: template <class T> static inline T Acc_get_wgtrace_[[GET:[0-9]+]](const ::Acc<T> &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Acc_v<::Acc<T>>{}))); }
// CHECK: template <class T> static inline T Acc_sum_wgtrace_[[SUM:[0-9]+]](const ::Acc<T> &self, const Acc<T> &o)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Acc_v<::Acc<T>>{}))) + (WGTRACE_LOAD_REF_AT({{[0-9]+}}, o.*wgtrace_member(::wgtrace_access::Acc_v<::Acc<T>>{}))) + ::Acc_half_wgtrace_{{[0-9]+}}<T>(self); }
// CHECK: template <class T> static inline T Acc_scaledBy_wgtrace_[[BY:[0-9]+]](const ::Acc<T> &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::Acc_v<::Acc<T>>{}))) * WGTRACE_LOAD_AT({{[0-9]+}}, (*wgtrace_member(::wgtrace_access::Acc_s_scale<::Acc<T>>{}))); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, geo::Vec<double> *p,
                        const Acc<float> *a, const Acc<double> *d,
                        const PDerived<int> *pd, const Ptr<float *> *q,
                        double *out) {
  int i = static_cast<int>(wg.id[0]);
  out[i] = p[i].x() + p[i].norm2() + a[i].get() + d[i].get();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = ::geo::Vec_x_wgtrace_[[X]]<double>(p[i]) + ::geo::Vec_norm2_wgtrace_[[NORM]]<double>(p[i]) + ::Acc_get_wgtrace_[[GET]]<float>(a[i]) + ::Acc_get_wgtrace_[[GET]]<double>(d[i]);
  p[i] += p[i + 1];
  // CHECK: ::geo::Vec_operatorPlusEqual_wgtrace_[[PLUS]]<double>(p[i] , p[i + 1]);
  geo::Vec<double> s = p[i].scaled(2.0);
  // CHECK: geo::Vec<double> s = ::geo::Vec_scaled_wgtrace_[[SCALED]]<double>(p[i], 2.0);
  out[i] += s.x() + a[i].sum(a[0]) + a[i].scaledBy() + d[i].sum(d[0]);
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += ::geo::Vec_x_wgtrace_[[X]]<double>(s) + ::Acc_sum_wgtrace_[[SUM]]<float>(a[i], a[0]) + ::Acc_scaledBy_wgtrace_[[BY]]<float>(a[i]) + ::Acc_sum_wgtrace_[[SUM]]<double>(d[i], d[0]);
  out[i] += a[i].as<double>() + a[i].mixed(d[0]) + pd[i].get() + q[i].get();
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:13: warning: call of 'Acc::as' is not traced: 'Acc::as' is defined in {{.*}}class-templates.h, which is not rewritten, and cannot be copied into this file (it is a member function template)
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:33: warning: call of 'Acc::mixed' is not traced: {{.*}}(it is a member function and it uses the non-public member 'v' of a class template on an object of another class, which a free copy cannot)
  // WARN-DAG: {{.*}}.cc:[[@LINE-3]]:52: warning: call of 'PDerived::get' is not traced: {{.*}}(it is a member function of a class template and it uses the non-public member 'b' of another class through a name that depends on the template's parameters, which a free copy cannot)
  // WARN-DAG: {{.*}}.cc:[[@LINE-4]]:66: warning: call of 'Ptr<type-parameter-0-0 *>::get' is not traced: {{.*}}(it is a member function of a class template's partial specialization or of a class nested in a template)
}

// A member call in a template: one text calls the copy for every
// instantiation, the class's arguments deduced from the object; each
// instantiation must call the same copy. One that takes arguments besides
// its object deduces them from those too: redirected when each argument
// has its parameter's type (`v[i].dot(v[0])`, miniFE's
// `mesh.map_id_to_row(node_ords[i])`), reported when one converts
// (`v[i].scaled(2)`, an int for a T).
struct Plain {
  double x() const { return 1; }
};
template <class V, class A>
WGTRACE_DISPATCH void tk(const wgtrace::Workgroup &wg, const V *v,
                         const A *a, double *out) {
  unsigned i = wg.id[0];
  out[i] = v[i].x() + a[i].get() + v[i].dot(v[0]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = ::geo::Vec_x_wgtrace_[[X]](v[i]) + ::Acc_get_wgtrace_[[GET]](a[i]) + ::geo::Vec_dot_wgtrace_[[DOT]](v[i], v[0]);
  V s = v[i].scaled(2);
  // CHECK: V s = v[i].scaled(2);
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:9: warning: call of 'geo::Vec::scaled' is not traced: it is a member call in a template, whose copy (a function template) would deduce the class's arguments from its other arguments too, and is not redirected to the instrumented copy of 'geo::Vec::scaled': what that call accesses is not recorded
  out[i] += s.x();
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += ::geo::Vec_x_wgtrace_[[X]](s);
}
template void tk(const wgtrace::Workgroup &, const geo::Vec<double> *,
                 const Acc<float> *, double *);
template void tk(const wgtrace::Workgroup &, const geo::Vec<float> *,
                 const Acc<double> *, double *);

// Another instantiation calls a member of this file at the same text.
template <class V>
WGTRACE_DISPATCH void tk2(const wgtrace::Workgroup &wg, const V *v,
                          double *out) {
  out[wg.id[0]] = v[wg.id[0]].x();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[wg.id[0]]) = v[wg.id[0]].x();
  // WARN-DAG: {{.*}}.cc:[[@LINE-2]]:31: warning: call of 'geo::Vec::x' is not traced: it is not redirected to the instrumented copy: some instantiations of the template it is in call a function that is not copied, and one text cannot call both; what the call accesses is not recorded
}
template void tk2(const wgtrace::Workgroup &, const geo::Vec<double> *,
                  double *);
template void tk2(const wgtrace::Workgroup &, const Plain *, double *);
