// Member operators that store to their object (`vec3 &operator*=(double
// t) { e[0] *= t; ... }`, `operator+=` reading its parameter too) and
// members returning a load of the object's data by value (`double x()
// const { return e[0]; }`, `vec3 operator-() const`) do work on the
// object: on kernel memory (`out[i] *= 2.0`), their accesses are the
// kernel's. Defined in the file, they are helpers instrumented in place;
// defined in a project header, each call on memory that may be the
// kernel's is redirected to a copy taking the object first (`h[i] *= 2.0`
// becomes `::lib::hvec_operatorStarEqual_wgtrace_N(h[i] , 2.0)`; Sealed's
// private field is named through an explicit instantiation), or, if the
// member uses what a free function cannot reach (its object in a macro),
// reported. A call on a local or a temporary of the kernel, handing
// temporaries only, touches its stack: quiet.
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

// CHECK: namespace wgtrace_access { namespace {
// CHECK-NEXT: template <typename T, typename C> using WgtraceMember = T C::*;
// CHECK-NEXT: template <typename T> using WgtracePointer = T *;
// CHECK-NEXT: template <typename Tag, typename Tag::type Pointer> struct WgtraceAccess {
// CHECK-NEXT:   friend typename Tag::type wgtrace_member(Tag) { return Pointer; }
// CHECK-NEXT: };
// CHECK-NEXT: struct lib_Sealed_v { using type = WgtraceMember<double, lib::Sealed>; friend type wgtrace_member(lib_Sealed_v); };
// CHECK-NEXT: template struct WgtraceAccess<lib_Sealed_v, &lib::Sealed::v>;
// CHECK-NEXT: } }
// CHECK: static inline double hvec_x_wgtrace_[[X:[0-9]+]](const ::lib::hvec &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.e[0]); }
// CHECK: static inline double hvec_length_squared_wgtrace_[[LEN:[0-9]+]](const ::lib::hvec &self)  { return {{.*}}; }
// CHECK: static inline double hvec_norm2_wgtrace_[[NORM:[0-9]+]](const ::lib::hvec &self)  { return ::lib::hvec_length_squared_wgtrace_[[LEN]](self); }
// CHECK: static inline hvec &hvec_operatorPlusEqual_wgtrace_[[ADD:[0-9]+]](::lib::hvec &self, const hvec &v) {
// CHECK-NEXT: WGTRACE_UPDATE_REF_AT({{[0-9]+}}, self.e[0]) += WGTRACE_LOAD_REF_AT({{[0-9]+}}, v.e[0]);
// CHECK: static inline hvec &hvec_operatorStarEqual_wgtrace_[[MUL:[0-9]+]](::lib::hvec &self, double t) {
// CHECK-NEXT: WGTRACE_UPDATE_REF_AT({{[0-9]+}}, self.e[0]) *= t;
// CHECK: return *(&self);
// CHECK: static inline hvec &hvec_operatorSlashEqual_wgtrace_[[DIV:[0-9]+]](::lib::hvec &self, double t) { return ::lib::hvec_operatorStarEqual_wgtrace_[[MUL]](*(&self) , 1 / t); }
// CHECK: static inline Sealed &Sealed_operatorStarEqual_wgtrace_{{[0-9]+}}(::lib::Sealed &self, double t) {
// CHECK-NEXT: WGTRACE_UPDATE_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Sealed_v{}))) *= t;
// CHECK: static inline double Sealed_get_wgtrace_{{[0-9]+}}(const ::lib::Sealed &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, (self.*wgtrace_member(::wgtrace_access::lib_Sealed_v{}))); }
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, vec3 *out,
                        const vec3 *in, lib::hvec *h, const lib::hvec *hin,
                        double *d, lib::Sealed *sealed, lib::Macro *m) {
  unsigned i = wg.id[0];
  out[i] *= 2.0;
  // CHECK: out[i] *= 2.0;
  out[i] += -in[i];
  out[i][1] = in[i].x();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i][1]) = in[i].x();
  h[i] *= 2.0;
  // CHECK: ::lib::hvec_operatorStarEqual_wgtrace_[[MUL]](h[i] , 2.0);
  h[i] /= 4.0;
  // CHECK: ::lib::hvec_operatorSlashEqual_wgtrace_[[DIV]](h[i] , 4.0);
  h[i] += hin[i];
  // CHECK: ::lib::hvec_operatorPlusEqual_wgtrace_[[ADD]](h[i] , hin[i]);
  d[i] = h[i].x() + (h + i)->norm2();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, d[i]) = ::lib::hvec_x_wgtrace_[[X]](h[i]) + ::lib::hvec_norm2_wgtrace_[[NORM]](*(h + i));
  lib::hvec local = hin[i];
  local *= 3.0;
  d[i] += local.x();
  sealed[i] *= 2.0;
  // CHECK: ::lib::Sealed_operatorStarEqual_wgtrace_[[SMUL:[0-9]+]](sealed[i] , 2.0);
  d[i] += sealed[i].get();
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, d[i]) += ::lib::Sealed_get_wgtrace_[[SGET:[0-9]+]](sealed[i]);
  m[i] *= 2.0;
  // WARN: {{.*}}.cc:[[@LINE-1]]:3: warning: call of 'lib::Macro::operator*=' is not traced: {{.*}}(it is a member function and its object is named in a macro expansion, which a free copy cannot)
  lib::Sealed mine;
  mine *= 2.0;
}
