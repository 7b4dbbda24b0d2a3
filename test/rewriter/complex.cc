// The operators, members and functions of <complex> read their complex
// operands and write their objects in library code. A std::complex<T> of
// a floating T is two T, read and written whole (libstdc++'s `__complex__
// T`), so each operand of kernel memory is wrapped as a read of its whole
// value, the object of `=` as a store and of `+=`, `*=`, ... as an update;
// `real()` and `imag()` read or write one part (detail::cx::part). A
// comparison, which reads the imaginary parts only when the real ones are
// equal, and the primary template (complex<int>), whose members touch the
// parts one by one, stay reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <complex>

using C = std::complex<double>;

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#]], 7, "k", "a[i] == w[i]", "'std::operator==' is given kernel memory ('a[i]') by pointer or reference and reads or writes it in library code, which wgtrace does not record"},
// CHECK-NEXT: {"{{.*}}", [[#]], 3, "k", "n[i] += n[i + 1]", "'std::complex::operator+=' is given kernel memory ('n[i + 1]') by pointer or reference {{.*}}"},
// CHECK-NEXT: };

double imagOf(const C &z) { return z.imag(); }
// CHECK: double imagOf(const C &z) { return ::wgtrace::detail::cx::part<1, false, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), z).imag(); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, C *a, const C *w,
                        double *r, std::complex<int> *n) {
  int i = wg.id[0];
  C t = w[i] * a[i + 1];
  // CHECK: C t = WGTRACE_LOAD_AT({{[0-9]+}}, w[i]) * WGTRACE_LOAD_AT({{[0-9]+}}, a[i + 1]);
  a[i] = t;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[i]) = t;
  a[i] = r[i];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, r[i]);
  a[i] += w[i];
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, a[i]) += WGTRACE_LOAD_AT({{[0-9]+}}, w[i]);
  a[i] *= r[i];
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, a[i]) *= WGTRACE_LOAD_AT({{[0-9]+}}, r[i]);
  t *= 2.0;
  // CHECK: t *= 2.0;
  r[i] = a[i].real() + std::imag(w[i]) + imagOf(a[i]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, r[i]) = ::wgtrace::detail::cx::part<0, false, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}), a[i]).real() + std::imag(::wgtrace::detail::cx::part<1, false, false>(WGTRACE_ACCESS_SITE({{[0-9]+}}), w[i])) + imagOf(a[i]);
  a->imag(r[i]);
  // CHECK: ::wgtrace::detail::cx::part<1, true, true>(WGTRACE_ACCESS_SITE({{[0-9]+}}), a)->imag(WGTRACE_LOAD_AT({{[0-9]+}}, r[i]));
  r[i] = std::abs(w[i]) + std::norm(t) + std::arg(-a[i]);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, r[i]) = std::abs(WGTRACE_LOAD_AT({{[0-9]+}}, w[i])) + std::norm(t) + std::arg(-WGTRACE_LOAD_AT({{[0-9]+}}, a[i]));
  a[i] = std::exp(w[i] / r[i]) + std::pow(a[i], 2.0);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[i]) = std::exp(WGTRACE_LOAD_AT({{[0-9]+}}, w[i]) / WGTRACE_LOAD_AT({{[0-9]+}}, r[i])) + std::pow(WGTRACE_LOAD_AT({{[0-9]+}}, a[i]), 2.0);
  std::complex<float> f(a[i]);
  // CHECK: std::complex<float> f(WGTRACE_LOAD_AT({{[0-9]+}}, a[i]));
  a[i + 1] = std::polar(r[i], r[i + 1]) + C(f);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[i + 1]) = std::polar(WGTRACE_LOAD_AT({{[0-9]+}}, r[i]), WGTRACE_LOAD_AT({{[0-9]+}}, r[i + 1])) + C(f);
  if (a[i] == w[i])
    // WARN: [[@LINE-1]]:7: warning: call 'a[i] == w[i]' is not traced: 'std::operator==' is given kernel memory ('a[i]')
    r[i] = 0;
  n[i] += n[i + 1];
  // WARN: [[@LINE-1]]:3: warning: call 'n[i] += n[i + 1]' is not traced: 'std::complex::operator+=' is given kernel memory ('n[i + 1]')
}
