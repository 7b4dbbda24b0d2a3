// Operators that are not members, in a project header (free-operators.cc):
// copied, instrumented, like any free helper of a header, and the calls in
// operator syntax redirected to the copy by name.
#pragma once

namespace geo {
struct Vec {
  float x, y;
  Vec(float x, float y) : x(x), y(y) {}
};
inline Vec operator+(const Vec &a, const Vec &b) { return Vec(a.x + b.x, a.y + b.y); }
inline Vec operator-(const Vec &v) { return Vec(-v.x, -v.y); }
inline Vec operator-(const Vec &a, const Vec &b) { return a + (-b); }
// Only by-value parameters: bookkeeping, called as it is.
inline Vec operator*(float t, Vec v) { return Vec(t * v.x, t * v.y); }
// A template's call in operator syntax may be a built-in one in another
// instantiation: not redirected, reported.
template <class T> T twice(const T &a) { return a + a; }
} // namespace geo
