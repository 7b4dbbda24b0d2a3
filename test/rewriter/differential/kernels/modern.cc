// Lambdas inside kernels, range-for by value and by reference, references
// bound to elements.
#include "harness.h"

#include <vector>

WGTRACE_DISPATCH void lambdas(const wgtrace::Workgroup &wg, float *a,
                              const float *b) {
  float sum = 0;
  unsigned i = wg.id[0];
  auto add = [&](unsigned j) { sum += b[j]; };
  add(i);
  add(i + 2);
  auto twice = [=](auto j) { return a[j] * 2; };
  a[i] = sum + twice(i);
}

WGTRACE_DISPATCH void ranges(const wgtrace::Workgroup &wg,
                             std::vector<int> &v, int *out) {
  int sum = 0;
  for (int x : v)
    sum += x;
  int local[2] = {1, 2};
  for (int x : local)
    sum += x;
  if (wg.id[0] == 1)
    for (int &x : v)
      x += 1;
  out[wg.id[0]] = sum;
}

WGTRACE_DISPATCH void refs(const wgtrace::Workgroup &wg, double *c) {
  double &r = c[wg.id[0]];
  r *= 2;
  double &r2 = r;
  r2 = r + 1;
}

int main() {
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  wgtrace::dispatch(lambdas, wgtrace::Grid{2, 1, 1}, a, b);
  std::vector<int> v = {3, 4, 5};
  int out[2] = {};
  wgtrace::dispatch(ranges, wgtrace::Grid{2, 1, 1}, v, out);
  double c[2] = {1.5, 2.5};
  wgtrace::dispatch(refs, wgtrace::Grid{2, 1, 1}, c);

  diff::buffer("a", a, 4);
  diff::buffer("b", b, 4);
  diff::buffer("v", v.data(), v.size());
  diff::buffer("out", out, 2);
  diff::buffer("c", c, 2);
  for (unsigned w = 0; w < 2; ++w) {
    diff::load<float>({w}, "b", w);
    diff::load<float>({w}, "b", w + 2);
    diff::load<float>({w}, "a", w);
    diff::store<float>({w}, "a", w);
    for (unsigned j = 0; j < 3; ++j)
      diff::load<int>({w}, "v", j);
    if (w == 1)
      for (unsigned j = 0; j < 3; ++j)
        diff::update<int>({w}, "v", j);
    diff::store<int>({w}, "out", w);
    diff::update<double>({w}, "c", w);
    diff::load<double>({w}, "c", w);
    diff::store<double>({w}, "c", w);
  }
  return diff::finish();
}
