// --openmp on gapbs (src/bc.cc, src/pvector.h). A class template's member
// holding an OpenMP loop over the class's private members is copied as a
// function template that names them through tags, one for each
// specialization whose member is defined: `pvector<float>` and
// `pvector<int>`, not `pvector<double>`, whose fill() is never called.
// Before, the tags named the template's own members
// (`pvector<type-parameter-0-0>`), which no compiler reads. A loop bound
// that calls a function (`queue.begin()`) keeps its type generic through
// decltype, and one with side effects spells its type from the global
// scope (`::pvector<float>::iterator`): before, both came out as
// `iterator`, which is no type outside the class.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -fopenmp -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --allow-empty --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include "omp-template-private.h"

// No warning: every loop is traced.
// WARN-NOT: warning

// CHECK: template <typename C> struct pvector_start_;
// CHECK-NEXT: template <> struct pvector_start_<pvector<float>> { using type = WgtraceMember<float *, pvector<float>>; friend type wgtrace_member(pvector_start_<pvector<float>>); };
// CHECK-NEXT: template struct WgtraceAccess<pvector_start_<pvector<float>>, &pvector<float>::start_>;
// CHECK-NEXT: template <typename C> struct pvector_end_size_;
// CHECK-NEXT: template <> struct pvector_end_size_<pvector<float>> { using type = WgtraceMember<float *, pvector<float>>; friend type wgtrace_member(pvector_end_size_<pvector<float>>); };
// CHECK-NEXT: template struct WgtraceAccess<pvector_end_size_<pvector<float>>, &pvector<float>::end_size_>;
// CHECK-NEXT: template <> struct pvector_start_<pvector<int>> { using type = WgtraceMember<int *, pvector<int>>; friend type wgtrace_member(pvector_start_<pvector<int>>); };
// CHECK-NEXT: template struct WgtraceAccess<pvector_start_<pvector<int>>, &pvector<int>::start_>;
// CHECK-NEXT: template <> struct pvector_end_size_<pvector<int>> { using type = WgtraceMember<int *, pvector<int>>; friend type wgtrace_member(pvector_end_size_<pvector<int>>); };
// CHECK-NEXT: template struct WgtraceAccess<pvector_end_size_<pvector<int>>, &pvector<int>::end_size_>;
// CHECK-NEXT: } }
// CHECK: template <typename T_> static inline void pvector_fill_wgtrace_0(::pvector<T_> &self, T_ init_val) {
// CHECK-NEXT: { auto wgtrace_omp_{{[0-9]+}} = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE({{[0-9]+}})); static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype((self.*wgtrace_member(::wgtrace_access::pvector_start_<::pvector<T_>>{}))), decltype((self.*wgtrace_member(::wgtrace_access::pvector_end_size_<::pvector<T_>>{}))), int, false, ::wgtrace::detail::OmpCompare::Less>> {{.*}}

float sum(pvector<float> &p, pvector<int> &q, pvector<double> &unused,
          int skip) {
  p.fill(2.0f);
  q.fill(1);
  (void)unused.begin();
  float s = 0;
// CHECK: {{.*}}::wgtrace::detail::OmpDim<decltype(p.begin()), decltype(p.end()), int, false, ::wgtrace::detail::OmpCompare::Less>>{{.*}}
#pragma omp parallel for reduction(+ : s)
  for (auto it = p.begin(); it < p.end(); it++)
    s += *it;
// CHECK: {{.*}}::wgtrace::detail::OmpDim<::pvector<float>::iterator, decltype(p.end()), int, false, ::wgtrace::detail::OmpCompare::Less>>{{.*}}
#pragma omp parallel for reduction(+ : s)
  for (auto it = p.begin() + skip++ * 0; it < p.end(); it++)
    s += *it;
  return s;
}
