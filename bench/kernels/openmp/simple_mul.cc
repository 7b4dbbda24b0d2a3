// bench/kernels/simple_mul.cc as an OpenMP loop: one iteration per
// workgroup of the dispatch version, the same body; what the dispatch
// version takes by value is firstprivate.
#include "../harness.h"

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 4 << 20);
  const uint32_t per_workgroup = 4096;
  uint32_t workgroups = uint32_t(O.Size / per_workgroup);
  size_t n = size_t(workgroups) * per_workgroup;
  bench::ProductVectors v(n);
  const float *a = v.a.data(), *b = v.b.data();
  float *c = v.c.data();
  return bench::run(
      O,
      [&] {
#pragma omp parallel for firstprivate(a, b, c)
        for (uint32_t g = 0; g < workgroups; ++g) {
          uint32_t begin = g * per_workgroup;
          for (uint32_t i = begin; i < begin + per_workgroup; ++i)
            c[i] = a[i] * b[i];
        }
      },
      [&] { return v.checksum(); });
}
