// Copying, filling and permuting algorithms over a workgroup's slice of
// kernel buffers, float and int, some through vector iterators.
#include "oracle.h"

#include <algorithm>
#include <numeric>
#include <vector>

constexpr unsigned N = 24;

WGTRACE_DISPATCH void copies(const wgtrace::Workgroup &wg, float *a, float *b,
                             float *c) {
  float *x = a + wg.id[0] * N;
  float *y = b + wg.id[0] * N;
  float *z = c + wg.id[0] * N;
  std::copy(x, x + N, y);
  std::copy_n(y, 5, z);
  std::copy_backward(x, x + 8, z + N);
  std::move(y + 2, y + 10, z);
  std::fill(z, z + 4, 2.5f);
  std::fill_n(z + 4, 3, -1.0f);
  // A value of kernel memory: libstdc++ reads it once, before its loop.
  std::fill(z + 8, z + 12, x[N - 1]);
  std::iota(y, y + 6, 10.0f);
}

WGTRACE_DISPATCH void permutes(const wgtrace::Workgroup &wg, float *a, int *n,
                               std::vector<int> &v) {
  float *x = a + wg.id[0] * N;
  int *m = n + wg.id[0] * N;
  std::swap_ranges(x, x + 4, x + 8);
  std::reverse(x, x + N);
  std::rotate(x, x + 7, x + N);
  // k == 1: libstdc++ moves the rest with memmove.
  std::rotate(m, m + 1, m + N);
  std::rotate(m, m + N - 1, m + N);
  std::replace(m, m + N, 3, 30);
  std::reverse(v.begin(), v.end());
  std::copy(v.begin(), v.begin() + 4, v.rbegin());
}

int main() {
  std::vector<float> a(2 * N), b(2 * N), c(2 * N);
  std::vector<int> n(2 * N), v(10);
  for (unsigned i = 0; i < 2 * N; ++i) {
    a[i] = static_cast<float>(i % 7);
    n[i] = static_cast<int>(i % 5);
  }
  std::iota(v.begin(), v.end(), 1);
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("b", b.data(), b.size());
  oracle::buffer("c", c.data(), c.size());
  oracle::buffer("n", n.data(), n.size());
  oracle::buffer("v", v.data(), v.size());
  oracle::run(copies, 2, a.data(), b.data(), c.data());
  oracle::run(permutes, 2, a.data(), n.data(), std::ref(v));
  return oracle::finish();
}
