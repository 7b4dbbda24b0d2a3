// fill() and swap() of a std::array of kernel memory with trivially
// copyable elements record as libstdc++'s std::fill_n and
// std::swap_ranges do (the algorithms oracle's array_members.cc checks the
// records): the array is wrapped in recorded::array. A swap with an array
// that is not kernel memory (a local) is untraced; a local's own fill()
// touches no kernel memory and stays as written. A whole array copied by
// its trivial assignment is one load and one store, as any class's, and
// not reported (no library code runs).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <array>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::array<double, 4> &B,
                        std::array<double, 4> &C, std::array<double, 4> *P) {
  std::array<double, 4> L{};
  B.fill(3.0 + wg.id[0]);
  // CHECK: ::wgtrace::detail::recorded::array<'M', 'M'>(WGTRACE_ACCESS_SITE(1), B).fill(3.0 + wg.id[0]);
  B.swap(C);
  // CHECK: ::wgtrace::detail::recorded::array<'M', 'M'>(WGTRACE_ACCESS_SITE(2), B).swap(C);
  P->fill(1.0);
  // CHECK: ::wgtrace::detail::recorded::array<'M', 'M'>(WGTRACE_ACCESS_SITE(3), P)->fill(1.0);
  C.swap(L);
  // CHECK: C.swap(L);
  // WARN: [[@LINE-2]]:3: warning: call 'C.swap(L)' is not traced: 'std::array::swap' reads or writes the elements of 'C', kernel memory, in library code, which wgtrace does not record
  L.swap(C);
  // WARN: [[@LINE-1]]:3: warning: call 'L.swap(C)' is not traced: 'std::array::swap' is given kernel memory ('C') by pointer or reference and reads or writes it in library code, which wgtrace does not record
  L.fill(2.0);
  // CHECK: L.fill(2.0);
  P[1] = C;
  // CHECK: WGTRACE_STORE_AT(4, P[1]) = WGTRACE_LOAD_AT(5, C);
}
