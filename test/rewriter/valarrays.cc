// A std::valarray of the kernel's (a parameter's, or a local's: its
// elements are on the heap) given to std::valarray's operators, its
// members sum/min/max/apply/shift/cshift or the math functions that have
// valarray overloads is wrapped in va::recorded, and the math function is
// sent to wgtrace's version: every element read and written in library
// code is recorded at the operation's site, in libstdc++'s order (the
// algorithms oracle's valarrays.cc checks the order). A temporary valarray
// is not memory; a slice, mask or index array is reported untraced
// (library-members.cc).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: not grep warning: %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <cmath>
#include <valarray>

// CHECK: #include <wgtrace/detail/valarray.h>
// Each valarray is an access site of kind 3 (a call) named by the operation.
// CHECK: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT: {"{{.*}}", [[#LINE:]], 3, 3, "k", "A += B + s * C"},
// CHECK-NEXT: {"{{.*}}", [[#LINE]], 8, 3, "k", "B + s * C"},
// CHECK-NEXT: {"{{.*}}", [[#LINE]], 12, 3, "k", "s * C"},
// CHECK-NEXT: {"{{.*}}", [[#LINE+2]], 3, 3, "k", "C = std::sqrt(B) - std::pow(A, 2.0)"},
// CHECK-NEXT: {"{{.*}}", [[#LINE+2]], 7, 3, "k", "std::sqrt(B)"},

static double twice(double X) { return 2 * X; }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, std::valarray<double> &A,
                        const std::valarray<double> &B,
                        std::valarray<double> &C, const double &f) {
  double s = 2.0 + wg.id[0];
  A += B + s * C;
  // CHECK: ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(1), A) += ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(2), B) + s * ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(3), C);
  C = std::sqrt(B) - std::pow(A, 2.0);
  // CHECK: ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(4), C) = ::wgtrace::detail::va::sqrt(::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(5), B)) - ::wgtrace::detail::va::pow(::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(6), A), 2.0);
  double t = A.sum() + B.max() + C.apply(twice).min();
  // CHECK: double t = ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(7), A).sum() + ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(8), B).max() + ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(9), C).apply(twice).min();
  std::valarray<double> L = B.cshift(1);
  // CHECK: std::valarray<double> L = ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(10), B).cshift(1);
  L *= t;
  // CHECK: ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(11), L) *= t;
  // A temporary is not memory: only B is wrapped.
  A = std::valarray<double>(B * 2.0) + 1.0;
  // CHECK: ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(12), A) = std::valarray<double>(::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(13), B) * 2.0) + 1.0;
  // An element is an ordinary access; size() reads no element.
  A[0] = L[1] + double(A.size());
  // CHECK: WGTRACE_STORE_AT(14, A[0]) = WGTRACE_LOAD_AT(15, L[1]) + double(A.size());
  // A scalar of kernel memory taken by reference is read by the library:
  // wrapped; the kernel's own local s is not memory.
  A += f * B + s;
  // CHECK: ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(16), A) += ::wgtrace::detail::va::scalar(WGTRACE_ACCESS_SITE(18), f) * ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(17), B) + s;
  C = f;
  // CHECK: ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(19), C) = ::wgtrace::detail::va::scalar(WGTRACE_ACCESS_SITE(20), f);
}
