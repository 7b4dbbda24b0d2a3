// A kernel that calls functions of the target's other sources: with
// --whole-target each call the runtime can check is checked when it runs.
#include <wgtrace/wgtrace.h>

#include "whole-target.h"

#include <cstdio>

#define CALL_SCALE(x) scale(x, 2, 0.5f)

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *x, Grid *g,
                        const char *msg) {
  float *row = x + wg.id[0] * 8;
  scale(row, 8, 2.0f);
  row[0] = total(row, 8);
  g->fill(row[1]);
  row[2] = g->at(3) + *g->begin();
  notRewritten(row);
  show(msg);
  CALL_SCALE(row);
  row[3] = twice(row[4]);
  Made m(row);
  row[5] = m.p[6];
}

int main() {
  float x[16];
  for (int i = 0; i < 16; ++i)
    x[i] = float(i);
  float y[4] = {};
  Grid g{y, 4};
  wgtrace::dispatch(k, wgtrace::Grid{2, 1, 1}, x, &g, "hi");
  std::printf("%g %g %g %g %g\n", x[0], x[2], x[10], x[13], y[3]);
  return 0;
}
