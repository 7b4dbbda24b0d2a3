// Globals and statics, GCC/Clang vector types through pointers, bit-fields
// (the bytes holding the field's bits), locals and by-value parameters (not
// recorded).
#include "harness.h"

struct Flags {
  unsigned a : 3;
  unsigned b : 7;
  int pad;
  unsigned c : 12;
};

int g_total;
static int s_calls;
typedef float v4sf __attribute__((vector_size(16)));

WGTRACE_DISPATCH void globals(const wgtrace::Workgroup &wg, int by_value) {
  s_calls++;
  g_total += by_value + static_cast<int>(wg.id[0]);
}

WGTRACE_DISPATCH void vectors(const wgtrace::Workgroup &wg, v4sf *vp) {
  vp[wg.id[0] + 2] = vp[wg.id[0]] * 2;
}

WGTRACE_DISPATCH void bits(const wgtrace::Workgroup &wg, Flags *f) {
  Flags local{};
  local.a = 3;
  f[wg.id[0]].c += local.a;
  f->b = 5;
}

WGTRACE_DISPATCH void locals_only(const wgtrace::Workgroup &wg, int n,
                                  int *out) {
  int tile[8];
  for (int i = 0; i < 8; ++i)
    tile[i] = i * n;
  int acc = 0;
  const int *walk = tile;
  for (int i = 0; i < 8; ++i)
    acc += *walk++;
  out[wg.id[0]] = acc;
}

// An element read as another type through a reference cast; register
// operands of inline assembly: "=r" a store, "+r" an update, "r" a load.
WGTRACE_DISPATCH void punning(const wgtrace::Workgroup &wg, float *in,
                              int *out) {
  unsigned w = wg.id[0];
  int bits = reinterpret_cast<const int &>(in[w]);
#if defined(__x86_64__)
  asm("mov %1, %0" : "=r"(out[w]) : "r"(bits));
  asm("add $1, %0" : "+r"(out[w + 2]));
#else
  out[w] = bits;
  out[w + 2] += 1;
#endif
}

int main() {
  float pin[2] = {1.0f, 2.0f};
  int pout[4] = {};
  wgtrace::dispatch(punning, wgtrace::Grid{2, 1, 1}, pin, pout);
  diff::buffer("pin", pin, 2);
  diff::buffer("pout", pout, 4);
  for (unsigned w = 0; w < 2; ++w) {
    diff::load<int>({w}, "pin", w);
    diff::store<int>({w}, "pout", w);
    diff::update<int>({w}, "pout", w + 2);
  }
  wgtrace::dispatch(globals, wgtrace::Grid{2, 1, 1}, 5);
  v4sf v[4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {}, {}};
  wgtrace::dispatch(vectors, wgtrace::Grid{2, 1, 1}, v);
  Flags f[2] = {};
  f[1].c = 100;
  wgtrace::dispatch(bits, wgtrace::Grid{2, 1, 1}, f);
  int out[2] = {};
  wgtrace::dispatch(locals_only, wgtrace::Grid{2, 1, 1}, 3, out);

  diff::buffer("g_total", &g_total);
  diff::buffer("s_calls", &s_calls);
  diff::buffer("v", v, 4);
  diff::buffer("f", f, 2);
  diff::buffer("out", out, 2);
  for (unsigned w = 0; w < 2; ++w) {
    diff::update<int>({w}, "s_calls", 0);
    diff::update<int>({w}, "g_total", 0);
    diff::load<v4sf>({w}, "v", w);
    diff::store<v4sf>({w}, "v", w + 2);
    diff::bytes({w}, 'L', "f", w * sizeof(Flags) + 8, 2);
    diff::bytes({w}, 'S', "f", w * sizeof(Flags) + 8, 2);
    diff::bytes({w}, 'S', "f", 0, 2);
    diff::store<int>({w}, "out", w);
  }
  return diff::finish();
}
