// A kernel of a C++14 project that uses a GNU extension C++ has only in
// the GNU dialects (`typeof`): CMake compiles it with -std=gnu++14, which
// the instrumented build raises to gnu++17; the rewriter must parse it in
// the dialect the build compiles it in.
#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <vector>

WGTRACE_DISPATCH void shift(const wgtrace::Workgroup &wg, float *a,
                            unsigned n) {
  for (unsigned j = wg.id[0] * n; j < (wg.id[0] + 1) * n; ++j) {
    typeof(a[j]) v = a[j];
    a[j] = v + 1.0f;
  }
}

int main() {
  std::vector<float> a(32, 1.0f);
  wgtrace::dispatch(shift, wgtrace::Grid{4, 1, 1}, a.data(), 8u);
  double sum = 0;
  for (float v : a)
    sum += v;
  std::printf("%g\n", sum);
  return 0;
}
