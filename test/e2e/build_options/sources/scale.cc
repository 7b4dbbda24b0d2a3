// One row of a per workgroup, through a PolyBench-style index macro.
#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <vector>

#define A(i, j) a[(i) * n + (j)]

WGTRACE_DISPATCH void scale(const wgtrace::Workgroup &wg, float *a,
                            const float *b, unsigned n) {
  unsigned r = wg.id[0];
  for (unsigned j = 0; j < n; ++j)
    A(r, j) = 2.0f * A(r, j) + b[j];
}

int main() {
  std::vector<float> a(64, 1.0f), b(8, 0.5f);
  wgtrace::dispatch(scale, wgtrace::Grid{8, 1, 1}, a.data(), b.data(), 8u);
  double sum = 0;
  for (float v : a)
    sum += v;
  std::printf("%g\n", sum);
  return 0;
}
