// The program of the project in this directory: one kernel, its result
// printed.
#include <wgtrace/wgtrace.h>

#include <cstdio>

WGTRACE_DISPATCH void square(const wgtrace::Workgroup &wg, int *d) {
  d[wg.id[0]] *= d[wg.id[0]];
}

int main() {
  int Data[4] = {1, 2, 3, 4};
  wgtrace::dispatch(square, wgtrace::Grid{4, 1, 1}, Data);
  std::printf("%d %d %d %d\n", Data[0], Data[1], Data[2], Data[3]);
  return 0;
}
