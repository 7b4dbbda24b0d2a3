// std::vector<T> v(first, last), v(n) and v(n, x): vectors of the kernel
// built from a count (value-initialized: libstdc++ stores the first
// element, then copies it into the others), a count and a value of a
// buffer or of the kernel's own, and from a range of
// its buffers (pointers, a vector's iterators and const iterators), of its
// own stack (a local array: no load recorded, the stores into the new
// storage are), of another local vector's storage, an empty range, and
// through a helper's pointer parameter given a buffer and a local array.
// The new storage comes from the harness's kernel heap, so both builds see
// it at the same offsets. libstdc++ allocates the storage for the whole
// range, then copies it in (memmove: a load and a store per element,
// forward). A copy (`std::vector<float> c(w)`, `= table`, a vector given or
// returned by value) allocates the source's size and copies it the same
// way; before 2026-12 a copy of a local vector was not recorded, in
// silence.
#define ORACLE_KERNEL_HEAP
#include "oracle.h"

#include <cstdio>
#include <functional>
#include <vector>

static float firstOf(const float *p, int n) {
  std::vector<float> c(p, p + n);
  return c[0] + c[n - 1];
}

static float secondOf(std::vector<float> v) { return v[1]; }

static std::vector<float> copyOf(const std::vector<float> &v) { return v; }

WGTRACE_DISPATCH void window(const wgtrace::Workgroup &wg, const float *in,
                             const std::vector<float> &table, float *out) {
  size_t g = wg.id[0];
  std::vector<float> w(in + g, in + g + 4);
  std::vector<float> t(table.begin() + g, table.end());
  float local[3] = {1.5f, 2.5f, float(g)};
  std::vector<float> l(local, local + 3);
  std::vector<float> none(in, in);
  float s = 0;
  for (float x : w)
    s += x;
  std::vector<float> zeros(3);
  std::vector<float> one(1);
  std::vector<float> filled(2, in[g + 1]);
  float x = 0.25f * float(g);
  std::vector<float> fromLocal(3, x);
  std::vector<float> empty(0, in[0]);
  std::vector<float> copied(w);
  std::vector<float> fromTable = table;
  std::vector<float> returned = copyOf(l);
  out[g] = s + t[0] + l[2] + float(none.size()) + firstOf(local, 2) +
           firstOf(in + 1, 3) + zeros[2] + one[0] + filled[1] + fromLocal[2] +
           float(empty.size()) + copied[3] + fromTable[4] + secondOf(w) +
           returned[0];
}

WGTRACE_DISPATCH void pairs(const wgtrace::Workgroup &wg,
                            const std::vector<int> &keys, int *out) {
  std::vector<int> mine(keys.cbegin() + wg.id[0], keys.cbegin() + wg.id[0] + 2);
  std::vector<int> again{mine.begin(), mine.end()};
  out[wg.id[0]] = again[0] * 10 + again[1];
}

int main() {
  std::vector<float> in(8), table(5), out(3);
  std::vector<int> keys(6), counted(3);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = 0.5f * float(i) + 1.0f;
  for (size_t i = 0; i < table.size(); ++i)
    table[i] = 10.0f + float(i);
  for (size_t i = 0; i < keys.size(); ++i)
    keys[i] = int((i * 7) % 5);
  oracle::buffer("in", in.data(), in.size());
  oracle::buffer("table", table.data(), table.size());
  oracle::buffer("out", out.data(), out.size());
  oracle::buffer("keys", keys.data(), keys.size());
  oracle::buffer("counted", counted.data(), counted.size());
  oracle::run(window, 3, in.data(), std::cref(table), out.data());
  oracle::run(pairs, 3, std::cref(keys), counted.data());
  for (float X : out)
    std::printf("%g ", X);
  for (int X : counted)
    std::printf("%d ", X);
  std::printf("\n");
  return oracle::finish();
}
