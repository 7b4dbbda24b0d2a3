// std::array's fill and swap on the kernel's arrays: libstdc++ writes them
// as std::fill_n(begin(), size(), u) and std::swap_ranges(begin(), end(),
// other.begin()); every element store (fill) and load and store (swap) in
// that order, as a tiled kernel resets and exchanges its tiles.
#include "oracle.h"

#include <array>
#include <cstdint>
#include <functional>

using Tile = std::array<double, 6>;

WGTRACE_DISPATCH void array_members(const wgtrace::Workgroup &wg, Tile &A,
                                    Tile &B, std::array<Tile, 2> *Tiles,
                                    std::array<int8_t, 5> &Bytes) {
  double v = 1.5 * (wg.id[0] + 1);
  A.fill(v);
  A.swap(B);
  B[wg.id[0]] += A[1];
  Tiles->at(wg.id[0]).fill(-v);
  (*Tiles)[0].swap((*Tiles)[1]);
  Bytes.fill(int8_t(wg.id[0] + 3));
}

int main() {
  Tile A{}, B{};
  std::array<Tile, 2> Tiles{};
  std::array<int8_t, 5> Bytes{};
  for (int i = 0; i < 6; ++i) {
    B[i] = i;
    Tiles[1][i] = 10 + i;
  }
  oracle::buffer("A", A.data(), A.size());
  oracle::buffer("B", B.data(), B.size());
  oracle::buffer("Tiles", Tiles[0].data(), 12);
  oracle::buffer("Bytes", Bytes.data(), Bytes.size());
  oracle::run(array_members, 2, std::ref(A), std::ref(B), &Tiles,
              std::ref(Bytes));
  return oracle::finish();
}
