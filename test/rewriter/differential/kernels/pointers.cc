// Pointer walking (*p++ = *q++), dereferences, a[i++] evaluated once,
// compound assignment and ++/-- (a load and a store each; the result of a
// prefix --, `t = --a[i]`, is not read back).
#include "harness.h"

WGTRACE_DISPATCH void walk(const wgtrace::Workgroup &wg, int *dst,
                           const int *src, int n) {
  int *p = dst + wg.id[0] * n;
  const int *q = src + wg.id[0] * n;
  for (int i = 0; i < n; ++i)
    *p++ = *q++;
}

WGTRACE_DISPATCH void counters(const wgtrace::Workgroup &wg, int *a, int *k) {
  int i = static_cast<int>(wg.id[0]) * 3;
  a[i++] += 10;
  ++a[i];
  a[i++]--;
  *k *= 2;
  (*k)++;
  int t = --a[i];
  *k += t;
}

int main() {
  int src[8], dst[8] = {};
  for (int i = 0; i < 8; ++i)
    src[i] = i * i;
  wgtrace::dispatch(walk, wgtrace::Grid{2, 1, 1}, dst, src, 4);
  int a[6] = {1, 2, 3, 4, 5, 6};
  int k = 1;
  wgtrace::dispatch(counters, wgtrace::Grid{2, 1, 1}, a, &k);

  diff::buffer("src", src, 8);
  diff::buffer("dst", dst, 8);
  diff::buffer("a", a, 6);
  diff::buffer("k", &k);
  for (unsigned w = 0; w < 2; ++w) {
    for (unsigned i = 0; i < 4; ++i) {
      diff::load<int>({w}, "src", w * 4 + i);
      diff::store<int>({w}, "dst", w * 4 + i);
    }
    diff::update<int>({w}, "a", w * 3);
    diff::update<int>({w}, "a", w * 3 + 1);
    diff::update<int>({w}, "a", w * 3 + 1);
    diff::update<int>({w}, "a", w * 3 + 2);
    diff::update<int>({w}, "k", 0);
    diff::update<int>({w}, "k", 0);
    diff::update<int>({w}, "k", 0);
  }
  return diff::finish();
}
