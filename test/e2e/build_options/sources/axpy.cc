// y = a x + y, one row of 64 per workgroup: statements the rewriter can
// reserve room for (no macro, no call).
#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <vector>

WGTRACE_DISPATCH void axpy(const wgtrace::Workgroup &wg, float a,
                           const float *x, float *y) {
  unsigned begin = wg.id[0] * 64;
  for (unsigned i = begin; i < begin + 64; ++i)
    y[i] = a * x[i] + y[i];
}

int main() {
  std::vector<float> x(512, 1.5f), y(512, 0.25f);
  wgtrace::dispatch(axpy, wgtrace::Grid{8, 1, 1}, 2.0f, x.data(), y.data());
  double sum = 0;
  for (float v : y)
    sum += v;
  std::printf("%g\n", sum);
  return 0;
}
