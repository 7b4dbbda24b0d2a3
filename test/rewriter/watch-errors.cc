// A watched variable needs an ordinal from 0 to 255 and a type a VALUE
// record holds: otherwise an error, exit status 1, no output.
// RUN: %strip-checks %s > %t.cc
// RUN: not %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out 2> %t.err
// RUN: %count 0 < %t.out
// RUN: FileCheck %s < %t.err
#include <wgtrace/wgtrace.h>

struct Pair {
  int a, b;
};

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a) {
  WGTRACE_WATCH(300) int big = 0;
  // CHECK: {{.*}}.cc:[[@LINE-1]]:26: error: WGTRACE_WATCH of 'big' needs an ordinal from 0 to 255
  WGTRACE_WATCH(1) Pair p = {1, 2};
  // CHECK: {{.*}}.cc:[[@LINE-1]]:25: error: watched variable 'p' has type 'Pair', which a VALUE record cannot hold (integers, enums, pointers, float, double, _Float16, __bf16)
  a[0] = static_cast<float>(big + p.a);
  (void)wg;
}
