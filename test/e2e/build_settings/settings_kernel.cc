// Built by wgtrace_instrument_target with MEMORY_ACCESSES OFF,
// BUFFER_SIZE 64kib and TIMING ON: its trace must show all three.
#include <wgtrace/wgtrace.h>

#include <vector>

WGTRACE_DISPATCH void twice(const wgtrace::Workgroup &wg, float *data) {
  for (int i = 0; i < 64; ++i)
    data[wg.id[0] * 64 + i] *= 2.0f;
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  std::vector<float> data(8 * 64, 1.0f);
  wgtrace::dispatch(twice, wgtrace::Grid{8, 1, 1}, data.data());
  for (float v : data)
    if (v != 2.0f)
      return 1;
  return 0;
}
