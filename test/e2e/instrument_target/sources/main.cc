// Launches a kernel of its own and two of include/kernels.h, then calls
// other.cc, which at first defines no kernel (the test adds one after the
// first build), and doubles.cc, which launches the header's kernels too.
#include "kernels.h"

#include <cstdio>
#include <vector>

void runOther(float *Data, unsigned N);
double runDoubles();

WGTRACE_DISPATCH void twice(const wgtrace::Workgroup &wg, float *d) {
  d[wg.id[0]] *= 2;
}

int main() {
  std::vector<float> Data(8, 1.0f);
  wgtrace::dispatch(twice, wgtrace::Grid{8, 1, 1}, Data.data());
  runOther(Data.data(), 8);
  wgtrace::dispatch(lib::scaleBy<float>, wgtrace::Grid{8, 1, 1}, Data.data(),
                    0.5f);
  wgtrace::dispatch(lib::bump, wgtrace::Grid{8, 1, 1}, Data.data());
  for (float V : Data)
    std::printf("%g ", V);
  std::printf("%g\n", runDoubles());
  return 0;
}
