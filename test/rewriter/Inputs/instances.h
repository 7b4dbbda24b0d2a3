// A template kernel of a project header that two files launch.
#include <wgtrace/wgtrace.h>

template <class T>
WGTRACE_DISPATCH void scaleAll(const wgtrace::Workgroup &wg, T *data, T f) {
  data[wg.id[0]] *= f;
}

void launchFromOther(float *f, double *d);
