//===- WorkgroupIdentity.h - Which workgroup a result belongs to -*- C++
//-*-===//
//
// What per-workgroup results of the analyses name their workgroup by: the
// dispatch site, its kernel, the workgroup id and the processor it ran on.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_WORKGROUPIDENTITY_H
#define WGTRACE_VIEWER_WORKGROUPIDENTITY_H

#include "Metadata.h"
#include "Record.h"

#include <array>
#include <cstdint>
#include <string>

namespace wgtrace::viewer {

struct WorkgroupIdentity {
  uint32_t Site = 0;
  std::string Function;
  std::array<uint32_t, 3> Id{};
  uint32_t ProcessorId = 0;

  /// The identity of the WORKGROUP record \p R, its kernel named by \p Meta.
  static WorkgroupIdentity of(const Record &R, const Metadata &Meta) {
    const format::WorkgroupRecord &WG = R.Workgroup->Record;
    return {WG.DispatchId,
            Meta.siteFunction(WG.DispatchId).nameOr("(null)").str(),
            {WG.Id[0], WG.Id[1], WG.Id[2]},
            WG.ProcessorId};
  }
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_WORKGROUPIDENTITY_H
