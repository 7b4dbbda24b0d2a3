// WGTRACE_WATCH(ordinal) on a local: a VALUE record with that ordinal after
// its initialisation (a statement after the declaration) and after every
// assignment, compound assignment, ++ and -- of it in the kernel (the
// change wrapped in ::wgtrace::detail::watched, which keeps the change's
// result and value category). The layout metadata lists "ordinal=name".
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc %}
// The un-instrumented source builds with any compiler.
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.cc %}
#include <wgtrace/wgtrace.h>

// CHECK: {"k", "{{[^"]*}}", "(const wgtrace::Workgroup &wg, float *a, int n) watch: 1=sum 2=i 3=count", {{.*}}
// CHECK: {"tk", "{{[^"]*}}", "(const wgtrace::Workgroup &wg, T *a) watch: 7=t", {{.*}}
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, int n) {
  WGTRACE_WATCH(1) float sum = a[0];
  // CHECK: WGTRACE_WATCH(1) float sum = WGTRACE_LOAD_AT({{[0-9]+}}, a[0]); WGTRACE_VALUE(1, sum);
  for (WGTRACE_WATCH(2) int i = 1; i < n; ++i)
    sum += a[i];
  // WARN: {{.*}}.cc:[[@LINE-2]]:29: warning: initial value of watched variable 'i' not recorded: it is not declared in a block
  // CHECK: for (WGTRACE_WATCH(2) int i = 1; i < n; ::wgtrace::detail::watched(2, __builtin_addressof(i), ++i))
  // CHECK-NEXT: ::wgtrace::detail::watched(1, __builtin_addressof(sum), sum += WGTRACE_LOAD_AT({{[0-9]+}}, a[i]));
  WGTRACE_WATCH(3) int count;
  count = n;
  count--;
  int old = count++;
  // CHECK: WGTRACE_WATCH(3) int count;
  // CHECK-NEXT: ::wgtrace::detail::watched(3, __builtin_addressof(count), count = n);
  // CHECK-NEXT: ::wgtrace::detail::watched(3, __builtin_addressof(count), count--);
  // CHECK-NEXT: int old = ::wgtrace::detail::watched(3, __builtin_addressof(count), count++);
  auto bump = [&] { sum *= 2; };
  bump();
  // CHECK: auto bump = [&] { ::wgtrace::detail::watched(1, __builtin_addressof(sum), sum *= 2); };
  (++count) += old;
  // CHECK: ::wgtrace::detail::watched(3, __builtin_addressof(count), (::wgtrace::detail::watched(3, __builtin_addressof(count), ++count)) += old);
  a[1] = sum;
  (void)wg;
}

template <class T> WGTRACE_DISPATCH void tk(const wgtrace::Workgroup &wg, T *a) {
  WGTRACE_WATCH(7) T t = a[wg.id[0]];
  t = t * 2;
  a[0] = t;
  // CHECK: WGTRACE_WATCH(7) T t = WGTRACE_LOAD_AT({{[0-9]+}}, a[wg.id[0]]); WGTRACE_VALUE(7, t);
  // CHECK-NEXT: ::wgtrace::detail::watched(7, __builtin_addressof(t), t = t * 2);
}
template void tk(const wgtrace::Workgroup &, float *);
template void tk(const wgtrace::Workgroup &, int *);
