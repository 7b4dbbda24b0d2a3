// A const getter whose one return computes from several loads of the
// object's own fields (`return x * x + y * y;`) is a helper: called on an
// object in kernel memory (`pts[i].norm2()`), the loads are the kernel's
// data. Instrumented in place when the file defines it; copied from a
// header as a free function taking the object (`p[i].x()` becomes
// `::lib::P3_x_wgtrace_N(p[i])`) when it reaches only public members. A
// getter that loads one field by value (`return x;`, `size()`) is a helper
// too; a header's that cannot be copied stays bookkeeping, unrecorded and
// unreported (every LULESH Domain getter would warn).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %count 0 < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include <wgtrace/wgtrace.h>

#include "getter-fields.h"

struct Vec {
  float x, y;
  float norm2() const { return x * x + y * y; }
  // CHECK: float norm2() const { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, x) * WGTRACE_LOAD_REF_AT({{[0-9]+}}, x) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, y) * WGTRACE_LOAD_REF_AT({{[0-9]+}}, y); }
  float getX() const { return x; }
  // CHECK: float getX() const { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, x); }
};

// CHECK: static inline double P3_length_squared_wgtrace_[[LEN:[0-9]+]](const ::lib::P3 &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.e[0]) * WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.e[0]) + {{.*}}; }
// CHECK: static inline double P3_x_wgtrace_[[X:[0-9]+]](const ::lib::P3 &self)  { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.e[0]); }
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const Vec *pts,
                        const lib::P3 *p, double *out) {
  unsigned i = wg.id[0];
  out[i] = pts[i].norm2() + pts[i].getX() + p[i].x();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = pts[i].norm2() + pts[i].getX() + ::lib::P3_x_wgtrace_[[X]](p[i]);
  out[i] += p[i].length_squared();
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, out[i]) += ::lib::P3_length_squared_wgtrace_[[LEN]](p[i]);
}
