// A template kernel (4-byte accesses for float, 8 for double), helpers
// defined here (instrumented, their accesses belong to the caller's
// workgroup) and a WGTRACE_NO_INSTRUMENT helper (not recorded).
#include "harness.h"

template <class T>
WGTRACE_DISPATCH void scale(const wgtrace::Workgroup &wg, T *x, T f) {
  x[wg.id[0]] *= f;
}

static float load_twice(const float *p, int i) { return p[i] + p[i]; }
static void bump(float *p) { p[0] += 1.0f; }
WGTRACE_NO_INSTRUMENT static void quiet(float *p) { p[1] = 9.0f; }

WGTRACE_DISPATCH void helpers(const wgtrace::Workgroup &wg, float *a) {
  int i = static_cast<int>(wg.id[0]);
  a[i + 2] = load_twice(a, i);
  bump(a);
  quiet(a);
}

int main() {
  float xf[2] = {1.5f, 2.5f};
  double xd[2] = {3.5, 4.5};
  wgtrace::dispatch(scale<float>, wgtrace::Grid{2, 1, 1}, xf, 2.0f);
  wgtrace::dispatch(scale<double>, wgtrace::Grid{2, 1, 1}, xd, 3.0);
  float a[4] = {1, 2, 3, 4};
  wgtrace::dispatch(helpers, wgtrace::Grid{2, 1, 1}, a);

  diff::buffer("xf", xf, 2);
  diff::buffer("xd", xd, 2);
  diff::buffer("a", a, 4);
  for (unsigned w = 0; w < 2; ++w) {
    diff::update<float>({w}, "xf", w);
    diff::update<double>({w}, "xd", w);
    diff::load<float>({w}, "a", w);
    diff::load<float>({w}, "a", w);
    diff::store<float>({w}, "a", w + 2);
    diff::update<float>({w}, "a", 0);
  }
  return diff::finish();
}
