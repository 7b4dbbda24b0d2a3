// bench/kernels/stencil.cc as an OpenMP loop: one iteration of the
// collapsed (row tile, column tile) nest per workgroup, the same body; what
// the dispatch version takes by value is firstprivate.
#include "../harness.h"

#include <vector>

constexpr int kTile = 64;

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 2048);
  int n = int(O.Size / kTile) * kTile;
  std::vector<float> inv(size_t(n) * n), outv(size_t(n) * n);
  for (size_t i = 0; i < inv.size(); ++i)
    inv[i] = float(i % 17);
  const float *in = inv.data();
  float *out = outv.data();
  int tiles = n / kTile;
  return bench::run(
      O,
      [&] {
#pragma omp parallel for collapse(2) firstprivate(in, out, n)
        for (int ty = 0; ty < tiles; ++ty)
          for (int tx = 0; tx < tiles; ++tx) {
            int y0 = ty * kTile, x0 = tx * kTile;
            for (int y = y0; y < y0 + kTile; ++y)
              for (int x = x0; x < x0 + kTile; ++x) {
                if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
                  out[y * n + x] = in[y * n + x];
                  continue;
                }
                out[y * n + x] =
                    0.5f * in[y * n + x] +
                    0.125f * (in[(y - 1) * n + x] + in[(y + 1) * n + x] +
                              in[y * n + x - 1] + in[y * n + x + 1]);
              }
          }
      },
      [&] {
        double s = 0;
        for (float v : outv)
          s += v;
        return s;
      });
}
