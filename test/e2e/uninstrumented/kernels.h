// A project header with a template kernel: traced where a rewritten source
// launches it, untraced where a source that was not rewritten does.
#pragma once
#include <wgtrace/wgtrace.h>

#include <cstdint>

template <class T>
WGTRACE_DISPATCH void scale(const wgtrace::Workgroup &wg, T *data, T factor,
                            uint32_t n) {
  for (uint32_t i = wg.id[0] * n; i < (wg.id[0] + 1) * n; ++i)
    data[i] = data[i] * factor;
}

// Defined in kernels.cc, the only source the build rewrites.
void runInstrumented(float *data, uint32_t n);
