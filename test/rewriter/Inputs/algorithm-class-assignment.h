// Project header classes whose arrays kernels copy and fill with standard
// algorithms (algorithm-class-assignment.cc): double2 is PENNANT's (Vec2.hh):
// copy constructor, copy assignment and destructor written by hand, no move
// operations; Owned has a move assignment of its own.
#pragma once

namespace geo {
struct double2 {
  double x, y;
  inline double2() : x(0.), y(0.) {}
  inline double2(const double &x_, const double &y_) : x(x_), y(y_) {}
  inline double2(const double2 &v2) : x(v2.x), y(v2.y) {}
  inline ~double2() {}

  inline double2 &operator=(const double2 &v2) {
    x = v2.x;
    y = v2.y;
    return (*this);
  }
};
} // namespace geo

struct Owned {
  double v;
  Owned() : v(0.) {}
  Owned(const Owned &o) : v(o.v) {}
  Owned &operator=(const Owned &o) {
    v = o.v;
    return *this;
  }
  Owned &operator=(Owned &&o) {
    v = o.v;
    o.v = 0.;
    return *this;
  }
};
