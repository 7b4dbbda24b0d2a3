// A file without kernels and dispatch calls comes out byte for byte as it
// went in, also when it includes wgtrace.h.
// RUN: %wgtrace-rewrite %s -- %wgtrace-flags > %t.out
// RUN: diff %s %t.out
#include <wgtrace/wgtrace.h>

int helper(const int *p) { return p[0] + p[1]; }

int main() {
  int x[2] = {1, 2};
  return helper(x) == 3 ? 0 : 1;
}
