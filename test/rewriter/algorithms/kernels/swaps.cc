// std::swap, std::iter_swap, std::exchange, std::ranges::swap and
// std::ranges::iter_swap of kernel elements (numbers, and arrays of them,
// swapped element by element), with locals and temporaries as the other
// argument: each memory argument read and written where libstdc++'s
// version reads and writes it (load a, load b, store a, store b).
#include "oracle.h"

#include <algorithm>
#include <utility>
#include <vector>

constexpr unsigned N = 8;

WGTRACE_DISPATCH void swaps(const wgtrace::Workgroup &wg, float *a, int *n,
                            double (*m)[3], std::vector<float> &v) {
  float *x = a + wg.id[0] * N;
  int *y = n + wg.id[0] * N;
  std::swap(x[0], x[1]);
  float local = 5.0f;
  std::swap(x[2], local);
  std::swap(local, x[3]);
  using std::swap;
  swap(x[4], x[5]);
  std::iter_swap(x + 6, x + 7);
  int old = std::exchange(y[0], 7);
  y[1] = std::exchange(y[2], y[3]) + old;
  std::ranges::swap(y[4], y[5]);
  std::ranges::iter_swap(y + 6, y + 7);
  std::swap(m[2 * wg.id[0]], m[2 * wg.id[0] + 1]);
  double row[3] = {1.0, 2.0, 3.0};
  std::ranges::swap(m[2 * wg.id[0]], row);
  std::iter_swap(v.begin() + wg.id[0], v.end() - 1);
  x[0] += local + static_cast<float>(row[0]);
}

int main() {
  std::vector<float> a(2 * N);
  std::vector<int> n(2 * N);
  std::vector<double> m(4 * 3);
  std::vector<float> v(4);
  for (unsigned i = 0; i < 2 * N; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    n[i] = static_cast<int>(i * 3);
  }
  for (unsigned i = 0; i < m.size(); ++i)
    m[i] = i * 0.25;
  for (unsigned i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(i) + 0.5f;
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("n", n.data(), n.size());
  oracle::buffer("m", m.data(), m.size());
  oracle::buffer("v", v.data(), v.size());
  oracle::run(swaps, 2, a.data(), n.data(),
              reinterpret_cast<double(*)[3]>(m.data()), std::ref(v));
  return oracle::finish();
}
