// The same function, now through a kernel: the test copies this over
// other.cc after the first build, and builds again without configuring.
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void addOne(const wgtrace::Workgroup &wg, float *d) {
  d[wg.id[0]] += 1;
}

void runOther(float *Data, unsigned N) {
  wgtrace::dispatch(addOne, wgtrace::Grid{N, 1, 1}, Data);
}
