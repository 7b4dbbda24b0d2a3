// With --selectable each kernel also gets its body as written, which the
// workgroups a filter leaves out run instead of the instrumented one;
// #line directives keep the original line numbers, before, inside and after
// the kernel. A body with a label or a static local gets no copy: a second
// one would not mean the same, and a remark says so.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --selectable %t.cc -- %wgtrace-flags 2>%t.err | FileCheck --match-full-lines %s
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void twice(const wgtrace::Workgroup &wg, float *x) {
  x[wg.id[0]] *= 2.0f;
}
// CHECK: WGTRACE_DISPATCH void twice(const wgtrace::Workgroup &wg, float *x) { WGTRACE_WORKGROUP(wg, 0); WGTRACE_BUFFERS(x); if (!WGTRACE_SELECTED()) {
// CHECK-NEXT: #line 11 "{{.*}}.cc"
// CHECK-EMPTY:
// CHECK-NEXT:   x[wg.id[0]] *= 2.0f;
// CHECK-EMPTY:
// CHECK-NEXT: } else {
// CHECK-NEXT: #line 11 "{{.*}}.cc"
// CHECK-EMPTY:
// CHECK-NEXT:   WGTRACE_UPDATE_AT(1, x[wg.id[0]]) *= 2.0f;
// CHECK-NEXT: }}

WGTRACE_DISPATCH void counted(const wgtrace::Workgroup &wg, int *x) {
  static int calls = 0;
  x[wg.id[0]] = ++calls;
}
// CHECK: WGTRACE_DISPATCH void counted(const wgtrace::Workgroup &wg, int *x) { WGTRACE_WORKGROUP(wg, 1); WGTRACE_BUFFERS(x);
// CHECK-NEXT:   static int calls = 0;
// REMARK: {{.*}}.cc:[[@LINE-6]]:23: remark: --selectable: kernel 'counted' has no uninstrumented copy for the workgroups a filter leaves out (its static local 'calls' would be two variables); they run it instrumented, recording nothing

WGTRACE_DISPATCH void jumps(const wgtrace::Workgroup &wg, int *x) {
  if (wg.id[0] == 0)
    goto done;
  x[wg.id[0]] = 1;
done:
  return;
}
// CHECK: WGTRACE_DISPATCH void jumps(const wgtrace::Workgroup &wg, int *x) { WGTRACE_WORKGROUP(wg, 2); WGTRACE_BUFFERS(x);
// REMARK: {{.*}}.cc:[[@LINE-8]]:23: remark: --selectable: kernel 'jumps' has no uninstrumented copy for the workgroups a filter leaves out (it has a label, which a function may have only once); they run it instrumented, recording nothing

int main() {
  float x[2] = {1, 2};
  wgtrace::dispatch(twice, wgtrace::Grid{2, 1, 1}, x);
  // CHECK: wgtrace::dispatch(WGTRACE_SITE(0), twice, wgtrace::Grid{2, 1, 1}, x);
  return x[1] == 4 ? 0 : 1;
}
