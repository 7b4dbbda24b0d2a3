// A helper defined in a project header is copied, instrumented, into the
// rewritten file (helpers-copied.cc has the details); the header itself is
// not rewritten. Opted-out helpers stay as they are, quietly; a standard
// algorithm goes to its recording version (algorithms.cc).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %count 0 < %t.err
#include <wgtrace/wgtrace.h>

#include "helper.h"

#include <algorithm>

// CHECK:#line 3 "{{.*}}Inputs/helper.h"
// CHECK-NEXT:static inline float header_sum_wgtrace_0(const float *p) { return WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[0]) + WGTRACE_LOAD_REF_AT({{[0-9]+}}, p[1]); }
// CHECK-NEXT:#line 18 "{{.*}}.cc"
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a) {
  a[2] = header_sum(a) + header_sum(a + 1);
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, a[2]) = header_sum_wgtrace_0(a) + header_sum_wgtrace_0(a + 1);
  header_quiet(a);
  // CHECK: header_quiet(a);
  std::fill(a, a + 2, 1.0f);
  // CHECK: ::wgtrace::detail::recorded::fill<'M', 'M', '-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}))(a, a + 2, 1.0f);
  (void)wg;
}
