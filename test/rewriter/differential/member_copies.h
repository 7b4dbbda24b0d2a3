// A vec3 as RayTracing in One Weekend's vec3.h writes it, in a project
// header (kernels/member_operators.cc): its members are copied into the
// rewritten file as free functions taking the object, their calls
// redirected.
#ifndef WGTRACE_TEST_DIFFERENTIAL_MEMBER_COPIES_H
#define WGTRACE_TEST_DIFFERENTIAL_MEMBER_COPIES_H

namespace rt {
class vec3 {
public:
  double e[3];
  double x() const { return e[0]; } // @hx
  double length_squared() const {
    return e[0] * e[0] + e[1] * e[1] + e[2] * e[2]; // @hlen
  }
  double norm2() const { return length_squared(); }
  vec3 &operator+=(const vec3 &v) {
    e[0] += v.e[0]; // @hadd0
    e[1] += v.e[1]; // @hadd1
    e[2] += v.e[2]; // @hadd2
    return *this;
  }
  vec3 &operator*=(double t) {
    e[0] *= t; // @hmul0
    e[1] *= t; // @hmul1
    e[2] *= t; // @hmul2
    return *this;
  }
  vec3 &operator/=(double t) { return *this *= 1 / t; }
};
} // namespace rt

#endif // WGTRACE_TEST_DIFFERENTIAL_MEMBER_COPIES_H
