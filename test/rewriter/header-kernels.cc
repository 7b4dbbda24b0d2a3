// A kernel defined in a project header is instrumented where this file
// uses it: copied here, instrumented, under a name of its own (like a
// header helper), and the file's uses (dispatch arguments, direct calls,
// addresses) go to the copy. The copy records its workgroups under a module
// that every file copying the kernel defines alike (inline variables named
// after the kernel's place), so the kernel is one function in the trace.
// The header is not rewritten; a kernel this file does not use is not
// copied; one that cannot be copied is untraced (warning, table entry).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include "header_kernels.h"

// CHECK: {"lib::scaleBy<float>", "{{.*}}.cc:49"},
// CHECK-NEXT: {"lib::scaleBy<double>", "{{.*}}.cc:49"},
// CHECK-NEXT: {"lib::scaleBy<float>", "{{.*}}.cc:57"},
// CHECK-NEXT: {"lib::scaleBy<double>", "{{.*}}.cc:59"},
// CHECK-NEXT: {"lib::counted", "{{.*}}.cc:65"},
// CHECK: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT: {"{{.*}}Inputs/header_kernels.h", 12, 3, 2, "lib::scaleBy", "data[wg.id[0]]"},
// CHECK-NEXT: {"{{.*}}Inputs/header_kernels.h", 16, 3, 1, "lib::bump", "data[wg.id[0]]"},
// CHECK-NEXT: {"{{.*}}Inputs/header_kernels.h", 16, 26, 0, "lib::bump", "data[wg.id[0]]"},
// CHECK-NEXT: };
// CHECK-NEXT: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}Inputs/header_kernels.h", 26, 3, "lib::launchBump", "launch of 'lib::bump'", "it is written in {{.*}}header_kernels.h, which is not rewritten: its workgroups are not recorded (launch the kernel from a source file, where the launch is instrumented)"},
// CHECK-NEXT: {"{{.*}}.cc", 65, 21, "lib::counted", "kernel 'lib::counted'", "it is defined in {{.*}}header_kernels.h, which is not rewritten, and cannot be copied here (it has a static local variable, which a copy would duplicate): its workgroups and accesses are not recorded"},
// CHECK: inline const ::wgtrace::detail::ParamInfo [[SCALE:wgtrace_kernel_[0-9a-f]+_]]params_[] = {{[{][{]}}"data", "T *", 1, 0, 0, false}, };
// CHECK-NEXT: inline const ::wgtrace::detail::FunctionInfo [[SCALE]]functions_[] = {{[{][{]}}"lib::scaleBy", "{{[^"]*}}", "(const wgtrace::Workgroup &wg, T *data, T f)", "template <class T>\nWGTRACE_DISPATCH void scaleBy({{.*}}", "{{.*}}Inputs/header_kernels.h", 11, 23, 1, [[SCALE]]params_, 1}};
// CHECK-NEXT: inline ::wgtrace::detail::Module [[SCALE]]([[SCALE]]functions_, 1, nullptr, 0);
// CHECK-NEXT: namespace lib {
// CHECK-NEXT: #line 10 "{{.*}}Inputs/header_kernels.h"
// CHECK-NEXT: template <class T>
// CHECK-NEXT: static inline WGTRACE_DISPATCH void scaleBy_wgtrace_{{[0-9]+}}(const wgtrace::Workgroup &wg, T *data, T f) { WGTRACE_WORKGROUP_INSTANCE_OF(::[[SCALE]], wg, 0, ::wgtrace::detail::InstanceTag<T>); WGTRACE_BUFFERS(data);
// CHECK-NEXT:   WGTRACE_UPDATE_AT(1, data[wg.id[0]]) *= f;
// CHECK: #line 48 "{{.*}}.cc"
// CHECK-NEXT: template <class T> void runAll(T *p) {
// CHECK: inline const ::wgtrace::detail::ParamInfo [[BUMP:wgtrace_kernel_[0-9a-f]+_]]params_[] = {{[{][{]}}"data", "float *", 1, 0, 4, false}, };
// CHECK: inline ::wgtrace::detail::Module [[BUMP]]([[BUMP]]functions_, 1, nullptr, 0);
// CHECK: static WGTRACE_DISPATCH inline void bump_wgtrace_{{[0-9]+}}(const wgtrace::Workgroup &wg, float *data) { WGTRACE_WORKGROUP_OF(::[[BUMP]], wg, 0); WGTRACE_BUFFERS(data);
// CHECK-NEXT:   WGTRACE_STORE_AT(2, data[wg.id[0]]) = twice_wgtrace_{{[0-9]+}}(WGTRACE_LOAD_AT(3, data[wg.id[0]])) + 1;
// CHECK-NOT: unused_wgtrace

// A function template that uses a kernel first: the copies go before its
// template header.
// (checked after the copy of scaleBy, above)
template <class T> void runAll(T *p) {
  wgtrace::dispatch(lib::scaleBy<T>, wgtrace::Grid{1, 1, 1}, p, T{2});
}
void both(float *f, double *d) {
  runAll(f);
  runAll(d);
}

void run(float *f, double *d, int *n) {
  wgtrace::dispatch(lib::scaleBy<float>, wgtrace::Grid{4, 1, 1}, f, 2.0f);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(2), lib::scaleBy_wgtrace_[[N:[0-9]+]]<float>, wgtrace::Grid{4, 1, 1}, f, 2.0f);
  wgtrace::dispatch(&lib::scaleBy<double>, wgtrace::Grid{4, 1, 1}, d, 3.0);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(3), &lib::scaleBy_wgtrace_[[N]]<double>, wgtrace::Grid{4, 1, 1}, d, 3.0);
  using lib::bump;
  wgtrace::Workgroup wg{};
  bump(wg, f);
  // CHECK: ::lib::bump_wgtrace_{{[0-9]+}}(wg, f);
  wgtrace::dispatch(lib::counted, wgtrace::Grid{4, 1, 1}, n);
  // WARN-DAG: [[@LINE-1]]:21: warning: kernel 'lib::counted' is not traced: it is defined in {{.*}}header_kernels.h, which is not rewritten, and cannot be copied here (it has a static local variable, which a copy would duplicate): its workgroups and accesses are not recorded
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(4), lib::counted, wgtrace::Grid{4, 1, 1}, n);
  lib::launchBump(f);
  // WARN-DAG: header_kernels.h:26:3: warning: launch of 'lib::bump' is not traced: it is written in {{.*}}header_kernels.h, which is not rewritten: its workgroups are not recorded (launch the kernel from a source file, where the launch is instrumented)
}
// The instantiations this file makes are exports of their own, with their
// own buffer parameters, registered with the kernel's shared module.
// CHECK: const ::wgtrace::detail::ParamInfo wgtrace_instance_params_[] = {
// CHECK-NEXT:     {"data", "T *", 1, 0, 4, false},
// CHECK-NEXT:     {"data", "T *", 1, 0, 8, false},
// CHECK-NEXT: };
// CHECK-NEXT: const ::wgtrace::detail::InstanceInfo wgtrace_instances_[] = {
// CHECK-NEXT:     {&::wgtrace::detail::kInstanceId<::wgtrace::detail::InstanceTag<float>>, 0, {"lib::scaleBy<float>", {{.*}}, 1, wgtrace_instance_params_ + 0, 1}},
// CHECK-NEXT:     {&::wgtrace::detail::kInstanceId<::wgtrace::detail::InstanceTag<double>>, 0, {"lib::scaleBy<double>", {{.*}}, 1, wgtrace_instance_params_ + 1, 1}},
// CHECK-NEXT: };
// CHECK-NEXT: ::wgtrace::detail::KernelInstances wgtrace_instance_registration_0_(::[[SCALE]], wgtrace_instances_ + 0, 2);
