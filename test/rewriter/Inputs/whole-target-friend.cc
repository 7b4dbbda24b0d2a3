// Friends declared only in a class have no name code outside it can take
// an address by: a hidden friend defined in the class is not registered,
// and a kernel's call of a friend only the class declares is reported as
// before, not checked (either would not compile).
#include <wgtrace/wgtrace.h>

struct Vec {
  float x;
  friend float twiceX(const Vec &v) { return v.x + v.x; }
  friend float norm1(const Vec &v);
};

float scaled(const Vec &v, float k) { return v.x * k; }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Vec *v, float *out) {
  out[wg.id[0]] = norm1(v[wg.id[0]]) + twiceX(v[0]);
}
