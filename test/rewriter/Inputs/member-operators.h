// Project header classes with member compound assignments and getters
// (member-operators.cc): hvec's members reach only its public fields and
// are copied as free functions taking the object, and so are Sealed's,
// which use a private field (named through an explicit instantiation).
#pragma once

namespace lib {
struct hvec {
  double e[3];
  double x() const { return e[0]; }
  double length_squared() const { return e[0] * e[0] + e[1] * e[1]; }
  double norm2() const { return length_squared(); }
  hvec &operator+=(const hvec &v) {
    e[0] += v.e[0];
    e[1] += v.e[1];
    e[2] += v.e[2];
    return *this;
  }
  hvec &operator*=(double t) {
    e[0] *= t;
    e[1] *= t;
    e[2] *= t;
    return *this;
  }
  hvec &operator/=(double t) { return *this *= 1 / t; }
};

class Sealed {
public:
  Sealed &operator*=(double t) {
    v *= t;
    return *this;
  }
  double get() const { return v; }

private:
  double v = 1;
};
// Its object spelled in a macro: no `self.` can be put there.
#define FIRST e[0]
struct Macro {
  double e[1];
  Macro &operator*=(double t) {
    FIRST *= t;
    return *this;
  }
};
} // namespace lib
