// Ternary lvalues, gathers and scatters, chained assignment, struct copies.
#include "harness.h"

struct Particle {
  float pos[3];
  float mass;
};

WGTRACE_DISPATCH void ternary(const wgtrace::Workgroup &wg, float *a,
                              float *b) {
  unsigned i = wg.id[0];
  (i % 2 ? a[i] : b[i]) = 7.0f;
  float x = i % 2 ? b[i] : a[i];
  (i % 2 ? a : b)[i + 2] += x;
}

WGTRACE_DISPATCH void gather(const wgtrace::Workgroup &wg, float *out,
                             const float *in, const int *idx) {
  for (unsigned k = 0; k < 2; ++k) {
    unsigned i = wg.id[0] * 2 + k;
    out[idx[i]] = in[idx[i]];
  }
}

WGTRACE_DISPATCH void chained(const wgtrace::Workgroup &wg, int *a, int *b) {
  unsigned i = wg.id[0];
  a[i] = b[i] = a[i + 2];
}

WGTRACE_DISPATCH void copies(const wgtrace::Workgroup &wg, Particle *p,
                             Particle &out) {
  unsigned i = wg.id[0];
  Particle local = p[i];
  local.mass += 1.0f;
  p[i + 2] = local;
  if (i == 0)
    out = p[1];
}

int main() {
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  wgtrace::dispatch(ternary, wgtrace::Grid{2, 1, 1}, a, b);
  float out[4] = {}, in[4] = {10, 20, 30, 40};
  int idx[4] = {3, 1, 0, 2};
  wgtrace::dispatch(gather, wgtrace::Grid{2, 1, 1}, out, in, idx);
  int ia[4] = {1, 2, 3, 4}, ib[2] = {};
  wgtrace::dispatch(chained, wgtrace::Grid{2, 1, 1}, ia, ib);
  Particle p[4] = {{{1, 2, 3}, 4}, {{5, 6, 7}, 8}, {}, {}};
  Particle single{};
  wgtrace::dispatch(copies, wgtrace::Grid{2, 1, 1}, p, single);

  diff::buffer("a", a, 4);
  diff::buffer("b", b, 4);
  diff::buffer("out", out, 4);
  diff::buffer("in", in, 4);
  diff::buffer("idx", idx, 4);
  diff::buffer("ia", ia, 4);
  diff::buffer("ib", ib, 2);
  diff::buffer("p", p, 4);
  diff::buffer("single", &single);
  for (unsigned w = 0; w < 2; ++w) {
    // ternary
    diff::store<float>({w}, w % 2 ? "a" : "b", w);
    diff::load<float>({w}, w % 2 ? "b" : "a", w);
    diff::update<float>({w}, w % 2 ? "a" : "b", w + 2);
    // gather: idx[i] is loaded twice
    for (unsigned k = 0; k < 2; ++k) {
      unsigned i = w * 2 + k;
      diff::load<int>({w}, "idx", i);
      diff::load<int>({w}, "idx", i);
      diff::load<float>({w}, "in", idx[i]);
      diff::store<float>({w}, "out", idx[i]);
    }
    // chained
    diff::load<int>({w}, "ia", w + 2);
    diff::store<int>({w}, "ib", w);
    diff::store<int>({w}, "ia", w);
    // copies
    diff::load<Particle>({w}, "p", w);
    diff::store<Particle>({w}, "p", w + 2);
    if (w == 0) {
      diff::load<Particle>({w}, "p", 1);
      diff::store<Particle>({w}, "single", 0);
    }
  }
  return diff::finish();
}
