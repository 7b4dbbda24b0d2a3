// A store the rewriter cannot wrap: it is only part of CLEAR's expansion.
#include <wgtrace/wgtrace.h>

#include <cstdio>

#define CLEAR(p) (p)[1] = 0

WGTRACE_DISPATCH void clear(const wgtrace::Workgroup &wg, float *a) {
  CLEAR(a + 2 * wg.id[0]);
}

int main() {
  float a[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  wgtrace::dispatch(clear, wgtrace::Grid{4, 1, 1}, a);
  std::printf("%g\n", a[1] + a[3]);
  return 0;
}
