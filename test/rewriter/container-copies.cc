// A copy of an object that is not kernel memory itself but holds some
// outside itself copies that memory in library code: a local std::list's
// nodes, a local std::vector's storage, a local std::set's, std::map's or
// std::deque's, a long local std::string's characters, the strings of a
// local std::array, a local struct's std::vector member (the implicit copy
// runs the vector's). Those loads (and the stores into the copy's new
// storage on the heap) went unrecorded in silence; they are now reported.
// A move takes the storage over and touches no element: nothing to report.
// A std::vector of scalar elements is recorded instead (as libstdc++ copies
// it: a load and a store per element; oracle vector_ranges.cc).
// A copy of a parameter (kernel memory itself) was, and is, reported as
// given kernel memory; one of an iterator keeps a pointer.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <array>
#include <deque>
#include <list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

struct Rec {
  std::vector<float> v;
  int id;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const float *in,
                        const std::list<float> &pl, float *out) {
  std::list<float> l;
  l.push_back(in[0]);
  // WARN: [[@LINE-1]]:3: warning: call 'l.push_back(in[0])' is not traced: 'std::list::push_back' is given kernel memory ('in[0]')
  std::list<float> l2(l);
  // WARN: [[@LINE-1]]:20: warning: call 'l2(l)' is not traced: construction of 'std::list' copies what 'l' holds outside itself (kernel memory: a container's elements, a long string's characters) in library code, which wgtrace does not record
  std::list<float> l3 = l;
  // WARN: [[@LINE-1]]:25: warning: call 'l' is not traced: construction of 'std::list' copies what 'l' holds outside itself
  std::list<float> moved(std::move(l2));
  std::list<float> fromParam(pl);
  // WARN: [[@LINE-1]]:20: warning: call 'fromParam(pl)' is not traced: construction of 'std::list' is given kernel memory ('pl') by pointer or reference
  std::set<float> s;
  std::set<float> s2 = s;
  // WARN: [[@LINE-1]]:24: warning: call 's' is not traced: construction of 'std::set' copies what 's' holds outside itself
  std::map<int, float> m;
  auto m2 = m;
  // WARN: [[@LINE-1]]:13: warning: call 'm' is not traced: construction of 'std::map' copies what 'm' holds outside itself
  std::deque<float> d;
  std::deque<float> d2{d};
  // WARN: [[@LINE-1]]:21: warning: call 'd2{d}' is not traced: construction of 'std::deque' copies what 'd' holds outside itself
  std::vector<std::string> names(2);
  // WARN: [[@LINE-1]]:28: warning: call 'names(2)' is not traced: construction of 'std::vector' with a count
  std::vector<std::string> names2(names);
  // WARN: [[@LINE-1]]:28: warning: call 'names2(names)' is not traced: construction of 'std::vector' copies what 'names' holds outside itself
  // A std::vector of scalar elements is copied, and recorded, by
  // <wgtrace/detail/vector.h> where the copy is written alone (a
  // declaration, an argument given by value, a value returned); a lambda's
  // capture is not written alone.
  std::vector<double> w(2, 0.5);
  // CHECK: std::vector<double> w(::wgtrace::detail::recorded::vectorFilled<'-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), 2, 0.5));
  std::vector<double> w2(w);
  // CHECK: std::vector<double> w2(::wgtrace::detail::recorded::vectorCopy<>(WGTRACE_ACCESS_SITE({{[0-9]+}}), w));
  std::vector<double> w3 = w2;
  // CHECK: std::vector<double> w3 = ::wgtrace::detail::recorded::vectorCopy<>(WGTRACE_ACCESS_SITE({{[0-9]+}}), w2);
  auto sum = [w3] { return w3[0] + w3[1]; };
  // WARN: [[@LINE-1]]:15: warning: call 'w3' is not traced: construction of 'std::vector' copies what 'w3' holds outside itself
  std::string text(wg.id[0] + 1, 'x');
  // WARN: [[@LINE-1]]:15: warning: call 'text(wg.id[0] + 1, 'x')' is not traced: construction of 'std::basic_string' writes its characters into new storage on the heap
  std::string text2(text);
  // WARN: [[@LINE-1]]:15: warning: call 'text2(text)' is not traced: construction of 'std::basic_string' copies what 'text' holds outside itself
  std::array<std::string, 2> texts;
  auto texts2 = texts;
  // WARN: [[@LINE-1]]:17: warning: call 'texts' is not traced: construction of 'std::array' copies what 'texts' holds outside itself
  std::pair<std::vector<double>, int> pair(w, 1);
  // WARN: [[@LINE-1]]:39: warning: call 'pair(w, 1)' is not traced: construction of 'std::pair' copies what 'w' holds outside itself
  Rec r{std::vector<float>(2), 2};
  Rec r2 = r;
  // WARN: [[@LINE-1]]:12: warning: call 'r' is not traced: the implicit constructor of 'Rec' is not trivial (it calls its members' own), and the members it copies in code the compiler writes are not recorded
  Rec r3;
  r3 = r;
  // WARN: [[@LINE-1]]:3: warning: call 'r3 = r' is not traced: the implicit operator= of 'Rec' is not trivial
  Rec r4 = std::move(r2);
  std::list<float>::iterator it = l.begin();
  std::list<float>::iterator it2 = it;
  out[0] = float(l3.size() + moved.size() + fromParam.size() + s2.size() +
                 m2.size() + d2.size() + w2.size() + text2.size() +
                 texts2.size() + pair.first.size() + r3.v.size() +
                 r4.v.size() + names2.size()) +
           float(sum()) +
           float(it2 == l.end());
}
