// bench/kernels/matmul.cc as an OpenMP loop: one iteration of the
// collapsed (row tile, column tile) nest per workgroup, the same body; what
// the dispatch version takes by value is firstprivate.
#include "../harness.h"

#include <vector>

constexpr int kTile = 32;

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 256);
  int n = int(O.Size / kTile) * kTile;
  std::vector<float> Av(size_t(n) * n), Bv(size_t(n) * n), Cv(size_t(n) * n);
  for (size_t i = 0; i < Av.size(); ++i) {
    Av[i] = float(i % 13) * 0.25f;
    Bv[i] = float(i % 11) * 0.5f;
  }
  const float *A = Av.data(), *B = Bv.data();
  float *C = Cv.data();
  int tiles = n / kTile;
  return bench::run(
      O,
      [&] {
#pragma omp parallel for collapse(2) firstprivate(A, B, C, n)
        for (int ty = 0; ty < tiles; ++ty)
          for (int tx = 0; tx < tiles; ++tx) {
            int row0 = ty * kTile, col0 = tx * kTile;
            float acc[kTile][kTile] = {};
            float a_tile[kTile][kTile], b_tile[kTile][kTile];
            for (int k0 = 0; k0 < n; k0 += kTile) {
              for (int i = 0; i < kTile; ++i)
                for (int k = 0; k < kTile; ++k) {
                  a_tile[i][k] = A[(row0 + i) * n + k0 + k];
                  b_tile[i][k] = B[(k0 + i) * n + col0 + k];
                }
              for (int i = 0; i < kTile; ++i)
                for (int k = 0; k < kTile; ++k) {
                  float a = a_tile[i][k];
                  for (int j = 0; j < kTile; ++j)
                    acc[i][j] += a * b_tile[k][j];
                }
            }
            for (int i = 0; i < kTile; ++i)
              for (int j = 0; j < kTile; ++j)
                C[(row0 + i) * n + col0 + j] = acc[i][j];
          }
      },
      [&] {
        double s = 0;
        for (float v : Cv)
          s += v;
        return s;
      });
}
