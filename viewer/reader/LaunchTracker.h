//===- LaunchTracker.h - Which workgroups ran in the same launch -*- C++
//-*-===//
//
// The trace has no launch records: a WORKGROUP record names only its
// dispatch site, id, grid and processor. Analyses that compare workgroups
// of one launch (races) recover launches from the record order, by the rule
// in docs/VIEWER.md ("Launches"):
//
// * A stream is the records of one processor id, in file order across its
//   ring chunks (a worker thread's ring, or its successive stream-mode
//   buffers). Within a stream, the launch of site S continues until a
//   workgroup of S has a different grid, an id already seen in the current
//   launch, or a lower linear id than the previous workgroup of S in the
//   stream (the launcher hands out linear ids in increasing order).
// * Launches of one site from different streams are matched in order: the
//   k-th launch of S in each stream is part of the k-th launch of S, except
//   that a stream's launch whose grid differs or whose workgroup ids collide
//   with ones already in that launch is moved to the next (a worker that ran
//   no workgroup of a launch has nothing for it).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_LAUNCHTRACKER_H
#define WGTRACE_VIEWER_LAUNCHTRACKER_H

#include "reader/Record.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace wgtrace::viewer {

class LaunchTracker {
public:
  struct Workgroup {
    uint32_t Site = 0;
    std::array<uint32_t, 3> Id{};
    std::array<uint32_t, 3> Count{};
    uint32_t ProcessorId = 0;
    /// Index into locals().
    uint32_t Local = 0;
  };
  /// A launch as one stream saw it.
  struct LocalLaunch {
    uint32_t SiteKey = 0;
    uint32_t Stream = 0;
    std::array<uint32_t, 3> Grid{};
    std::vector<uint32_t> Workgroups;
    /// Index into launches(), set by assemble().
    uint32_t Global = UINT32_MAX;
  };
  /// A launch assembled from the streams.
  struct Launch {
    uint32_t SiteKey = 0;
    /// 0 for the first launch of its site, then 1, ...
    uint32_t Ordinal = 0;
    std::array<uint32_t, 3> Grid{};
    std::vector<uint32_t> Locals;
  };
  /// A dispatch site, keyed by id and function name: metadata chunks of one
  /// process repeat the same numbering.
  struct Site {
    uint32_t Id = 0;
    std::string Function;
    /// "file:line" of the launch, when the metadata has it.
    std::string Location;
  };

  /// A WORKGROUP record: returns the workgroup's index in workgroups(). A
  /// copy of the record of an invocation seen before (the reader joins
  /// them, WorkgroupJoiner.h) gets that workgroup's index back.
  uint32_t workgroup(const Record &R, const Metadata &Meta);
  /// Adds the workgroups of \p Shard (a ring chunk read on another thread,
  /// its invocations numbered from \p FirstInvocation on here), in its
  /// order, as if their WORKGROUP records had come here, and their launch
  /// numbers; returns the index here of each of Shard's workgroups.
  std::vector<uint32_t> merge(const LaunchTracker &Shard,
                              uint64_t FirstInvocation);
  /// A Launch VALUE of invocation \p Invocation (an OpenMP loop's
  /// iteration): the dispatch number of its launch, which groups it
  /// exactly.
  void launchNumber(uint64_t Invocation, uint64_t Number);
  /// The index in workgroups() of invocation \p Invocation, or UINT32_MAX.
  uint32_t find(uint64_t Invocation) const {
    auto It = ByInvocation.find(Invocation);
    return It == ByInvocation.end() ? UINT32_MAX : It->second;
  }
  /// Matches launches across streams; call once, after the last record.
  void assemble();

  const std::vector<Workgroup> &workgroups() const { return Workgroups; }
  const std::vector<LocalLaunch> &locals() const { return Locals; }
  const std::vector<Launch> &launches() const { return Launches; }
  const std::vector<Site> &sites() const { return Sites; }
  /// The launch a workgroup belongs to (after assemble()).
  const Launch &launchOf(uint32_t Workgroup) const {
    return Launches[Locals[Workgroups[Workgroup].Local].Global];
  }

private:
  struct StreamSite {
    uint32_t Local = UINT32_MAX;
    uint64_t LastLinear = 0;
    llvm::DenseSet<uint64_t> Seen;
  };
  uint32_t siteKey(uint32_t Site, llvm::StringRef Function,
                   llvm::StringRef Location);
  /// workgroup() of invocation \p Invocation, whose record is \p W (Local
  /// not set yet), of site \p Function at \p Location.
  uint32_t add(uint64_t Invocation, Workgroup W, llvm::StringRef Function,
               llvm::StringRef Location);

  /// Moves the workgroups that carry a launch number (launchNumber) out of
  /// the locals the record order made into locals of their own, one per
  /// stream, site and number, and makes their launches, one per site and
  /// number in the order of the numbers; returns the index of the first
  /// such local.
  uint32_t assembleNumbered();

  std::vector<Workgroup> Workgroups;
  llvm::DenseMap<uint64_t, uint32_t> ByInvocation;
  /// Launch numbers of the workgroups that carry one, by index.
  llvm::DenseMap<uint32_t, uint64_t> Numbers;
  std::vector<LocalLaunch> Locals;
  std::vector<Launch> Launches;
  std::vector<Site> Sites;
  std::map<std::pair<uint32_t, std::string>, uint32_t> SiteKeys;
  /// (stream, site key) -> the stream's current launch of that site.
  std::map<std::pair<uint32_t, uint32_t>, StreamSite> Current;
};

/// x + count_x * (y + count_y * z): the launcher's order.
uint64_t linearId(const std::array<uint32_t, 3> &Id,
                  const std::array<uint32_t, 3> &Count);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_LAUNCHTRACKER_H
