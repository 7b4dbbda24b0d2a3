// A call through a member function pointer that names a virtual function
// runs the override of the object's class (oopack_v1p8.cpp of
// llvm-test-suite runs each benchmark's style as `(this->*function)()`).
// When every override the translation unit defines is in this file, each
// is instrumented in place and the virtual function is registered by its
// pointer's value (the same for every override), so that the call runs
// instrumented code; one with an override in a project header is not
// registered (counted as uninstrumented when it runs). The call reads the
// object's virtual table pointer when the pointer names a virtual
// function: recorded after the object and the pointer are evaluated, the
// object's text repeated, or reported when it cannot be evaluated again.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "virtual-base.h"

struct Bench {
  virtual ~Bench() = default;
  virtual void run(float *out) const = 0;
  void plain(float *out) const { out[0] = 0.0f; }
  // CHECK: void plain(float *out) const { WGTRACE_STORE_REF_AT({{[0-9]+}}, out[0]) = 0.0f; }
};

struct Max : Bench {
  float f;
  void run(float *out) const override { out[1] = f; }
  // CHECK: void run(float *out) const override { WGTRACE_STORE_REF_AT({{[0-9]+}}, out[1]) = WGTRACE_LOAD_REF_AT({{[0-9]+}}, f); }
};

struct Min : Max {
  void run(float *out) const override { out[2] += f; }
  // CHECK: void run(float *out) const override { WGTRACE_UPDATE_REF_AT({{[0-9]+}}, out[2]) += WGTRACE_LOAD_REF_AT({{[0-9]+}}, f); }
};

const Bench *pick(const Bench *b) { return b; }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const Bench *b,
                        void (Bench::*pm)(float *) const, float *out,
                        const Base *base, double (Base::*get)(const double *) const,
                        const double *p) {
  (b->*pm)(out + wg.id[0]);
  // CHECK: (b->*::wgtrace::detail::throughMember(WGTRACE_INDIRECT_CALL(0), ::wgtrace::detail::memberTableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), (b), pm)))(out + wg.id[0]);
  const Bench &r = *b;
  (r.*pm)(out);
  // CHECK: (r.*::wgtrace::detail::throughMember(WGTRACE_INDIRECT_CALL(1), ::wgtrace::detail::memberTableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), __builtin_addressof(r), pm)))(out);
  (pick(b)->*pm)(out);
  // WARN: {{.*}}.cc:[[@LINE-1]]:4: warning: load of 'pick(b)' is not traced: the call through a member function pointer reads its virtual table pointer when the pointer names a virtual function, which wgtrace records only when the object can be evaluated again (no side effects, not written by a macro)
  out[3] = static_cast<float>((base->*get)(p));
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[3]) = static_cast<float>((base->*::wgtrace::detail::throughMember(WGTRACE_INDIRECT_CALL(3), ::wgtrace::detail::memberTableRead(WGTRACE_ACCESS_SITE({{[0-9]+}}), (base), get)))(p));
}

// CHECK-LABEL: wgtrace_indirect_targets_[] = {
// CHECK-NEXT: ::wgtrace::detail::memberTarget<void (Bench::*)(float *) const>(&::Bench::run),
// CHECK-NEXT: ::wgtrace::detail::memberTarget<void (Bench::*)(float *) const>(&::Bench::plain),
// CHECK-NEXT: };
