//===- CacheTool.h - Misses per level and reuse distances -------*- C++ -*-===//
//
// Runs every load and store through one CacheHierarchy (D1, L2, LL as
// cachegrind models D1 and LL) in record order (file order: ring chunk after
// ring chunk), or through emptied caches per workgroup (--cold), and counts
// per workgroup (and per site, kernel, source line or buffer) the read and
// write misses of each level: cachegrind's D1mr, D1mw, ..., LLmw. Alongside,
// the reuse distance of every access to a first-level line (ReuseDistance.h)
// goes into a power-of-two histogram.
//
// On several threads (newShard()), decoding is split but the caches are
// not: a shard keeps its chunk's accesses, runs of accesses that stay in
// the first-level line the previous one ended in counted as one (they hit
// it and change no level's order, nor any reuse distance but their own 0),
// and mergeShard() runs them through the one hierarchy in file order while
// the next chunks are decoded. The reuse distances, which depend on the
// order alone too but not on the caches, are counted on a thread of their
// own (the reuse lane), chunk after chunk, beside the caches.
//
// Memory: the caches, one entry per distinct line for reuse distances, and
// the counts of each workgroup; on threads, the accesses of the chunks
// decoded ahead of the merge too.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_CACHETOOL_H
#define WGTRACE_VIEWER_CACHETOOL_H

#include "analyses/AccessGrouping.h"
#include "analyses/AccessKeeper.h"
#include "analyses/AnalysisTool.h"
#include "analyses/InvocationOwners.h"
#include "output/RowOrder.h"
#include "reader/WorkgroupIdentity.h"
#include "simulator/CacheHierarchy.h"
#include "simulator/ReuseDistance.h"

#include "llvm/Support/Compiler.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class CacheTool : public AnalysisTool {
public:
  /// \p By: rows per workgroup (the default), per site, per source line
  /// or per buffer.
  /// \p Levels: first level first (CacheHierarchy).
  CacheTool(llvm::raw_ostream &OS, bool Json, std::vector<CacheLevel> Levels,
            bool Cold, GroupBy By = GroupBy::Workgroup)
      : OS(OS), Json(Json), Cold(Cold), Caches(std::move(Levels)),
        LineShift(__builtin_ctzll(Caches.levels()[0].Geometry.LineSize)),
        Grouping(By) {}
  /// A one-level cache (named D1).
  CacheTool(llvm::raw_ostream &OS, bool Json, const CacheGeometry &G, bool Cold,
            GroupBy By = GroupBy::Workgroup)
      : CacheTool(OS, Json, {CacheLevel{"D1", G}}, Cold, By) {}
  /// Printed under the geometry (where the levels came from).
  void setNote(std::string N) { Note = std::move(N); }

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void census(const TraceCensus &C) override {
    Census = &C;
    Grouping.census(C);
  }
  void finish() override;
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;

  /// The misses of loads and of stores at one level (cachegrind's D1mr
  /// and D1mw for D1).
  struct LevelMisses {
    uint64_t Read = 0;
    uint64_t Write = 0;
  };
  struct Counts {
    /// Loads and stores (cachegrind's Dr and Dw): one each, whatever lines
    /// they cover.
    uint64_t Reads = 0;
    uint64_t Writes = 0;
    /// Per level of levels(), first level first.
    std::array<LevelMisses, CacheHierarchy::MaxLevels> Misses{};

    uint64_t accesses() const { return Reads + Writes; }
    /// An access that missed the first \p Missed levels.
    void count(bool Store, unsigned Missed) {
      ++(Store ? Writes : Reads);
      for (unsigned L = 0; L < Missed; ++L)
        ++(Store ? Misses[L].Write : Misses[L].Read);
    }
    /// \p N accesses that hit the first level.
    void countHits(bool Store, uint64_t N) { (Store ? Writes : Reads) += N; }
    void add(const Counts &O) {
      Reads += O.Reads;
      Writes += O.Writes;
      for (unsigned L = 0; L < Misses.size(); ++L) {
        Misses[L].Read += O.Misses[L].Read;
        Misses[L].Write += O.Misses[L].Write;
      }
    }
  };
  struct Workgroup : WorkgroupIdentity {
    Counts C;
  };

  const std::vector<Workgroup> &workgroups() const { return Workgroups; }
  /// --by site, line or buffer: the counts per group, after finish().
  struct GroupCounts {
    std::string Label;
    std::vector<std::string> Texts;
    Counts C;
  };
  const std::vector<GroupCounts> &groups() const { return GroupRows; }
  const Counts &totals() const { return Totals; }
  const std::vector<CacheLevel> &levels() const { return Caches.levels(); }
  /// --sort / --top: the rows (a site's workgroups, or the groups) by a
  /// column of columns(), and how many.
  void setOrder(RowOrder O) { Order = std::move(O); }
  /// accesses, reads, writes, then <level>mr and <level>mw per level (D1mr,
  /// D1mw, L2mr, ...): the JSON keys of the counts.
  static std::vector<std::string>
  columns(const std::vector<CacheLevel> &Levels);
  /// Line accesses by reuse distance bucket (ReuseDistance::bucket).
  const std::vector<uint64_t> &histogram() const { return Reuse.buckets(); }
  /// Accesses to first-level lines (an access spanning two counts two):
  /// what the reuse histogram and first uses add up to.
  uint64_t lineAccesses() const { return Reuse.lineAccesses(); }
  /// First accesses of a line (infinite distance).
  uint64_t coldAccesses() const { return Reuse.firstUses(); }

private:
  /// A shard's record() of a load or store of owner \p Owner. Inlined: it
  /// runs once per load or store, and called, its prologue and epilogue
  /// were a sixth of its time (two threads took 4-6% more CPU with it).
  LLVM_ATTRIBUTE_ALWAYS_INLINE void keep(const Record &R, uint32_t Owner);
  void printText();
  void printJson();
  double column(const Counts &C, const std::string &Name) const;

  llvm::raw_ostream &OS;
  bool Json;
  bool Cold;
  CacheHierarchy Caches;
  std::string Note;
  ReuseHistogram Reuse;
  unsigned LineShift;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  /// Index in Workgroups of each invocation.
  InvocationOwners Owners;
  std::vector<Workgroup> Workgroups;
  Counts Totals;
  AccessGrouping Grouping;
  std::vector<Counts> Groups;
  std::vector<GroupCounts> GroupRows;
  RowOrder Order;
  OmittedRows Omitted{"groups", "workgroups"};
  /// Per dispatch site, the workgroups --top left out of its rows.
  std::map<uint32_t, uint64_t> OmittedPerSite;
  /// A shard (newShard()) keeps its accesses, in record order, for the
  /// merge (AccessKeeper.h); the chunks replayed go back to the pool shared
  /// by a tool and its shards.
  bool IsShard = false;
  std::shared_ptr<KeptChunkPool> KeptPool = std::make_shared<KeptChunkPool>();
  AccessKeeper Keeper{LineShift, KeptPool};
  /// Counts the merged chunks' reuse distances into Reuse. Last: it is
  /// destroyed (its work finished) before what its work touches.
  std::unique_ptr<ReuseLane> Lane;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_CACHETOOL_H
