// A small value class of a project header, as PENNANT's double2 (Vec2.hh):
// copy constructor, copy assignment and destructor written by hand, no move
// operations. kernels/class_assignment.cc copies and fills arrays of it
// with the standard algorithms, which run this operator= on each element:
// wgtrace runs its instrumented copy.
#ifndef WGTRACE_TEST_ALGORITHMS_VEC2_H
#define WGTRACE_TEST_ALGORITHMS_VEC2_H

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

#endif
