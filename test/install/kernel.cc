// An outside project's kernel: built against an installed wgtrace.
#include "kernel_config.h"

#include <wgtrace/wgtrace.h>

#include <cstdio>
#include <vector>

WGTRACE_DISPATCH void add_one(const wgtrace::Workgroup &wg, int *data) {
  for (int i = 0; i < 16; ++i)
    data[wg.id[0] * 16 + i] += kAddend;
}

int main() {
  std::vector<int> data(4 * 16, 41);
  wgtrace::dispatch(add_one, wgtrace::Grid{4, 1, 1}, data.data());
  for (int v : data)
    if (v != 42)
      return 1;
  std::printf("add_one: ok\n");
  return 0;
}
