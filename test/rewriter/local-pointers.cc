// A local pointer that provably points into a local array (every value it
// gets does, it moves only by ++/--/+=/-=, its address never escapes) is not
// memory: accesses through it record nothing. Any other pointer is memory;
// one whose address escapes may have been given a local's address, and is
// recorded only outside the kernel's stack (WGTRACE_STORE_REF_AT).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines %s
#include <wgtrace/wgtrace.h>

#include <array>

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *out,
                        const float *in) {
  float tmp[8] = {};
  float *p = tmp;
  for (int i = 0; i < 4; ++i)
    *p++ = in[i];
  // CHECK: *p++ = WGTRACE_LOAD_AT({{[0-9]+}}, in[i]);
  float *q = tmp + 4;
  q[0] = tmp[1];
  // CHECK: q[0] = tmp[1];
  float *t = tmp;
  t = p;
  t[1] += 1;
  // CHECK: t[1] += 1;
  std::array<float, 4> acc{};
  auto it = acc.begin();
  *it = 5;
  // CHECK: *it = 5;
  float *r = tmp;
  r = out;
  r[1] = 2;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, r[1]) = 2;
  float *s = tmp;
  float **escaped = &s;
  *escaped = out;
  // CHECK: *escaped = out;
  s[2] = 3;
  // CHECK: WGTRACE_STORE_REF_AT({{[0-9]+}}, s[2]) = 3;
  const float *src = in;
  out[0] = *src + tmp[0] + acc[0];
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, out[0]) = WGTRACE_LOAD_AT({{[0-9]+}}, *src) + tmp[0] + acc[0];
  (void)wg;
}
