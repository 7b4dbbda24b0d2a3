// Untraced: a store in CLEAR's expansion, whose _Pragma keeps it as written.
#include <wgtrace/wgtrace.h>

#include <cstdio>

#define CLEAR(p) _Pragma("GCC diagnostic push")(p)[1] = 0

WGTRACE_DISPATCH void clear(const wgtrace::Workgroup &wg, float *a) {
  CLEAR(a + 2 * wg.id[0]);
}

int main() {
  float a[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  wgtrace::dispatch(clear, wgtrace::Grid{4, 1, 1}, a);
  std::printf("%g\n", a[1] + a[3]);
  return 0;
}
