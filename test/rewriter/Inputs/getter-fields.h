// A project header's getter computing from several fields
// (getter-fields.cc): a member function, not copied; each call reported.
#pragma once

namespace lib {
struct P3 {
  double e[3];
  double length_squared() const { return e[0] * e[0] + e[1] * e[1] + e[2] * e[2]; }
  double x() const { return e[0]; }
};
} // namespace lib
