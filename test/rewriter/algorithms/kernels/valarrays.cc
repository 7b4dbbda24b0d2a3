// std::valarray expressions, compound assignments, assignments and
// sum/min/max/apply/shift/cshift over the kernel's valarrays: every element
// read and written where libstdc++'s expression templates read and write
// it (element i of the expression, left operand first, then the target's
// load and store), as PRK's nstream writes `A += B + scalar * C`.
#include "oracle.h"

#include <cmath>
#include <functional>
#include <valarray>

static double twice(double X) { return 2 * X; }

WGTRACE_DISPATCH void valarrays(const wgtrace::Workgroup &wg,
                                std::valarray<double> &A,
                                const std::valarray<double> &B,
                                std::valarray<double> &C,
                                std::valarray<double> &D,
                                const double &factor) {
  double scalar = 3.0 + wg.id[0];
  A += B + scalar * C;
  C = A * B - C;
  D -= std::sqrt(B);
  D *= -A;
  A /= 2.0;
  double s = A.sum() + B.min() + C.max();
  D = A.apply(twice);
  C = B.shift(2) + A.cshift(-3);
  A = s;
  D += std::valarray<double>(B + C);
  // The members of an expression: sum from the last element, min and max
  // computing each element once, shift and apply computing it first.
  A[0] = (B + C).sum() + (A * 2.0).min() + (C - B).max() + C.apply(twice).min();
  D = (A + B).shift(1) + (B - C).cshift(2);
  // A scalar of kernel memory is read for every element it meets.
  A += factor * B;
  C = D - factor;
  D *= factor;
  if (B.sum() > factor)
    A = factor;
}

int main() {
  constexpr size_t N = 10;
  std::valarray<double> A(N), B(N), C(N), D(N);
  for (size_t i = 0; i < N; ++i) {
    A[i] = double(i) * 0.5;
    B[i] = double((i * 7) % 5) + 1.0;
    C[i] = double(i % 3) - 1.0;
    D[i] = 1.0;
  }
  oracle::buffer("A", &A[0], N);
  oracle::buffer("B", &B[0], N);
  oracle::buffer("C", &C[0], N);
  oracle::buffer("D", &D[0], N);
  double factor = 1.5;
  oracle::buffer("factor", &factor, 1);
  oracle::run(valarrays, 2, std::ref(A), std::cref(B), std::ref(C),
              std::ref(D), std::cref(factor));
  return oracle::finish();
}
