//===- HtmlReportTool.h - One self-contained HTML report --------*- C++ -*-===//
//
// Writes a single HTML file that works offline (inline CSS and JS, no
// network): the loss, the dispatch listing, the per-workgroup table, an
// access map drawn on a <canvas> (HtmlReportPage.cc) and plots of reuse
// distances, modelled miss rate against cache size and the working set over
// time as inline SVG, then races, misses per source line and the hottest
// lines in their source, from a RacesTool's and an AnnotateTool's results
// (attach()): every number is the command line's. The data is embedded as
// compact columnar JSON.
//
// The access map draws every access. Its address axis shows the accessed
// segments back to back (one per kernel parameter buffer, labelled with its
// name, and address clusters of other accesses), gaps compressed; its x
// axis is each processor's record order, one lane per processor, with a
// line where a launch begins. Up to MaxPoints accesses are embedded one by
// one (the page aggregates them per pixel); above that, the accesses are
// aggregated per cell of a grid (1600 columns per lane, 1024 rows), so a
// buffer touched by one access in thirty still has its cells.
//
// Two passes: the first counts accesses and records per processor and
// finds the segments, no more (AccessExtentTool: what the second needs to
// place a point), on several threads where the reader can; the second
// embeds points or grid cells, the workgroups, launches, reuse distances
// and the working set. Memory: the points
// or cells, one entry per workgroup, one per distinct sampled cache line.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_HTMLREPORTTOOL_H
#define WGTRACE_VIEWER_HTMLREPORTTOOL_H

#include "analyses/AccessCounts.h"
#include "analyses/AccessExtentTool.h"
#include "analyses/AnalysisTool.h"
#include "analyses/AnnotateTool.h"
#include "analyses/Intervals.h"
#include "analyses/LineReuseTool.h"
#include "analyses/RacesTool.h"
#include "reader/LaunchTracker.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class HtmlReportTool : public AnalysisTool {
public:
  static constexpr uint64_t DefaultMaxPoints = 2'000'000;
  /// Accessed bytes in no parameter further apart than this are separate
  /// segments on the address axis (the same rule as footprint's clusters).
  static constexpr uint64_t SegmentGap = 4096;
  /// The aggregation grid above MaxPoints accesses.
  static constexpr uint32_t GridColumns = 1600, GridRows = 1024;

  HtmlReportTool(llvm::raw_ostream &OS, std::string Title,
                 uint64_t MaxPoints = DefaultMaxPoints)
      : OS(OS), Title(std::move(Title)), MaxPoints(MaxPoints),
        Extent(SegmentGap) {}

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  /// Workgroup times go with the second pass's workgroups: the first
  /// needs none (and reads on several threads only without them).
  bool wantsTiming() const override { return Pass != 0; }
  void timing(llvm::ArrayRef<WorkgroupTime> Times) override;
  void census(const TraceCensus &C) override { Census = &C; }
  bool anotherPass() override;
  void finish() override;
  /// The first pass reads on several threads (AccessExtentTool's shards).
  std::unique_ptr<AnalysisTool> newShard() const override {
    return Pass == 0 ? Extent.newShard() : nullptr;
  }
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override {
    Extent.mergeShard(Shard, Place);
  }

  /// The races and per-line sections come from these tools' results (they
  /// read the same file, before this one finishes, or in another thread
  /// that \p Wait joins): the groups `races` lists, the lines and misses
  /// `annotate` counts.
  /// Reuse distances, likewise, from \p L when it reads the same file:
  /// otherwise this tool counts them itself.
  void attach(const RacesTool *R, const AnnotateTool *A,
              const LineReuseTool *L = nullptr,
              std::function<void()> Wait = {}) {
    Races = R;
    Annotate = A;
    Reuse = L;
    WaitForSections = std::move(Wait);
  }
  /// How the page names the file in its damage lines: as the error line
  /// on standard error does (the path as given); the title by default.
  void nameInput(std::string Path) { Input = std::move(Path); }
  /// Whether the page written says the reading stopped at damage.
  bool showsDamage() const { return ShowsDamage; }
  /// Rows of the races and per-line tables, and hottest lines annotated.
  static constexpr size_t MaxRaceRows = 100, MaxLineRows = 50, HotLines = 10;

  uint64_t totalAccesses() const { return Total; }
  /// The processor id of each lane, top lane first.
  const std::vector<uint32_t> &laneProcessors() const { return LaneProcessors; }
  /// Line accesses by reuse distance bucket, as CacheTool::histogram()
  /// counts them with 64-byte lines, and first uses.
  const std::vector<uint64_t> &reuseHistogram() const {
    return reuse().buckets();
  }
  uint64_t coldLineAccesses() const { return reuse().firstUses(); }
  /// Distinct lines per window of accesses, in record order.
  const std::vector<uint64_t> &workingSet() const { return WorkingSet; }
  uint64_t pointsShown() const { return PointX.size(); }
  size_t workgroupCount() const { return Workgroups.size(); }
  /// Whether the map is aggregated into grid cells, and how many.
  bool gridded() const { return Gridded; }
  size_t cellCount() const {
    size_t N = 0;
    for (const auto &Cells : LaneCells)
      N += Cells.size();
    return N;
  }
  /// The address axis: segments and their labels ("a", "0x7f...").
  struct Segment {
    Interval Range;
    /// The parameter buffer (TraceCensus::Buffers), or kNoBuffer.
    uint32_t Buffer = kNoBuffer;
    /// Where it starts on the axis, in bytes with compressed gaps.
    double Y = 0;
  };
  const std::vector<Segment> &segments() const { return Segments; }

private:
  struct Workgroup {
    uint32_t Site = 0;
    std::array<uint32_t, 3> Id{};
    uint32_t ProcessorId = 0;
    uint32_t Lane = 0;
    AccessCounts Counts;
    /// First and last record in its lane's record order.
    uint64_t FirstRecord = 0, LastRecord = 0;
    bool Timed = false;
    uint64_t StartNs = 0, EndNs = 0;
    /// A ring wrap overwrote its first records (WorkgroupInfo).
    bool BeginningLost = false;
  };
  struct Site {
    uint32_t Id = 0;
    std::string Function;
    uint64_t Workgroups = 0, Loads = 0, Stores = 0;
  };
  struct Cell {
    uint32_t Loads = 0, Stores = 0;
    uint32_t Workgroup = 0;
  };
  uint32_t laneOf(uint32_t ProcessorId) {
    // A ring's records come from one processor: the map is asked once a
    // run.
    if (ProcessorId == LastProcessor && !LaneProcessors.empty())
      return LastLane;
    return newLane(ProcessorId);
  }
  uint32_t newLane(uint32_t ProcessorId);
  /// Grid row of axis position \p Y: what min(GridRows - 1, uint64_t(Y *
  /// RowsPerByte)) is, with one signed conversion instead of the unsigned
  /// one's branches (Y is never negative).
  uint64_t rowOf(double Y) const {
    const double Scaled = Y * RowsPerByte;
    return Scaled >= double(GridRows - 1) ? GridRows - 1
                                          : uint64_t(int64_t(Scaled));
  }
  /// double(V), with one signed conversion when V fits (it always does on
  /// the address axis but for adversarial addresses).
  static double toDouble(uint64_t V) {
    return V <= uint64_t(INT64_MAX) ? double(int64_t(V)) : double(V);
  }
  /// The second pass's work for one record of lane \p Lane.
  void place(const Record &R, uint32_t Lane);
  uint32_t segmentOf(uint64_t Address);
  void layoutSegments();
  std::string dataJson() const;
  std::string plotsHtml() const;
  /// The census's damage lines at the top of the page ("" when none).
  std::string damageHtml() const;
  std::string racesHtml() const;
  std::string linesHtml() const;
  std::string hotSourceHtml() const;

  llvm::raw_ostream &OS;
  std::string Title;
  std::string Input;
  bool ShowsDamage = false;
  uint64_t MaxPoints;
  unsigned Pass = 0;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  const RacesTool *Races = nullptr;
  const AnnotateTool *Annotate = nullptr;
  std::function<void()> WaitForSections;
  /// The first pass: records per processor, accesses, bytes accessed.
  AccessExtentTool Extent;
  /// Lanes: one per processor id, in processor order.
  std::map<uint32_t, uint32_t> LaneOfProcessor;
  std::vector<uint32_t> LaneProcessors;
  std::vector<uint64_t> LaneRecords;
  uint32_t LastProcessor = 0, LastLane = 0;
  uint64_t Total = 0;
  /// Reuse distances: counted in another tool (attach()) or, without one,
  /// here in the second pass.
  const LineReuseTool *Reuse = nullptr;
  LineReuseTool OwnReuse;
  const ReuseHistogram &reuse() const {
    return Reuse ? Reuse->histogram() : OwnReuse.histogram();
  }
  /// The second pass.
  std::vector<Segment> Segments;
  double YSpan = 1;
  double RowsPerByte = GridRows;
  bool Gridded = false;
  std::vector<uint64_t> LaneRecordIndex;
  std::vector<Workgroup> Workgroups;
  std::vector<Site> Sites;
  std::map<std::pair<uint32_t, std::string>, uint32_t> SiteIndex;
  /// Index in Workgroups of each invocation (WorkgroupInfo::Invocation).
  llvm::DenseMap<uint64_t, uint32_t> ByInvocation;
  static constexpr uint32_t UnknownWorkgroup = UINT32_MAX;
  /// The last record's invocation and its index in Workgroups.
  uint64_t LastInvocation = UINT64_MAX;
  uint32_t LastWorkgroup = UnknownWorkgroup;
  uint32_t LastSegment = 0;
  LaunchTracker Launches;
  /// Per lane, the local launch its last workgroup belonged to.
  std::vector<uint32_t> LaneLaunch;
  /// Lines where a launch begins: lane, record index in the lane.
  std::vector<std::pair<uint32_t, uint64_t>> LaunchStarts;
  /// The points, columnar: lane, record index in the lane, segment, offset
  /// in the segment, length * 2 + is-store, workgroup.
  std::vector<uint64_t> PointX, PointOffset;
  std::vector<uint32_t> PointLane, PointSegment, PointLengthKind,
      PointWorkgroup;
  /// The indices of the points made by atomic operations (few, if any).
  std::vector<uint64_t> PointAtomic;
  /// The grid, finished cells per lane: key lane << 42 | column << 21 |
  /// row. A lane's records go left to right, so each lane fills one column
  /// at a time (LaneColumn, a plain array: no hashing per access) and hands
  /// its non-empty cells over, in key order, when it moves on.
  std::vector<std::vector<std::pair<uint64_t, Cell>>> LaneCells;
  std::vector<std::vector<Cell>> LaneColumn;
  /// Per lane, the rows of its column that hold counts (in the order they
  /// were first counted): a column is handed over without a scan of every
  /// row, most of which a column of a few accesses leaves empty.
  std::vector<std::vector<uint32_t>> LaneColumnRows;
  std::vector<uint64_t> LaneColumnIndex;
  /// Per lane, the grid column of its records up to LaneNextColumnAt.
  std::vector<uint64_t> LaneColumn0, LaneNextColumnAt;
  void flushColumn(uint32_t Lane);
  /// The cell that the last accesses went to, counted here until an access
  /// goes elsewhere: runs in one cell (the common case) update fixed
  /// fields instead of a cell whose address waits for the row arithmetic.
  struct OpenCell {
    uint32_t Lane = UINT32_MAX;
    uint64_t Row = 0, Column = 0;
    Cell Counts;
  };
  OpenCell Open;
  /// Adds the open cell to its lane's column.
  void flushOpenCell();
  /// Working set: distinct sampled lines per window of accesses, and the
  /// accesses left in the current window.
  uint64_t WindowSize = 1, WindowLeft = 1;
  llvm::DenseSet<uint64_t> WindowLines;
  /// The line inserted last into WindowLines (runs of accesses to one line
  /// insert it once), UINT64_MAX after the window is cleared.
  uint64_t LastWindowLine = UINT64_MAX;
  /// Inserts the lines of the bytes [Address, End] into WindowLines.
  void addWindowLines(uint64_t Address, uint64_t End);
  std::vector<uint64_t> WorkingSet;
};

/// Writes the page around the data to \p OS (piece by piece: a page of
/// megabytes is not copied once more): \p Damage is HTML placed first in
/// the body (the damage the reading stopped at, or ""); \p DataJson must
/// already be safe inside a <script> element; \p Plots is HTML (inline
/// SVG) placed under the map.
void writeHtmlReportPage(llvm::raw_ostream &OS, llvm::StringRef Title,
                         llvm::StringRef Damage, llvm::StringRef DataJson,
                         llvm::StringRef Plots);

/// A count as people read it: 950, 229k, 1.2M, 3.4G (three significant
/// digits, no exponent).
std::string readableNumber(double V);
/// \p Text with &, <, > and " escaped for HTML.
std::string htmlEscape(llvm::StringRef Text);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_HTMLREPORTTOOL_H
