// Static member functions of project header classes (static-members.cc):
// copied as free functions without an object, called in place of the
// header's.
#pragma once

#define GRID_SUM geo::Grid::sum

namespace geo {
struct Grid {
  enum Kind { Cell, Face };
  static int stride;
  // Called qualified, through an object, unqualified by another member.
  static float sum(const float *a, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i)
      s += a[i] * weight(Cell);
    return s;
  }
  // Touches no memory: not copied; named from the global scope, as the
  // enumerator, in the copies.
  static float weight(Kind k) { return k == Cell ? 1.0f : 0.5f; }
  // A static data member; a private static member called by its name.
  static void scatter(float *out, int i) { out[i * stride] = at(out, i); }
  float total(const float *a) const { return sum(a, n); }
  int n = 4;

private:
  static float at(const float *a, int i) { return a[i]; }
};
inline int Grid::stride = 1;
} // namespace geo

// A class template's: the copies are function templates over its
// parameters, a default one included.
template <class T, int N = 2> struct Pack {
  T v[N];
  static T first(const Pack &p) { return p.v[0]; }
  static T sumAll(const T *a, int n) {
    T s = 0;
    for (int i = 0; i < n; ++i)
      s += a[i];
    return s;
  }
  // By its name alone and through the class's own name.
  static T twice(const T *a, int n) { return sumAll(a, n) + Pack::sumAll(a, n); }
};
typedef Pack<float> PackF;
