// memcpy, memmove, memset (split past 65535 bytes) and SSE intrinsics.
#include "harness.h"

#include <cstring>
#include <immintrin.h>

WGTRACE_DISPATCH void copy_big(const wgtrace::Workgroup &wg, char *dst,
                               const char *src, size_t n) {
  char local[16];
  std::memcpy(local, src, sizeof local);
  std::memmove(dst + wg.id[0] * n, src, n);
  memset(dst, local[0], 8);
}

WGTRACE_DISPATCH void sse_add(const wgtrace::Workgroup &wg, const float *a,
                              const float *b, float *c) {
  unsigned i = wg.id[0] * 4;
  __m128 x = _mm_loadu_ps(a + i);
  __m128 y = _mm_loadu_ps(&b[i]);
  _mm_storeu_ps(c + i, _mm_add_ps(x, y));
  float tmp[4];
  _mm_storeu_ps(tmp, x);
  c[i] += tmp[0];
}

static char src[70000], dst[140000];

int main() {
  for (size_t i = 0; i < sizeof src; ++i)
    src[i] = static_cast<char>(i * 7);
  wgtrace::dispatch(copy_big, wgtrace::Grid{2, 1, 1}, dst, src,
                    sizeof src);
  float a[8], b[8], c[8] = {};
  for (int i = 0; i < 8; ++i) {
    a[i] = i * 0.5f;
    b[i] = 1.0f / (i + 1);
  }
  wgtrace::dispatch(sse_add, wgtrace::Grid{2, 1, 1}, a, b, c);

  diff::buffer("src", src, sizeof src);
  diff::buffer("dst", dst, sizeof dst);
  diff::buffer("a", a, 8);
  diff::buffer("b", b, 8);
  diff::buffer("c", c, 8);
  for (unsigned w = 0; w < 2; ++w) {
    diff::bytes({w}, 'L', "src", 0, 16);
    diff::bytes({w}, 'L', "src", 0, sizeof src);
    diff::bytes({w}, 'S', "dst", w * sizeof src, sizeof src);
    diff::bytes({w}, 'S', "dst", 0, 8);
    diff::bytes({w}, 'L', "a", w * 16, 16);
    diff::bytes({w}, 'L', "b", w * 16, 16);
    diff::bytes({w}, 'S', "c", w * 16, 16);
    diff::update<float>({w}, "c", w * 4);
  }
  return diff::finish();
}
