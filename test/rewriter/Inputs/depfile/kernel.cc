// A kernel that includes a local header (depfile tests).
#include <wgtrace/wgtrace.h>

#include "tile shape.h"

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, float *a) {
  a[wg.id[0]] = static_cast<float>(kTile);
}
