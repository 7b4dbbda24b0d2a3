//===- stencil.cc - 5-point stencil with halos ----------------------------===//
//
// out = average of each point and its four neighbours, on a 128 x 128 grid
// in 32 x 32 tiles. Each workgroup reads a one-element halo around its tile:
// neighbouring workgroups read overlapping bytes of `in`, but only ever
// write their own tile of `out`, so `wgtrace-view races` finds no race.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <vector>

constexpr int kTile = 32;

WGTRACE_DISPATCH void stencil(const wgtrace::Workgroup &wg, const float *in,
                              float *out, int n) {
  int y0 = int(wg.id[1]) * kTile;
  int x0 = int(wg.id[0]) * kTile;
  for (int y = y0; y < y0 + kTile; ++y)
    for (int x = x0; x < x0 + kTile; ++x) {
      if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        out[y * n + x] = in[y * n + x];
        continue;
      }
      out[y * n + x] =
          (in[y * n + x] + in[(y - 1) * n + x] + in[(y + 1) * n + x] +
           in[y * n + x - 1] + in[y * n + x + 1]) /
          5.0f;
    }
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  const int n = 128;
  std::vector<float> in(n * n), out(n * n);
  for (int i = 0; i < n * n; ++i)
    in[i] = float((i * 37) % 101);
  const uint32_t tiles = n / kTile;
  wgtrace::dispatch(stencil, wgtrace::Grid{tiles, tiles, 1}, in.data(),
                    out.data(), n);

  int wrong = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      float expected = in[y * n + x];
      if (x > 0 && y > 0 && x < n - 1 && y < n - 1)
        expected = (in[y * n + x] + in[(y - 1) * n + x] + in[(y + 1) * n + x] +
                    in[y * n + x - 1] + in[y * n + x + 1]) /
                   5.0f;
      if (out[y * n + x] != expected)
        ++wrong;
    }
  if (wrong) {
    std::fprintf(stderr, "stencil: %d wrong points\n", wrong);
    return 1;
  }
  std::printf("stencil: %dx%d ok\n", n, n);
  return 0;
}
