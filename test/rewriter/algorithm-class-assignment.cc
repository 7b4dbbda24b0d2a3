// std::copy, std::copy_n, std::copy_backward, std::move, std::move_backward,
// std::fill and std::fill_n over elements of a class whose copy assignment
// is written by hand: libstdc++ runs that operator= on each element, so the
// recording algorithm is given it, instrumented, and the operator records
// what it does (PENNANT's `copy(&px[pfirst], &px[plast], &px0[pfirst])` of
// double2 was reported untraced). A project header's operator= runs as its
// instrumented copy, this file's instrumented in place. A move over a class
// with a move assignment of its own, and a copy out of kernel memory into
// elements that are not, are still reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "algorithm-class-assignment.h"

#include <algorithm>

using namespace std;
using geo::double2;

struct Cell {
  double x, y;
  Cell() : x(0.), y(0.) {}
  Cell(const Cell &c) : x(c.x), y(c.y) {}
  ~Cell() {}
  Cell &operator=(const Cell &c) {
    // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, y) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, c.y);
    y = c.y;
    x = c.x;
    return *this;
  }
};

// CHECK: static inline double2 &double2_operatorEqual_wgtrace_0(::geo::double2 &self, const double2 &v2) {
// CHECK-NEXT:    WGTRACE_STORE_REF_AT({{[0-9]+}}, self.x) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, v2.x);
// CHECK-NEXT:    WGTRACE_STORE_REF_AT({{[0-9]+}}, self.y) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, v2.y);
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, double2 *px, double2 *px0,
                        double2 *pu, Cell *c, Owned *o) {
  int pfirst = wg.id[0] * 8, plast = pfirst + 8;
  copy(&px[pfirst], &px[plast], &px0[pfirst]);
  // CHECK: ::wgtrace::detail::recorded::copy<'M', 'M', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), [](auto &wgtrace_to, const auto &wgtrace_from) { ::geo::double2_operatorEqual_wgtrace_0(wgtrace_to, wgtrace_from); })(&px[pfirst], &px[plast], &px0[pfirst]);
  fill(&pu[pfirst], &pu[plast], double2(0., 0.));
  // CHECK: ::wgtrace::detail::recorded::fill<'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), [](auto &wgtrace_to, const auto &wgtrace_from) { ::geo::double2_operatorEqual_wgtrace_0(wgtrace_to, wgtrace_from); })(&pu[pfirst], &pu[plast], double2(0., 0.));
  // The value is read by the operator=, which records it: not reported.
  std::fill_n(pu + pfirst, 2, px[0]);
  // CHECK: ::wgtrace::detail::recorded::fill_n<'M', '-', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), [](auto &wgtrace_to, const auto &wgtrace_from) { ::geo::double2_operatorEqual_wgtrace_0(wgtrace_to, wgtrace_from); })(pu + pfirst, 2, px[0]);
  // No move assignment: a move is the copy assignment.
  std::move_backward(px0 + pfirst, px0 + pfirst + 2, px + plast);
  // CHECK: ::wgtrace::detail::recorded::move_backward<'M', 'M', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), [](auto &wgtrace_to, const auto &wgtrace_from) { ::geo::double2_operatorEqual_wgtrace_0(wgtrace_to, wgtrace_from); })(px0 + pfirst, px0 + pfirst + 2, px + plast);
  std::copy_n(c, 4, c + 4);
  // CHECK: ::wgtrace::detail::recorded::copy_n<'M', '-', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), ::wgtrace::detail::recorded::OwnAssignment())(c, 4, c + 4);
  double2 local[2];
  std::copy(px, px + 2, local);
  // WARN: [[@LINE-1]]:3: warning: call 'std::copy(px, px + 2, local)' is not traced: it assigns elements of class type 'geo::double2' to elements that are not kernel memory, where wgtrace does not run the instrumented operator=: its element accesses are not recorded
  std::copy(local, local + 2, px);
  // CHECK: ::wgtrace::detail::recorded::copy<'-', '-', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), [](auto &wgtrace_to, const auto &wgtrace_from) { ::geo::double2_operatorEqual_wgtrace_0(wgtrace_to, wgtrace_from); })(local, local + 2, px);
  std::move(o, o + 2, o + 2);
  // WARN: [[@LINE-1]]:3: warning: call 'std::move(o, o + 2, o + 2)' is not traced: its elements, of type 'Owned', are not trivially copyable, and their assignment cannot be recorded: 'Owned' has a move assignment operator, which the algorithm runs and wgtrace does not: its element accesses are not recorded
  // Its copy assignment is what std::copy runs.
  std::copy(o, o + 2, o + 2);
  // CHECK: ::wgtrace::detail::recorded::copy<'M', 'M', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), [](auto &wgtrace_to, const auto &wgtrace_from) { ::Owned_operatorEqual_wgtrace_{{[0-9]+}}(wgtrace_to, wgtrace_from); })(o, o + 2, o + 2);
}
