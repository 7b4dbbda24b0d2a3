// A reference bound to an element records nothing when it is bound; the
// accesses made through it are recorded (also through a reference bound to
// that reference, and through reference members). A reference bound to a
// local is the local.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -std=c++20 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++20 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

struct Holder {
  float &ref;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *c, Holder h) {
  float tmp[2] = {};
  float &r = c[wg.id[0]];
  // CHECK: float &r = c[wg.id[0]];
  r *= 2;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, r) *= 2;
  float &r2 = r;
  r2 = r + 1;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, r2) = WGTRACE_LOAD_AT({{[0-9]+}}, r) + 1;
  const float &cr = c[1];
  float x = cr;
  // CHECK: float x = WGTRACE_LOAD_AT({{[0-9]+}}, cr);
  float &loc = tmp[0];
  loc = x;
  // CHECK: loc = x;
  h.ref = loc;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, h.ref) = loc;
}
