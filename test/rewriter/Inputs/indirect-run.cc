// A kernel calls through a function pointer: a function of this file runs
// instrumented; a function of another file that is not rewritten
// (indirect-elsewhere.cc) runs as written, and each of its calls is
// counted.
#include <wgtrace/wgtrace.h>

#include <cstdio>

void addElsewhere(float *p, int n);

static void addHere(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] += 1.0f;
}

using Add = void (*)(float *, int);

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Add add, float *a) {
  add(a + wg.id[0] * 4, 4);
}

int main() {
  float a[16] = {};
  wgtrace::dispatch(k, wgtrace::Grid{2, 1, 1}, addHere, a);
  wgtrace::dispatch(k, wgtrace::Grid{2, 1, 1}, addElsewhere, a + 8);
  std::printf("%g %g\n", a[0], a[15]);
  return 0;
}
