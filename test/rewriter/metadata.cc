// The module block: nothing before it, one FunctionInfo per kernel with its
// qualified name, target (triple and code-changing flags), parameter layout
// and its exact source text, C-escaped on one line, and its buffer
// parameters (ParamInfo: name, type, position, kind, element size, whether
// an extent is recorded); one AccessSiteInfo per access wrapped (file, line,
// column, kind, function, text); then #line 1 so that the original lines
// keep their numbers.
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

static_assert(__LINE__ == 21, "the original lines keep their numbers");

// CHECK:#include <wgtrace/instrument.h>
// CHECK-NEXT:namespace {
// CHECK-NEXT:const ::wgtrace::detail::ParamInfo wgtrace_params_[] = {
// CHECK-NEXT:    {"a", "const float *", 1, 0, 4, false},
// CHECK-NEXT:    {"b", "const float *", 2, 0, 4, false},
// CHECK-NEXT:    {"c", "float *", 3, 0, 4, false},
// CHECK-NEXT:};
// CHECK-NEXT:const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {
// CHECK-NEXT:    {"ns::simple_mul", "x86_64-{{.*}}-linux-gnu -O2 -mavx2", "(const wgtrace::Workgroup &wg, const float *a, const float *b, float *c, uint32_t n)", "WGTRACE_DISPATCH void simple_mul(const wgtrace::Workgroup &wg, const float *a, const float *b, float *c, uint32_t n) {\n  c[wg.id[0] * n] = a[0] * b[0] + \"\\\"q\\\"\\t?\?=\"[0];\n}", "{{.*}}metadata.cc.tmp.cc", 16, 23, 0, wgtrace_params_ + 0, 3},
// CHECK-NEXT:};
// CHECK-NEXT:const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT:    {"{{.*}}metadata.cc.tmp.cc", 17, 3, 1, "ns::simple_mul", "c[wg.id[0] * n]"},
// CHECK-NEXT:    {"{{.*}}metadata.cc.tmp.cc", 17, 21, 0, "ns::simple_mul", "a[0]"},
// CHECK-NEXT:    {"{{.*}}metadata.cc.tmp.cc", 17, 28, 0, "ns::simple_mul", "b[0]"},
// CHECK-NEXT:    {"{{.*}}metadata.cc.tmp.cc", 17, 35, 0, "ns::simple_mul", "\"\\\"q\\\"\\t?\?=\"[0]"},
// CHECK-NEXT:};
// CHECK-NEXT:WGTRACE_ACCESS_SITE_TABLE(4)
// CHECK-NEXT:::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 1, nullptr, 0, WGTRACE_MODULE_EXTRAS(wgtrace_access_sites_, 4, nullptr, 0, wgtrace_access_site_bits_));
// CHECK-NEXT:} // namespace
// CHECK-NEXT:#line 1 "{{.*}}metadata.cc.tmp.cc"
// CHECK-NEXT:// The module block: nothing before it, one FunctionInfo per kernel with its
