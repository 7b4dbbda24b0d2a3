// A template kernel is instrumented once, in its own text: the accesses are
// read off every instantiation in the file and land on the same spelling,
// so each instantiation records its own element size (4 for float, 8 for
// double). It is one function in the metadata, named without template
// arguments; its dispatch sites name it the same way. A template kernel
// that is never instantiated gets its prologue and a warning, and is listed
// as untraced.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <cstddef>

// CHECK: {"axpy", "{{[^"]*}}", "(const wgtrace::Workgroup &wg, T a, const T *x, T *y, size_t n)", "template <class T>\nWGTRACE_DISPATCH void axpy({{.*}}", {{.*}}template-kernel.cc.tmp.cc", {{[0-9]+}}, {{[0-9]+}}, 1, wgtrace_params_ + 0, 2},
// CHECK: {"unused", {{.*}}},
// CHECK: {"axpy", "{{.*}}:38"},
// CHECK-NEXT: {"axpy", "{{.*}}:39"},
// CHECK: {"{{.*}}template-kernel.cc.tmp.cc", 31, 23, "unused", "template kernel 'unused'", "it is not instantiated in this file, and only its instantiations say which of its expressions access memory: it records its workgroups, not its accesses"},
template <class T>
WGTRACE_DISPATCH void axpy(const wgtrace::Workgroup &wg, T a, const T *x, T *y,
                           size_t n) {
  for (size_t i = wg.id[0] * n; i < (wg.id[0] + 1) * n; ++i)
    y[i] = a * x[i] + y[i];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, y[i]) = a * WGTRACE_LOAD_AT({{[0-9]+}}, x[i]) + WGTRACE_LOAD_AT({{[0-9]+}}, y[i]);
}

template <class T>
WGTRACE_DISPATCH void unused(const wgtrace::Workgroup &wg, T *y) {
  // CHECK: WGTRACE_DISPATCH void unused(const wgtrace::Workgroup &wg, T *y) { WGTRACE_WORKGROUP(wg, 1); WGTRACE_BUFFERS(y);
  y[wg.id[0]] = T();
}
// WARN: {{.*}}:[[@LINE-4]]:23: warning: template kernel 'unused' is not traced: it is not instantiated in this file, and only its instantiations say which of its expressions access memory: it records its workgroups, not its accesses

void run(float *xf, float *yf, double *xd, double *yd) {
  wgtrace::dispatch(axpy<float>, wgtrace::Grid{4, 1, 1}, 2.0f, xf, yf, 16);
  wgtrace::dispatch(axpy<double>, wgtrace::Grid{4, 1, 1}, 2.0, xd, yd, 16);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(1), axpy<double>, wgtrace::Grid{4, 1, 1}, 2.0, xd, yd, 16);
}
