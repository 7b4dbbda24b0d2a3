// Calls through pointers in a kernel run the instrumented version of the
// function they reach: a stencil chosen at run time through a function
// pointer (functions of a project header and of this file), a member
// function pointer, and a std::function holding a function.
#include "oracle.h"
#include "stencils.h"

#include <functional>
#include <vector>

constexpr int N = 12;

static void star0(int n, const float *in, float *out) {
  for (int i = 0; i < n; ++i)
    out[i] += in[i];
}

struct Scaler {
  float Factor;
  void scale(float *p, int n) const {
    for (int i = 0; i < n; ++i)
      p[i] *= Factor;
  }
  void shift(float *p, int n) const {
    for (int i = 0; i < n; ++i)
      p[i] += Factor;
  }
};

using Stencil = void (*)(int, const float *, float *);

WGTRACE_DISPATCH void
apply(const wgtrace::Workgroup &wg, Stencil stencil, const float *in,
      float *out, void (Scaler::*step)(float *, int) const,
      const std::function<void(int, const float *, float *)> *wrapped) {
  const float *x = in + wg.id[0] * N;
  float *y = out + wg.id[0] * N;
  stencil(N, x, y);
  Scaler s{2.0f};
  (s.*step)(y, 4);
  (*wrapped)(4, x, y + 8);
}

int main() {
  std::vector<float> in(3 * N), out(3 * N);
  for (int i = 0; i < 3 * N; ++i)
    in[i] = static_cast<float>((i * 7) % 5) - 1.0f;
  oracle::buffer("in", in.data(), in.size());
  oracle::buffer("out", out.data(), out.size());
  Stencil chosen[] = {star0, star1, star2};
  void (Scaler::*steps[])(float *, int)
      const = {&Scaler::scale, &Scaler::shift};
  std::function<void(int, const float *, float *)> wrapped = star1;
  for (int k = 0; k < 3; ++k) {
    oracle::run(apply, 1, chosen[k], in.data() + k * 0, out.data() + k * N,
                steps[k % 2], &wrapped);
  }
  return oracle::finish();
}
