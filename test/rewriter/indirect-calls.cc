// Calls through pointers in a kernel or a helper go through the runtime's
// lookup (throughPointer, throughMember, throughFunction), named by their
// entry in the module's table of such calls. Every function of the file
// and of project headers that such a call may reach (of the pointer's
// type) is instrumented: in place, or copied from its header (at the end
// of the file when nothing names it), and registered at the end of the
// file with its plain address. A header function that cannot be copied
// (a static local) is not registered: calls that reach it are counted at
// run time. Functions of another type and private members are not
// targets; a virtual one is, all its overrides being in this file.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "indirect-stencils.h"

#include <functional>

// CHECK: const ::wgtrace::detail::IndirectCallInfo wgtrace_indirect_call_info_[] = {
// CHECK-NEXT:     {"{{.*}}.cc", 58, 3, "k", "stencil(8, a, a + 8)"},
// CHECK-NEXT:     {"{{.*}}.cc", 62, 3, "k", "(s.*step)(a)"},
// CHECK-NEXT:     {"{{.*}}.cc", 64, 3, "k", "f(8, a, a + 8)"},
// CHECK-NEXT:     {"{{.*}}.cc", 52, 45, "helper", "s(4, out, out + 4)"},
// CHECK-NEXT: };
// CHECK-NEXT: ::wgtrace::detail::IndirectCalls wgtrace_indirect_calls_(wgtrace_indirect_call_info_, 4);

static void star0(int n, const float *in, float *out) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i];
}
// CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, out[i]) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, in[i]);
[[maybe_unused]] static float other(const float *in) { return in[0]; }
// CHECK: {{\[\[}}maybe_unused]] static float other(const float *in) { return in[0]; }

struct Step {
  void scale(float *p) const { p[0] *= 2; }
  // CHECK: void scale(float *p) const { WGTRACE_UPDATE_REF_AT({{[0-9]+}}, p[0]) *= 2; }
  virtual void shift(float *p) const { p[0] += 1; }
  // CHECK: virtual void shift(float *p) const { WGTRACE_UPDATE_REF_AT({{[0-9]+}}, p[0]) += 1; }
  virtual ~Step() = default;

private:
  void hidden(float *p) const { p[1] = 0; }
  // CHECK: void hidden(float *p) const { p[1] = 0; }
};

using Stencil = void (*)(int, const float *, float *);

static void helper(Stencil s, float *out) { s(4, out, out + 4); }
// CHECK: static void helper(Stencil s, float *out) { ::wgtrace::detail::throughPointer(WGTRACE_INDIRECT_CALL(3), s)(4, out, out + 4); }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Stencil stencil,
                        float *a, void (Step::*step)(float *) const,
                        const std::function<void(int, const float *, float *)> &f) {
  stencil(8, a, a + 8);
  // CHECK: ::wgtrace::detail::throughPointer(WGTRACE_INDIRECT_CALL(0), stencil)(8, a, a + 8);
  helper(stencil, a);
  Step s;
  (s.*step)(a);
  // CHECK: (s.*::wgtrace::detail::throughMember(WGTRACE_INDIRECT_CALL(1), step))(a);
  f(8, a, a + 8);
  // CHECK: ::wgtrace::detail::throughFunction(WGTRACE_INDIRECT_CALL(2), f)(8, a, a + 8);
  // WARN: [[@LINE-2]]:3: warning: call 'f(8, a, a + 8)' is not traced: it calls through a 'std::function' object: a function of this file it holds runs instrumented, but a lambda or a functor it holds is recorded only if it is instrumented for another reason (a lambda of the kernel is)
  (void)wg;
}

// Instantiated here, so a target.
template void lib::starR<2>(int, const float *, float *);
// CHECK: #line 2 "{{.*}}Inputs/indirect-stencils.h"
// CHECK-NEXT: static inline void star1_wgtrace_[[STAR1:[0-9]+]](int n, const float *in, float *out) {
// CHECK: namespace lib {
// CHECK-NEXT: #line 7 "{{.*}}Inputs/indirect-stencils.h"
// CHECK-NEXT: template <int R> static inline void starR_wgtrace_[[STARR:[0-9]+]](int n, const float *in, float *out) {
// CHECK: namespace {
// CHECK-NEXT: const ::wgtrace::detail::IndirectTarget wgtrace_indirect_targets_[] = {
// CHECK-NEXT:     ::wgtrace::detail::functionTarget<void (int, const float *, float *)>(&::star1, &::star1_wgtrace_[[STAR1]]),
// CHECK-NEXT:     ::wgtrace::detail::functionTarget<void (int, const float *, float *)>(&::lib::starR<2>, &::lib::starR_wgtrace_[[STARR]]<2>),
// CHECK-NEXT:     ::wgtrace::detail::functionTarget<void (int, const float *, float *)>(&::star0, &::star0),
// CHECK-NEXT:     ::wgtrace::detail::memberTarget<void (Step::*)(float *) const>(&::Step::scale),
// CHECK-NEXT:     ::wgtrace::detail::memberTarget<void (Step::*)(float *) const>(&::Step::shift),
// CHECK-NEXT: };
// CHECK-NEXT: const ::wgtrace::detail::IndirectTargets wgtrace_indirect_registration_(wgtrace_indirect_targets_, 5);
// CHECK-NEXT: } // namespace
