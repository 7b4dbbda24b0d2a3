// The workgroup argument is not memory of the kernel: reading its ids
// records nothing.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, unsigned *out) {
  unsigned x = wg.id[0] + wg.id[1] * wg.count[0];
  // CHECK: unsigned x = wg.id[0] + wg.id[1] * wg.count[0];
  out[x] = wg.processor_id;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[x]) = wg.processor_id;
}
