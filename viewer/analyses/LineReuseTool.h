//===- LineReuseTool.h - Reuse distances of the lines workgroups touch -*- C++
//-*-===//
//
// The reuse-distance histogram of `cache` (64-byte lines, every line of
// every access of a workgroup whose workgroup record was seen, in record
// order, no cold start per workgroup) as a tool of its own: the HTML
// report counts it in the thread that reads the file for its races and
// per-line sections, not in the thread that lays out the page.
//
// On several threads (newShard()) a shard keeps its chunk's accesses
// (AccessKeeper.h: a run within the line the access before ended in kept
// as one) and the merge counts them in file order on a thread of its own
// (ReuseLane), as `cache` counts its histogram: distances follow the
// order of the accesses, which one histogram must see whole.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_LINEREUSETOOL_H
#define WGTRACE_VIEWER_LINEREUSETOOL_H

#include "analyses/AccessKeeper.h"
#include "analyses/AnalysisTool.h"
#include "analyses/InvocationOwners.h"
#include "simulator/ReuseDistance.h"

#include <memory>

namespace wgtrace::viewer {

class LineReuseTool : public AnalysisTool {
public:
  /// 64-byte lines, as `cache`'s default first level.
  static constexpr unsigned LineShift = 6;

  void beginRing(const RingInfo &Info) override {
    if (IsShard)
      Keeper.beginRing(Info, /*WithKeys=*/false);
  }
  void record(const Record &R) override {
    if (!R.Workgroup)
      return; // --iree-compat on a wrapped ring: owner unknown
    if (R.Tag == format::Tag::Workgroup) {
      Owners.workgroup(R.Workgroup->Invocation, [] { return 0u; });
      return;
    }
    if ((R.Tag != format::Tag::MemoryLoad &&
         R.Tag != format::Tag::MemoryStore) ||
        !Owners.ownerOf(R.Workgroup->Invocation))
      return;
    if (IsShard) {
      // One owner and kind for all: a distance depends on neither, so a
      // run goes on across loads and stores.
      Keeper.keep(R.Memory.Address, R.Memory.Length, /*Owner=*/0,
                  /*Store=*/false);
      return;
    }
    Reuse.accessBytes(R.Memory.Address, R.Memory.Length, LineShift);
  }
  void finish() override {
    if (Lane)
      Lane->wait();
  }
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;

  /// After finish().
  const ReuseHistogram &histogram() const { return Reuse; }

private:
  InvocationOwners Owners;
  ReuseHistogram Reuse;
  /// A shard keeps its accesses for the merge; the chunks counted go back
  /// to the pool shared by the tool and its shards.
  bool IsShard = false;
  std::shared_ptr<KeptChunkPool> KeptPool = std::make_shared<KeptChunkPool>();
  AccessKeeper Keeper{LineShift, KeptPool};
  /// Counts the merged chunks into Reuse. Last: it is destroyed (its work
  /// finished) before what its work touches.
  std::unique_ptr<ReuseLane> Lane;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_LINEREUSETOOL_H
