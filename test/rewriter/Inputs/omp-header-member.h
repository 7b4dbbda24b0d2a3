// OpenMP loops in the member functions of a project header's classes, as
// miniFE writes its CSR matrix (CSRMatrix::reserve_space), its SpMV (the
// functor matvec_std, whose operator() cg_solve calls) and its Vector
// (a constructor): traced in copies taking the object, but the constructor.
namespace sparse {
template <class T> struct Matrix {
  T *values;
  int *cols;
  int rows;
  // A class template's member, called through `A.reserve(n)`.
  void reserve(int n) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      values[i] = 0;
    clearCols(n);
  }
  // Called through `this` by reserve: its copy calls this one's.
  void clearCols(int n) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      cols[i] = 0;
  }
};

// A functor whose operator() holds the loop, called `op(A, x, y)`.
template <class M> struct Multiply {
  void operator()(const M &A, const double *x, double *y) const {
#pragma omp parallel for
    for (int r = 0; r < A.rows; ++r)
      y[r] = A.values[r] * x[A.cols[r]];
  }
};
// Another functor: no loop, but a template calls it where it calls
// Multiply's (one text, two instantiations): copied too, under the same
// name, the copies overloads that the object picks.
template <class M> struct Copy {
  void operator()(const M &A, const double *x, double *y) const {
    for (int r = 0; r < A.rows; ++r)
      y[r] = x[r];
  }
};
template <class Op, class M> void apply(Op op, const M &A, const double *x,
                                        double *y) {
  op(A, x, y);
}
// Called with a functor and with a function pointer: one text cannot call
// both a copy and the pointer, so the call stays as written (reported).
template <class Op, class M> void applyAny(Op op, const M &A, const double *x,
                                           double *y) {
  op(A, x, y);
}
inline void identity(const Matrix<double> &A, const double *x, double *y) {
  for (int r = 0; r < A.rows; ++r)
    y[r] = x[r];
}

// A plain class: its private member is named through an explicit
// instantiation (PrivateAccess.h).
class Scaler {
public:
  explicit Scaler(double f) : factor(f) {}
  void run(double *v, int n) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      v[i] *= factor;
  }

private:
  double factor;
};

// A constructor: no free function makes an object; still warned.
struct Filled {
  double *data;
  Filled(double *d, int n) : data(d) {
#pragma omp parallel for
    for (int i = 0; i < n; ++i)
      data[i] = 1;
  }
};
} // namespace sparse
