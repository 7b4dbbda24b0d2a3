// Sorted-range searches, merges and set operations, heaps, permutations,
// removals, partitions, generators and sequence queries, over float, int
// and double buffers and a vector; stable_sort, inplace_merge and
// stable_partition move elements through a buffer of their own, which is
// not kernel memory.
#include "oracle.h"

#include <algorithm>
#include <functional>
#include <vector>

constexpr unsigned N = 24;

WGTRACE_DISPATCH void orders(const wgtrace::Workgroup &wg, float *a, int *n,
                             double *d, long *out) {
  float *x = a + wg.id[0] * N;
  int *m = n + wg.id[0] * N;
  double *e = d + wg.id[0] * N;
  long *o = out + wg.id[0] * 16;
  std::stable_sort(x, x + N);
  std::stable_sort(m, m + N, [](int u, int w) { return u % 4 < w % 4; });
  o[0] = std::is_sorted(x, x + N);
  o[1] = std::is_sorted_until(m, m + N, std::greater<>()) - m;
  o[2] = std::lower_bound(x, x + N, 5.0f) - x;
  o[3] = std::upper_bound(x, x + N, 3.0f,
                          [](float v, const float &w) { return v < w; }) -
         x;
  auto [lo, hi] = std::equal_range(x, x + N, 4.0f);
  o[4] = hi - lo;
  o[5] = std::binary_search(x, x + N, 7.0f);
  std::sort(e, e + N / 2);
  std::sort(e + N / 2, e + N);
  std::merge(e, e + N / 2, e + N / 2, e + N, x);
  std::inplace_merge(e, e + N / 2, e + N);
  o[6] = std::includes(e, e + N, e + 3, e + 6);
  o[7] = std::set_union(e, e + 8, e + 8, e + 16, x) - x;
  o[8] = std::set_intersection(e, e + 12, e + 6, e + 18, x) - x;
  o[9] = std::set_difference(e, e + 12, e + 6, e + 18, x,
                             std::less<double>()) -
         x;
  o[10] = std::set_symmetric_difference(e, e + 12, e + 6, e + 18, x) - x;
  std::make_heap(m, m + N);
  std::pop_heap(m, m + N);
  std::push_heap(m, m + N);
  o[11] = std::is_heap(m, m + N);
  std::sort_heap(m, m + N, std::less<int>());
  o[12] = std::is_heap_until(x, x + N, std::greater<float>()) - x;
  o[13] = std::next_permutation(m, m + 6);
  o[14] = std::prev_permutation(x, x + 5, std::greater<float>());
}

WGTRACE_DISPATCH void filters(const wgtrace::Workgroup &wg, float *a, int *n,
                              std::vector<double> &v, long *out) {
  float *x = a + wg.id[0] * N;
  int *m = n + wg.id[0] * N;
  long *o = out + wg.id[0] * 16;
  o[0] = std::unique(x, x + N) - x;
  o[1] = std::unique(m, m + N, [](int u, int w) { return u / 3 == w / 3; }) - m;
  o[2] = std::unique_copy(m, m + 10, x) - x;
  o[3] = std::remove(x, x + N, 2.0f) - x;
  o[4] = std::remove_if(m, m + N, [](const int &k) { return k > 7; }) - m;
  o[5] = std::remove_copy(m, m + N, x, 3) - x;
  o[6] = std::remove_copy_if(x, x + N, m, [](float f) { return f < 1; }) - m;
  o[13] = std::copy_if(m, m + N, x, [](int k) { return k > 4; }) - x;
  std::replace_if(x, x + N, [](float f) { return f > 6; }, 0.5f);
  std::replace_copy(m, m + 8, m + 8, 4, 40);
  std::replace_copy_if(x, x + 6, x + 6, [](float f) { return f < 2; }, 9.0f);
  std::reverse_copy(x, x + 5, x + 10);
  std::rotate_copy(m, m + 2, m + 7, m + 12);
  o[7] = std::partition(m, m + N, [](int k) { return k % 2 == 0; }) - m;
  o[8] = std::stable_partition(x, x + N,
                               [](const float &f) { return f < 3; }) -
         x;
  o[9] = std::is_partitioned(x, x + N, [](float f) { return f < 3; });
  o[10] = std::partition_point(x, x + N, [](float f) { return f < 3; }) - x;
  auto [t, f] = std::partition_copy(m, m + 10, x, x + 12,
                                    [](int k) { return k > 2; });
  o[11] = (t - x) * 100 + (f - x);
  int k = 0;
  std::generate(m, m + 5, [&k] { return k += 3; });
  std::generate_n(v.begin(), 4, [&k] { return k * 0.5; });
  o[12] = std::unique(v.begin(), v.end()) - v.begin();
}

WGTRACE_DISPATCH void queries(const wgtrace::Workgroup &wg, float *a, int *n,
                              long *out) {
  float *x = a + wg.id[0] * N;
  int *m = n + wg.id[0] * N;
  long *o = out + wg.id[0] * 16;
  o[0] = std::all_of(x, x + N, [](float f) { return f >= 0; });
  o[1] = std::any_of(m, m + N, [](const int &k) { return k == 5; });
  o[2] = std::none_of(x, x + N, [](float f) { return f > 100; });
  o[3] = std::find_if_not(m, m + N, [](int k) { return k < 6; }) - m;
  o[4] = std::adjacent_find(x, x + N) - x;
  o[5] = std::adjacent_find(m, m + N, std::greater<int>()) - m;
  o[6] = std::mismatch(m, m + 10, m + 10).first - m;
  o[7] = std::mismatch(x, x + 8, x + 8, x + 16,
                       [](float u, float w) { return u <= w; })
             .second -
         x;
  o[8] = std::find_first_of(m, m + N, m + 20, m + 23) - m;
  o[9] = std::find_end(x, x + N, x + 2, x + 4) - x;
  o[10] = std::search(m, m + N, m + 12, m + 14) - m;
  o[11] = std::search_n(x, x + N, 2, 1.0f) - x;
  o[12] = std::lexicographical_compare(x, x + 10, x + 10, x + 20);
  o[13] = std::lexicographical_compare(
      m, m + 10, m + 10, m + 20, [](int u, int w) { return u % 5 < w % 5; });
}

int main() {
  std::vector<float> a(2 * N);
  std::vector<int> n(2 * N);
  std::vector<double> d(2 * N), v(12);
  std::vector<long> out(32);
  auto fill = [&] {
    for (unsigned i = 0; i < 2 * N; ++i) {
      a[i] = static_cast<float>((i * 7919) % 9);
      n[i] = static_cast<int>((i * 104729) % 11);
      d[i] = static_cast<double>((i * 31) % 17) * 0.5;
    }
  };
  fill();
  for (unsigned i = 0; i < v.size(); ++i)
    v[i] = static_cast<double>((i * 37) % 5);
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("n", n.data(), n.size());
  oracle::buffer("d", d.data(), d.size());
  oracle::buffer("v", v.data(), v.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::run(orders, 2, a.data(), n.data(), d.data(), out.data());
  fill();
  oracle::run(filters, 2, a.data(), n.data(), std::ref(v), out.data());
  fill();
  oracle::run(queries, 2, a.data(), n.data(), out.data());
  return oracle::finish();
}
