//===- HtmlReportTool.h - One self-contained HTML report --------*- C++ -*-===//
//
// Writes a single HTML file that works offline (inline CSS and JS, no
// network): the dispatch listing, the per-workgroup table and an access map
// drawn on a <canvas> (HtmlReportPage.cc). The data is embedded as compact
// columnar JSON.
//
// Two passes: the first counts accesses and finds the address segments
// (the y axis shows accessed segments back to back, gaps compressed); the
// second keeps every k-th access so that at most DefaultMaxPoints are embedded,
// and the page says when it was downsampled. Memory: the points kept (at
// most DefaultMaxPoints) and one entry per workgroup.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_HTMLREPORTTOOL_H
#define WGTRACE_VIEWER_HTMLREPORTTOOL_H

#include "AccessCounts.h"
#include "AnalysisTool.h"
#include "Intervals.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class HtmlReportTool : public AnalysisTool {
public:
  static constexpr uint64_t DefaultMaxPoints = 2'000'000;
  /// Accessed bytes further apart than this are separate segments on the
  /// address axis (the same rule as footprint's buffers).
  static constexpr uint64_t SegmentGap = 4096;

  HtmlReportTool(llvm::raw_ostream &OS, std::string Title,
                 uint64_t MaxPoints = DefaultMaxPoints)
      : OS(OS), Title(std::move(Title)), MaxPoints(MaxPoints),
        Touched(SegmentGap) {}

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  bool wantsTiming() const override { return true; }
  void timing(llvm::ArrayRef<WorkgroupTime> Times) override;
  void census(const TraceCensus &C) override { Census = &C; }
  bool anotherPass() override;
  void finish() override;

  uint64_t totalAccesses() const { return Total; }
  uint64_t pointsShown() const { return PointX.size(); }
  size_t workgroupCount() const { return Workgroups.size(); }

private:
  struct Workgroup {
    uint32_t Site = 0;
    std::array<uint32_t, 3> Id{};
    uint32_t ProcessorId = 0;
    AccessCounts Counts;
    uint64_t FirstRecord = 0, LastRecord = 0;
    bool Timed = false;
    uint64_t StartNs = 0, EndNs = 0;
  };
  struct Site {
    uint32_t Id = 0;
    std::string Function;
    uint64_t Workgroups = 0, Loads = 0, Stores = 0;
  };
  uint32_t segmentOf(uint64_t Address) const;
  std::string dataJson() const;

  llvm::raw_ostream &OS;
  std::string Title;
  uint64_t MaxPoints;
  unsigned Pass = 0;
  const Metadata *Meta = nullptr;
  /// Pass 1.
  IntervalAccumulator Touched;
  uint64_t Total = 0;
  /// Pass 2.
  std::vector<Interval> Segments;
  uint64_t Step = 1;
  uint64_t RecordIndex = 0;
  uint64_t AccessIndex = 0;
  std::vector<Workgroup> Workgroups;
  std::vector<Site> Sites;
  std::map<std::pair<uint32_t, std::string>, uint32_t> SiteIndex;
  /// Index in Workgroups of each invocation (WorkgroupInfo::Invocation).
  llvm::DenseMap<uint64_t, uint32_t> ByInvocation;
  const TraceCensus *Census = nullptr;
  /// The points, columnar: record index, segment, offset in the segment,
  /// length * 2 + is-store, workgroup.
  std::vector<uint64_t> PointX, PointOffset;
  std::vector<uint32_t> PointSegment, PointLengthKind, PointWorkgroup;
};

/// The page around the data: \p DataJson must already be safe inside a
/// <script> element.
std::string htmlReportPage(llvm::StringRef Title, llvm::StringRef DataJson);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_HTMLREPORTTOOL_H
