// Kernels of a project header, for header-kernels.cc: a template, an
// inline function that calls a helper of the header, one that cannot be
// copied (a static local), a launcher function.
#pragma once
#include <wgtrace/wgtrace.h>

namespace lib {
inline float twice(float v) { return v * 2; }

template <class T>
WGTRACE_DISPATCH void scaleBy(const wgtrace::Workgroup &wg, T *data, T f) {
  data[wg.id[0]] *= f;
}

WGTRACE_DISPATCH inline void bump(const wgtrace::Workgroup &wg, float *data) {
  data[wg.id[0]] = twice(data[wg.id[0]]) + 1;
}

WGTRACE_DISPATCH inline void counted(const wgtrace::Workgroup &wg, int *n) {
  static int calls = 0;
  n[wg.id[0]] = ++calls;
}

// A launcher written in the header: its launch is not rewritten.
inline void launchBump(float *data) {
  wgtrace::dispatch(bump, wgtrace::Grid{1, 1, 1}, data);
}

WGTRACE_DISPATCH inline void unused(const wgtrace::Workgroup &wg, int *n) {
  n[wg.id[0]] = 0;
}
} // namespace lib
