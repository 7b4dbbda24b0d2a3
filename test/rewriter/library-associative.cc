// A lookup in a standard associative container (std::map, std::set,
// std::unordered_map, ...) searches its nodes, reading keys and links in
// library code, and `m[k]` inserts a node when k is missing: whose
// elements are kernel memory, such a call is reported, not taken for an
// accessor as `v[i]` of a std::vector is. What the kernel does with the
// element the call hands out is still recorded. HPCG's
// GenerateProblem_ref fills `A.globalToLocalMap[row] = localRow` (a
// std::unordered_map of the shared matrix) in an OpenMP loop, under `omp
// critical`: the store of the value was recorded, the search and the
// insertion went untraced in silence.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <map>
#include <set>
#include <unordered_map>
#include <vector>

struct Matrix {
  std::map<long, int> globalToLocal;
  std::vector<long> localToGlobal;
};

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "A.globalToLocal[row]", "'std::map::operator[]' reads or writes the elements of 'A.globalToLocal', kernel memory, in library code, which wgtrace does not record"},
// CHECK-NEXT: {"{{.*}}", [[#]], 11, "k", "A.globalToLocal.find(row)", "'std::map::find' reads or writes the elements of 'A.globalToLocal', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 47, "k", "A.globalToLocal.at(row)", "'std::map::at' reads or writes the elements of 'A.globalToLocal', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 11, "k", "A.globalToLocal.lower_bound(row)", "'std::map::lower_bound' reads or writes the elements of 'A.globalToLocal', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "counts[row]", "'std::unordered_map::operator[]' reads or writes the elements of 'counts', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 16, "k", "seen.find(row)", "'std::set::find' reads or writes the elements of 'seen', {{.*}}"},
// CHECK-NEXT: };

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Matrix &A,
                        std::unordered_map<long, double> &counts,
                        const std::set<long> &seen) {
  const long row = wg.id[0];
  A.globalToLocal[row] = static_cast<int>(row);
  // WARN: [[@LINE-1]]:3: warning: call 'A.globalToLocal[row]' is not traced: 'std::map::operator[]' reads or writes the elements of 'A.globalToLocal', kernel memory, in library code, which wgtrace does not record
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, A.globalToLocal[row]) = static_cast<int>(row);
  A.localToGlobal[row] = row;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, A.localToGlobal[row]) = row;
  int l = A.globalToLocal.find(row)->second + A.globalToLocal.at(row) +
          A.globalToLocal.lower_bound(row)->second;
  // WARN: [[@LINE-2]]:11: warning: call 'A.globalToLocal.find(row)' is not traced
  // WARN: [[@LINE-3]]:47: warning: call 'A.globalToLocal.at(row)' is not traced
  // WARN: [[@LINE-3]]:11: warning: call 'A.globalToLocal.lower_bound(row)' is not traced
  // CHECK: int l = WGTRACE_LOAD_AT({{[0-9]+}}, A.globalToLocal.find(row)->second) + WGTRACE_LOAD_AT({{[0-9]+}}, A.globalToLocal.at(row)) +
  // CHECK-NEXT: WGTRACE_LOAD_AT({{[0-9]+}}, A.globalToLocal.lower_bound(row)->second);
  counts[row] += 1.0;
  // WARN: [[@LINE-1]]:3: warning: call 'counts[row]' is not traced
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, counts[row]) += 1.0;
  bool found = seen.find(row) != seen.end();
  // WARN: [[@LINE-1]]:16: warning: call 'seen.find(row)' is not traced
  // The books: no element is read.
  A.localToGlobal[0] = static_cast<long>(A.globalToLocal.size() +
                                         counts.empty() + seen.size()) +
                       l + found;
}
