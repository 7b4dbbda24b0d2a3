// Library code handed kernel memory reads or writes it where wgtrace
// cannot record: building a container or a string from it (but a
// std::vector from a range of its elements, recorded), a container's
// member functions given it, a value handed by reference (std::pair,
// std::vector(n, v), std::max with a comparison, a function object). Each is
// untraced (warning, table entry, --strict error); they were silent. A
// view keeps the pointer and reads nothing (std::span, std::string_view
// with a length, std::reverse_iterator): not reported; what the kernel
// reads through it is recorded where it does.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: not %wgtrace-rewrite --strict %t.cc -- %wgtrace-flags -std=c++20 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %cxx -fsyntax-only -std=c++20 -Wall -Wextra -Werror -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <iostream>
#include <iterator>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 15, "k", "s(text)", "construction of 'std::basic_string' is given kernel memory ('text') by pointer or reference and reads or writes it in library code, which wgtrace does not record"},
// CHECK-NEXT: {"{{.*}}", [[#]], 27, "k", "pr(a[4], a[5])", "construction of 'std::pair' is given kernel memory ('a[4]') {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 14, "k", "std::max(a[7], a[8], std::less<float>())", "'std::max' is given kernel memory ('a[7]') {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 20, "k", "sv(text)", "construction of 'std::basic_string_view' is given kernel memory ('text') {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 16, "k", "std::strlen(text)", "'strlen' is given kernel memory ('text') {{.*}}"},
// CHECK-NEXT: {"{{.*}}", [[#]], 15, "k", "add(a[10], 1.0f)", "'std::plus::operator()' is given kernel memory ('a[10]') {{.*}}"},
// CHECK-NEXT: };
static std::mt19937 engine;

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, int n,
                        const char *text) {
  // A vector of a range of its own element type records (vector-construction.cc).
  std::vector<float> v(a, a + n);
  // CHECK: std::vector<float> v(::wgtrace::detail::recorded::vectorFrom<'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), a, a + n));
  std::string s(text);
  // WARN: [[@LINE-1]]:15: warning: call 's(text)' is not traced: construction of 'std::basic_string'
  // STRICT: [[@LINE-2]]:15: error: call 's(text)' is not traced
  // std::vector's members record what they read (vector-members.cc).
  v.assign(a, a + 2);
  // CHECK: ::wgtrace::detail::recorded::vector<'M', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), v).assign(a, a + 2);
  v.push_back(a[3]);
  // CHECK: ::wgtrace::detail::recorded::vector<'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), v).push_back(a[3]);
  std::pair<float, float> pr(a[4], a[5]);
  // WARN: [[@LINE-1]]:27: warning: call 'pr(a[4], a[5])' is not traced: construction of 'std::pair'
  std::vector<float> fill(4, a[6]);
  // CHECK: std::vector<float> fill(::wgtrace::detail::recorded::vectorFilled<'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), 4, a[6]));
  // std::max of numbers is recorded (its reads, in libstdc++'s order); with
  // a comparison it is a library call like the others.
  float m = std::max(a[7], a[8]);
  // CHECK: float m = WGTRACE_LOAD_AT({{[0-9]+}}, ::wgtrace::detail::tracedMax<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a[7], a[8]));
  float mc = std::max(a[7], a[8], std::less<float>());
  // WARN: [[@LINE-1]]:14: warning: call 'std::max(a[7], a[8], std::less<float>())' is not traced: 'std::max'
  // CHECK: float mc = WGTRACE_LOAD_AT({{[0-9]+}}, std::max(a[7], a[8], std::less<float>()));
  std::string_view sv(text);
  // WARN: [[@LINE-1]]:20: warning: call 'sv(text)' is not traced: construction of 'std::basic_string_view'
  size_t len = std::strlen(text) + std::strlen("literal");
  // WARN: [[@LINE-1]]:16: warning: call 'std::strlen(text)' is not traced: 'strlen'
  std::plus<float> add;
  float sum = add(a[10], 1.0f);
  // WARN: [[@LINE-1]]:15: warning: call 'add(a[10], 1.0f)' is not traced: 'std::plus::operator()'
  // Views, library objects built from locals or string literals: nothing
  // to report.
  std::span<float> view(a, n);
  std::string_view name(text, 4);
  std::reverse_iterator<float *> back(a + n);
  float local[2] = {1, 2};
  std::vector<float> copy(local, local + 2);
  std::pair<float, float> lp(local[0], local[1]);
  std::string greeting("hello");
  a[9] = view[1] + float(name.size()) + *back + m + copy[0] + lp.first +
         pr.first + float(s.size() + sv.size() + fill.size() + v.size()) +
         float(len + greeting.size()) + sum + mc;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[9]) = WGTRACE_LOAD_AT({{[0-9]+}}, view[1]) + float(name.size()) + WGTRACE_LOAD_AT({{[0-9]+}}, *back) + m + WGTRACE_LOAD_AT({{[0-9]+}}, copy[0]) + lp.first +
  // A library object that holds only the library's own state (a stream, a
  // random engine) is not kernel memory, global or not: the element the
  // kernel prints is.
  std::cout << "a[0] = " << a[0] << std::endl;
  // CHECK: std::cout << "a[0] = " << WGTRACE_LOAD_AT({{[0-9]+}}, a[0]) << std::endl;
  a[10] = std::uniform_real_distribution<float>(0, 1)(engine);
}
