//===- InvocationOwners.h - What each invocation's records count to -*- C++
//-*-===//
//
// `cache` counts an access to its workgroup, `annotate` to its workgroup's
// kernel: both map a workgroup record's invocation (WorkgroupInfo::
// Invocation) to an index of their own on its first record, keep it for the
// copies that continue the workgroup in later chunks, and look it up for the
// invocation's loads and stores, the last one remembered (records of one
// invocation come in runs).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_INVOCATIONOWNERS_H
#define WGTRACE_VIEWER_INVOCATIONOWNERS_H

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>

namespace wgtrace::viewer {

class InvocationOwners {
public:
  /// At a workgroup record of \p Invocation: \p MakeOwner() (returning the
  /// owner's index) is called on the invocation's first record only.
  /// Returns true then: a copy continuing a workgroup is not a new one.
  template <typename Fn> bool workgroup(uint64_t Invocation, Fn MakeOwner) {
    auto [It, New] = Owners.try_emplace(Invocation, 0);
    if (New)
      It->second = MakeOwner();
    LastInvocation = Invocation;
    LastOwner = It->second;
    return New;
  }

  /// At another record of \p Invocation: its owner, or none when no
  /// workgroup record of it was seen.
  std::optional<uint32_t> ownerOf(uint64_t Invocation) {
    if (Invocation != LastInvocation) {
      auto It = Owners.find(Invocation);
      if (It == Owners.end())
        return std::nullopt;
      LastInvocation = It->first;
      LastOwner = It->second;
    }
    return LastOwner;
  }

private:
  llvm::DenseMap<uint64_t, uint32_t> Owners;
  uint64_t LastInvocation = UINT64_MAX;
  uint32_t LastOwner = 0;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_INVOCATIONOWNERS_H
