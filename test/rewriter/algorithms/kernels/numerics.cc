// Numeric algorithms and transform/for_each, with the callables a kernel
// passes: lambdas written in it (by value, by reference, generic), library
// functors, a function.
#include "oracle.h"

#include <functional>
#include <numeric>
#include <vector>

constexpr unsigned N = 16;

static float halve(float x) { return x / 2; }

WGTRACE_DISPATCH void transforms(const wgtrace::Workgroup &wg, float *a,
                                 float *b, float *c) {
  float *x = a + wg.id[0] * N;
  float *y = b + wg.id[0] * N;
  float *z = c + wg.id[0] * N;
  std::transform(x, x + N, y, [](float v) { return v * 2; });
  std::transform(x, x + N, y, z,
                 [](const float &u, const float &v) { return u + v; });
  std::transform(z, z + N, z, halve);
  std::transform(x, x + 4, y, z, std::multiplies<float>());
  std::for_each(y, y + N, [](float &v) { v += 1; });
  std::for_each(y, y + N, [](auto &v) { v *= 3; });
  float sum = 0;
  std::for_each_n(z, 5, [&sum](float v) { sum += v; });
  y[0] = sum;
}

WGTRACE_DISPATCH void numerics(const wgtrace::Workgroup &wg, float *a, float *b,
                               float *c, float *out) {
  float *x = a + wg.id[0] * N;
  float *y = b + wg.id[0] * N;
  float *z = c + wg.id[0] * N;
  float *o = out + wg.id[0] * 16;
  o[0] = std::accumulate(x, x + N, 0.0f);
  o[1] =
      std::accumulate(x, x + N, 1.0f, [](float p, float v) { return p * v; });
  o[2] = std::inner_product(x, x + N, y, 0.0f);
  o[3] = std::inner_product(x, x + N, y, 0.0f, std::plus<>(),
                            [](const float &u, float v) { return u - v; });
  o[4] = std::reduce(x, x + N);
  o[5] = std::reduce(x, x + 7, 2.0f);
  o[6] = std::reduce(x, x + 9, 0.0f, [](auto u, auto v) { return u + v; });
  o[7] = std::transform_reduce(x, x + N, y, 0.0f);
  o[8] =
      std::transform_reduce(x, x + 11, y, 1.0f, std::plus<>(), std::minus<>());
  o[9] = std::transform_reduce(x, x + N, 0.0f, std::plus<>(),
                               [](float v) { return v * v; });
  std::partial_sum(x, x + N, z);
  std::partial_sum(x, x + 6, z, std::multiplies<>());
  std::exclusive_scan(x, x + N, z, 0.5f);
  std::exclusive_scan(x, x + 5, y, 1.0f, std::multiplies<>());
  std::inclusive_scan(x, x + N, z);
  std::inclusive_scan(z, z + 7, y, [](const float &u, const float &v) {
    return u > v ? u : v;
  });
  std::inclusive_scan(x, x + 3, y, std::plus<>(), 4.0f);
  std::adjacent_difference(x, x + N, z);
  std::adjacent_difference(x, x + 5, y, std::plus<>());
}

int main() {
  std::vector<float> a(2 * N), b(2 * N), c(2 * N), out(32);
  for (unsigned i = 0; i < 2 * N; ++i) {
    a[i] = 1.0f + static_cast<float>(i % 5) * 0.25f;
    b[i] = 2.0f - static_cast<float>(i % 3) * 0.5f;
  }
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("b", b.data(), b.size());
  oracle::buffer("c", c.data(), c.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::run(transforms, 2, a.data(), b.data(), c.data());
  oracle::run(numerics, 2, a.data(), b.data(), c.data(), out.data());
  return oracle::finish();
}
