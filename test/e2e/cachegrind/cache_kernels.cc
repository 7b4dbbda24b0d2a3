//===- cache_kernels.cc - Kernels whose cache misses cachegrind counts too ===//
//
// Built plain (run under Valgrind's cachegrind) and instrumented (its trace
// through `wgtrace-view cache`): the two must count the same D1 read and
// write misses. The buffers are 4 KiB aligned in both builds so that every
// line falls in the same cache set, and a scratch buffer the kernels never
// touch is walked before each launch: an LRU cache full of lines nobody
// uses again behaves, for the kernels' lines, exactly as an empty one,
// which is where wgtrace's model starts.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <cstdlib>

constexpr int kN = 256;
constexpr int kTile = 16;

// Reads rows of its tile (one line per 16 floats), writes columns (a line
// per element, 1 KiB apart): the stores conflict in a 32 KiB cache.
// noinline: cachegrind counts per function, and a compiler may otherwise
// inline a kernel into the launcher that calls it through a pointer.
[[gnu::noinline]] WGTRACE_DISPATCH void
transpose_tiles(const wgtrace::Workgroup &wg, const float *in, float *out) {
  const int Y0 = int(wg.id[1]) * kTile, X0 = int(wg.id[0]) * kTile;
  for (int Y = Y0; Y < Y0 + kTile; ++Y)
    for (int X = X0; X < X0 + kTile; ++X)
      out[X * kN + Y] = in[Y * kN + X];
}

// A 5-point stencil over rows of the grid: reads three rows, writes one.
[[gnu::noinline]] WGTRACE_DISPATCH void
stencil_rows(const wgtrace::Workgroup &wg, const float *in, float *out) {
  const int Y = int(wg.id[0]) + 1;
  for (int X = 1; X < kN - 1; ++X)
    out[Y * kN + X] = in[Y * kN + X] + in[(Y - 1) * kN + X] +
                      in[(Y + 1) * kN + X] + in[Y * kN + X - 1] +
                      in[Y * kN + X + 1];
}

static float *alignedFloats(size_t Count) {
  void *P = std::aligned_alloc(4096, Count * sizeof(float));
  if (!P) {
    std::perror("aligned_alloc");
    std::exit(1);
  }
  return static_cast<float *>(P);
}

// Fills every set of the cache with lines the kernels never use.
static void evict(volatile char *Scratch, size_t Bytes) {
  for (size_t I = 0; I < Bytes; I += 64)
    Scratch[I] = char(I);
}

int main() {
  float *In = alignedFloats(kN * kN), *Out = alignedFloats(kN * kN);
  const size_t ScratchBytes = 1 << 20;
  char *Scratch = static_cast<char *>(std::aligned_alloc(4096, ScratchBytes));
  if (!Scratch)
    return 1;
  for (int I = 0; I < kN * kN; ++I) {
    In[I] = float(I % 97);
    Out[I] = 0;
  }
  evict(Scratch, ScratchBytes);
  wgtrace::dispatch(transpose_tiles, wgtrace::Grid{kN / kTile, kN / kTile, 1},
                    In, Out);
  evict(Scratch, ScratchBytes);
  wgtrace::dispatch(stencil_rows, wgtrace::Grid{kN - 2, 1, 1}, In, Out);
  double Sum = 0;
  for (int I = 0; I < kN * kN; ++I)
    Sum += Out[I];
  std::printf("cache_kernels: checksum %.1f\n", Sum);
  std::free(In);
  std::free(Out);
  std::free(Scratch);
  return 0;
}
