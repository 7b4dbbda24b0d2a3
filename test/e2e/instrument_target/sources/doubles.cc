// The header's template kernel over doubles, and its inline kernel again.
#include "kernels.h"

double runDoubles() {
  double D[4] = {1, 2, 3, 4};
  wgtrace::dispatch(lib::scaleBy<double>, wgtrace::Grid{4, 1, 1}, D, 10.0);
  float F[2] = {1, 2};
  wgtrace::dispatch(lib::bump, wgtrace::Grid{2, 1, 1}, F);
  return D[0] + D[1] + D[2] + D[3] + F[0] + F[1];
}
