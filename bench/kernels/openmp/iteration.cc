// What one OpenMP iteration costs traced as a workgroup: a `parallel for`
// whose body is a single element (two loads and a store through shared
// pointers), so that the runtime's work per workgroup is nearly all there
// is (docs/REWRITER.md, "OpenMP loops").
#include "../harness.h"

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 1 << 20);
  long n = O.Size; // shared: a buffer of the loop (objectBuffer)
  bench::ProductVectors v{size_t(n)};
  const float *a = v.a.data(), *b = v.b.data();
  float *c = v.c.data();
  return bench::run(
      O,
      [&] {
#pragma omp parallel for
        for (long i = 0; i < n; ++i)
          c[i] = a[i] * b[i];
      },
      [&] { return v.checksum(); });
}
