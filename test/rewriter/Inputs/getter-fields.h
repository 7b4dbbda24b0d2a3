// A project header's getters of public fields (getter-fields.cc): copied
// as free functions taking the object, their calls redirected.
#pragma once

namespace lib {
struct P3 {
  double e[3];
  double length_squared() const { return e[0] * e[0] + e[1] * e[1] + e[2] * e[2]; }
  double x() const { return e[0]; }
};
} // namespace lib
