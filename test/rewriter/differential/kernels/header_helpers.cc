// Helpers defined in a project header (differential/header_helpers.h): a
// function, a template and a helper calling a helper. Their accesses are
// recorded as the calling workgroup's, through the copies the rewriter
// puts in this file.
#include "harness.h"
#include "header_helpers.h"

WGTRACE_DISPATCH void use_header(const wgtrace::Workgroup &wg, float *a,
                                 double *d) {
  unsigned i = wg.id[0];
  a[i + 4] = hh::sum2(a + i);
  hh::scale(d, i, 2.0);
  hh::chain(a, i);
}

int main() {
  float a[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  double d[4] = {0.5, 1.5, 2.5, 3.5};
  wgtrace::dispatch(use_header, wgtrace::Grid{4, 1, 1}, a, d);

  diff::buffer("a", a, 12);
  diff::buffer("d", d, 4);
  for (unsigned w = 0; w < 4; ++w) {
    diff::load<float>({w}, "a", w);
    diff::load<float>({w}, "a", w + 1);
    diff::store<float>({w}, "a", w + 4);
    diff::update<double>({w}, "d", w);
    diff::load<float>({w}, "a", w);
    diff::load<float>({w}, "a", w + 1);
    diff::store<float>({w}, "a", w + 8);
  }
  return diff::finish();
}
