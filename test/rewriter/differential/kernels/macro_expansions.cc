// Accesses only part of a macro's expansion, as CLAMR's flux macros make
// them: the invocation is written out in place as its tokens, each access
// wrapped there, so every access the compiler makes is recorded: SQ's
// argument once per use, a store in the macro's body, a macro argument
// both read and written (SWAP), an argument used twice with its own
// offset. Each site is at the invocation, named by the access's tokens.
#include "harness.h"

#define SQ(x) ((x) * (x))
#define UFLUX(i) (SQ(u[i]) / h[i] + 0.5f * SQ(h[i]))
#define CLEAR(p, i) (p)[i] = 0
#define SWAP(x, y)                                                             \
  do {                                                                         \
    float t_ = (x);                                                            \
    (x) = (y);                                                                 \
    (y) = t_;                                                                  \
  } while (0)
#define PAIR(p, i) (p[i] + p[i + 1])

WGTRACE_DISPATCH void flux(const wgtrace::Workgroup &wg, const float *u,
                           const float *h, float *f, float *s, float *t) {
  unsigned i = wg.id[0];
  f[i] = UFLUX(i);              // @flux
  CLEAR(s, i);                  // @clear
  SWAP(t[2 * i], t[2 * i + 1]); // @swap
  s[4 + i] = PAIR(u, i) + 1.0f; // @pair
}

int main() {
  float u[5] = {1, 2, 3, 4, 5}, h[4] = {2, 4, 8, 16}, f[4] = {};
  float s[8] = {9, 9, 9, 9, 9, 9, 9, 9}, t[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  wgtrace::dispatch(flux, wgtrace::Grid{4, 1, 1}, u, h, f, s, t);
  diff::buffer("u", u, 5);
  diff::buffer("h", h, 4);
  diff::buffer("f", f, 4);
  diff::buffer("s", s, 8);
  diff::buffer("t", t, 8);
  for (unsigned w = 0; w < 4; ++w) {
    diff::load<float>({w}, "u", w, "flux:u[i]");
    diff::load<float>({w}, "u", w, "flux:u[i]");
    for (int k = 0; k < 3; ++k)
      diff::load<float>({w}, "h", w, "flux:h[i]");
    diff::store<float>({w}, "f", w, "flux:f[i]");
    diff::store<float>({w}, "s", w, "clear:(s)[i]");
    diff::load<float>({w}, "t", 2 * w, "swap:t[2~*~i]");
    diff::store<float>({w}, "t", 2 * w, "swap:t[2~*~i]");
    diff::load<float>({w}, "t", 2 * w + 1, "swap:t[2~*~i~+~1]");
    diff::store<float>({w}, "t", 2 * w + 1, "swap:t[2~*~i~+~1]");
    diff::load<float>({w}, "u", w, "pair:u[i]");
    diff::load<float>({w}, "u", w + 1, "pair:u[i~+~1]");
    diff::store<float>({w}, "s", 4 + w, "pair:s[4~+~i]");
  }
  return diff::finish();
}
