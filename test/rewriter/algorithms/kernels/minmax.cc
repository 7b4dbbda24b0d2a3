// std::min, std::max, std::minmax and std::clamp of kernel elements (and
// of an element and a local): each argument read where libstdc++'s version
// reads it, then the returned element read by the kernel. Equal values
// take both branches (std::max returns its first argument, std::min its
// first too).
#include "oracle.h"

#include <algorithm>
#include <functional>
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

// Temporaries, locals, by-value parameters and kernel memory in every
// argument position: only the arguments that are kernel memory are read
// from memory, and the kernel's read of the result is recorded only when
// the call returned one of them (`i < std::min(lim, t + 0)` reads lim each
// time, and never the temporary it may return).
WGTRACE_DISPATCH void mixed(const wgtrace::Workgroup &wg, int *a,
                            const int &lim, int t, int *out) {
  int *x = a + wg.id[0] * N;
  int *o = out + wg.id[0] * N;
  int local = x[0] - 1;
  int s = 0;
  for (int i = 0; i < std::min(lim, t + 0); i++)
    s += x[i];
  for (int i = 0; i < std::min(t + 1, lim); i = std::max(i + 1, i))
    s += 1;
  o[0] = std::max(local, x[1]);
  o[1] = std::max(x[2], t) + std::min(x[3], local + 1);
  o[2] = std::clamp(local, x[4], 3);
  o[3] = std::clamp(x[5], t, lim);
  o[4] = std::clamp(2, 1, x[6]) + std::clamp(x[7], x[7], x[7]);
  o[5] = s + std::min(t, 4) + std::max(local, s);
  auto [lo, hi] = std::minmax(t, lim);
  o[6] = lo * hi;
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
  std::vector<int> m(2 * N), mout(2 * N);
  for (unsigned i = 0; i < 2 * N; ++i)
    m[i] = static_cast<int>((i * 5) % 9) - 3;
  int lim = 5;
  oracle::buffer("m", m.data(), m.size());
  oracle::buffer("mout", mout.data(), mout.size());
  oracle::buffer("lim", &lim, 1);
  oracle::run(mixed, 2, m.data(), std::cref(lim), 3, mout.data());
  return oracle::finish();
}
