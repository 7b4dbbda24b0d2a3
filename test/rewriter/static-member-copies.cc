// A project header's static member function is copied as a free function
// without an object (`static float sum(...)` becomes `inline static float
// Grid_sum_wgtrace_0(...)` in namespace geo) and its calls are redirected
// to the copy, so its accesses are recorded as a free header function's:
// called qualified (`geo::Grid::sum(a, 4)`, through a typedef `PackF::`),
// by its name alone in another member's copy, and through an object
// (`g->sum(a, 2)` becomes `((void)(g), ::geo::Grid_sum_wgtrace_0(a, 2))`:
// the object is still evaluated). The class's names the body uses
// without qualification are qualified from the global scope
// (`::geo::Grid::stride`, `::geo::Grid::Cell`), a private static member
// is called through its copy. A class template's copy is a function
// template over its parameters, which no argument deduces: each call
// gives them, the specialization's with defaults (`<float, 2>`) or, in
// another member's copy, the class's own (`<T, N>`). Reported: a call
// spelled in a macro, one through an object in a template, and one that
// a template's instantiations make on different specializations. Before,
// each was left as written with "it is a static member function".
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include "static-members.h"

// CHECK: {"{{.*}}Inputs/static-members.h", 16, 12, 0, "geo::Grid::sum", "a[i]"},
// CHECK-NEXT: {"{{.*}}Inputs/static-members.h", 23, 44, 1, "geo::Grid::scatter", "out[i * stride]"},
// CHECK-NEXT: {"{{.*}}Inputs/static-members.h", 23, 52, 0, "geo::Grid::scatter", "stride"},
// CHECK-NEXT: {"{{.*}}Inputs/static-members.h", 24, 53, 0, "geo::Grid::total", "n"},
// CHECK-NEXT: {"{{.*}}Inputs/static-members.h", 28, 51, 0, "geo::Grid::at", "a[i]"},
// CHECK-NEXT: {"{{.*}}Inputs/static-members.h", 37, 42, 0, "Pack::first", "p.v[0]"},
// CHECK-NEXT: {"{{.*}}Inputs/static-members.h", 41, 12, 0, "Pack::sumAll", "a[i]"},
// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}.cc", 84, 36, "two", "call of 'Pack::first'", "it is a call of a static member function through an object in a template, and is not redirected to the instrumented copy of 'Pack::first': what that call accesses is not recorded"},
// CHECK-NEXT: {"{{.*}}.cc", 66, 13, "k", "call of 'geo::Grid::sum'", "it is spelled in a macro expansion and is not redirected to the instrumented copy of 'geo::Grid::sum': what that call accesses is not recorded"},
// CHECK-NEXT: {"{{.*}}.cc", 84, 21, "two", "call of 'Pack::sumAll'", "it is not redirected to the instrumented copy: the instantiations of the template it is in call it on different specializations of its class template (or call another function), and one text cannot name the copy's template arguments for all; what the call accesses is not recorded"},
// CHECK-NEXT: };

// WARN-DAG: {{.*}}.cc:66:13: warning: call of 'geo::Grid::sum' is not traced: it is spelled in a macro expansion {{.*}}
// WARN-DAG: {{.*}}.cc:84:36: warning: call of 'Pack::first' is not traced: it is a call of a static member function through an object in a template, {{.*}}
// WARN-DAG: {{.*}}.cc:84:21: warning: call of 'Pack::sumAll' is not traced: it is not redirected to the instrumented copy: the instantiations {{.*}}

// CHECK: inline static float Grid_at_wgtrace_[[AT:[0-9]+]](const float *a, int i);
// CHECK: inline static float Grid_sum_wgtrace_[[SUM:[0-9]+]](const float *a, int n) {
// CHECK: s += WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[i]) * ::geo::Grid::weight(::geo::Grid::Cell);
// CHECK: inline static void Grid_scatter_wgtrace_[[SCATTER:[0-9]+]](float *out, int i) { WGTRACE_STORE_REF_AT({{[0-9]+}}, out[i * WGTRACE_LOAD_AT({{[0-9]+}}, ::geo::Grid::stride)]) = ::geo::Grid_at_wgtrace_[[AT]](out, i); }
// CHECK: static inline float Grid_total_wgtrace_[[TOTAL:[0-9]+]](const ::geo::Grid &self, const float *a)  { return ::geo::Grid_sum_wgtrace_[[SUM]](a, WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.n)); }
// CHECK: inline static float Grid_at_wgtrace_[[AT]](const float *a, int i) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, a[i]); }
// CHECK: template <class T, int N> inline static T Pack_first_wgtrace_[[FIRST:[0-9]+]](const Pack<T, N> &p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p.v[0]); }
// CHECK: template <class T, int N> inline static T Pack_sumAll_wgtrace_[[ALL:[0-9]+]](const T *a, int n) {
// CHECK: template <class T, int N> inline static T Pack_twice_wgtrace_[[TWICE:[0-9]+]](const T *a, int n) { return ::Pack_sumAll_wgtrace_[[ALL]]<T, N>(a, n) + ::Pack_sumAll_wgtrace_[[ALL]]<T, N>(a, n); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const float *a,
                        float *out, const geo::Grid *g, const Pack<float> *pk) {
  int i = static_cast<int>(wg.id[0]);
  out[i] = geo::Grid::sum(a, 4) + g->total(a) + PackF::twice(a, 3) +
           Pack<float>::first(pk[i]) + pk[i].first(pk[0]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = ::geo::Grid_sum_wgtrace_[[SUM]](a, 4) + ::geo::Grid_total_wgtrace_[[TOTAL]](*g, a) + ::Pack_twice_wgtrace_[[TWICE]]<float, 2>(a, 3) +
  // CHECK-NEXT: ::Pack_first_wgtrace_[[FIRST]]<float, 2>(pk[i]) + ((void)(pk[i]), ::Pack_first_wgtrace_[[FIRST]]<float, 2>(pk[0]));
  geo::Grid::scatter(out, i);
  // CHECK: ::geo::Grid_scatter_wgtrace_[[SCATTER]](out, i);
  out[i] += g->sum(a, 2);
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += ((void)(g), ::geo::Grid_sum_wgtrace_[[SUM]](a, 2));
  out[i] += GRID_SUM(a, 1);
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += GRID_SUM(a, 1);
}

// One instantiation: the call names its specialization's arguments.
template <class T>
WGTRACE_DISPATCH void one(const wgtrace::Workgroup &wg, const T *a, T *out) {
  int i = static_cast<int>(wg.id[0]);
  out[i] = Pack<T>::sumAll(a, 2);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = ::Pack_sumAll_wgtrace_[[ALL]]<float, 2>(a, 2);
}
template void one<float>(const wgtrace::Workgroup &, const float *, float *);

// Two: no one text names both.
template <class T>
WGTRACE_DISPATCH void two(const wgtrace::Workgroup &wg, const T *a, T *out,
                          const Pack<T> *p) {
  int i = static_cast<int>(wg.id[0]);
  out[i] = Pack<T>::sumAll(a, 2) + p->first(p[1]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = Pack<T>::sumAll(a, 2) + p->first(p[1]);
}
template void two<float>(const wgtrace::Workgroup &, const float *, float *,
                         const Pack<float> *);
template void two<double>(const wgtrace::Workgroup &, const double *, double *,
                          const Pack<double> *);
