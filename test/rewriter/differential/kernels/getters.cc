// A const getter of this file computing from several loads of its object's
// fields is a helper, instrumented in place: called on an element of a
// kernel's buffer, its loads are recorded in the body's order and count
// (x, x, y, y for `x * x + y * y`). Called on a local, its loads are of
// the kernel's stack, not memory of the trace.
#include "harness.h"

struct Vec {
  float x, y;
  float norm2() const { return x * x + y * y; }
};

WGTRACE_DISPATCH void norms(const wgtrace::Workgroup &wg, const Vec *pts,
                            float *out) {
  unsigned i = wg.id[0];
  Vec local{1, 2};
  out[i] = pts[i].norm2() + local.norm2();
}

int main() {
  Vec pts[2] = {{1, 2}, {3, 4}};
  float out[2] = {};
  wgtrace::dispatch(norms, wgtrace::Grid{2, 1, 1}, pts, out);

  diff::buffer("pts", pts, 2);
  diff::buffer("out", out, 2);
  for (unsigned w = 0; w < 2; ++w) {
    for (size_t Field : {offsetof(Vec, x), offsetof(Vec, x), offsetof(Vec, y),
                         offsetof(Vec, y)})
      diff::bytes({w}, 'L', "pts", w * sizeof(Vec) + Field, sizeof(float));
    diff::store<float>({w}, "out", w);
  }
  return diff::finish();
}
