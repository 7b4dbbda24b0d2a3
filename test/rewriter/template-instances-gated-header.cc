// A project header's template copied into the rewritten file tests which
// instantiation runs its copy as the main file's templates do
// (template-instances-gated.cc): the copy goes before the first
// declaration that calls it, so it names the value wrapper this file
// declares after including the header. `*first++` is a load over doubles
// and no access over wrappers, whose operator+ takes them by reference.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %count 0 < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "gated-accumulate.h"

template <class T> struct Wrapper {
  T value;
};

template <class T>
Wrapper<T> operator+(const Wrapper<T> &x, const Wrapper<T> &y) {
  return Wrapper<T>{x.value + y.value};
}

// CHECK:#line 4 "{{.*}}Inputs/gated-accumulate.h"
// CHECK-NEXT:template <class Iterator, class Number>
// CHECK-NEXT:static inline Number accumulate_wgtrace_0(Iterator first, Iterator last, Number result) {
// CHECK-NEXT:  while (first != last)
// CHECK-NEXT:    result = result + WGTRACE_WHEN_LOAD_REF_AT({{[0-9]+}}, (::wgtrace::detail::kInstanceIn<::wgtrace::detail::InstanceTag<Iterator, Number>, ::wgtrace::detail::InstanceTag<const double *, double>>), *first++);
template <class T>
WGTRACE_DISPATCH void total(const wgtrace::Workgroup &wg, const T *a, T *out) {
  out[wg.id[0]] = accumulate(a, a + 4, T());
}

void run(const double *d, double *dout, const Wrapper<double> *w,
         Wrapper<double> *wout) {
  wgtrace::dispatch(total<double>, wgtrace::Grid{1, 1, 1}, d, dout);
  wgtrace::dispatch(total<Wrapper<double>>, wgtrace::Grid{1, 1, 1}, w, wout);
}
