// Searching, counting, comparing, sorting and selecting, over float, int
// and double buffers and a vector; comparisons by the library's functors
// and by lambdas written in the kernel.
#include "oracle.h"

#include <algorithm>
#include <functional>
#include <vector>

constexpr unsigned N = 40;

WGTRACE_DISPATCH void searches(const wgtrace::Workgroup &wg, float *a, int *n,
                               long *out) {
  float *x = a + wg.id[0] * N;
  int *m = n + wg.id[0] * N;
  long *o = out + wg.id[0] * 16;
  o[0] = std::min_element(x, x + N) - x;
  o[1] = std::max_element(x, x + N, std::greater<float>()) - x;
  auto [lo, hi] = std::minmax_element(x, x + N);
  o[2] = hi - lo;
  o[3] =
      std::minmax_element(m, m + N, [](int u, int v) { return u % 3 < v % 3; })
          .second -
      m;
  o[4] = std::count(x, x + N, 2.0f);
  o[5] = std::count_if(m, m + N, [](const int &v) { return v > 2; });
  o[6] = std::find(m, m + N, 4) - m;
  o[7] = std::find_if(x, x + N, [](float v) { return v > 5; }) - x;
  // int: libstdc++ compares with memcmp.
  o[8] = std::equal(m, m + 10, m + 10);
  o[9] = std::equal(m, m + 5, m + 5, m + 10);
  o[10] =
      std::equal(x, x + 8, x + 8, [](float u, float v) { return u < v + 9; });
}

WGTRACE_DISPATCH void sorts(const wgtrace::Workgroup &wg, float *a, int *n,
                            double *d, std::vector<float> &v) {
  float *x = a + wg.id[0] * N;
  int *m = n + wg.id[0] * N;
  double *e = d + wg.id[0] * N;
  std::sort(x, x + N);
  std::sort(m, m + N, std::greater<>());
  std::sort(e, e + N, [](const double &u, const double &w) { return u > w; });
  std::sort(v.begin(), v.end(), [](float u, float w) { return u < w; });
}

// Selection and partial sorts: libstdc++'s introselect (partitions, then an
// insertion sort of the last few), heap select and sort_heap.
WGTRACE_DISPATCH void selects(const wgtrace::Workgroup &wg, float *a, int *n,
                              double *d, std::vector<float> &v) {
  float *x = a + wg.id[0] * N;
  int *m = n + wg.id[0] * N;
  double *e = d + wg.id[0] * N;
  std::nth_element(x, x + N / 2, x + N);
  std::nth_element(m, m + 3, m + N, std::greater<>());
  std::partial_sort(e, e + 7, e + N,
                    [](const double &u, const double &w) { return u > w; });
  std::partial_sort(v.begin(), v.begin() + 5, v.end());
  std::partial_sort_copy(x, x + N, e, e + 5);
  std::partial_sort_copy(m, m + N, x, x + 9,
                         [](int u, int w) { return u % 5 < w % 5; });
}

int main() {
  std::vector<float> a(2 * N), v(30);
  std::vector<int> n(2 * N);
  std::vector<double> d(2 * N);
  std::vector<long> out(32);
  for (unsigned i = 0; i < 2 * N; ++i) {
    a[i] = static_cast<float>((i * 7919) % 11);
    n[i] = static_cast<int>((i * 104729) % 13);
    d[i] = static_cast<double>((i * 31) % 17) * 0.5;
  }
  for (unsigned i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>((i * 37) % 23);
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("n", n.data(), n.size());
  oracle::buffer("d", d.data(), d.size());
  oracle::buffer("v", v.data(), v.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::run(searches, 2, a.data(), n.data(), out.data());
  oracle::run(sorts, 2, a.data(), n.data(), d.data(), std::ref(v));
  for (unsigned i = 0; i < 2 * N; ++i) {
    a[i] = static_cast<float>((i * 7907) % 29);
    n[i] = static_cast<int>((i * 104723) % 31);
    d[i] = static_cast<double>((i * 37) % 19) * 0.25;
  }
  for (unsigned i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>((i * 41) % 27);
  oracle::run(selects, 2, a.data(), n.data(), d.data(), std::ref(v));
  return oracle::finish();
}
