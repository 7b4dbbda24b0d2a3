// Kernels of a project header, launched from main.cc and doubles.cc: a
// template (float in one, double in the other) and an inline kernel that
// calls a helper of the header (both files).
#pragma once
#include <wgtrace/wgtrace.h>

namespace lib {
inline float plusOne(float V) { return V + 1; }

template <class T>
WGTRACE_DISPATCH void scaleBy(const wgtrace::Workgroup &wg, T *d, T f) {
  d[wg.id[0]] *= f;
}

WGTRACE_DISPATCH inline void bump(const wgtrace::Workgroup &wg, float *d) {
  d[wg.id[0]] = plusOne(d[wg.id[0]]);
}
} // namespace lib
