// OpenMP loops in the functions of a project header, as the Parallel
// Research Kernels write their stencils (Cxx11/stencil_openmp.hpp) and
// miniBUDE its OpenMP model: traced in the copies of the functions that
// the rewritten file uses.
#define PRAGMA(x) _Pragma(#x)
#define OMP_FOR(x) PRAGMA(omp for x)

namespace lib {
inline void scale(float *out, const float *in, int n) {
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < n; ++i)
    out[i] = in[i] * 2;
}

// Orphaned: the region is the caller's.
template <class T> void fill(T *out, T value, int n) {
#pragma omp for
  for (int i = 0; i < n; ++i)
    out[i] = value;
}
} // namespace lib

void star1(const int n, const double *in, double *out) {
  OMP_FOR(collapse(2))
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] += in[i * n + j - 1] + in[(i - 1) * n + j];
}

// Not used by the file: untraced, as before.
void reset(double *out, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    out[i] = 0;
}

// Cannot be copied: a copy would count in a counter of its own.
inline int counted(float *out, int n) {
  static int calls = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    out[i] = 1;
  return ++calls;
}

// Calls lib::scale from the header: that call runs the original.
inline void twice(float *out, const float *in, int n) {
  lib::scale(out, in, n);
  lib::scale(out, out, n);
}
