//===- StridePattern.cc ---------------------------------------------------===//

#include "analyses/StridePattern.h"

#include <fmt/format.h>

namespace wgtrace::viewer {

void StridePattern::add(uint64_t Address) {
  // Two's complement difference: a stream may walk downwards.
  int64_t Delta = int64_t(Address - Last);
  Last = Address;
  uint64_t I = Count++; // index of this delta, from 1
  if (Irregular)
    return;
  if (I == 1) {
    D1 = Delta;
    return;
  }
  if (Period == 0) {
    if (Delta != D1) {
      // The first row ends here: it had I accesses.
      Period = I;
      D2 = Delta;
    }
    return;
  }
  int64_t Expected = I % Period == 0 ? D2 : D1;
  if (Delta != Expected)
    Irregular = true;
}

StridePattern::Kind StridePattern::kind() const {
  if (Count == 1)
    return Kind::Single;
  if (Irregular)
    return Kind::Irregular;
  if (Period != 0)
    // A single row change is not a pattern yet: a row needs 2+ accesses,
    // and a second row change must have confirmed the period.
    return Period >= 2 && Count > 2 * Period ? Kind::TwoD : Kind::Irregular;
  if (D1 == 0)
    return Kind::Broadcast;
  if (D1 == int64_t(Length))
    return Kind::Contiguous;
  return Kind::Strided;
}

const char *StridePattern::kindName(Kind K) {
  switch (K) {
  case Kind::Single:
    return "single";
  case Kind::Broadcast:
    return "broadcast";
  case Kind::Contiguous:
    return "contiguous";
  case Kind::Strided:
    return "strided";
  case Kind::TwoD:
    return "2d";
  case Kind::Irregular:
    return "irregular";
  }
  return "irregular";
}

std::string StridePattern::describe() const {
  switch (kind()) {
  case Kind::Strided:
    return fmt::format("strided by {} B", D1);
  case Kind::TwoD:
    return fmt::format("2d: rows of {} x {} B step {} B, pitch {} B", Period,
                       Length, D1, rowPitch());
  default:
    return kindName(kind());
  }
}

} // namespace wgtrace::viewer
