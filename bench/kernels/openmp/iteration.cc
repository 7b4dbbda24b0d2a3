// What one OpenMP iteration costs traced as a workgroup: a `parallel for`
// whose body is a single element (two loads and a store through shared
// pointers), so that the runtime's work per workgroup is nearly all there
// is (docs/RUNTIME.md, "OpenMP iterations").
#include "../harness.h"

#include <vector>

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 1 << 20);
  long n = O.Size; // shared: a buffer of the loop (objectBuffer)
  std::vector<float> av(n), bv(n), cv(n);
  for (long i = 0; i < n; ++i) {
    av[i] = float(i % 7);
    bv[i] = float(i % 5) * 0.5f;
  }
  const float *a = av.data(), *b = bv.data();
  float *c = cv.data();
  return bench::run(
      O,
      [&] {
#pragma omp parallel for
        for (long i = 0; i < n; ++i)
          c[i] = a[i] * b[i];
      },
      [&] {
        double s = 0;
        for (float v : cv)
          s += v;
        return s;
      });
}
