// Operators that are not members, in a project header (kernels/operators.cc):
// copied into the rewritten file, their calls in operator syntax redirected.
#ifndef WGTRACE_TEST_DIFFERENTIAL_OPERATORS_H
#define WGTRACE_TEST_DIFFERENTIAL_OPERATORS_H

namespace ops {
struct Vec {
  float x, y;
  Vec() : x(0), y(0) {}
  Vec(float x, float y) : x(x), y(y) {}
};
inline Vec operator+(const Vec &a, const Vec &b) {
  return Vec(a.x + b.x, a.y + b.y);
}
inline Vec operator*(float t, const Vec &v) { return Vec(t * v.x, t * v.y); }
inline Vec operator-(const Vec &v) { return Vec(-v.x, -v.y); }
inline Vec operator-(const Vec &a, const Vec &b) { return a + (-b); }
inline float dot(const Vec &a, const Vec &b) { return a.x * b.x + a.y * b.y; }
} // namespace ops

#endif // WGTRACE_TEST_DIFFERENTIAL_OPERATORS_H
