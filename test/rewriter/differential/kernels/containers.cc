// std::vector, std::array, std::span and iterators: the element accessed is
// recorded, the container's own fields are not.
#include "harness.h"

#include <array>
#include <span>
#include <vector>

WGTRACE_DISPATCH void containers(const wgtrace::Workgroup &wg,
                                 std::vector<float> &v,
                                 std::array<float, 4> &ga,
                                 std::span<float> sp) {
  unsigned i = wg.id[0];
  std::array<float, 2> acc{};
  acc[0] = ga[i] + sp[i];
  v[i] = acc[0] + static_cast<float>(v.size());
  v.front() += v.back();
  sp.data()[i + 2] = ga.data()[i + 2];
  auto it = v.begin() + 1;
  *it = 1.0f;
}

int main() {
  std::vector<float> v = {1, 2, 3};
  std::array<float, 4> ga = {4, 5, 6, 7};
  float s[4] = {8, 9, 10, 11};
  wgtrace::dispatch(containers, wgtrace::Grid{2, 1, 1}, v, ga,
                    std::span<float>(s));

  diff::buffer("v", v.data(), v.size());
  diff::buffer("ga", ga.data(), 4);
  diff::buffer("s", s, 4);
  for (unsigned w = 0; w < 2; ++w) {
    diff::load<float>({w}, "ga", w);
    diff::load<float>({w}, "s", w);
    diff::store<float>({w}, "v", w);
    diff::load<float>({w}, "v", 2);
    diff::update<float>({w}, "v", 0);
    diff::load<float>({w}, "ga", w + 2);
    diff::store<float>({w}, "s", w + 2);
    diff::store<float>({w}, "v", 1);
  }
  return diff::finish();
}
