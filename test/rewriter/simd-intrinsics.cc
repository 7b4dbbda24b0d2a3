// SSE/AVX load and store intrinsics: the address argument goes through a
// function that records one access of the vector size (16 or 32 bytes, or
// the element size for _ss/_sd forms) and returns it unchanged. Loads and
// stores of GCC/Clang vector types through pointers are ordinary accesses.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -mavx2 > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -mavx2 -std=c++17 -I %wgtrace-include %t.out.cc
#include <wgtrace/wgtrace.h>

#include <immintrin.h>

float gbuf[16];

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a,
                        const float *b, double *d) {
  float tmp[8];
  __m128 v = _mm_loadu_ps(b + 4);
  // CHECK: __m128 v = _mm_loadu_ps(::wgtrace::detail::loaded<16>(WGTRACE_ACCESS_SITE({{[0-9]+}}), b + 4));
  _mm_storeu_ps(&a[4], v);
  // CHECK: _mm_storeu_ps(::wgtrace::detail::stored<16>(WGTRACE_ACCESS_SITE({{[0-9]+}}), &a[4]), v);
  __m256 w = _mm256_loadu_ps(gbuf);
  // CHECK: __m256 w = _mm256_loadu_ps(::wgtrace::detail::loaded<32>(WGTRACE_ACCESS_SITE({{[0-9]+}}), gbuf));
  _mm256_storeu_ps(a + 8, w);
  // CHECK: _mm256_storeu_ps(::wgtrace::detail::stored<32>(WGTRACE_ACCESS_SITE({{[0-9]+}}), a + 8), w);
  _mm256_storeu_ps(tmp, w);
  // CHECK: _mm256_storeu_ps(tmp, w);
  __m128 s = _mm_load_ss(b);
  // CHECK: __m128 s = _mm_load_ss(::wgtrace::detail::loaded<4>(WGTRACE_ACCESS_SITE({{[0-9]+}}), b));
  __m128d h = _mm_loadh_pd(_mm_setzero_pd(), d);
  // CHECK: __m128d h = _mm_loadh_pd(_mm_setzero_pd(), ::wgtrace::detail::loaded<8>(WGTRACE_ACCESS_SITE({{[0-9]+}}), d));
  _mm_storeu_pd(d + 2, h);
  __m128i iv = _mm_loadu_si128((const __m128i *)(b + 12));
  // CHECK: __m128i iv = _mm_loadu_si128(::wgtrace::detail::loaded<16>(WGTRACE_ACCESS_SITE({{[0-9]+}}), (const __m128i *)(b + 12)));
  _mm256_store_si256((__m256i *)a, _mm256_castsi128_si256(iv));
  // CHECK: _mm256_store_si256(::wgtrace::detail::stored<32>(WGTRACE_ACCESS_SITE({{[0-9]+}}), (__m256i *)a), _mm256_castsi128_si256(iv));
  typedef float v4sf __attribute__((vector_size(16)));
  v4sf *vp = (v4sf *)a;
  vp[1] = vp[0] * 2;
  // CHECK: WGTRACE_STORE_AT({{[0-9]+}}, vp[1]) = WGTRACE_LOAD_AT({{[0-9]+}}, vp[0]) * 2;
  _mm_store_ss(a, _mm_add_ss(s, _mm_set_ss(tmp[0])));
  (void)wg;
}
