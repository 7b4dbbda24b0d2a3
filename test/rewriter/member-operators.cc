// Member operators that store to their object (`vec3 &operator*=(double
// t) { e[0] *= t; ... }`, `operator+=` reading its parameter too) and
// members returning a load of the object's data by value (`double x()
// const { return e[0]; }`, `vec3 operator-() const`) do work on the
// object: on kernel memory (`out[i] *= 2.0`), their accesses are the
// kernel's. Defined in the file, they are helpers instrumented in place;
// defined in a project header, member functions that are not copied, each
// call on memory that may be the kernel's is reported. A call on a local or
// a temporary of the kernel, handing temporaries only, touches its stack:
// quiet. A header's one-field getter stays bookkeeping (unrecorded).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "member-operators.h"

struct vec3 {
  double e[3];
  double x() const { return e[0]; }
  // CHECK: double x() const { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, e[0]); }
  vec3 operator-() const { return vec3{{-e[0], -e[1], -e[2]}}; }
  // CHECK: vec3 operator-() const { return vec3{{[{][{]}}-WGTRACE_LOAD_REF_AT({{[0-9]+}}, e[0]), -WGTRACE_LOAD_REF_AT({{[0-9]+}}, e[1]), -WGTRACE_LOAD_REF_AT({{[0-9]+}}, e[2]){{[}][}]}}; }
  double &operator[](int k) { return e[k]; }
  // CHECK: double &operator[](int k) { return e[k]; }
  vec3 &operator*=(double t) {
    e[0] *= t;
    // CHECK: WGTRACE_UPDATE_REF_AT({{[0-9]+}}, e[0]) *= t;
    e[1] *= t;
    e[2] *= t;
    return *this;
  }
  vec3 &operator+=(const vec3 &v) {
    e[0] += v.e[0];
    // CHECK: WGTRACE_UPDATE_REF_AT({{[0-9]+}}, e[0]) += WGTRACE_LOAD_REF_AT({{[0-9]+}}, v.e[0]);
    e[1] += v.e[1];
    e[2] += v.e[2];
    return *this;
  }
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, vec3 *out,
                        const vec3 *in, lib::hvec *h, const lib::hvec *hin,
                        double *d) {
  unsigned i = wg.id[0];
  out[i] *= 2.0;
  // CHECK: out[i] *= 2.0;
  out[i] += -in[i];
  out[i][1] = in[i].x();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i][1]) = in[i].x();
  h[i] *= 2.0;
  // WARN: {{.*}}.cc:[[@LINE-1]]:3: warning: call of 'lib::hvec::operator*=' is not traced: 'lib::hvec::operator*=' is defined in {{.*}}member-operators.h, which is not rewritten, and cannot be copied into this file (it is a member function)
  h[i] /= 4.0;
  // WARN: {{.*}}.cc:[[@LINE-1]]:3: warning: call of 'lib::hvec::operator/=' is not traced: {{.*}}(it is a member function)
  h[i] += hin[i];
  // WARN: {{.*}}.cc:[[@LINE-1]]:3: warning: call of 'lib::hvec::operator+=' is not traced: {{.*}}(it is a member function)
  d[i] = h[i].x();
  lib::hvec local = hin[i];
  local *= 3.0;
  d[i] += local.x();
}
