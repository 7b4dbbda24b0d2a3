// Stencil functions of a project header that a kernel of
// kernels/indirect_calls.cc calls through a function pointer: wgtrace
// copies them into the rewritten file, instrumented, and the pointer's
// calls run the copies.
#ifndef WGTRACE_TEST_ALGORITHMS_STENCILS_H
#define WGTRACE_TEST_ALGORITHMS_STENCILS_H

inline void star1(int n, const float *in, float *out) {
  for (int i = 1; i < n - 1; ++i)
    out[i] += 0.5f * (in[i + 1] - in[i - 1]);
}

inline void star2(int n, const float *in, float *out) {
  for (int i = 2; i < n - 2; ++i)
    out[i] +=
        0.25f * (in[i + 1] - in[i - 1]) + 0.125f * (in[i + 2] - in[i - 2]);
}

#endif
