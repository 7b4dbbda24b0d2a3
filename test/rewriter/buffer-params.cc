// The workgroup prologue names the kernel's buffers: after
// WGTRACE_WORKGROUP, WGTRACE_BUFFERS records each pointer, reference, span,
// array and reference to a contiguous container, in parameter order (the
// ordinal of its VALUE records is its index in the ParamInfo table). Plain
// values and the Workgroup are not buffers. A template kernel's parameters
// are classified by its instantiations; the element size of a parameter
// whose instantiations differ in it is 0.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc %}
#include <wgtrace/wgtrace.h>

#include <array>
#include <span>
#include <vector>

// CHECK:const ::wgtrace::detail::ParamInfo wgtrace_params_[] = {
// CHECK-NEXT:    {"a", "const float *", 1, 0, 4, false},
// CHECK-NEXT:    {"b", "float *", 2, 0, 4, false},
// CHECK-NEXT:    {"s", "std::span<float>", 4, 2, 4, true},
// CHECK-NEXT:    {"v", "const std::vector<double> &", 5, 4, 8, true},
// CHECK-NEXT:    {"obj", "Pair &", 6, 1, 8, true},
// CHECK-NEXT:    {"arr", "float[16]", 7, 3, 4, true},
// CHECK-NEXT:    {"ar", "std::array<int, 4> &", 8, 4, 4, true},
// CHECK-NEXT:    {"rows", "float (*)[8]", 9, 0, 32, false},
// CHECK-NEXT:    {"raw", "void *", 10, 0, 0, false},
// CHECK-NEXT:    {"rr", "float &&", 11, 1, 4, true},
// CHECK-NEXT:    {"x", "T *", 1, 0, 0, false},
// CHECK-NEXT:    {"s", "std::span<T>", 2, 2, 0, true},
// CHECK-NEXT:    {"r", "T &", 3, 1, 0, true},
// CHECK-NEXT:    {"out", "float *", 3, 0, 4, false},
// CHECK-NEXT:};
// CHECK-NEXT:const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {
// CHECK-NEXT:    {"all_kinds", {{.*}}, 0, wgtrace_params_ + 0, 10},
// CHECK-NEXT:    {"templated", {{.*}}, 1, wgtrace_params_ + 10, 3},
// CHECK-NEXT:    {"no_names", {{.*}}, 0, wgtrace_params_ + 13, 1},
// CHECK-NEXT:    {"values_only", {{.*}}, 0, nullptr, 0},
// CHECK-NEXT:};

struct Pair {
  float x, y;
};

WGTRACE_DISPATCH void all_kinds(const wgtrace::Workgroup &wg, const float *a,
                                float *b, int n, std::span<float> s,
                                const std::vector<double> &v, Pair &obj,
                                float arr[16], std::array<int, 4> &ar,
                                float (*rows)[8], void *raw, float &&rr) {
  // CHECK: float (*rows)[8], void *raw, float &&rr) { WGTRACE_WORKGROUP(wg, 0); WGTRACE_BUFFERS(a, b, ::wgtrace::detail::rangeBuffer(s), ::wgtrace::detail::rangeBuffer(v), ::wgtrace::detail::objectBuffer(obj), ::wgtrace::detail::arrayBuffer<16>(arr), ::wgtrace::detail::rangeBuffer(ar), rows, raw, ::wgtrace::detail::objectBuffer(rr));
  b[0] = a[0] + s[1] + float(v[2]) + obj.x + arr[3] + float(ar[1]) +
         rows[1][2] + rr + float(n);
  (void)raw;
}

template <class T>
WGTRACE_DISPATCH void templated(const wgtrace::Workgroup &wg, T *x,
                                std::span<T> s, T &r) {
  // CHECK: std::span<T> s, T &r) { WGTRACE_WORKGROUP_INSTANCE(wg, 1, ::wgtrace::detail::InstanceTag<T>); WGTRACE_BUFFERS(x, ::wgtrace::detail::rangeBuffer(s), ::wgtrace::detail::objectBuffer(r));
  x[wg.id[0]] = s[0] + r;
}
template void templated<float>(const wgtrace::Workgroup &, float *,
                               std::span<float>, float &);
template void templated<double>(const wgtrace::Workgroup &, double *,
                                std::span<double>, double &);

// An unnamed parameter cannot be spelled in the prologue.
WGTRACE_DISPATCH void no_names(const wgtrace::Workgroup &wg, float *, int,
                               float *out) {
  // CHECK: float *out) { WGTRACE_WORKGROUP(wg, 2); WGTRACE_BUFFERS(out);
  out[wg.id[0]] = 1;
}

WGTRACE_DISPATCH void values_only(const wgtrace::Workgroup &wg, int n,
                                  Pair p) {
  // CHECK: Pair p) { WGTRACE_WORKGROUP(wg, 3);
  (void)wg;
  (void)n;
  (void)p;
}
