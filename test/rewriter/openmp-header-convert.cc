// A member call in a template on the way to a header's OpenMP loop calls
// the member's copy, which deduces the class's arguments from the object
// and from each other argument whose parameter depends on them: redirected
// when the argument has the parameter's type as written (`f.scale(k)`, a
// double for a `T` of a `Field<double>`), not when it converts to it
// (`f.scale(2)`: the copy would deduce `T = int` from the 2 and the
// instrumented file would not compile; it did).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include "omp-header-convert.h"

template <class F, class T> void run(F &f, T k) {
  f.scale(k);
  f.scale(2);
}
// CHECK: template <class F, class T> void run(F &f, T k) {
// CHECK-NEXT: ::Field_scale_wgtrace_0(f, k);
// CHECK-NEXT: f.scale(2);
// WARN: {{.*}}.cc:[[@LINE-5]]:3: warning: call of 'Field::scale' is not traced: it is a member call in a template, whose copy (a function template) would deduce the class's arguments from its other arguments too, and is not redirected to the instrumented copy of 'Field::scale': what that call accesses is not recorded

int main() {
  double x[4] = {1, 2, 3, 4};
  Field<double> f{x, 4};
  run(f, 0.5);
  return x[3] == 4 ? 0 : 1;
}
