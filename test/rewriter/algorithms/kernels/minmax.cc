// std::min, std::max, std::minmax and std::clamp of kernel elements (and
// of an element and a local): each argument read where libstdc++'s version
// reads it, then the returned element read by the kernel. Equal values
// take both branches (std::max returns its first argument, std::min its
// first too).
#include "oracle.h"

#include <algorithm>
#include <vector>

constexpr unsigned N = 8;

WGTRACE_DISPATCH void extremes(const wgtrace::Workgroup &wg, float *a,
                               int *n, float *out) {
  float *x = a + wg.id[0] * N;
  int *m = n + wg.id[0] * N;
  float *o = out + wg.id[0] * N;
  o[0] = std::max(x[0], x[1]);
  o[1] = std::min(x[2], x[3]);
  const float zero = 0.0f;
  o[2] = std::max(x[4], zero);
  o[3] = std::clamp(x[5], x[6], x[7]);
  auto [lo, hi] = std::minmax(m[0], m[1]);
  o[4] = static_cast<float>(lo + hi);
  o[5] = static_cast<float>(std::clamp(m[2], 1, 3));
  o[6] = static_cast<float>(std::min(m[3], m[3]));
}

int main() {
  std::vector<float> a(2 * N), out(2 * N);
  std::vector<int> n(2 * N);
  for (unsigned i = 0; i < 2 * N; ++i) {
    a[i] = static_cast<float>((i * 5) % 7) - 2.0f;
    n[i] = static_cast<int>((i * 3) % 5);
  }
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("n", n.data(), n.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::run(extremes, 2, a.data(), n.data(), out.data());
  return oracle::finish();
}
