// Each record names the expression that made it: every form the rewriter
// wraps (subscripts, PolyBench's and BLAS's index macros, compound
// assignment, a range-for by value, memcpy, SSE, a bit-field, a helper of
// this file and one of a project header, a template kernel of two element
// types) states its accesses with their access site, the line marked
// `// @<name>` and the text. The prologue's buffer records name the buffers
// main() passes (diff::argument). A store only part of a macro's expansion
// is recorded in the invocation written out as its tokens, its site at the
// invocation named by the store's tokens. The element accesses of a
// standard algorithm name the algorithm call, except those a lambda of the
// kernel makes itself, which name the lambda's.
#include "harness.h"
#include "header_helpers.h"

#include <algorithm>
#include <cstring>
#include <immintrin.h>
#include <numeric>
#include <span>
#include <vector>

#define A(i, j) a[(i) * n + (j)]
#define X(i) x[(i) * incx]
#define Y(i) (y[(i) * incy])
#define CLEAR(p) (p)[1] = 0

struct Flags {
  unsigned lo : 3;
  unsigned hi : 5;
};

static float twice(const float *p, unsigned i) {
  return 2.0f * p[i]; // @helper
}

WGTRACE_DISPATCH void forms(const wgtrace::Workgroup &wg, float *a, unsigned n,
                            const float *x, unsigned incx, float *y,
                            unsigned incy, std::span<const float> s,
                            const std::vector<float> &v, float arr[4],
                            Flags &flags, float *out) {
  unsigned w = wg.id[0];
  A(w, 0) = A(w, 1) * 2.0f + a[w * n + 2]; // @poly
  Y(w) += 3.0f * X(w);                     // @blas
  for (float e : s)                        // @rangefor
    out[w] += e;                           // @accumulate
  std::memcpy(out + 4 + w, &v[w], sizeof(float)); // @memcpy
  __m128 q = _mm_loadu_ps(arr);                   // @sse
  _mm_storeu_ps(out + 8 + 4 * w, q);              // @ssestore
  flags.hi = w;                                   // @bits
  out[16 + w] = twice(x, w);                      // @call
  out[18 + w] = hh::sum2(a + 4 * w);              // @header
  CLEAR(out + 20 + 2 * w);                        // @macro
}

template <class T>
WGTRACE_DISPATCH void tmpl(const wgtrace::Workgroup &wg, T *p) {
  p[wg.id[0]] *= 2; // @tmpl
}

WGTRACE_DISPATCH void algos(const wgtrace::Workgroup &wg, const float *src,
                            float *dst) {
  float *d = dst + 4 * wg.id[0];
  std::copy(src, src + 2, d);                          // @copy
  d[2] = std::accumulate(src + 2, src + 4, 0.0f);      // @sum
  std::fill_n(d + 3, 1, 1.0f);                         // @fill
  std::for_each(d, d + 2, [](float &e) { e *= 2; });   // @each
  d[3] += std::count_if(d, d + 4, [](float e) { return e > 2; }); // @count
}

int main() {
  float a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  float x[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  float y[2] = {10, 20};
  const float sdata[4] = {1, 2, 4, 8};
  std::vector<float> v = {7, 9};
  float arr[4] = {0.25f, 0.5f, 0.75f, 1};
  // The printed bytes include the three bytes no bit-field occupies: zero
  // them (an aggregate initializer leaves them indeterminate).
  Flags flags;
  std::memset(&flags, 0, sizeof flags);
  flags.lo = 1;
  flags.hi = 1;
  float out[24] = {};
  wgtrace::dispatch(forms, wgtrace::Grid{2, 1, 1}, a, 4u, x, 2u, y, 1u,
                    std::span<const float>(sdata), v, arr, flags, out);
  float f[2] = {1.5f, 2.5f};
  double d[2] = {3.5, 4.5};
  wgtrace::dispatch(tmpl<float>, wgtrace::Grid{2, 1, 1}, f);
  wgtrace::dispatch(tmpl<double>, wgtrace::Grid{2, 1, 1}, d);
  const float src[4] = {1, 2, 3, 4};
  float dst[8] = {};
  wgtrace::dispatch(algos, wgtrace::Grid{2, 1, 1}, src, dst);

  diff::buffer("a", a, 8);
  diff::buffer("x", x, 4);
  diff::buffer("y", y, 2);
  diff::buffer("s", sdata, 4);
  diff::buffer("v", v.data(), v.size());
  diff::buffer("arr", arr, 4);
  diff::buffer("flags", &flags);
  diff::buffer("out", out, 24);
  diff::buffer("p", f, 2);
  diff::buffer("pd", d, 2);
  diff::buffer("src", src, 4);
  diff::buffer("dst", dst, 8);
  diff::argument("forms", "a", a, 8);
  diff::argument("forms", "x", x, 4);
  diff::argument("forms", "y", y, 2);
  diff::argument("forms", "s", sdata, 4);
  diff::argument("forms", "v", v.data(), v.size());
  diff::argument("forms", "arr", arr, 4);
  diff::argument("forms", "flags", &flags);
  diff::argument("forms", "out", out, 24);
  diff::argument("tmpl", "p", f, 2);
  diff::argument("tmpl", "p", d, 2);
  diff::argument("algos", "src", src, 4);
  diff::argument("algos", "dst", dst, 8);
  for (unsigned w = 0; w < 2; ++w) {
    diff::store<float>({w}, "a", w * 4, "poly:A(w,~0)");
    diff::load<float>({w}, "a", w * 4 + 1, "poly:A(w,~1)");
    diff::load<float>({w}, "a", w * 4 + 2, "poly:a[w~*~n~+~2]");
    diff::update<float>({w}, "y", w, "blas:Y(w)");
    diff::load<float>({w}, "x", w * 2, "blas:X(w)");
    for (unsigned k = 0; k < 4; ++k) {
      diff::load<float>({w}, "s", k, "rangefor:s");
      diff::update<float>({w}, "out", w, "accumulate:out[w]");
    }
    const char *Memcpy = "memcpy:std::memcpy(out~+~4~+~w,~&v[w],~sizeof(float))";
    diff::load<float>({w}, "v", w, Memcpy);
    diff::store<float>({w}, "out", 4 + w, Memcpy);
    diff::bytes({w}, 'L', "arr", 0, 16, "sse:_mm_loadu_ps(arr)");
    diff::bytes({w}, 'S', "out", (8 + 4 * w) * sizeof(float), 16,
                "ssestore:_mm_storeu_ps(out~+~8~+~4~*~w,~q)");
    diff::bytes({w}, 'S', "flags", 0, 1, "bits:flags.hi");
    diff::load<float>({w}, "x", w, "helper:p[i]");
    diff::store<float>({w}, "out", 16 + w, "call:out[16~+~w]");
    diff::load<float>({w}, "a", 4 * w, "sum2:p[0]");
    diff::load<float>({w}, "a", 4 * w + 1, "sum2:p[1]");
    diff::store<float>({w}, "out", 18 + w, "header:out[18~+~w]");
    diff::store<float>({w}, "out", 21 + 2 * w, "macro:(out~+~20~+~2~*~w)[1]");
    diff::update<float>({w}, "p", w, "tmpl:p[wg.id[0]]");
    diff::update<double>({w}, "pd", w, "tmpl:p[wg.id[0]]");
    const char *Copy = "copy:std::copy(src,~src~+~2,~d)";
    const char *Sum = "sum:std::accumulate(src~+~2,~src~+~4,~0.0f)";
    const char *Count =
        "count:std::count_if(d,~d~+~4,~[](float~e)~{~return~e~>~2;~})";
    for (unsigned k = 0; k < 2; ++k) {
      diff::load<float>({w}, "src", k, Copy);
      diff::store<float>({w}, "dst", 4 * w + k, Copy);
      diff::load<float>({w}, "src", 2 + k, Sum);
      // The lambda takes the element by reference: its own access.
      diff::update<float>({w}, "dst", 4 * w + k, "each:e");
    }
    diff::store<float>({w}, "dst", 4 * w + 2, "sum:d[2]");
    diff::store<float>({w}, "dst", 4 * w + 3, "fill:std::fill_n(d~+~3,~1,~1.0f)");
    // By value: each element handed over is loaded at the call's site.
    for (unsigned k = 0; k < 4; ++k)
      diff::load<float>({w}, "dst", 4 * w + k, Count);
    diff::update<float>({w}, "dst", 4 * w + 3, "count:d[3]");
  }
  return diff::finish();
}
