// Launches a kernel of its own, then calls other.cc, which at first
// defines no kernel (the test adds one after the first build).
#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <vector>

void runOther(float *Data, unsigned N);

WGTRACE_DISPATCH void twice(const wgtrace::Workgroup &wg, float *d) {
  d[wg.id[0]] *= 2;
}

int main() {
  std::vector<float> Data(8, 1.0f);
  wgtrace::dispatch(twice, wgtrace::Grid{8, 1, 1}, Data.data());
  runOther(Data.data(), 8);
  for (float V : Data)
    std::printf("%g ", V);
  std::printf("\n");
  return 0;
}
