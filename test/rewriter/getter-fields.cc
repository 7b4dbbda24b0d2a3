// A const getter whose one return computes from several loads of the
// object's own fields (`return x * x + y * y;`) is a helper: called on an
// object in kernel memory (`pts[i].norm2()`), the loads are the kernel's
// data. Instrumented in place when the file defines it; reported at each
// call from a header (a member function, not copied). A getter that loads
// one field by value (`return x;`, `size()`) is a helper too when the file
// defines it; a header's stays bookkeeping, unrecorded and unreported
// (every LULESH Domain getter would warn).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
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

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const Vec *pts,
                        const lib::P3 *p, double *out) {
  unsigned i = wg.id[0];
  out[i] = pts[i].norm2() + pts[i].getX() + p[i].x();
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = pts[i].norm2() + pts[i].getX() + p[i].x();
  out[i] += p[i].length_squared();
  // WARN: {{.*}}.cc:[[@LINE-1]]:13: warning: call of 'lib::P3::length_squared' is not traced: 'lib::P3::length_squared' is defined in {{.*}}getter-fields.h, which is not rewritten, and cannot be copied into this file (it is a member function)
}
