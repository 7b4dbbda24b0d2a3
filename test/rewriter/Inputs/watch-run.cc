// Runs a kernel with watched variables (watch-values.test).
#include <wgtrace/wgtrace.h>

WGTRACE_DISPATCH void acc(const wgtrace::Workgroup &wg, const int *in,
                          int *out) {
  WGTRACE_WATCH(5) int s = in[0];
  for (int i = 1; i < 3; ++i)
    s += in[i];
  int before = s++;
  out[wg.id[0]] = s + before;
}

int main() {
  int in[3] = {10, 20, 30};
  int out[1] = {0};
  wgtrace::dispatch(acc, wgtrace::Grid{1, 1, 1}, in, out);
  return out[0] == 121 ? 0 : 1;
}
