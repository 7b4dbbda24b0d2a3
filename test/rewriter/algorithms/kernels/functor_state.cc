// Function objects handed to standard algorithms that read and write
// kernel memory of their own beyond the elements they are given, as
// llvm-test-suite's bigfib.cpp adds its digits: std::transform with a
// functor keeping its carry in a static member, std::for_each with one
// summing into a global. Their call operators run instrumented (helpers),
// their accesses in the algorithm's order among the elements'.
#include "oracle.h"

#include <algorithm>
#include <vector>

constexpr int N = 6;

struct Carry {
  static unsigned long head;
  unsigned long operator()(unsigned long a, unsigned long b) const {
    unsigned long v = a + b + head;
    head = v / 10;
    return v % 10;
  }
};
unsigned long Carry::head = 0;

double total = 0;
struct Sum {
  void operator()(double x) const { total += x; }
};

WGTRACE_DISPATCH void add(const wgtrace::Workgroup &wg, const unsigned long *a,
                          const unsigned long *b, unsigned long *out,
                          const double *d) {
  unsigned g = wg.id[0];
  Carry::head = 0;
  std::transform(a + g * N, a + g * N + N, b + g * N, out + g * N, Carry());
  std::for_each(d + g * N, d + g * N + N, Sum{});
}

int main() {
  std::vector<unsigned long> a(2 * N), b(2 * N), out(2 * N);
  std::vector<double> d(2 * N);
  for (int i = 0; i < 2 * N; ++i) {
    a[i] = (i * 7) % 10;
    b[i] = (i * 3 + 5) % 10;
    d[i] = 0.5 * i;
  }
  oracle::buffer("a", a.data(), a.size());
  oracle::buffer("b", b.data(), b.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::buffer("d", d.data(), d.size());
  oracle::buffer("head", &Carry::head, 1);
  oracle::buffer("total", &total, 1);
  oracle::run(add, 2, a.data(), b.data(), out.data(), d.data());
  return oracle::finish();
}
