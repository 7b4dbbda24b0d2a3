// A template kernel is instrumented once, in its own text: the accesses are
// read off every instantiation in the file and land on the same spelling,
// so each instantiation records its own element size (4 for float, 8 for
// double). Each instantiation is an export of its own, named with its
// template arguments as Clang prints them (axpy<float>, axpy<double>), with
// its own buffer parameters: the end of the file registers it with the tag
// the prologue names (InstanceTag<T>, spelled InstanceTag<float> there),
// and its dispatch sites name it. The template's own entry stands for
// instantiations the end of the file cannot name. A template kernel that
// is never instantiated gets its prologue and a warning, and is listed as
// untraced.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <cstddef>

// CHECK: {"axpy", "{{[^"]*}}", "(const wgtrace::Workgroup &wg, T a, const T *x, T *y, size_t n)", "template <class T>\nWGTRACE_DISPATCH void axpy({{.*}}", {{.*}}template-kernel.cc.tmp.cc", {{[0-9]+}}, {{[0-9]+}}, 1, wgtrace_params_ + 0, 2},
// CHECK: {"unused", {{.*}}},
// CHECK: {"axpy<float>", "{{.*}}:43"},
// CHECK-NEXT: {"axpy<double>", "{{.*}}:44"},
// CHECK: {"{{.*}}template-kernel.cc.tmp.cc", 36, 23, "unused", "template kernel 'unused'", "it is not instantiated in this file, and only its instantiations say which of its expressions access memory: it records its workgroups, not its accesses"},
template <class T>
WGTRACE_DISPATCH void axpy(const wgtrace::Workgroup &wg, T a, const T *x, T *y,
                           size_t n) {
  // CHECK: size_t n) { WGTRACE_WORKGROUP_INSTANCE(wg, 0, ::wgtrace::detail::InstanceTag<T>); WGTRACE_BUFFERS(x, y);
  for (size_t i = wg.id[0] * n; i < (wg.id[0] + 1) * n; ++i)
    y[i] = a * x[i] + y[i];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, y[i]) = a * WGTRACE_LOAD_AT({{[0-9]+}}, x[i]) + WGTRACE_LOAD_AT({{[0-9]+}}, y[i]);
}

template <class T>
WGTRACE_DISPATCH void unused(const wgtrace::Workgroup &wg, T *y) {
  // CHECK: WGTRACE_DISPATCH void unused(const wgtrace::Workgroup &wg, T *y) { WGTRACE_WORKGROUP_INSTANCE(wg, 1, ::wgtrace::detail::InstanceTag<T>); WGTRACE_BUFFERS(y);
  y[wg.id[0]] = T();
}
// WARN: {{.*}}:[[@LINE-4]]:23: warning: template kernel 'unused' is not traced: it is not instantiated in this file, and only its instantiations say which of its expressions access memory: it records its workgroups, not its accesses

void run(float *xf, float *yf, double *xd, double *yd) {
  wgtrace::dispatch(axpy<float>, wgtrace::Grid{4, 1, 1}, 2.0f, xf, yf, 16);
  wgtrace::dispatch(axpy<double>, wgtrace::Grid{4, 1, 1}, 2.0, xd, yd, 16);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(1), axpy<double>, wgtrace::Grid{4, 1, 1}, 2.0, xd, yd, 16);
}
// CHECK: const ::wgtrace::detail::ParamInfo wgtrace_instance_params_[] = {
// CHECK-NEXT:     {"x", "const T *", 2, 0, 4, false},
// CHECK-NEXT:     {"y", "T *", 3, 0, 4, false},
// CHECK-NEXT:     {"x", "const T *", 2, 0, 8, false},
// CHECK-NEXT:     {"y", "T *", 3, 0, 8, false},
// CHECK-NEXT: };
// CHECK-NEXT: const ::wgtrace::detail::InstanceInfo wgtrace_instances_[] = {
// CHECK-NEXT:     {&::wgtrace::detail::kInstanceId<::wgtrace::detail::InstanceTag<float>>, 0, {"axpy<float>", {{.*}}, 1, wgtrace_instance_params_ + 0, 2}},
// CHECK-NEXT:     {&::wgtrace::detail::kInstanceId<::wgtrace::detail::InstanceTag<double>>, 0, {"axpy<double>", {{.*}}, 1, wgtrace_instance_params_ + 2, 2}},
// CHECK-NEXT: };
// CHECK-NEXT: ::wgtrace::detail::KernelInstances wgtrace_instance_registration_0_(wgtrace_module_, wgtrace_instances_ + 0, 2);
