// std::complex of kernel memory: the operators, members and functions of
// <complex> read their operands and write their objects in library code.
// Each operand of memory is one read of its whole value; the object of
// `=` a store and of `+=`, `*=`, ... a load and a store; `real()` and
// `imag()` one part (the real part first, then the imaginary one, each
// sizeof(T)); a complex made from one of another element type, and
// std::polar's parts, one read each. A complex of the kernel's own stack
// records nothing.
#include "harness.h"

#include <complex>

using C = std::complex<double>;
using F = std::complex<float>;

static double imagOf(const C &z) { return z.imag(); }

WGTRACE_DISPATCH void butterfly(const wgtrace::Workgroup &wg, C *a,
                                const C *w, double *r, F *f, C *last) {
  size_t i = wg.id[0];
  C t = w[i] * a[i + 2]; // w[i], a[i + 2]
  C u = a[i];            // a[i]
  a[i] = u + t;
  a[i + 2] = u - t;
  a[i] *= w[i];            // w[i], then a[i] loaded and stored
  a[i] /= r[i];            // r[i], a[i] loaded and stored
  r[i] = a[i].real();      // part 0 of a[i]; r[i]
  r[i + 2] = std::abs(w[i]) + std::imag(a[i + 2]) + imagOf(w[i]);
  f[i].imag(static_cast<float>(r[i])); // r[i]; part 1 of f[i]
  f[i] = std::conj(f[i]) + static_cast<float>(r[i + 2]); // f[i], r[i + 2]
  C local = -w[i];                     // w[i]
  local *= 2.0;                        // nothing: the kernel's own
  C *mine = last + i;
  mine->real(local.real() + mine->imag()); // part 1 of *mine; part 0
  *mine += imagOf(local);                  // *mine loaded and stored
  F g(w[i]);                               // w[i]
  f[i] += g;                               // f[i] loaded and stored
  r[i] += std::polar(r[i + 2], 0.5).real(); // r[i + 2]; r[i] updated
}

int main() {
  C a[4] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
  C w[2] = {{0.5, -1}, {2, 0.25}};
  double r[4] = {2, 4, 0, 0};
  F f[2] = {{1, -1}, {2, 3}};
  C last[2] = {{1, 1}, {2, 2}};
  wgtrace::dispatch(butterfly, wgtrace::Grid{2, 1, 1}, a, w, r, f, last);

  diff::buffer("a", a, 4);
  diff::buffer("w", w, 2);
  diff::buffer("r", r, 4);
  diff::buffer("f", f, 2);
  diff::buffer("last", last, 2);
  for (unsigned x = 0; x < 2; ++x) {
    const diff::Wg g{x};
    diff::load<C>(g, "w", x);
    diff::load<C>(g, "a", x + 2);
    diff::load<C>(g, "a", x);
    diff::store<C>(g, "a", x);
    diff::store<C>(g, "a", x + 2);
    diff::load<C>(g, "w", x);
    diff::load<C>(g, "a", x);
    diff::store<C>(g, "a", x);
    diff::load<double>(g, "r", x);
    diff::load<C>(g, "a", x);
    diff::store<C>(g, "a", x);
    diff::bytes(g, 'L', "a", x * sizeof(C), sizeof(double));
    diff::store<double>(g, "r", x);
    diff::load<C>(g, "w", x);
    diff::bytes(g, 'L', "a", (x + 2) * sizeof(C) + sizeof(double),
                sizeof(double));
    diff::bytes(g, 'L', "w", x * sizeof(C) + sizeof(double), sizeof(double));
    diff::store<double>(g, "r", x + 2);
    diff::load<double>(g, "r", x);
    diff::bytes(g, 'S', "f", x * sizeof(F) + sizeof(float), sizeof(float));
    diff::load<F>(g, "f", x);
    diff::load<double>(g, "r", x + 2);
    diff::store<F>(g, "f", x);
    diff::load<C>(g, "w", x);
    diff::bytes(g, 'L', "last", x * sizeof(C) + sizeof(double),
                sizeof(double));
    diff::bytes(g, 'S', "last", x * sizeof(C), sizeof(double));
    diff::load<C>(g, "last", x);
    diff::store<C>(g, "last", x);
    diff::load<C>(g, "w", x);
    diff::load<F>(g, "f", x);
    diff::store<F>(g, "f", x);
    diff::load<double>(g, "r", x + 2);
    diff::load<double>(g, "r", x);
    diff::store<double>(g, "r", x);
  }
  return diff::finish();
}
