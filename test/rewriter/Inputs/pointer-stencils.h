// Kernels generated into a project header and chosen through a pointer,
// as the Parallel Research Kernels' stencil_vector.hpp defines star1..grid5,
// for dispatch-pointer-header.cc.
#pragma once
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH inline void star1(const wgtrace::Workgroup &wg,
                                   const float *in, float *out) {
  out[wg.id[0]] = in[wg.id[0]];
}

namespace gen {
WGTRACE_DISPATCH inline void star2(const wgtrace::Workgroup &wg,
                                   const float *in, float *out) {
  out[wg.id[0]] = 2 * in[wg.id[0]];
}
} // namespace gen

// Used only after the dispatch below: its copy comes later, and the
// pointer cannot hold it there.
WGTRACE_DISPATCH inline void star3(const wgtrace::Workgroup &wg,
                                   const float *in, float *out) {
  out[wg.id[0]] = 3 * in[wg.id[0]];
}

// Of another type.
WGTRACE_DISPATCH inline void grid1(const wgtrace::Workgroup &wg,
                                   const double *in, double *out) {
  out[wg.id[0]] = in[wg.id[0]];
}
