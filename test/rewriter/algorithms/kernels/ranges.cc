// The std::ranges forms: ranges and iterator pairs, comparisons and
// projections (library ones, a lambda written in the kernel, a member
// pointer).
#include "oracle.h"

#include <algorithm>
#include <functional>
#include <span>
#include <vector>

constexpr unsigned N = 20;

struct Item {
  float Key;
  float Weight;
};

WGTRACE_DISPATCH void moves(const wgtrace::Workgroup &wg, float *a, float *b,
                            std::vector<int> &v) {
  std::span<float> x(a + wg.id[0] * N, N);
  float *y = b + wg.id[0] * N;
  std::ranges::copy(x, y);
  std::ranges::copy(x.begin(), x.begin() + 5, y + 10);
  std::ranges::copy_n(y, 4, x.begin() + 2);
  std::ranges::copy_backward(x.first(6), y + N);
  std::ranges::move(y, y + 3, x.begin());
  std::ranges::fill(x.subspan(3, 4), 1.5f);
  std::ranges::fill_n(y, 2, 7.0f);
  std::ranges::swap_ranges(x.first(3), std::span<float>(y + 5, 3));
  std::ranges::reverse(x);
  std::ranges::rotate(x, x.begin() + 4);
  std::ranges::replace(y, y + N, 1.5f, -1.5f);
  std::ranges::fill(v, 3);
  std::ranges::transform(x, y, [](float f) { return f + 1; });
  std::ranges::transform(x, std::span<float>(y, N), x.begin(), std::plus<>());
  std::ranges::for_each(x, [](float &f) { f *= 2; });
  std::ranges::for_each_n(y, 5, [](float &f) { f -= 1; });
}

WGTRACE_DISPATCH void inspects(const wgtrace::Workgroup &wg, float *a,
                               Item *items, long *out) {
  std::span<float> x(a + wg.id[0] * N, N);
  Item *it = items + wg.id[0] * 8;
  long *o = out + wg.id[0] * 16;
  o[0] = std::ranges::min_element(x) - x.begin();
  o[1] = std::ranges::max_element(x, std::ranges::greater()) - x.begin();
  auto [lo, hi] = std::ranges::minmax_element(x.begin(), x.end());
  o[2] = hi - lo;
  o[3] = std::ranges::max_element(it, it + 8, {}, &Item::Weight) - it;
  o[4] = std::ranges::count(x, 2.0f);
  o[5] = std::ranges::count_if(x, [](float f) { return f > 3; });
  o[6] = std::ranges::find(x, 4.0f) - x.begin();
  o[7] =
      std::ranges::find_if(x, [](const float &f) { return f < 1; }) - x.begin();
  o[8] = std::ranges::equal(x.first(5), x.last(5));
  o[9] = std::ranges::count(it, it + 8, 2.0f, &Item::Key);
}

WGTRACE_DISPATCH void sorts(const wgtrace::Workgroup &wg, float *a,
                            std::vector<double> &d) {
  std::span<float> x(a + wg.id[0] * N, N);
  std::ranges::sort(x);
  std::ranges::sort(x, std::ranges::greater());
  std::ranges::sort(x, {}, [](float f) { return f < 4 ? f : -f; });
  std::ranges::sort(d.begin(), d.end(),
                    [](const double &u, const double &w) { return u > w; });
}

WGTRACE_DISPATCH void selects(const wgtrace::Workgroup &wg, float *a,
                              std::vector<double> &d) {
  std::span<float> x(a + wg.id[0] * N, N);
  std::ranges::nth_element(x, x.begin() + N / 2);
  std::ranges::nth_element(x, x.begin() + 2, std::ranges::greater());
  std::ranges::partial_sort(x, x.begin() + 6, {},
                            [](float f) { return f < 2 ? f : -f; });
  std::ranges::partial_sort(d.begin(), d.begin() + 4, d.end(),
                            [](const double &u, const double &w) {
                              return u > w;
                            });
}

WGTRACE_DISPATCH void reorders(const wgtrace::Workgroup &wg, float *a,
                               Item *items, std::vector<double> &d,
                               long *out) {
  std::span<float> x(a + wg.id[0] * N, N);
  Item *it = items + wg.id[0] * 8;
  long *o = out + wg.id[0] * 16;
  // The insertion sort's copy of an element is projected too: a reference
  // into that local, which is not kernel memory. (Items are not moved here:
  // the oracle does not see a class object's copy.)
  std::ranges::stable_sort(x, {}, [](const float &f) -> const float & {
    return f;
  });
  std::ranges::stable_sort(x, {}, [](float f) { return f < 2 ? -f : f; });
  o[0] = std::ranges::is_sorted(it, it + 8, {}, &Item::Key);
  o[1] = std::ranges::is_sorted_until(x, std::ranges::greater()) - x.begin();
  std::ranges::sort(x);
  o[2] = std::ranges::lower_bound(x, 2.0f) - x.begin();
  o[3] = std::ranges::upper_bound(x.begin(), x.end(), 1.0f,
                                  [](const float &u, float w) {
                                    return u < w;
                                  }) -
         x.begin();
  o[4] = std::ranges::equal_range(x, 3.0f).size();
  o[5] = std::ranges::binary_search(x, 2.5f);
  std::ranges::make_heap(d);
  std::ranges::pop_heap(d.begin(), d.end());
  std::ranges::push_heap(d);
  std::ranges::sort_heap(d, std::ranges::greater());
  o[6] = std::ranges::next_permutation(x.first(5)).found;
  o[7] = std::ranges::prev_permutation(x.begin(), x.begin() + 4,
                                       std::ranges::greater())
             .found;
  o[8] = std::ranges::unique(x).begin() - x.begin();
  o[9] = std::ranges::remove(x, 1.5f).begin() - x.begin();
  o[10] = std::ranges::remove_if(x, [](float k) { return k > 1; },
                                 [](float f) { return f * 2; })
              .begin() -
          x.begin();
  o[11] = std::ranges::copy_if(x.first(8), x.begin() + 9,
                                [](const float &f) { return f > 1; })
              .out -
          x.begin();
  o[11] += std::ranges::partition(x, [](float f) { return f < 2; }).begin() -
          x.begin();
  o[12] = std::ranges::all_of(x, [](float f) { return f >= 0; }) +
          2 * std::ranges::any_of(x, [](const float &f) { return f > 3; }) +
          4 * std::ranges::none_of(it, it + 8, [](float k) { return k > 5; },
                                   &Item::Key);
  o[13] = std::ranges::find_if_not(x, [](float f) { return f < 1; }) -
          x.begin();
  o[14] = std::ranges::adjacent_find(x) - x.begin();
  o[15] = std::ranges::mismatch(x.first(6), x.last(6)).in1 - x.begin();
}

int main() {
  std::vector<float> a(2 * N), b(2 * N);
  std::vector<int> v(6);
  std::vector<double> d(25);
  std::vector<Item> items(16);
  std::vector<long> out(32);
  for (unsigned i = 0; i < 2 * N; ++i)
    a[i] = static_cast<float>((i * 13) % 9) * 0.5f;
  for (unsigned i = 0; i < d.size(); ++i)
    d[i] = static_cast<double>((i * 7) % 11);
  for (unsigned i = 0; i < items.size(); ++i)
    items[i] = {static_cast<float>(i % 3), static_cast<float>((i * 5) % 7)};
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("b", b.data(), b.size());
  oracle::buffer("v", v.data(), v.size());
  oracle::buffer("d", d.data(), d.size());
  oracle::buffer("items", items.data(), items.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::run(moves, 2, a.data(), b.data(), std::ref(v));
  oracle::run(inspects, 2, a.data(), items.data(), out.data());
  oracle::run(sorts, 2, a.data(), std::ref(d));
  for (unsigned i = 0; i < 2 * N; ++i)
    a[i] = static_cast<float>((i * 17) % 13) * 0.5f;
  for (unsigned i = 0; i < d.size(); ++i)
    d[i] = static_cast<double>((i * 11) % 23);
  oracle::run(selects, 2, a.data(), std::ref(d));
  oracle::run(reorders, 2, a.data(), items.data(), std::ref(d), out.data());
  return oracle::finish();
}
