// C = A * B, N x N x N, one 32 x 32 tile of C per workgroup. Each workgroup
// stages 32 x 32 tiles of A and B in local arrays, as a GPU kernel stages
// them in shared memory: the products read the local tiles.
#include "harness.h"

#include <vector>

constexpr int kTile = 32;

WGTRACE_DISPATCH void matmul(const wgtrace::Workgroup &wg, const float *A,
                             const float *B, float *C, int n) {
  int row0 = int(wg.id[1]) * kTile, col0 = int(wg.id[0]) * kTile;
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

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 256);
  int n = int(O.Size / kTile) * kTile;
  std::vector<float> A(size_t(n) * n), B(size_t(n) * n), C(size_t(n) * n);
  for (size_t i = 0; i < A.size(); ++i) {
    A[i] = float(i % 13) * 0.25f;
    B[i] = float(i % 11) * 0.5f;
  }
  uint32_t tiles = uint32_t(n / kTile);
  return bench::run(
      O,
      [&] {
        wgtrace::dispatch(matmul, wgtrace::Grid{tiles, tiles, 1}, A.data(),
                          B.data(), C.data(), n);
      },
      [&] {
        double s = 0;
        for (float v : C)
          s += v;
        return s;
      });
}
