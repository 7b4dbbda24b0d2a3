// OpenMP loops in a project header's functions, as the Parallel Research
// Kernels generate their stencils (Cxx11/stencil_openmp.hpp): loops.cc's
// `header` mode calls them, and wgtrace-rewrite traces them in copies it
// makes in loops.cc, the header staying as it is.

// Per iteration: 4 loads of `in`, the update of `out`; the team shares the
// parameters, whose loads are recorded (in 4 times, out once, n 5 times).
inline void star1(int n, const double *in, double *out) {
#pragma omp parallel for collapse(2)
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] += 0.25 * (in[i * n + j - 1] + in[(i - 1) * n + j] +
                                in[(i + 1) * n + j] + in[i * n + j + 1]);
}

// A template: its instantiation is copied; per iteration 1 load of `in`
// (and of the shared `in` pointer), the sum is the reduction's own.
template <class T> T total(const T *in, int n) {
  T sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i)
    sum += in[i];
  return sum;
}

// Reached through other functions of the header, as miniFE's main reaches
// its vector loops through driver and cg_solve (one call in a macro's
// argument, as its RUN_TIMED_FUNCTION takes them): the functions on the
// way are copied too, and call the copies. Per iteration: the update of
// v[i] (a load and a store) and the shared `v` and `factor`.
#define TIMED_CALL(call)                                                       \
  do {                                                                         \
    call;                                                                      \
  } while (0)
template <class T> void scale_by(T *v, T factor, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    v[i] *= factor;
}
template <class T> void step(T *v, int n) {
  TIMED_CALL(scale_by(v, T(0.5), n));
}
inline void drive(double *v, int n) {
  step(v, n);
  step(v, n);
}

// Member functions, as miniFE's CSRMatrix::reserve_space and its SpMV
// functor matvec_std (which cg_solve calls as `matvec(A, p, Ap)`): copied
// as free functions taking their object, their loops traced in the copies.
// A class template's member; per iteration: the load of the object's
// `cells` (the team shares the object), the update of cells[i] (a load and
// a store), the shared `factor`.
template <class T> struct Field {
  T *cells;
  int n;
  void scale(T factor) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      cells[i] *= factor;
  }
};
// A functor called through a template: per iteration (n - 2 of them) the
// shared `in` twice and `out` once, in[i - 1] and in[i + 1], the store of
// out[i].
struct Smooth {
  void operator()(const double *in, double *out, int n) const {
#pragma omp parallel for
    for (int i = 1; i < n - 1; ++i)
      out[i] = in[i - 1] + in[i + 1];
  }
};
template <class Op>
void smoothWith(Op op, const double *in, double *out, int n) {
  op(in, out, n);
}
