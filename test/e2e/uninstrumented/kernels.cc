#include "kernels.h"

WGTRACE_DISPATCH void add_one(const wgtrace::Workgroup &wg, float *data,
                              uint32_t n) {
  for (uint32_t i = wg.id[0] * n; i < (wg.id[0] + 1) * n; ++i)
    data[i] = data[i] + 1.0f;
}

void runInstrumented(float *data, uint32_t n) {
  wgtrace::dispatch(add_one, wgtrace::Grid{4, 1, 1}, data, n);
}
