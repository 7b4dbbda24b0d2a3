// Accesses spelled whole inside a macro argument are wrapped at their
// spelling; accesses that come from a macro body are left alone, with a
// remark at the expansion.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out
// RUN: FileCheck --check-prefix=REMARK %s < %t.err
#include <wgtrace/wgtrace.h>

#define IDENTITY(x) (x)
#define LOAD_FIRST(p) ((p)[0])
#define CLEAR(p) (p)[1] = 0

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a) {
  float x = IDENTITY(a[2]);
  // CHECK: float x = IDENTITY(WGTRACE_LOAD(a[2]));
  float y = LOAD_FIRST(a);
  // CHECK: float y = LOAD_FIRST(a);
  // REMARK: {{.*}}.cc:[[@LINE-2]]:13: remark: access in macro expansion not instrumented
  CLEAR(a);
  // CHECK: CLEAR(a);
  // REMARK: {{.*}}.cc:[[@LINE-2]]:3: remark: access in macro expansion not instrumented
  a[3] = x + y;
  // CHECK: WGTRACE_STORE(a[3]) = x + y;
  (void)wg;
}
