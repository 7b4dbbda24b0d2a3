// A small kernel that the tool-behaviour tests (-o, -i, --diff, refusal,
// compiling the output) rewrite.
#include <wgtrace/wgtrace.h>

#include <cstdint>

WGTRACE_DISPATCH void simple_mul(const wgtrace::Workgroup &wg,
                                 const float *a, const float *b, float *c,
                                 uint32_t n) {
  uint32_t base = wg.id[0] * n;
  for (uint32_t i = 0; i < n; ++i)
    c[base + i] = a[base + i] * b[base + i];
}

int run(float *a, float *b, float *c) {
  wgtrace::dispatch(simple_mul, wgtrace::Grid{4, 1, 1}, a, b, c, 4096u);
  return c[0] == 8.0f ? 0 : 1;
}
