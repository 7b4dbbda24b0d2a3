// The module block: nothing before it, one FunctionInfo per kernel with its
// qualified name, target (triple and code-changing flags), parameter layout
// and its exact source text, C-escaped on one line; then #line 1 so that the
// original lines keep their numbers.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -O2 -mavx2 > %t.out
// RUN: FileCheck --match-full-lines --strict-whitespace %s < %t.out
// RUN: %cxx -fsyntax-only -std=c++17 -I %wgtrace-include %t.out
#include <wgtrace/wgtrace.h>
#include <cstdint>

namespace ns {
WGTRACE_DISPATCH void simple_mul(const wgtrace::Workgroup &wg, const float *a, const float *b, float *c, uint32_t n) {
  c[wg.id[0] * n] = a[0] * b[0] + "\"q\"\t??="[0];
}
} // namespace ns

static_assert(__LINE__ == 18, "the original lines keep their numbers");

// CHECK:#include <wgtrace/instrument.h>
// CHECK-NEXT:namespace {
// CHECK-NEXT:const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {
// CHECK-NEXT:    {"ns::simple_mul", "x86_64-{{.*}}-linux-gnu -O2 -mavx2", "(const wgtrace::Workgroup &wg, const float *a, const float *b, float *c, uint32_t n)", "WGTRACE_DISPATCH void simple_mul(const wgtrace::Workgroup &wg, const float *a, const float *b, float *c, uint32_t n) {\n  c[wg.id[0] * n] = a[0] * b[0] + \"\\\"q\\\"\\t?\?=\"[0];\n}", "{{.*}}metadata.cc.tmp.cc", 13, 23, 0, nullptr, 0},
// CHECK-NEXT:};
// CHECK-NEXT:::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 1, nullptr, 0);
// CHECK-NEXT:} // namespace
// CHECK-NEXT:#line 1 "{{.*}}metadata.cc.tmp.cc"
// CHECK-NEXT:// The module block: nothing before it, one FunctionInfo per kernel with its
