//===- values_kernel.cc - A kernel reporting values and messages ----------===//
//
// For the Python module's tests: four workgroups, each reporting values of
// several types (known from its id) and one message, and storing one float
// whose address it also reports as a pointer value.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cstdint>
#include <cstdio>

WGTRACE_DISPATCH void report(const wgtrace::Workgroup &wg, const float *in,
                             float *out) {
  const uint32_t i = wg.id[0];
  WGTRACE_VALUE(0, int8_t(-1 - int(i)));
  WGTRACE_VALUE(1, uint8_t(250 + i));
  WGTRACE_VALUE(2, int64_t(-5000000000LL) * int64_t(i + 1));
  WGTRACE_VALUE(3, uint64_t(0xFFFFFFFFFFFFFFF0ull) + i);
  WGTRACE_VALUE(4, 1.5f * float(i));
  WGTRACE_VALUE(5, 0.1 * double(i));
  WGTRACE_VALUE(6, &out[i]);
  out[i] = in[i] * 2.0f;
  WGTRACE_PRINTF("workgroup {} of {}: {}", i, wg.count[0], out[i]);
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  const float in[4] = {1, 2, 3, 4};
  float out[4] = {};
  wgtrace::dispatch(report, wgtrace::Grid{4, 1, 1}, in, out);
  for (int i = 0; i < 4; ++i)
    if (out[i] != in[i] * 2.0f) {
      std::fprintf(stderr, "values_kernel: wrong out[%d]\n", i);
      return 1;
    }
  std::printf("values_kernel: ok\n");
  return 0;
}
