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

// Calls lib::scale from the header, and the file calls it: copied too,
// recording nothing, its calls redirected to lib::scale's copy.
inline void twice(float *out, const float *in, int n) {
  lib::scale(out, in, n);
  lib::scale(out, out, n);
}

// Not used by the file: its call runs the original.
inline void untouched(float *out, const float *in, int n) {
  lib::scale(out, in, n);
}

// A loop reached through other header functions, as miniFE's main reaches
// waxpby's loops through driver and cg_solve; one call written in a
// macro's argument, as miniFE's RUN_TIMED_FUNCTION takes them.
#define TIMED(call)                                                            \
  do {                                                                         \
    call;                                                                      \
  } while (0)
template <class T> void axpy(T *y, const T *x, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    y[i] += x[i];
}
template <class T> void solve(T *y, const T *x, int n) { TIMED(axpy(y, x, n)); }
template <class T> void driver(T *y, const T *x, int n) { solve(y, x, n); }

// A member function on the way is copied too, taking its object (called
// on a temporary here).
struct Runner {
  void go(double *y, const double *x, int n) { axpy(y, x, n); }
};
