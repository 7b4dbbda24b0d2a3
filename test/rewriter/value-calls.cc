// std::min, std::max, std::clamp, std::swap, std::exchange, std::ranges::swap
// and the iter_swap forms over kernel memory go to recording copies whose
// template flags say which arguments are memory (never a temporary, a
// local or a by-value parameter). Where only some arguments of min, max or
// clamp are memory and the result is read at once, the copy's `choose`
// says whether the argument returned is memory, and readChosen records the
// read only then. Swaps of objects wgtrace cannot copy stay untraced.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <algorithm>
#include <string>
#include <utility>

struct Pair {
  float x;
  int y;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, int *a, const int &n,
                        int t, Pair *p, double (*m)[2], std::string *s) {
// CHECK: int t, Pair *p, double (*m)[2], std::string *s) { WGTRACE_WORKGROUP(wg, 0); WGTRACE_BUFFERS(a, ::wgtrace::detail::objectBuffer(n), p, m, s);
  for (int i = 0; i < std::min(n, t + 1); ++i)
// CHECK: for (int i = 0; i < ::wgtrace::detail::readChosen(WGTRACE_ACCESS_SITE({{[0-9]+}}), ::wgtrace::detail::tracedMin<true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}})).choose(n, t + 1)); ++i)
    a[i] += 1;
// CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, a[i]) += 1;
  int lo = std::max(a[0], t);
// CHECK: int lo = ::wgtrace::detail::readChosen(WGTRACE_ACCESS_SITE({{[0-9]+}}), ::wgtrace::detail::tracedMax<true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}})).choose(a[0], t));
  a[1] = std::max(a[2], a[3]) + std::min(t, lo) + std::clamp(t, a[4], 9);
// CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[1]) = WGTRACE_LOAD_AT({{[0-9]+}}, ::wgtrace::detail::tracedMax<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a[2], a[3])) + std::min(t, lo) + ::wgtrace::detail::readChosen(WGTRACE_ACCESS_SITE({{[0-9]+}}), ::wgtrace::detail::tracedClamp<false, true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}})).choose(t, a[4], 9));
  const int &r = std::min(a[5], lo);
// CHECK: const int &r = ::wgtrace::detail::tracedMin<true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a[5], lo);
  std::swap(a[6], a[7]);
// CHECK: ::wgtrace::detail::tracedSwap<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a[6], a[7]);
  std::swap(lo, a[8]);
// CHECK: ::wgtrace::detail::tracedSwap<false, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(lo, a[8]);
  std::swap(p[0], p[1]);
// CHECK: ::wgtrace::detail::tracedSwap<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(p[0], p[1]);
  std::swap(m[0], m[1]);
// CHECK: ::wgtrace::detail::tracedSwap<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(m[0], m[1]);
  a[9] = std::exchange(a[10], t) + r;
// CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[9]) = ::wgtrace::detail::tracedExchange<true, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a[10], t) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, r);
  std::ranges::swap(a[11], a[12]);
// CHECK: ::wgtrace::detail::tracedSwap<true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a[11], a[12]);
  std::iter_swap(a + 13, a + 14);
// CHECK: ::wgtrace::detail::recorded::iter_swap<'M', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a + 13, a + 14);
  std::ranges::iter_swap(p, p + 1);
// CHECK: ::wgtrace::detail::recorded::ranges::iter_swap<'M', 'M'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(p, p + 1);
  std::swap(s[0], s[1]);
  // WARN: {{.*}}.cc:[[@LINE-1]]:3: warning: call 'std::swap(s[0], s[1])' is not traced: 'std::swap' is given kernel memory ('s[0]') by pointer or reference and reads or writes it in library code, which wgtrace does not record
  (void)wg;
}
