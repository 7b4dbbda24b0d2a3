// Side effects inside an access happen once: the macros take the address
// of their operand once, so the index expression stays where it is.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a, float *b,
                        const float *q, int n) {
  int i = 0;
  a[i++] = 1.0f;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[i++]) = 1.0f;
  b[i++] += a[--i];
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, b[i++]) += WGTRACE_LOAD_AT({{[0-9]+}}, a[--i]);
  float *p = b;
  while (n-- > 0)
    *p++ = *q++;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, *p++) = WGTRACE_LOAD_AT({{[0-9]+}}, *q++);
  (void)wg;
}
