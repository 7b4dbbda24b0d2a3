// Another file that launches the same instantiations of the header's
// template kernel: they are the same exports as the first file's.
#include "instances.h"

void launchFromOther(float *f, double *d) {
  wgtrace::dispatch(scaleAll<float>, wgtrace::Grid{2, 1, 1}, f, 0.5f);
  wgtrace::dispatch(scaleAll<double>, wgtrace::Grid{2, 1, 1}, d, 0.5);
}
