// c = a * b, 4M floats in workgroups of 4096.
#include "harness.h"

#include <vector>

WGTRACE_DISPATCH void simple_mul(const wgtrace::Workgroup &wg, const float *a,
                                 const float *b, float *c, uint32_t n) {
  uint32_t begin = wg.id[0] * n;
  for (uint32_t i = begin; i < begin + n; ++i)
    c[i] = a[i] * b[i];
}

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 4 << 20);
  const uint32_t per_workgroup = 4096;
  uint32_t workgroups = uint32_t(O.Size / per_workgroup);
  size_t n = size_t(workgroups) * per_workgroup;
  std::vector<float> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i % 7);
    b[i] = float(i % 5) * 0.5f;
  }
  return bench::run(
      O,
      [&] {
        wgtrace::dispatch(simple_mul, wgtrace::Grid{workgroups, 1, 1}, a.data(),
                          b.data(), c.data(), per_workgroup);
      },
      [&] {
        double s = 0;
        for (float v : c)
          s += v;
        return s;
      });
}
