//===- WorkgroupIdentity.h - Which workgroup a result belongs to -*- C++
//-*-===//
//
// What per-workgroup results of the analyses name their workgroup by: the
// dispatch site, its kernel, the workgroup id and the processor it ran on.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_WORKGROUPIDENTITY_H
#define WGTRACE_VIEWER_WORKGROUPIDENTITY_H

#include "reader/Metadata.h"
#include "reader/Record.h"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>

namespace wgtrace::viewer {

struct WorkgroupIdentity {
  uint32_t Site = 0;
  std::string Function;
  std::array<uint32_t, 3> Id{};
  uint32_t ProcessorId = 0;
  /// A ring wrap overwrote its first records (WorkgroupInfo::BeginningLost):
  /// its counts miss them, and every view says so.
  bool BeginningLost = false;

  /// The identity of the WORKGROUP record \p R, its kernel named by \p Meta.
  static WorkgroupIdentity of(const Record &R, const Metadata &Meta) {
    const format::WorkgroupRecord &WG = R.Workgroup->Record;
    return {WG.DispatchId,
            Meta.siteFunction(WG.DispatchId).nameOr("(null)").str(),
            {WG.Id[0], WG.Id[1], WG.Id[2]},
            WG.ProcessorId,
            R.Workgroup->BeginningLost};
  }
};

/// A text row's workgroup id, "x,y,z", marked "x,y,z*" when its beginning
/// was overwritten (beginningLostNote() explains the mark).
inline std::string workgroupLabel(const std::array<uint32_t, 3> &Id,
                                  bool BeginningLost) {
  return fmt::format("{},{},{}{}", Id[0], Id[1], Id[2],
                     BeginningLost ? "*" : "");
}

/// The line under a table with \p Marked rows marked by workgroupLabel(),
/// or "" when none is.
inline std::string beginningLostNote(uint64_t Marked) {
  if (!Marked)
    return "";
  return fmt::format("  * {} workgroup{} began before what its ring kept: a "
                     "wrap overwrote {} first records, which no count "
                     "holds\n",
                     Marked, Marked == 1 ? "" : "s",
                     Marked == 1 ? "its" : "their");
}

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_WORKGROUPIDENTITY_H
