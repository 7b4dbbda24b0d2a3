// --openmp traces the loops of a project header's member functions as it
// traces its free functions' (openmp-header-copied.cc): each member that
// holds loops, or that calls on the way to them, is copied here as a free
// function taking its object (`self`), its loops traced in the copy, and
// the calls (`A.reserve(n)`, `mul(A, x, y)` on a functor, through `this`
// in another copy, on a temporary) call the copies. A class template's
// member is copied as a function template; a private member is named
// through an explicit instantiation. The copies of call operators share a
// name, so that a template's `op(A, x, y)` calls each instantiation's own.
// Not copied, with the reason: a constructor; and a call that one text of
// a template makes to a copy and to a function pointer is not redirected,
// nor one in a variable's initializer (a lambda there), whose reason names
// the variable and its function.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include "omp-header-member.h"

// The loops, named after the members.
// CHECK: {"omp for at {{.*}}Inputs/omp-header-member.h:12 in sparse::Matrix::reserve", {{.*}}
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-member.h:19 in sparse::Matrix::clearCols", {{.*}}
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-member.h:28 in sparse::Multiply::operator()", {{.*}}
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-member.h:63 in sparse::Scaler::run", {{.*}}
// CHECK-NEXT: };
// The object's fields are memory of the loop: `values` of `A.reserve`'s
// object, `A.values` of the functor's argument, the private `factor`.
// CHECK: {"{{.*}}Inputs/omp-header-member.h", 14, 7, 0, "omp for at {{.*}}:12 in sparse::Matrix::reserve", "values"},
// CHECK: {"{{.*}}Inputs/omp-header-member.h", 30, 14, 0, "omp for at {{.*}}:28 in sparse::Multiply::operator()", "A.values"},
// CHECK: {"{{.*}}Inputs/omp-header-member.h", 65, 15, 0, "omp for at {{.*}}:63 in sparse::Scaler::run", "factor"},
// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-member.h", 76, 1, "sparse::Filled::Filled", "'#pragma omp parallel for' loop", "it is in a header, in 'sparse::Filled::Filled', which this file uses but which cannot be copied here to trace it (it is a constructor, which no free function can stand for: its object is made by it)"},
// CHECK-NEXT: {"{{.*}}.cc", {{[0-9]+}}, 22, "run", "call of 'sparse::Scaler::run'", "it is made in the initializer of the variable 'later' of 'run', and is not redirected to the copy of 'sparse::Scaler::run': the OpenMP loops it reaches are not recorded"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-member.h", 50, 3, "sparse::applyAny", "call of 'sparse::Multiply::operator()'", "it is not redirected to the copy of 'sparse::Multiply::operator()': some instantiations of the template it is in call a function that is not copied, and one text cannot call both; the OpenMP loops it reaches are not recorded"},
// CHECK-NEXT: };

// WARN-DAG: {{.*}}omp-header-member.h:76:1: warning: '#pragma omp parallel for' loop is not traced: it is in a header, in 'sparse::Filled::Filled', {{.*}}(it is a constructor, {{.*}})
// WARN-DAG: {{.*}}omp-header-member.h:50:3: warning: call of 'sparse::Multiply::operator()' is not traced: it is not redirected to the copy of 'sparse::Multiply::operator()': some instantiations {{.*}}

// The copies: `self` for the object, a class template's over its
// parameters; a call through `this` calls the other copy; the object
// unnamed where the body does not use it.
// CHECK: template <class T> static inline void Matrix_clearCols_wgtrace_1(::sparse::Matrix<T> &self, int n);
// CHECK: template <class T> static inline void Matrix_reserve_wgtrace_0(::sparse::Matrix<T> &self, int n) {
// CHECK: {{ +}}{ WGTRACE_OMP_ITERATION(wgtrace_omp_0, wgtrace_omp_bounds_0, 0, i); WGTRACE_STORE_AT(1, WGTRACE_LOAD_AT(2, self.values)[i]) = 0; } }
// CHECK-NEXT: {{^}}    ::sparse::Matrix_clearCols_wgtrace_1<T>(self, n);
// CHECK: template <class M> static inline void operatorCall_wgtrace_2(const ::sparse::Multiply<M> &, const M &A, const double *x, double *y)  {
// The functor without loops that a template calls at the same text: its
// copy records nothing, under the same name.
// CHECK: template <class M> static inline void operatorCall_wgtrace_2(const ::sparse::Copy<M> &, const M &A, const double *x, double *y)  {
// CHECK-NEXT: {{^}}    for (int r = 0; r < A.rows; ++r)
// CHECK-NEXT: {{^}}      y[r] = x[r];
// CHECK: template <class Op, class M> static inline void apply_wgtrace_{{[0-9]+}}(Op op, const M &A, const double *x,
// CHECK-NEXT: {{^}}                                        double *y) {
// CHECK-NEXT: {{^}}  ::sparse::operatorCall_wgtrace_2(op, A, x, y);
// CHECK: template <class Op, class M> static inline void applyAny_wgtrace_{{[0-9]+}}(Op op, const M &A, const double *x,
// CHECK-NEXT: {{^}}                                           double *y) {
// CHECK-NEXT: {{^}}  op(A, x, y);
// CHECK: static inline void Scaler_run_wgtrace_{{[0-9]+}}(::sparse::Scaler &self, double *v, int n) {
// CHECK: {{.*}} *= WGTRACE_LOAD_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::sparse_Scaler_factor{}))); } }

// The calls: through the object, the functor, a template, a temporary.
void run(sparse::Matrix<double> &A, double *x, double *y, int n) {
  A.reserve(n);
// CHECK: {{^}}  ::sparse::Matrix_reserve_wgtrace_0<double>(A, n);
  sparse::Multiply<sparse::Matrix<double>> mul;
  mul(A, x, y);
// CHECK: {{^}}  ::sparse::operatorCall_wgtrace_2< ::sparse::Matrix<double>>(mul, A, x, y);
  sparse::apply(mul, A, x, y);
// CHECK: {{^}}  sparse::apply_wgtrace_{{[0-9]+}}(mul, A, x, y);
  sparse::apply(sparse::Copy<sparse::Matrix<double>>(), A, x, y);
// CHECK: {{^}}  sparse::apply_wgtrace_{{[0-9]+}}(sparse::Copy<sparse::Matrix<double>>(), A, x, y);
  sparse::applyAny(mul, A, x, y);
  sparse::applyAny(&sparse::identity, A, x, y);
  sparse::Scaler s(2.0);
  s.run(y, n);
// CHECK: {{^}}  ::sparse::Scaler_run_wgtrace_{{[0-9]+}}(s, y, n);
  sparse::Scaler(3.0).run(x, n);
// CHECK: {{^}}  ::sparse::Scaler_run_wgtrace_{{[0-9]+}}([](auto &&wgtrace_object) -> auto & { return wgtrace_object; }(sparse::Scaler(3.0)), x, n);
  sparse::Filled f(y, n);
// CHECK: {{^}}  sparse::Filled f(y, n);
  // In a lambda that initializes a variable: the reason names the variable.
  auto later = [&] { s.run(x, n); };
  later();
// WARN-DAG: {{.*}}.cc:[[@LINE-2]]:22: warning: call of 'sparse::Scaler::run' is not traced: it is made in the initializer of the variable 'later' of 'run', and is not redirected to the copy of 'sparse::Scaler::run': the OpenMP loops it reaches are not recorded
}
