// Friends declared only in a class, and functions declared only in a
// block, have no name code outside can take an address by: a hidden friend
// defined in the class is not registered, and a kernel's call of a friend
// only the class declares or of a function only the kernel declares is
// reported as before, not checked (either would not compile).
#include <wgtrace/wgtrace.h>

struct Vec {
  float x;
  friend float twiceX(const Vec &v) { return v.x + v.x; }
  friend float norm1(const Vec &v);
};

float scaled(const Vec &v, float k) { return v.x * k; }

WGTRACE_DISPATCH void k(const wgtrace::Workgroup &wg, Vec *v, float *out) {
  out[wg.id[0]] = norm1(v[wg.id[0]]) + twiceX(v[0]);
  void bump(float *p);
  bump(out);
}
