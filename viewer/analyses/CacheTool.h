//===- CacheTool.h - Hits, misses and reuse distances -----------*- C++ -*-===//
//
// Runs every load and store through one CacheModel in record order (file
// order: ring chunk after ring chunk), or through an emptied cache per
// workgroup (--cold), and counts hits and misses per workgroup. An access
// that spans two lines touches both. Alongside, the reuse distance of every
// line access (ReuseDistance.h) goes into a power-of-two histogram.
//
// Memory: the cache, one entry per distinct line for reuse distances, and
// the counts of each workgroup.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_CACHETOOL_H
#define WGTRACE_VIEWER_CACHETOOL_H

#include "analyses/AccessGrouping.h"
#include "analyses/AnalysisTool.h"
#include "output/RowOrder.h"
#include "reader/WorkgroupIdentity.h"
#include "simulator/CacheModel.h"
#include "simulator/ReuseDistance.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class CacheTool : public AnalysisTool {
public:
  /// \p By: rows per workgroup (the default), per site, per source line
  /// or per buffer.
  CacheTool(llvm::raw_ostream &OS, bool Json, const CacheGeometry &G, bool Cold,
            GroupBy By = GroupBy::Workgroup)
      : OS(OS), Json(Json), Geometry(G), Cold(Cold), Cache(G),
        LineShift(__builtin_ctzll(G.LineSize)), Grouping(By) {}

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void census(const TraceCensus &C) override {
    Census = &C;
    Grouping.census(C);
  }
  void finish() override;

  struct Counts {
    uint64_t Accesses = 0;
    /// Line accesses: an access spanning two lines counts two.
    uint64_t LineAccesses = 0;
    uint64_t Hits = 0;
    uint64_t Misses = 0;
    /// Misses of loads and of stores (cachegrind's D1mr and D1mw): they
    /// add up to Misses.
    uint64_t ReadMisses = 0;
    uint64_t WriteMisses = 0;
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
  /// --sort / --top: the rows (a site's workgroups, or the groups) by a
  /// column of columns(), and how many.
  void setOrder(RowOrder O) { Order = std::move(O); }
  static llvm::ArrayRef<const char *> columns();
  /// Line accesses by reuse distance bucket (ReuseDistance::bucket).
  const std::vector<uint64_t> &histogram() const { return Reuse.buckets(); }
  /// First accesses of a line (infinite distance).
  uint64_t coldAccesses() const { return Reuse.firstUses(); }

private:
  void printText();
  void printJson();

  llvm::raw_ostream &OS;
  bool Json;
  CacheGeometry Geometry;
  bool Cold;
  CacheModel Cache;
  ReuseHistogram Reuse;
  unsigned LineShift;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  /// Index in Workgroups of each invocation (WorkgroupInfo::Invocation).
  llvm::DenseMap<uint64_t, uint32_t> ByInvocation;
  uint64_t LastInvocation = UINT64_MAX;
  uint32_t LastWorkgroup = 0;
  std::vector<Workgroup> Workgroups;
  Counts Totals;
  AccessGrouping Grouping;
  std::vector<Counts> Groups;
  std::vector<GroupCounts> GroupRows;
  RowOrder Order;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_CACHETOOL_H
