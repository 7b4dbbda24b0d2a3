// A member function of a standard container called on one whose elements
// are kernel memory (a reference parameter's, or a local container's,
// whose elements are on the heap) reads or writes them in library code:
// never silent. Accessors (operator[], data(), begin()) and bookkeeping
// (size(), clear()) are not reported: what the kernel does with the access
// they hand out is recorded. A local std::array holds its elements.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <array>
#include <string>
#include <valarray>
#include <vector>

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "A[std::slice(0, 2, 1)]", "'std::valarray::operator[]' reads or writes the elements of 'A', kernel memory, in library code, which wgtrace does not record"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "bits[1]", "'std::vector::operator[]' reads or writes the elements of 'bits', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "C.erase(C.begin())", "'std::vector::erase' reads or writes the elements of 'C', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "s.erase(0, 1)", "'std::basic_string::erase' reads or writes the elements of 's', {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "local.shrink_to_fit()", "'std::vector::shrink_to_fit' reads or writes the elements of 'local', {{.*}}"},
// CHECK-NEXT: };

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::valarray<double> &A,
                        std::array<double, 4> &B, std::vector<double> &C,
                        std::string &s, std::vector<bool> &bits) {
  // std::valarray's operations record (valarrays.cc); a slice, gslice,
  // mask or index array selects elements that library code reads or
  // writes.
  A += 2.0;
  // CHECK: ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE({{[0-9]+}}), A) += 2.0;
  double t = A.sum();
  // CHECK: double t = ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE({{[0-9]+}}), A).sum();
  A[std::slice(0, 2, 1)] = 1.0;
  // WARN: [[@LINE-1]]:3: warning: call 'A[std::slice(0, 2, 1)]' is not traced: 'std::valarray::operator[]' reads or writes the elements of 'A', kernel memory, in library code, which wgtrace does not record
  // A subscript that returns by value reads in library code.
  bits[1] = true;
  // WARN: [[@LINE-1]]:3: warning: call 'bits[1]' is not traced: 'std::vector::operator[]' reads or writes the elements of 'bits'
  // std::array's fill and swap record (algorithms.h: fill_n, swap_ranges).
  B.fill(3.0);
  // CHECK: ::wgtrace::detail::recorded::array<'M', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), B).fill(3.0);
  // std::vector's push_back, resize, assign, insert, ... record
  // (vector-members.cc); erase moves the elements after it.
  C.assign(4, 5.0);
  // CHECK: ::wgtrace::detail::recorded::vector<'-', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), C).assign(4, 5.0);
  C.push_back(t);
  // CHECK: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), C).push_back(t);
  C.erase(C.begin());
  // WARN: [[@LINE-1]]:3: warning: call 'C.erase(C.begin())' is not traced
  // std::string's copying members record (string-members.cc); erase
  // moves the characters after what it removes.
  s += "x";
  // CHECK: ::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), s) += "x";
  s.erase(0, 1);
  // WARN: [[@LINE-1]]:3: warning: call 's.erase(0, 1)' is not traced
  std::vector<double> local(4);
  local.resize(8);
  // CHECK: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), local).resize(8);
  local.shrink_to_fit();
  // WARN: [[@LINE-1]]:3: warning: call 'local.shrink_to_fit()' is not traced
  std::array<double, 2> inl{};
  inl.fill(1.0);
  C[0] = static_cast<double>(C.size() + local.size() + s.size()) + inl[0] +
         B[1] + local[2];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, C[0]) = static_cast<double>(C.size() + local.size() + s.size()) + inl[0] +
  // CHECK-NEXT: WGTRACE_LOAD_AT({{[0-9]+}}, B[1]) + WGTRACE_LOAD_AT({{[0-9]+}}, local[2]);
  C.clear();
  (void)wg;
}
