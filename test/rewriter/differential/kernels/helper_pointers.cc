// Helpers handed the kernel's locals and its buffers through pointers that
// move (`*begin++`), are copied into locals, or come from a std::array's
// data(): only the buffers' accesses are recorded, however the pointer got
// there (miniFE's `fill(begin, end, val)` on a loop body's local recorded a
// store per element).
#include "harness.h"

#include <array>

template <class T> void fillRange(T *begin, T *end, const T &val) {
  while (begin != end)
    *begin++ = val;
}

static void twiceAll(float *x, int n) {
  float *p = x;
  for (int i = 0; i < n; ++i)
    p[i] *= 2;
}

static void firstOf(std::array<float, 4> &a, float v) {
  float *d = a.data();
  d[0] = v;
}

WGTRACE_DISPATCH void assemble(const wgtrace::Workgroup &wg, float *out,
                               const float *in) {
  float local[4];
  fillRange(local, local + 4, 0.0f);
  local[1] = in[wg.id[0]];
  twiceAll(local, 4);
  std::array<float, 4> acc{};
  firstOf(acc, local[1]);
  float *row = out + wg.id[0] * 4;
  fillRange(row, row + 4, 1.0f);
  twiceAll(row, 2);
  row[3] = acc[0] + local[1];
}

int main() {
  float in[2] = {3, 5};
  float out[8] = {};
  wgtrace::dispatch(assemble, wgtrace::Grid{2, 1, 1}, out, in);

  diff::buffer("in", in, 2);
  diff::buffer("out", out, 8);
  for (unsigned w = 0; w < 2; ++w) {
    diff::load<float>({w}, "in", w);
    for (unsigned i = 0; i < 4; ++i)
      diff::store<float>({w}, "out", w * 4 + i);
    diff::update<float>({w}, "out", w * 4);
    diff::update<float>({w}, "out", w * 4 + 1);
    diff::store<float>({w}, "out", w * 4 + 3);
  }
  return diff::finish();
}
