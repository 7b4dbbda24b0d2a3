// Lambdas given to wgtrace::dispatch are kernels: inline, through a named
// variable (dispatched twice), generic (float and double), and written in a
// function template. What a lambda kernel captures by reference lives
// outside the kernel and is memory (a captured pointer is a handle: what it
// points to is recorded, the pointer is not); what it captures by copy is
// a member of the closure, a local.
#include "harness.h"

template <class T> void doubleAll(T *p) {
  wgtrace::dispatch([p](const wgtrace::Workgroup &wg) { p[wg.id[0]] *= 2; },
                    wgtrace::Grid{2, 1, 1});
}

int main() {
  float a[4] = {1, 2, 3, 4};
  float out[4] = {0, 0, 0, 0};
  float acc[2] = {0, 0};
  float total = 0;
  float factor = 3;
  float *pa = a;
  wgtrace::dispatch(
      [&](const wgtrace::Workgroup &wg, float *c) {
        unsigned i = wg.id[0];
        c[i] = pa[i] * factor;
        acc[i % 2] += pa[i];
        total += 1;
      },
      wgtrace::Grid{4, 1, 1}, out);

  auto copyScaled = [=](const wgtrace::Workgroup &wg, float *c) {
    c[wg.id[0]] = pa[wg.id[0]] * factor;
  };
  wgtrace::dispatch(copyScaled, wgtrace::Grid{2, 1, 1}, out);
  wgtrace::dispatch(copyScaled, wgtrace::Grid{1, 1, 1}, out);

  double d[2] = {0.5, 1.5};
  auto bump = [](const auto &wg, auto *x) { x[wg.id[0]] += 1; };
  wgtrace::dispatch(bump, wgtrace::Grid{2, 1, 1}, a);
  wgtrace::dispatch(bump, wgtrace::Grid{2, 1, 1}, d);

  int n[2] = {5, 7};
  doubleAll(d);
  doubleAll(n);

  diff::buffer("a", a, 4);
  diff::buffer("out", out, 4);
  diff::buffer("acc", acc, 2);
  diff::buffer("total", &total);
  diff::buffer("factor", &factor);
  diff::buffer("d", d, 2);
  diff::buffer("n", n, 2);
  for (unsigned w = 0; w < 4; ++w) {
    // factor is captured by reference: memory, like a global.
    diff::load<float>({w}, "a", w);
    diff::load<float>({w}, "factor", 0);
    diff::store<float>({w}, "out", w);
    diff::load<float>({w}, "a", w);
    diff::update<float>({w}, "acc", w % 2);
    diff::update<float>({w}, "total", 0);
  }
  // copyScaled copies factor: nothing recorded for it.
  for (unsigned w = 0; w < 2; ++w) {
    diff::load<float>({w}, "a", w);
    diff::store<float>({w}, "out", w);
  }
  diff::load<float>({0}, "a", 0);
  diff::store<float>({0}, "out", 0);
  for (unsigned w = 0; w < 2; ++w) {
    diff::update<float>({w}, "a", w);
    diff::update<double>({w}, "d", w);
    diff::update<double>({w}, "d", w);
    diff::update<int>({w}, "n", w);
  }
  return diff::finish();
}
