//===- simd.cc - SSE and AVX loads and stores -----------------------------===//
//
// c = a + b with 128-bit SSE for the first half of each workgroup's range
// and 256-bit AVX for the second: the trace holds 16-byte and 32-byte
// records, one per vector access.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <immintrin.h>

#include <cstdio>
#include <vector>

__attribute__((target("avx"))) WGTRACE_DISPATCH void
vector_add(const wgtrace::Workgroup &wg, const float *a, const float *b,
           float *c, int per_workgroup) {
  int begin = int(wg.id[0]) * per_workgroup;
  int middle = begin + per_workgroup / 2;
  for (int i = begin; i < middle; i += 4)
    _mm_storeu_ps(c + i, _mm_add_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i)));
  for (int i = middle; i < begin + per_workgroup; i += 8)
    _mm256_storeu_ps(
        c + i, _mm256_add_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  if (!__builtin_cpu_supports("avx")) {
    std::printf("simd: this processor has no AVX; skipped\n");
    return 0;
  }
  const int per_workgroup = 256, workgroups = 4;
  std::vector<float> a(per_workgroup * workgroups),
      b(per_workgroup * workgroups), c(per_workgroup * workgroups);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = float(i);
    b[i] = float(2 * i);
  }
  wgtrace::dispatch(vector_add, wgtrace::Grid{workgroups, 1, 1}, a.data(),
                    b.data(), c.data(), per_workgroup);
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] != float(3 * i)) {
      std::fprintf(stderr, "simd: wrong at %zu\n", i);
      return 1;
    }
  std::printf("simd: %zu elements ok\n", c.size());
  return 0;
}
