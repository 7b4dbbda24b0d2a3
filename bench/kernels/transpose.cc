// out = transpose(in), N x N, one 32 x 32 tile per workgroup: reads rows,
// writes columns (strided stores).
#include "harness.h"

#include <vector>

constexpr int kTile = 32;

WGTRACE_DISPATCH void transpose(const wgtrace::Workgroup &wg, const float *in,
                                float *out, int n) {
  int y0 = int(wg.id[1]) * kTile, x0 = int(wg.id[0]) * kTile;
  for (int y = y0; y < y0 + kTile; ++y)
    for (int x = x0; x < x0 + kTile; ++x)
      out[x * n + y] = in[y * n + x];
}

int main(int argc, char **argv) {
  bench::Options O = bench::parse(argc, argv, 2048);
  int n = int(O.Size / kTile) * kTile;
  std::vector<float> in(size_t(n) * n), out(size_t(n) * n);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float(i % 19);
  uint32_t tiles = uint32_t(n / kTile);
  return bench::run(
      O,
      [&] {
        wgtrace::dispatch(transpose, wgtrace::Grid{tiles, tiles, 1}, in.data(),
                          out.data(), n);
      },
      [&] {
        double s = 0;
        for (size_t i = 0; i < out.size(); ++i)
          s += out[i] * double(i % 3);
        return s;
      });
}
