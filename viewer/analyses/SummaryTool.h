//===- SummaryTool.h - Per site, workgroup and kernel counts ----*- C++ -*-===//

#ifndef WGTRACE_VIEWER_SUMMARYTOOL_H
#define WGTRACE_VIEWER_SUMMARYTOOL_H

#include "analyses/AccessCounts.h"
#include "analyses/AccessGrouping.h"
#include "analyses/AnalysisTool.h"
#include "analyses/LineSetPool.h"
#include "output/RowOrder.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class SummaryTool : public AnalysisTool {
public:
  /// \p By: rows per workgroup under each site (the default), per site,
  /// per source line or per buffer.
  SummaryTool(llvm::raw_ostream &OS, bool Json, uint64_t LineSize = 64,
              GroupBy By = GroupBy::Workgroup)
      : OS(OS), Json(Json), LineShift(llvm::Log2_64(LineSize)), Grouping(By) {}

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void endWorkgroups(llvm::ArrayRef<uint64_t> Invocations) override;
  void census(const TraceCensus &C) override {
    Census = &C;
    Grouping.census(C);
  }
  void finish() override;
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;
  /// --sort / --top: each table's rows (a site's workgroups, the sites,
  /// kernels and groups) by an accessCountColumns() column, and how many.
  void setOrder(RowOrder O) { Order = std::move(O); }

  struct WorkgroupSummary {
    /// WorkgroupInfo::Invocation: rows are in this order.
    uint64_t Invocation = 0;
    std::array<uint32_t, 3> Id{};
    std::array<uint32_t, 3> Count{};
    uint32_t ProcessorId = 0;
    /// A ring wrap overwrote its first records (WorkgroupInfo).
    bool BeginningLost = false;
    AccessCounts Counts;
  };
  struct SiteSummary {
    uint32_t Site = 0;
    std::string Function;
    std::vector<WorkgroupSummary> Workgroups;
    AccessCounts Totals;
    /// Workgroups --top left out of Workgroups.
    uint64_t OmittedWorkgroups = 0;
  };
  /// Results, available after finish(): sites in order of first appearance
  /// and per-kernel totals by function name.
  const std::vector<SiteSummary> &sites() const { return Sites; }
  const std::map<std::string, AccessCounts> &kernels() const { return Kernels; }
  uint64_t lostBytes() const { return Census ? Census->bytesLost() : 0; }
  /// Workgroups of site \p Site (all sites: none) of kernel \p Function
  /// that the runtime's filter left out (the census's count: no tool sees
  /// them).
  uint64_t notSelected(std::optional<uint32_t> Site,
                       llvm::StringRef Function) const;
  /// --by line / buffer: the counts of each group (AccessGrouping keys).
  struct GroupSummary {
    std::string Label;
    std::vector<std::string> Texts;
    AccessCounts Counts;
  };
  const std::vector<GroupSummary> &groups() const { return GroupRows; }

private:
  /// A workgroup invocation that may still have records.
  struct Open {
    WorkgroupSummary Summary;
    size_t Site = 0;
    llvm::DenseSet<uint64_t> Lines;
    /// The line inserted last: consecutive accesses mostly share a line,
    /// and skipping the set for them is most of the summary's speed.
    uint64_t LastLine = UINT64_MAX;
  };
  /// record() for what its few-instruction path does not decide: kept out
  /// of line so that path saves no registers.
  LLVM_ATTRIBUTE_NOINLINE void recordInFull(const Record &R);
  /// Adds the cache lines of an access to \p Lines (\p LastLine: the line
  /// inserted last, to skip the set for runs on one line).
  void addLines(llvm::DenseSet<uint64_t> &Lines, uint64_t &LastLine,
                uint64_t Address, uint32_t Length) const;
  size_t siteIndex(const Record &R);
  Open &open(const Record &R);
  void printText();
  void printJson();
  void printGroupsText();

  llvm::raw_ostream &OS;
  bool Json;
  unsigned LineShift;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  /// Open invocations; memory is what they touch, not the trace.
  llvm::DenseMap<uint64_t, Open> Opened;
  /// Where ended invocations' line sets go and new ones' come from, and
  /// where a merged shard's site sets go and new sites' come from (apart:
  /// a site's set is larger than a workgroup's). Shared with the shards.
  std::shared_ptr<LineSetPool> WorkgroupSets = std::make_shared<LineSetPool>();
  std::shared_ptr<LineSetPool> SiteSets = std::make_shared<LineSetPool>();
  /// A shard counts no kernel lines: they are its sites' (mergeShard()).
  bool IsShard = false;
  uint64_t LastInvocation = UINT64_MAX;
  Open *LastOpen = nullptr;
  /// Where the row of an ended invocation is (site, row), for one that
  /// continues after it was ended.
  llvm::DenseMap<uint64_t, std::pair<size_t, size_t>> Rows;
  std::vector<SiteSummary> Sites;
  llvm::SmallVector<llvm::DenseSet<uint64_t>, 0> SiteLines;
  std::map<std::pair<const Metadata *, uint32_t>, size_t> SiteByKey;
  std::map<std::string, AccessCounts> Kernels;
  std::map<std::string, llvm::DenseSet<uint64_t>> KernelLines;
  /// KernelLines' set of \p Function, a new one taken from SiteSets.
  llvm::DenseSet<uint64_t> &kernelLines(const std::string &Function);
  AccessGrouping Grouping;
  struct Group {
    AccessCounts Counts;
    llvm::DenseSet<uint64_t> Lines;
    uint64_t LastLine = UINT64_MAX;
  };
  std::vector<Group> Groups;
  std::vector<GroupSummary> GroupRows;
  RowOrder Order;
  OmittedRows Omitted{"groups", "sites", "workgroups", "kernels"};
  /// Kernels() in the order and number the report prints them.
  std::vector<std::pair<std::string, AccessCounts>> kernelRows() const;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_SUMMARYTOOL_H
