// A project header's vec3 with member compound assignments and getters
// (member-operators.cc): member functions, not copied; each call on kernel
// memory is reported, except a one-field getter's (bookkeeping).
#pragma once

namespace lib {
struct hvec {
  double e[3];
  double x() const { return e[0]; }
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
} // namespace lib
