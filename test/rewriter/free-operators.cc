// An overloaded operator that is not a member (`Vec operator+(const Vec &a,
// const Vec &b)`) is looked into like any accessor: one that reads or
// writes memory beyond its by-value parameters is a helper. Defined in the
// file, it is instrumented in place; defined in a project header, it is
// copied like a free helper (named `operatorPlus_wgtrace_N`, as an
// identifier can spell it) and each call in operator syntax becomes a call
// of the copy by name, `a + b` turning into `::geo::operatorPlus_wgtrace_0(a
// , b)`. A call that cannot be redirected (in a template) is reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "free-operators.h"

// CHECK: {"{{.*}}free-operators.h", 18, 51, "geo::twice", "call of 'geo::operator+'", "it is written in operator syntax in a template, and is not redirected to the instrumented copy of 'geo::operator+': what that call accesses is not recorded"},

struct Cell {
  float v;
};
// A friend or free operator of this file reading what its references
// designate: instrumented in place.
inline bool operator<(const Cell &a, const Cell &b) { return a.v < b.v; }
// CHECK: inline bool operator<(const Cell &a, const Cell &b) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, a.v) < WGTRACE_LOAD_REF_AT({{[0-9]+}}, b.v); }
// Only its by-value parameters: bookkeeping.
inline Cell operator+(Cell a, Cell b) { return Cell{a.v + b.v}; }
// CHECK: inline Cell operator+(Cell a, Cell b) { return Cell{a.v + b.v}; }

// CHECK: static inline Vec operatorPlus_wgtrace_0(const Vec &a, const Vec &b) { return Vec(WGTRACE_LOAD_REF_AT({{[0-9]+}}, a.x) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, b.x), WGTRACE_LOAD_REF_AT({{[0-9]+}}, a.y) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, b.y)); }
// CHECK: static inline Vec operatorMinus_wgtrace_1(const Vec &v) { return Vec(-WGTRACE_LOAD_REF_AT({{[0-9]+}}, v.x), -WGTRACE_LOAD_REF_AT({{[0-9]+}}, v.y)); }
// CHECK: static inline Vec operatorMinus_wgtrace_1(const Vec &a, const Vec &b) { return ::geo::operatorPlus_wgtrace_0(a , (::geo::operatorMinus_wgtrace_1( b))); }
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const geo::Vec *in,
                        geo::Vec *out, const Cell *c, bool *less) {
  unsigned i = wg.id[0];
  out[i] = in[i] + in[i + 1];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = ::geo::operatorPlus_wgtrace_0(in[i] , in[i + 1]);
  out[i] = -in[i] - in[i + 1];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = ::geo::operatorMinus_wgtrace_1(::geo::operatorMinus_wgtrace_1( in[i]) , in[i + 1]);
  out[i] = 2.0f * in[i];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = 2.0f * WGTRACE_LOAD_AT({{[0-9]+}}, in[i]);
  less[i] = c[i] < c[i + 1] && (c[i] + c[i + 1]).v > 0;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, less[i]) = c[i] < c[i + 1] && (WGTRACE_LOAD_AT({{[0-9]+}}, c[i]) + WGTRACE_LOAD_AT({{[0-9]+}}, c[i + 1])).v > 0;
  out[i] = geo::twice(in[i]);
  // WARN: {{.*}}free-operators.h:18:51: warning: call of 'geo::operator+' is not traced: it is written in operator syntax in a template, {{.*}}
}
