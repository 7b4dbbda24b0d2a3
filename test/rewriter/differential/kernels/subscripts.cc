// simple_mul (1-D subscripts), a pointer to rows (2-D, one access each) and
// a pointer to pointers (the row pointer is loaded first).
#include "harness.h"

#include <cstdint>

WGTRACE_DISPATCH void simple_mul(const wgtrace::Workgroup &wg, const float *a,
                                 const float *b, float *c, uint32_t n) {
  uint32_t base = wg.id[0] * n;
  for (uint32_t i = 0; i < n; ++i)
    c[base + i] = a[base + i] * b[base + i];
}

WGTRACE_DISPATCH void rows(const wgtrace::Workgroup &wg, float (*m)[4],
                           double **pp) {
  unsigned r = wg.id[0];
  for (int j = 0; j < 4; ++j)
    m[r][j] = static_cast<float>(pp[r][j]) + 1.0f;
}

int main() {
  float a[16], b[16], c[16] = {};
  for (int i = 0; i < 16; ++i) {
    a[i] = 2.0f + i;
    b[i] = 4.0f - i;
  }
  wgtrace::dispatch(simple_mul, wgtrace::Grid{4, 1, 1}, a, b, c, 4u);
  float m[2][4] = {};
  double r0[4] = {1, 2, 3, 4}, r1[4] = {5, 6, 7, 8};
  double *pp[2] = {r0, r1};
  wgtrace::dispatch(rows, wgtrace::Grid{2, 1, 1}, m, pp);

  diff::buffer("a", a, 16);
  diff::buffer("b", b, 16);
  diff::buffer("c", c, 16);
  diff::buffer("m", &m[0][0], 8);
  diff::addressBuffer("pp", pp, 2);
  diff::buffer("r0", r0, 4);
  diff::buffer("r1", r1, 4);
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned i = 0; i < 4; ++i) {
      diff::load<float>({w}, "a", w * 4 + i);
      diff::load<float>({w}, "b", w * 4 + i);
      diff::store<float>({w}, "c", w * 4 + i);
    }
  for (unsigned w = 0; w < 2; ++w)
    for (unsigned j = 0; j < 4; ++j) {
      diff::load<double *>({w}, "pp", w);
      diff::load<double>({w}, w ? "r1" : "r0", j);
      diff::store<float>({w}, "m", w * 4 + j);
    }
  return diff::finish();
}
