// A virtual call reads its object's table pointer after the arguments,
// recorded around the last one written. A string literal passed to a
// `char *` parameter (Prolangs-C++ deriv1's `objs[0]->deriv("x")` of a
// `virtual expr *deriv(char *var)`) keeps its conversion only as a
// literal: wrapped, it would not compile. It reads nothing wgtrace
// records, so the read goes after the argument before it, or at the
// object when there is none.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -Wno-write-strings > %t.out.cc 2> %t.err
// RUN: FileCheck %s < %t.out.cc
// RUN: not grep warning: %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -Wno-write-strings -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

struct Expr {
  virtual ~Expr() = default;
  virtual double deriv(char *var) const = 0;
  virtual double at(double x, char *var) const = 0;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Expr **objs,
                        const double *x, double *out) {
  unsigned i = wg.id[0];
  out[i] = objs[i]->deriv("x");
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = ::wgtrace::detail::vtableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), WGTRACE_LOAD_AT({{[0-9]+}}, objs[i]))->deriv("x");
  out[i] += objs[i]->at(x[i], "y");
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += WGTRACE_LOAD_AT({{[0-9]+}}, objs[i])->at(::wgtrace::detail::vtableReadAfter(WGTRACE_ACCESS_SITE({{[0-9]+}}), (objs[i]), WGTRACE_LOAD_AT({{[0-9]+}}, x[i])), "y");
}
