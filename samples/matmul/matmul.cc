//===- matmul.cc - Tiled matrix multiply, one output tile per workgroup ---===//
//
// C = A * B for 64 x 64 matrices with 16 x 16 tiles. Each workgroup reads
// a 16-row band of A and a 16-column band of B: the footprint shows which
// tiles of A and B each workgroup touched and how much every tile is
// reused across workgroups.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int kTile = 16;

WGTRACE_DISPATCH void matmul(const wgtrace::Workgroup &wg, const float *a,
                             const float *b, float *c, int n) {
  int row0 = int(wg.id[1]) * kTile;
  int col0 = int(wg.id[0]) * kTile;
  for (int i = row0; i < row0 + kTile; ++i)
    for (int j = col0; j < col0 + kTile; ++j) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k)
        sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  const int n = 64;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = float(i % 7) - 3.0f;
    b[i] = float(i % 5) * 0.5f;
  }
  const uint32_t tiles = n / kTile;
  wgtrace::dispatch(matmul, wgtrace::Grid{tiles, tiles, 1}, a.data(), b.data(),
                    c.data(), n);

  // Check against a straightforward product.
  int wrong = 0;
  double checksum = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float expected = 0.0f;
      for (int k = 0; k < n; ++k)
        expected += a[i * n + k] * b[k * n + j];
      if (c[i * n + j] != expected)
        ++wrong;
      checksum += c[i * n + j];
    }
  if (wrong) {
    std::fprintf(stderr, "matmul: %d wrong elements\n", wrong);
    return 1;
  }
  std::printf("matmul: %dx%d ok, checksum %.1f\n", n, n, checksum);
  return 0;
}
