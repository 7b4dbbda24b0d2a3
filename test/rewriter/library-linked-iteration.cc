// An iterator of a linked standard container (std::map, std::set, their
// unordered forms, std::list, std::forward_list) steps from node to node
// by reading the links stored in the nodes, in library code: each `++it`,
// `--it`, `it++`, `std::next`, `std::prev`, `std::advance` on it, and the
// hidden increment of a range-for over the container, is reported
// untraced, once per statement, when the nodes are kernel memory (a
// parameter's container, one reached through kernel memory, a local one,
// whose nodes are on the heap). The elements the kernel reads through the
// iterator are still recorded. A std::vector's, std::array's and
// std::deque's iterators step without reading memory (a deque's reads its
// map of blocks only at a block's end: not counted). Found on HPCG:
// before, only the elements were recorded, the steps went missing in
// silence.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <array>
#include <deque>
#include <forward_list>
#include <iterator>
#include <list>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

struct Mesh {
  std::list<double> faces;
};

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 19, "k", "iteration over 'm'", "each step of a std::map iterator reads the links between the nodes of 'm', kernel memory, in library code, which wgtrace does not record"},
// CHECK-NEXT: {"{{.*}}", [[#]], 19, "k", "iteration over 's'", "each step of a std::set iterator {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 19, "k", "iteration over 'u'", "each step of a std::unordered_map iterator {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 19, "k", "iteration over 'l'", "each step of a std::list iterator {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 19, "k", "iteration over 'f'", "each step of a std::forward_list iterator {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 19, "k", "iteration over 'mesh.faces'", "each step of a std::list iterator reads the links between the nodes of 'mesh.faces', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 44, "k", "++it", "each step of a std::list iterator reads the links between the nodes of 'l', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 46, "k", "it++", "each step of a std::map iterator reads the links between the nodes of 'm', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 11, "k", "--it", "each step of a std::map iterator reads the links between the nodes of 'm', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 9, "k", "++it", "each step of a std::set iterator reads the links between the nodes of 's', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 12, "k", "std::next(l.begin())", "each step of a std::list iterator reads the links between the nodes of 'l', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "std::advance(j, 1)", "each step of a std::list iterator reads the links between the nodes of 'l', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 9, "k", "std::prev(j)", "each step of a std::list iterator reads the links between the nodes of 'l', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 21, "k", "local(4, 1.0)", "construction of 'std::list' with a count writes its elements into new storage on the heap, {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 19, "k", "iteration over 'local'", "each step of a std::list iterator reads the links between the nodes of 'local', {{.*}}"},
// CHECK-NEXT: };

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::map<long, double> &m,
                        const std::set<long> &s,
                        std::unordered_map<long, double> &u,
                        std::list<double> &l, std::forward_list<double> &f,
                        Mesh &mesh, std::vector<double> &v,
                        std::array<double, 4> &a, std::deque<double> &d,
                        double *out) {
  double t = 0;
  for (auto &kv : m)
    t += kv.second;
  // WARN: [[@LINE-2]]:19: warning: iteration over 'm' is not traced: each step of a std::map iterator reads the links between the nodes of 'm', kernel memory, in library code, which wgtrace does not record
  // CHECK: for (auto &kv : m)
  // CHECK-NEXT: t += WGTRACE_LOAD_AT({{[0-9]+}}, kv.second);
  for (long key : s)
    t += key;
  // WARN: [[@LINE-2]]:19: warning: iteration over 's' is not traced: each step of a std::set iterator reads the links between the nodes of 's', kernel memory, in library code, which wgtrace does not record
  for (auto &kv : u)
    t += kv.second;
  // WARN: [[@LINE-2]]:19: warning: iteration over 'u' is not traced: each step of a std::unordered_map iterator reads the links between the nodes of 'u', kernel memory, in library code, which wgtrace does not record
  for (double x : l)
    t += x;
  // WARN: [[@LINE-2]]:19: warning: iteration over 'l' is not traced: each step of a std::list iterator reads the links between the nodes of 'l', kernel memory, in library code, which wgtrace does not record
  // CHECK: for (double x : ::wgtrace::detail::loads(WGTRACE_ACCESS_SITE({{[0-9]+}}), l))
  for (double x : f)
    t += x;
  // WARN: [[@LINE-2]]:19: warning: iteration over 'f' is not traced: each step of a std::forward_list iterator reads the links between the nodes of 'f', kernel memory, in library code, which wgtrace does not record
  for (double x : mesh.faces)
    t += x;
  // WARN: [[@LINE-2]]:19: warning: iteration over 'mesh.faces' is not traced: each step of a std::list iterator reads the links between the nodes of 'mesh.faces', kernel memory, in library code, which wgtrace does not record
  for (auto it = l.begin(); it != l.end(); ++it)
    t += *it;
  // WARN: [[@LINE-2]]:44: warning: call '++it' is not traced: each step of a std::list iterator reads the links between the nodes of 'l', kernel memory, in library code, which wgtrace does not record
  // CHECK: for (auto it = l.begin(); it != l.end(); ++it)
  // CHECK-NEXT: t += WGTRACE_LOAD_AT({{[0-9]+}}, *it);
  for (auto it = m.cbegin(); it != m.cend(); it++)
    t += it->second;
  // WARN: [[@LINE-2]]:46: warning: call 'it++' is not traced: each step of a std::map iterator reads the links between the nodes of 'm', kernel memory, in library code, which wgtrace does not record
  for (auto it = m.end(); it != m.begin();)
    t += (--it)->second;
  // WARN: [[@LINE-1]]:11: warning: call '--it' is not traced: each step of a std::map iterator reads the links between the nodes of 'm', kernel memory, in library code, which wgtrace does not record
  // `++it == e` compares the two local iterators: only the step reads
  // the nodes (Misc-C++/stepanov_container.cpp's multiset loop).
  for (auto it = s.begin(), e = s.end(); it != e;) {
    t += *it;
    if (++it == e)
      break;
  }
  // WARN: [[@LINE-3]]:9: warning: call '++it' is not traced: each step of a std::set iterator reads the links between the nodes of 's', kernel memory, in library code, which wgtrace does not record
  auto j = std::next(l.begin());
  // WARN: [[@LINE-1]]:12: warning: call 'std::next(l.begin())' is not traced: each step of a std::list iterator reads the links between the nodes of 'l', kernel memory, in library code, which wgtrace does not record
  std::advance(j, 1);
  // WARN: [[@LINE-1]]:3: warning: call 'std::advance(j, 1)' is not traced: each step of a std::list iterator reads the links between the nodes of 'l', kernel memory, in library code, which wgtrace does not record
  t += *std::prev(j);
  // WARN: [[@LINE-1]]:9: warning: call 'std::prev(j)' is not traced: each step of a std::list iterator reads the links between the nodes of 'l', kernel memory, in library code, which wgtrace does not record
  // CHECK: t += WGTRACE_LOAD_AT({{[0-9]+}}, *std::prev(j));
  std::list<double> local(4, 1.0);
  // WARN: [[@LINE-1]]:21: warning: call 'local(4, 1.0)' is not traced: construction of 'std::list' with a count writes its elements into new storage on the heap, kernel memory, in library code, which wgtrace does not record
  for (double x : local)
    t += x;
  // WARN: [[@LINE-2]]:19: warning: iteration over 'local' is not traced: each step of a std::list iterator reads the links between the nodes of 'local', kernel memory, in library code, which wgtrace does not record
  // Random-access iterators: no node links.
  for (double x : v)
    t += x;
  for (double x : a)
    t += x;
  for (double x : d)
    t += x;
  for (auto it = v.begin(); it != v.end(); ++it)
    t += *it;
  // CHECK: for (auto it = v.begin(); it != v.end(); ++it)
  // CHECK-NEXT: t += WGTRACE_LOAD_AT({{[0-9]+}}, *it);
  t += *std::next(d.begin());
  out[wg.id[0]] = t;
}
