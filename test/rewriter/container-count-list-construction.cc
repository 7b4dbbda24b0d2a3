// A standard container built with a count of elements (std::list's and
// std::deque's `c(n)`, `c(n, x)`) or from a braced list (`std::vector<int>
// v{1, 2}`, `= {a0, a1}`: the list's elements copied into the new storage)
// writes its elements on the heap, kernel memory, in library code. Those
// stores went unrecorded in silence: now reported. std::vector<T>(n) and
// (n, x) of a scalar T record (vector-construction.cc); the kernel's own
// reads of the list's values are recorded where they are written; an
// unordered container's count is of buckets, and an empty list constructs
// an empty container.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <deque>
#include <list>
#include <unordered_set>
#include <vector>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const float *in,
                        float *out) {
  const int n = int(wg.id[0]) + 2;
  std::list<float> l(n);
  // WARN: [[@LINE-1]]:20: warning: call 'l(n)' is not traced: construction of 'std::list' with a count writes its elements into new storage on the heap, kernel memory, in library code, which wgtrace does not record
  std::list<float> lx(n, 2.f);
  // WARN: [[@LINE-1]]:20: warning: call 'lx(n, 2.f)' is not traced: construction of 'std::list' with a count writes its elements
  std::deque<float> d(3);
  // WARN: [[@LINE-1]]:21: warning: call 'd(3)' is not traced: construction of 'std::deque' with a count writes its elements
  std::deque<float> dx(3, 1.f);
  // WARN: [[@LINE-1]]:21: warning: call 'dx(3, 1.f)' is not traced: construction of 'std::deque' with a count writes its elements
  std::vector<int> v{1, 2, 3};
  // WARN: [[@LINE-1]]:20: warning: call 'v{1, 2, 3}' is not traced: construction of 'std::vector' from a braced list writes its elements
  std::vector<float> w = {in[0], in[1]};
  // WARN: [[@LINE-1]]:26: warning: call '{in[0], in[1]}' is not traced: construction of 'std::vector' from a braced list writes its elements
  // CHECK: std::vector<float> w = {WGTRACE_LOAD_AT({{[0-9]+}}, in[0]), WGTRACE_LOAD_AT({{[0-9]+}}, in[1])};
  std::list<float> lb{1.f, 2.f};
  // WARN: [[@LINE-1]]:20: warning: call 'lb{1.f, 2.f}' is not traced: construction of 'std::list' from a braced list writes its elements
  // A vector of scalars by count records; an unordered set's count is of
  // buckets; an empty list is no element.
  std::vector<float> counted(3);
  // CHECK: std::vector<float> counted(::wgtrace::detail::recorded::vectorFilled<>(WGTRACE_ACCESS_SITE({{[0-9]+}}), 3));
  std::unordered_set<int> buckets(8);
  std::vector<int> none{};
  out[0] = l.front() + lx.back() + d[1] + dx[2] + float(v[0]) + w[1] +
           lb.front() + counted[0] + float(buckets.size() + none.size());
}
