// Launches the header's template kernel with float and double, a template
// kernel of this file, and calls one instantiation directly.
#include "instances.h"

#include <cstdio>

template <class T, int N>
WGTRACE_DISPATCH void addN(const wgtrace::Workgroup &wg, T *data) {
  data[wg.id[0]] += N;
}

int main() {
  float f[4] = {1, 2, 3, 4};
  double d[4] = {1, 2, 3, 4};
  wgtrace::dispatch(scaleAll<float>, wgtrace::Grid{4, 1, 1}, f, 2.0f);
  wgtrace::dispatch(scaleAll<double>, wgtrace::Grid{4, 1, 1}, d, 2.0);
  wgtrace::dispatch(addN<float, 1>, wgtrace::Grid{4, 1, 1}, f);
  wgtrace::Workgroup wg{};
  wg.count[0] = 1;
  addN<double, 2>(wg, d);
  launchFromOther(f, d);
  std::printf("%g %g\n", f[3], d[0]);
  return 0;
}
