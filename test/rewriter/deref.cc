// Dereferences of pointers: the pointee is memory, the local pointer is not.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, const int *in,
                        int *out, int **pp) {
  *out = *in;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, *out) = WGTRACE_LOAD_AT({{[0-9]+}}, *in);
  *(out + 1) = *(in + 2);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, *(out + 1)) = WGTRACE_LOAD_AT({{[0-9]+}}, *(in + 2));
  **pp = 0;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, *WGTRACE_LOAD_AT({{[0-9]+}}, *pp)) = 0;
  int *p = out;
  *p = 1;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, *p) = 1;
  (void)wg;
}
