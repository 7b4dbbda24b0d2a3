// A standard container that keeps its elements on the heap (std::list's
// and std::set's nodes, std::deque's blocks: kernel memory, as a local
// std::vector's elements are) writes them there in library code when it is
// built from a range. From a range of kernel memory that was reported (the
// construction is given kernel memory); from the kernel's own array the
// stores into the new nodes went unrecorded in silence: now reported too.
// std::vector<T> of a scalar T records (vector-construction.cc); other
// element types and an allocator given are reported the same way. Not a
// range: views (std::span) keep it. A std::string keeps a short one in
// the object, a long one on the heap: reported (string-construction.cc).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <deque>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const float *in,
                        const std::vector<float> &v, float *out) {
  float local[3] = {1.f, 2.f, float(wg.id[0])};
  std::list<float> fromBuffer(in, in + 3);
  // WARN: [[@LINE-1]]:20: warning: call 'fromBuffer(in, in + 3)' is not traced: construction of 'std::list' is given kernel memory ('in') by pointer or reference and reads or writes it in library code, which wgtrace does not record
  std::list<float> l(local, local + 3);
  // WARN: [[@LINE-1]]:20: warning: call 'l(local, local + 3)' is not traced: construction of 'std::list' from a range writes its elements into new storage on the heap, kernel memory, in library code, which wgtrace does not record
  std::set<float> s(local, local + 3);
  // WARN: [[@LINE-1]]:19: warning: call 's(local, local + 3)' is not traced: construction of 'std::set' from a range writes its elements into new storage on the heap, kernel memory, in library code, which wgtrace does not record
  std::deque<float> d(local, local + 3);
  // WARN: [[@LINE-1]]:21: warning: call 'd(local, local + 3)' is not traced: construction of 'std::deque' from a range writes its elements
  std::pair<int, float> pairs[2] = {{1, 1.f}, {2, 2.f}};
  std::map<int, float> m(pairs, pairs + 2);
  // WARN: [[@LINE-1]]:24: warning: call 'm(pairs, pairs + 2)' is not traced: construction of 'std::map' from a range writes its elements
  std::vector<double> wide(local, local + 3);
  // WARN: [[@LINE-1]]:23: warning: call 'wide(local, local + 3)' is not traced: construction of 'std::vector' from a range writes its elements
  std::vector<float> given(local, local + 3, std::allocator<float>());
  // WARN: [[@LINE-1]]:22: warning: call 'given(local, local + 3, std::allocator<float>())' is not traced: construction of 'std::vector' from a range writes its elements
  out[0] = float(std::deque<float>(local, local + 2).size());
  // WARN: [[@LINE-1]]:18: warning: call 'std::deque<float>(local, local + 2)' is not traced: construction of 'std::deque' from a range writes its elements
  // A vector of the range's scalar type records; a string may keep the
  // range in the object or on the heap; a count is no range.
  std::vector<float> same(local, local + 3);
  // CHECK: std::vector<float> same(::wgtrace::detail::recorded::vectorFrom<'-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), local, local + 3));
  char chars[2] = {'a', 'b'};
  std::string text(chars, chars + 2);
  // CHECK: std::string text(chars, chars + 2);
  // WARN: [[@LINE-2]]:15: warning: call 'text(chars, chars + 2)' is not traced: construction of 'std::basic_string' writes its characters into new storage on the heap, kernel memory, when they are more than the object holds
  out[1] = l.front() + *s.begin() + d[1] + float(m.size()) + float(wide[0]) +
           given[0] + same[2] + float(text.size() + v.size());
}
