// bench/kernels/transpose.cc as an OpenMP loop: one iteration of the
// collapsed (row tile, column tile) nest per workgroup, the same body; what
// the dispatch version takes by value is firstprivate.
#include "../harness.h"

#include <vector>

constexpr int kTile = 32;

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 2048);
  int n = int(O.Size / kTile) * kTile;
  std::vector<float> inv(size_t(n) * n), outv(size_t(n) * n);
  for (size_t i = 0; i < inv.size(); ++i)
    inv[i] = float(i % 19);
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
              for (int x = x0; x < x0 + kTile; ++x)
                out[x * n + y] = in[y * n + x];
          }
      },
      [&] {
        double s = 0;
        for (size_t i = 0; i < outv.size(); ++i)
          s += outv[i] * double(i % 3);
        return s;
      });
}
