//===- ProfileTool.h - What a run did, per kernel, site, buffer, line -*- C++
//-*-===//
//
// The numbers `diff` compares between two runs: per kernel, dispatch site,
// buffer (kernel parameter) and source line, the accesses, bytes, distinct
// cache lines, modelled cache misses (read and write apart, per level of
// one CacheHierarchy in record order, as `cache` models it: the same
// levels give the same misses) and racing workgroup pairs (from a
// RacesTool run beside it, see attachRaces()).
//
// On several threads (newShard()) a shard counts its chunk's accesses,
// bytes and distinct lines per key, and keeps the accesses that reach the
// caches (AccessKeeper.h, each owned by its row of four keys); the merge
// adds the counts, joins the line sets and replays the accesses through
// the one hierarchy in file order, as `cache` does.
//
// Memory: one entry per key with the distinct cache lines it touched (the
// footprint, not the trace), the cache model, and the races tool's ranges;
// on threads, the kept accesses and line sets of the chunks decoded ahead
// of the merge.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_PROFILETOOL_H
#define WGTRACE_VIEWER_PROFILETOOL_H

#include "analyses/AccessKeeper.h"
#include "analyses/AnalysisTool.h"
#include "analyses/RacesTool.h"
#include "simulator/CacheHierarchy.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Compiler.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class ProfileTool : public AnalysisTool {
public:
  enum Dimension : uint8_t { Kernel, Site, Buffer, Line, Dimensions };
  struct Measures {
    uint64_t Accesses = 0;
    uint64_t Bytes = 0;
    uint64_t Lines = 0;
    /// Per level of the hierarchy, first level first: read misses at
    /// 2 * level, write misses at 2 * level + 1.
    std::array<uint64_t, size_t{2} * CacheHierarchy::MaxLevels> Misses{};
    uint64_t Races = 0;

    void addMisses(const Measures &O) {
      for (size_t I = 0; I < Misses.size(); ++I)
        Misses[I] += O.Misses[I];
    }
  };

  /// \p Levels: `cache`'s (chooseCacheLevels()); distinct lines are
  /// counted in the first level's line size.
  /// \p Cold: the caches are emptied before each workgroup (`--cold`).
  explicit ProfileTool(std::vector<CacheLevel> Levels, bool Cold = false)
      : Caches(std::move(Levels)),
        LineShift(__builtin_ctzll(Caches.levels()[0].Geometry.LineSize)),
        Cold(Cold) {}

  const std::vector<CacheLevel> &levels() const { return Caches.levels(); }

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void census(const TraceCensus &C) override { Census = &C; }
  void finish() override;
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;

  /// After finish(): by dimension, the measures of every key ("matmul",
  /// "0: matmul", "b", "k.cc:12"), the races of \p Races (which must have
  /// read the same file with no limit) included.
  const std::map<std::string, Measures> &measures(Dimension D) const {
    return Results[D];
  }
  void attachRaces(const RacesTool &Races) { RacesFrom = &Races; }

private:
  struct Key {
    Measures M;
    llvm::DenseSet<uint64_t> Lines;
    uint64_t LastLine = UINT64_MAX;
  };
  /// Per dimension, keys by a small id (site: by metadata and site; buffer:
  /// Record::Buffer; line: by metadata and access site).
  struct Table {
    std::vector<Key> Keys;
    std::vector<std::string> Labels;
  };
  uint32_t id(Dimension D, const Record &R);
  /// record() of an access that is not a repeat of the one before, on
  /// lines [First, Last]. Kept out of line so that the repeat costs no
  /// more than its test.
  LLVM_ATTRIBUTE_NOINLINE void recordOther(const Record &R, uint64_t First,
                                           uint64_t Last);
  /// Adds the pending run's measures to its keys.
  void flushPending();
  void addLine(Key &K, uint64_t Line);

  CacheHierarchy Caches;
  unsigned LineShift;
  bool Cold;
  /// --cold: the workgroups begun, so that a copy continuing one does not
  /// empty the caches (as `cache` counts them).
  llvm::DenseSet<uint64_t> Begun;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  const RacesTool *RacesFrom = nullptr;
  std::array<Table, Dimensions> Tables;
  llvm::DenseMap<std::pair<const Metadata *, uint64_t>, uint32_t>
      Ids[Dimensions];
  /// The last record's ids: runs of one workgroup's accesses share them,
  /// and runs of one access site or buffer theirs.
  const Metadata *LastMeta = nullptr;
  uint64_t LastInvocation = UINT64_MAX;
  uint32_t LastSite = 0, LastKernel = 0;
  uint64_t LastBufferFrom = UINT64_MAX, LastLineFrom = UINT64_MAX;
  uint32_t LastBuffer = 0, LastLine = 0;
  /// Which lines are in the sets of which keys, so that a line touched
  /// again from the same kernel, site, buffer and source line costs no set
  /// insertion. Per page of 64 consecutive lines (runs of accesses stay in
  /// one page: one lookup per page, not per line), for the two key
  /// combinations (16 bits per dimension) that used it last, the lines
  /// already inserted under them. Sets only grow, so a set bit stays true;
  /// a combination pushed out of its page only costs insertions again.
  struct PageLines {
    std::array<uint64_t, 2> Combo = {~uint64_t(0), ~uint64_t(0)};
    std::array<uint64_t, 2> Lines = {0, 0};
  };
  static constexpr unsigned PageShift = 6;
  /// Marks \p Line inserted under \p Combo; false if it already was.
  bool markLine(uint64_t Line, uint64_t Combo);
  llvm::DenseMap<uint64_t, PageLines> Pages;
  uint64_t LastPage = 0;
  PageLines *LastPageLines = nullptr;
  /// The measures of the current run of accesses with the same keys, not
  /// yet added to them: one addition per run instead of four per access.
  Measures Pending;
  std::array<uint32_t, Dimensions> PendingIds = {};
  /// Whether the last access touched one line with packable keys: the
  /// next access of that line from the same keys then only counts.
  bool Repeatable = false;
  /// The last line recorded and its keys: runs on one line skip even that.
  uint64_t PrevLine = UINT64_MAX, PrevCombo = 0;
  std::array<std::map<std::string, Measures>, Dimensions> Results;
  /// A shard (newShard()) keeps the accesses that reach the caches for
  /// the merge, each owned by its combination of the four keys (an index
  /// of Combos); the chunks replayed go back to the pool shared by a tool
  /// and its shards.
  bool IsShard = false;
  std::shared_ptr<KeptChunkPool> KeptPool = std::make_shared<KeptChunkPool>();
  AccessKeeper Keeper{LineShift, KeptPool};
  /// A shard's combinations of keys (kernel and site, buffer and line ids),
  /// their index; and the pending run's, UINT32_MAX until looked up.
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, uint32_t> ComboIndex;
  std::vector<std::array<uint32_t, Dimensions>> Combos;
  uint32_t PendingCombo = UINT32_MAX;
  /// The index in Combos of the pending run's keys.
  uint32_t pendingCombo();
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_PROFILETOOL_H
