// The algorithms that only assign elements (copy, copy_n, copy_backward,
// move, move_backward, fill, fill_n) over a class whose copy assignment is
// written by hand and that has no move assignment: libstdc++'s loop runs
// `*out = *in` (`*out = value`), calling the class's operator=, so the
// accesses are what that operator does, two 8-byte loads and stores in its
// order, not one 16-byte load and store. double2 is a project header's
// (vec2.h: its instrumented copy runs), Cell this file's (its operator=,
// instrumented in place, assigns y first).
#include "oracle.h"
#include "vec2.h"

#include <algorithm>
#include <vector>

constexpr unsigned N = 6;

struct Cell {
  double x, y;
  Cell() : x(0.), y(0.) {}
  Cell(double x, double y) : x(x), y(y) {}
  Cell(const Cell &c) : x(c.x), y(c.y) {}
  ~Cell() {}
  Cell &operator=(const Cell &c) {
    y = c.y;
    x = c.x;
    return *this;
  }
};

WGTRACE_DISPATCH void vectors(const wgtrace::Workgroup &wg, double2 *p,
                              double2 *q, double *r) {
  double2 *a = p + wg.id[0] * N;
  double2 *b = q + wg.id[0] * N;
  std::copy(a, a + N, b);
  std::copy_n(b + 1, 2, a);
  std::copy_backward(a, a + 3, b + N);
  std::move(b, b + 2, a + 3);
  std::move_backward(a, a + 2, b + 4);
  std::fill(a, a + 2, double2(1., 2.));
  // A value of kernel memory: the operator= reads it for every element.
  std::fill_n(b + 4, 2, a[5]);
  // From the kernel's own array: only the stores are kernel memory.
  double2 local[2] = {double2(3., 4.), double2(5., 6.)};
  std::copy(local, local + 2, a + 2);
  // Trivially copyable elements, as before: one load and store each.
  std::copy(r + wg.id[0] * N, r + wg.id[0] * N + 2, r + wg.id[0] * N + 3);
}

WGTRACE_DISPATCH void cells(const wgtrace::Workgroup &wg, Cell *c, Cell *d) {
  Cell *a = c + wg.id[0] * N;
  Cell *b = d + wg.id[0] * N;
  std::copy(a, a + N, b);
  std::move_backward(b, b + 2, a + N);
  std::fill(b, b + 3, Cell(7., 8.));
  std::fill_n(a, 2, b[N - 1]);
}

int main() {
  std::vector<double2> p(2 * N), q(2 * N);
  std::vector<Cell> c(2 * N), d(2 * N);
  std::vector<double> r(2 * N);
  for (unsigned i = 0; i < 2 * N; ++i) {
    p[i] = double2(i, 0.5 * i);
    c[i] = Cell(-1.0 * i, 2.0 * i);
    r[i] = 0.25 * i;
  }
  oracle::buffer("p", p.data(), p.size());
  oracle::buffer("q", q.data(), q.size());
  oracle::buffer("r", r.data(), r.size());
  oracle::buffer("c", c.data(), c.size());
  oracle::buffer("d", d.data(), d.size());
  oracle::run(vectors, 2, p.data(), q.data(), r.data());
  oracle::run(cells, 2, c.data(), d.data());
  return oracle::finish();
}
