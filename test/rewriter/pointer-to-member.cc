// A data member named by a pointer to member is memory where the object
// is: `o.*pm` and `p->*pm` are wrapped like `o.m` and `p->m` (they were
// silently untraced). A form of memory expression the macros are not
// written around (GNU's `x ?: y`) is never silent either: a warning and an
// entry of the untraced table.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

struct Pixel {
  float r, g;
};

// CHECK: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}", [[#ELVIS:]], 11, "k", "a[0] ?: b[0]", "wgtrace does not wrap this form of expression (BinaryConditionalOperator)"},
// CHECK-NEXT: };
WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Pixel *px,
                        float Pixel::*channel, int *a, int *b) {
  px[wg.id[0]].*channel = 1.0f;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, px[wg.id[0]].*channel) = 1.0f;
  Pixel *q = px + 1;
  float v = q->*channel;
  // CHECK: float v = WGTRACE_LOAD_AT({{[0-9]+}}, q->*channel);
  q->*channel += v;
  // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, q->*channel) += v;
  Pixel local{};
  local.*channel = v;
  // CHECK: local.*channel = v;
  int w = a[0] ?: b[0];
  // WARN: [[@LINE-1]]:11: warning: load of 'a[0] ?: b[0]' is not traced: wgtrace does not wrap this form of expression (BinaryConditionalOperator)
  b[1] = w;
}
