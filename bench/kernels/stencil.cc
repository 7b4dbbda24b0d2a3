// 5-point stencil over an N x N grid, one 64 x 64 tile per workgroup; the
// border keeps its input value.
#include "harness.h"

#include <vector>

constexpr int kTile = 64;

WGTRACE_DISPATCH void stencil(const wgtrace::Workgroup &wg, const float *in,
                              float *out, int n) {
  int y0 = int(wg.id[1]) * kTile, x0 = int(wg.id[0]) * kTile;
  for (int y = y0; y < y0 + kTile; ++y)
    for (int x = x0; x < x0 + kTile; ++x) {
      if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        out[y * n + x] = in[y * n + x];
        continue;
      }
      out[y * n + x] = 0.5f * in[y * n + x] +
                       0.125f * (in[(y - 1) * n + x] + in[(y + 1) * n + x] +
                                 in[y * n + x - 1] + in[y * n + x + 1]);
    }
}

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 2048);
  int n = int(O.Size / kTile) * kTile;
  std::vector<float> in(size_t(n) * n), out(size_t(n) * n);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float(i % 17);
  uint32_t tiles = uint32_t(n / kTile);
  return bench::run(
      O,
      [&] {
        wgtrace::dispatch(stencil, wgtrace::Grid{tiles, tiles, 1}, in.data(),
                          out.data(), n);
      },
      [&] {
        double s = 0;
        for (float v : out)
          s += v;
        return s;
      });
}
