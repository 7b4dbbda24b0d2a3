//===- WorkgroupJoiner.h - One workgroup invocation, one workgroup -*- C++
//-*-===//
//
// A workgroup's records may be split over several WORKGROUP records: the
// runtime re-emits the record of the running workgroup when a stream-mode
// buffer fills, when a ring wraps, and when a kernel called directly from
// it returns. Every analysis must count such an invocation once, so the
// reader numbers invocations here, once, before any tool sees a record
// (WorkgroupInfo::Invocation), and says when an invocation can no longer
// continue (so that tools may drop what they keep per open workgroup).
//
// How copies are recognised (docs/VIEWER.md, "Workgroup invocations"):
//
// * Files with ring trailers (wgtrace's extension 1): a copy is followed by
//   a Continuation VALUE naming the ring-lifetime offset of the
//   invocation's first record; copies of one ring (RingTrailer::RingId)
//   with the same offset are one invocation. Exact. A chunk cut with its
//   trailer finds the offset of its first byte again from its ring's
//   previous chunk (stream mode) or from a copy of a running invocation it
//   began (docs/VIEWER.md).
// * Files without trailers (IREE's, and wgtrace's before extension 1):
//   only stream mode made copies, at offset 0 of a thread's next buffer.
//   A chunk whose first record is a WORKGROUP record at offset 0 equal
//   (site, id, grid, processor) to the owner of the last record of the
//   previous chunk of the same processor, which ended less than one
//   record (4 KiB, or a quarter of a smaller buffer) short of full,
//   continues it. A program that launches the same
//   one-workgroup grid again exactly at a buffer boundary is joined wrongly;
//   nothing in those files tells the two apart.
//
// The same object applies the reader's filter (--kernel, --dispatch,
// --workgroup) and counts the invocations of every dispatch site.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_WORKGROUPJOINER_H
#define WGTRACE_VIEWER_WORKGROUPJOINER_H

#include "reader/Metadata.h"
#include "reader/Record.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/GlobPattern.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::viewer {

/// Which workgroups the tools see. Empty: all.
struct WorkgroupFilter {
  /// Kernel (function) name, a glob ("matmul*").
  std::optional<std::string> Kernel;
  /// Dispatch site id.
  std::optional<uint32_t> Dispatch;
  /// Workgroup id x, y, z.
  std::optional<std::array<uint32_t, 3>> Id;

  bool active() const { return Kernel || Dispatch || Id; }
  /// "--kernel 'm*' --dispatch 2" for messages.
  std::string describe() const;
};

class WorkgroupJoiner {
public:
  /// \p Filter's kernel glob must be valid (see WorkgroupFilter).
  explicit WorkgroupJoiner(const WorkgroupFilter &Filter = {});

  /// Whether a chunk without a ring trailer ends so near full that the
  /// next chunk of a processor may continue its last invocation.
  static bool endsNearFull(const RingInfo &Info);

  /// A ring chunk begins: its trailer (if any) names its ring.
  void beginRing(const RingInfo &Info);
  /// A WORKGROUP record of the chunk, in order; \p FirstOfChunk: it is the
  /// first record decoded from the chunk. Sets W's Invocation, Continues,
  /// BeginningLost and Selected.
  void workgroup(WorkgroupInfo &W, bool FirstOfChunk);
  /// The chunk ended (also at damage); \p LastOwner owns its last record.
  void endChunk(const WorkgroupInfo *LastOwner);
  /// The file ended: every invocation still open ends.
  void endFile();
  /// Invocations that ended since the last call, ascending; clears them.
  std::vector<uint64_t> takeEnded();

  /// Counts \p Shard's invocations after these, as numbered by a joiner of
  /// its own (a ring chunk read on another thread, whose invocations all
  /// ended with it): only invocations(), selectedInvocations() and
  /// siteInvocations() take them in.
  void addCounts(const WorkgroupJoiner &Shard);

  /// Invocations numbered so far (their numbers are 0 to this - 1).
  uint64_t invocations() const { return Next; }
  uint64_t selectedInvocations() const { return Selected; }
  /// Invocations the reader's filter selected that the runtime's filter
  /// left out (WorkgroupInfo::Unselected), per Metadata::Filters index.
  const std::map<uint64_t, uint64_t> &unselectedInvocations() const {
    return Unselected;
  }
  /// Of siteInvocations(), those the runtime's filter left out.
  uint64_t siteUnselected(const Metadata *M, uint32_t Site) const {
    auto It = SiteUnselected.find({M, Site});
    return It == SiteUnselected.end() ? 0 : It->second;
  }
  /// Invocations that began (copies not counted) at site \p Site of \p M.
  uint64_t siteInvocations(const Metadata *M, uint32_t Site) const {
    auto It = SiteCounts.find({M, Site});
    return It == SiteCounts.end() ? 0 : It->second;
  }

private:
  uint64_t begin(WorkgroupInfo &W);
  /// A cut chunk's first copy continues the invocation whose first record
  /// is at \p FirstRecord: the one ring that has it open is the chunk's.
  void resolveCutRing(uint64_t FirstRecord);
  /// \p W begins an invocation in ring \p Ring: copies name it by the
  /// ring-lifetime offset of W, which needs the chunk's base (a cut
  /// chunk's is found later, setCutBase()).
  void noteFirstRecord(uint32_t Ring, const WorkgroupInfo &W);
  /// The cut chunk's first byte is at ring-lifetime offset \p Base: the
  /// invocations it began so far can be named.
  void setCutBase(uint32_t Ring, uint64_t Base);
  /// A copy \p W of a cut chunk whose base is not known names an
  /// invocation no chunk began at a known offset: if exactly one
  /// invocation the chunk began and that is still open has its WORKGROUP
  /// record, it is that one, and the chunk's base follows.
  void inferCutBase(uint32_t Ring, const std::vector<uint64_t> &Stack,
                    const WorkgroupInfo &W);
  void end(uint64_t Invocation);
  bool selects(const format::WorkgroupRecord &R) const;

  WorkgroupFilter Filter;
  std::optional<llvm::GlobPattern> KernelGlob;
  uint64_t Next = 0;
  uint64_t Selected = 0;
  std::map<uint64_t, uint64_t> Unselected;
  llvm::DenseMap<std::pair<const Metadata *, uint32_t>, uint64_t>
      SiteUnselected;
  /// Per invocation: ended (and reported) already.
  std::vector<bool> Ended;
  std::vector<uint64_t> EndedQueue;
  llvm::DenseMap<std::pair<const Metadata *, uint32_t>, uint64_t> SiteCounts;

  // The chunk being decoded.
  const Metadata *Meta = nullptr;
  std::optional<format::RingTrailer> Trailer;
  /// The chunk was cut with its trailer: its ring is not known yet.
  bool UnknownRing = false;
  /// The chunk's first byte's ring-lifetime offset: its trailer's, or, for
  /// a chunk cut with its trailer, what the chunk's copies reveal (none
  /// until then).
  std::optional<uint64_t> Base;
  /// A cut chunk's invocations begun while its base was not known.
  struct CutBegin {
    uint64_t Offset;
    uint64_t Invocation;
    format::WorkgroupRecord Record;
  };
  std::vector<CutBegin> CutBegun;
  uint64_t ChunkHead = 0;
  /// Stream-mode rings: the ring-lifetime offset of their next chunk.
  llvm::DenseMap<uint32_t, uint64_t> NextStreamBase;
  bool NearFull = false;
  std::vector<uint64_t> ChunkInvocations;

  // Files with trailers: per ring, the invocations that may still continue
  // (innermost last) and the first-record offsets of all its invocations.
  std::map<uint32_t, std::vector<uint64_t>> Stacks;
  llvm::DenseMap<std::pair<uint32_t, uint64_t>, uint64_t> ByFirstRecord;

  // Files without trailers: per processor, the invocation that owned the
  // last record of its previous chunk, which the next chunk may continue.
  struct Pending {
    uint64_t Invocation;
    format::WorkgroupRecord Record;
  };
  std::map<uint32_t, Pending> PendingByProcessor;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_WORKGROUPJOINER_H
