//===- transpose.cc - Matrix transpose: contiguous reads, strided stores --===//
//
// out = transpose(in) for a 128 x 128 matrix in 16 x 16 tiles. Each
// workgroup reads rows of its tile contiguously and writes columns: its
// stores are strided by one output row (512 bytes), which
// `wgtrace-view footprint` reports as a stride pattern.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <vector>

constexpr int kTile = 16;

WGTRACE_DISPATCH void transpose(const wgtrace::Workgroup &wg, const float *in,
                                float *out, int n) {
  int y0 = int(wg.id[1]) * kTile;
  int x0 = int(wg.id[0]) * kTile;
  for (int y = y0; y < y0 + kTile; ++y)
    for (int x = x0; x < x0 + kTile; ++x)
      out[x * n + y] = in[y * n + x];
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  const int n = 128;
  std::vector<float> in(n * n), out(n * n);
  for (int i = 0; i < n * n; ++i)
    in[i] = float(i);
  const uint32_t tiles = n / kTile;
  wgtrace::dispatch(transpose, wgtrace::Grid{tiles, tiles, 1}, in.data(),
                    out.data(), n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (out[x * n + y] != in[y * n + x]) {
        std::fprintf(stderr, "transpose: wrong at %d,%d\n", x, y);
        return 1;
      }
  std::printf("transpose: %dx%d ok\n", n, n);
  return 0;
}
