// Compiled as written: its launches are not rewritten, and the kernels it
// launches (a lambda, the header's template) are not instrumented.
#include "kernels.h"

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> data(4 * 16, 1.0f);
  runInstrumented(data.data(), 16);
  for (int round = 0; round < 2; ++round)
    wgtrace::dispatch(scale<float>, wgtrace::Grid{4, 1, 1}, data.data(), 2.0f,
                      16u);
  wgtrace::dispatch(
      [](const wgtrace::Workgroup &wg, float *d) { d[wg.id[0]] += 1.0f; },
      wgtrace::Grid{3, 1, 1}, data.data());
  std::printf("%g\n", double(data[0]));
  return 0;
}
