// A helper defined in a project header qualifies for instrumentation but is
// not in the rewritten file: the call is left alone with a remark that says
// so (once per helper). Opted-out helpers and system headers stay quiet.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=REMARK --implicit-check-not=remark: %s < %t.err
#include <wgtrace/wgtrace.h>

#include "helper.h"

#include <algorithm>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a) {
  a[2] = header_sum(a) + header_sum(a + 1);
  // CHECK: WGTRACE_STORE(a[2]) = header_sum(a) + header_sum(a + 1);
  // REMARK: {{.*}}.cc:[[@LINE-2]]:10: remark: 'header_sum' is defined in {{.*}}helper.h, which is not rewritten: its memory accesses are not recorded (move it into this file to instrument it)
  header_quiet(a);
  std::fill(a, a + 2, 1.0f);
  (void)wg;
}
