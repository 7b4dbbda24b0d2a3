//===- HtmlReportTool.cc --------------------------------------------------===//

#include "output/HtmlReportTool.h"

#include "reader/Metadata.h"

#include "llvm/Support/JSON.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

using namespace llvm;

namespace wgtrace::viewer {

void HtmlReportTool::beginRing(const RingInfo &Info) { Meta = Info.Meta; }

uint32_t HtmlReportTool::newLane(uint32_t ProcessorId) {
  auto [It, New] =
      LaneOfProcessor.try_emplace(ProcessorId, uint32_t(LaneProcessors.size()));
  if (New) {
    LaneProcessors.push_back(ProcessorId);
    LaneRecords.push_back(0);
  }
  LastProcessor = ProcessorId;
  LastLane = It->second;
  return LastLane;
}

uint32_t HtmlReportTool::segmentOf(uint64_t Address) {
  // Accesses come in runs within one buffer: try the last one's segment.
  if (LastSegment < Segments.size() &&
      Segments[LastSegment].Range.Lo <= Address &&
      (LastSegment + 1 == Segments.size() ||
       Address < Segments[LastSegment + 1].Range.Lo))
    return LastSegment;
  auto It = std::upper_bound(
      Segments.begin(), Segments.end(), Address,
      [](uint64_t A, const Segment &S) { return A < S.Range.Lo; });
  LastSegment =
      It == Segments.begin() ? 0 : uint32_t(It - Segments.begin() - 1);
  return LastSegment;
}

void HtmlReportTool::record(const Record &R) {
  if (Pass == 0)
    return Extent.record(R);
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  place(R, laneOf(R.Workgroup->Record.ProcessorId));
}

void HtmlReportTool::place(const Record &R, uint32_t Lane) {
  const bool IsAccess =
      R.Tag == format::Tag::MemoryLoad || R.Tag == format::Tag::MemoryStore;
  const uint64_t Index = LaneRecordIndex[Lane]++;
  if (!Reuse)
    OwnReuse.record(R);
  // Records of one workgroup come together: one lookup per run of them.
  if (R.Workgroup->Invocation != LastInvocation ||
      R.Tag == format::Tag::Workgroup) {
    auto Known = ByInvocation.find(R.Workgroup->Invocation);
    LastInvocation = R.Workgroup->Invocation;
    LastWorkgroup =
        Known == ByInvocation.end() ? UnknownWorkgroup : Known->second;
  }
  if (R.Tag == format::Tag::Workgroup && LastWorkgroup == UnknownWorkgroup) {
    const format::WorkgroupRecord &WG = R.Workgroup->Record;
    std::string Function =
        Meta->siteFunction(WG.DispatchId).nameOr("(null)").str();
    auto [It, New] = SiteIndex.try_emplace({WG.DispatchId, Function},
                                           uint32_t(Sites.size()));
    if (New)
      Sites.push_back({WG.DispatchId, Function, 0, 0, 0});
    ++Sites[It->second].Workgroups;
    Workgroup W;
    W.Site = It->second;
    W.Id = {WG.Id[0], WG.Id[1], WG.Id[2]};
    W.ProcessorId = WG.ProcessorId;
    W.BeginningLost = R.Workgroup->BeginningLost;
    W.Lane = Lane;
    W.FirstRecord = W.LastRecord = Index;
    LastWorkgroup = Workgroups.size();
    ByInvocation[R.Workgroup->Invocation] = LastWorkgroup;
    Workgroups.push_back(W);
    // A line where this processor begins a launch.
    uint32_t T = Launches.workgroup(R, *Meta);
    uint32_t Local = Launches.workgroups()[T].Local;
    if (LaneLaunch[Lane] != Local) {
      LaneLaunch[Lane] = Local;
      LaunchStarts.emplace_back(Lane, Index);
    }
    return;
  }
  if (LastWorkgroup == UnknownWorkgroup)
    return;
  const uint32_t WI = LastWorkgroup;
  Workgroup &W = Workgroups[WI];
  W.LastRecord = Index;
  if (!IsAccess) {
    W.Counts.count(R);
    return;
  }
  W.Counts.countAccess(R);
  // The working set: every line of every access of a known workgroup, as
  // `cache` counts them, but none of an access that wraps past the top of
  // the address space. Most accesses stay in the line inserted last.
  const uint64_t End = R.Memory.Address + (std::max(R.Memory.Length, 1u) - 1);
  if ((End >> 6) != LastWindowLine || (R.Memory.Address >> 6) != (End >> 6))
    addWindowLines(R.Memory.Address, End);
  const uint32_t S = segmentOf(R.Memory.Address);
  const uint64_t Offset = R.Memory.Address - Segments[S].Range.Lo;
  // The working set: distinct lines per window of accesses.
  if (--WindowLeft == 0) {
    WorkingSet.push_back(WindowLines.size());
    WindowLines.clear();
    LastWindowLine = UINT64_MAX;
    WindowLeft = WindowSize;
  }
  if (!Gridded) {
    PointLane.push_back(Lane);
    PointX.push_back(Index);
    PointSegment.push_back(S);
    PointOffset.push_back(Offset);
    if (R.Atomic)
      PointAtomic.push_back(PointLengthKind.size());
    PointLengthKind.push_back(R.Memory.Length * 2 + (R.Memory.IsStore ? 1 : 0));
    PointWorkgroup.push_back(WI);
    return;
  }
  // Column = Index * GridColumns / records of the lane, divided only when
  // Index reaches the next column's first record.
  if (Index >= LaneNextColumnAt[Lane]) {
    const uint64_t N = std::max<uint64_t>(1, LaneRecords[Lane]);
    LaneColumn0[Lane] = Index * GridColumns / N;
    LaneNextColumnAt[Lane] =
        ((LaneColumn0[Lane] + 1) * N + GridColumns - 1) / GridColumns;
  }
  const uint64_t Column = LaneColumn0[Lane];
  const double Y =
      Segments[S].Y + toDouble(std::min<uint64_t>(
                          Offset, Segments[S].Range.Hi - Segments[S].Range.Lo));
  const uint64_t Row = rowOf(Y);
  const uint64_t Col = std::min<uint64_t>(Column, GridColumns - 1);
  if (Lane != Open.Lane || Row != Open.Row || Col != Open.Column) {
    flushOpenCell();
    if (Col != LaneColumnIndex[Lane]) {
      flushColumn(Lane);
      LaneColumnIndex[Lane] = Col;
    }
    Open.Lane = Lane;
    Open.Row = Row;
    Open.Column = Col;
  }
  (R.Memory.IsStore ? Open.Counts.Stores : Open.Counts.Loads) += 1;
  Open.Counts.Workgroup = WI;
}

void HtmlReportTool::addWindowLines(uint64_t Address, uint64_t End) {
  if (End < Address)
    return;
  for (uint64_t L = Address >> 6; L <= End >> 6; ++L)
    if (L != LastWindowLine) {
      WindowLines.insert(L);
      LastWindowLine = L;
    }
}

void HtmlReportTool::flushOpenCell() {
  if (Open.Lane == UINT32_MAX)
    return;
  Cell &C = LaneColumn[Open.Lane][Open.Row];
  if (!C.Loads && !C.Stores)
    LaneColumnRows[Open.Lane].push_back(uint32_t(Open.Row));
  C.Loads += Open.Counts.Loads;
  C.Stores += Open.Counts.Stores;
  C.Workgroup = Open.Counts.Workgroup;
  Open = OpenCell();
}

void HtmlReportTool::flushColumn(uint32_t Lane) {
  if (LaneColumnIndex[Lane] == UINT64_MAX)
    return;
  std::vector<Cell> &Column = LaneColumn[Lane];
  std::vector<uint32_t> &Rows = LaneColumnRows[Lane];
  // A lane's columns come left to right, each once: with its rows in order
  // too, each lane's cells are in key order as they come.
  std::sort(Rows.begin(), Rows.end());
  for (uint32_t Row : Rows) {
    LaneCells[Lane].emplace_back((uint64_t(Lane) << 42) |
                                     (LaneColumnIndex[Lane] << 21) | Row,
                                 Column[Row]);
    Column[Row] = Cell();
  }
  Rows.clear();
  LaneColumnIndex[Lane] = UINT64_MAX;
}

void HtmlReportTool::timing(ArrayRef<WorkgroupTime> Times) {
  if (Pass == 0)
    return;
  for (const WorkgroupTime &T : Times) {
    auto It = ByInvocation.find(T.Invocation);
    if (It == ByInvocation.end())
      continue;
    Workgroup &W = Workgroups[It->second];
    W.Timed = true;
    W.StartNs = T.StartNs;
    W.EndNs = std::max(T.StartNs, T.EndNs);
  }
}

void HtmlReportTool::layoutSegments() {
  // Parameter buffers as accessed (labelled), then clusters of the rest;
  // overlapping ones merge (keeping the buffer's name).
  std::vector<Segment> All;
  const std::vector<Interval> &Others = Extent.otherRanges();
  All.reserve(Extent.bufferRanges().size() + Others.size());
  for (const auto &[Buffer, Range] : Extent.bufferRanges())
    All.push_back({Range, Buffer, 0});
  for (const Interval &I : Others)
    All.push_back({I, kNoBuffer, 0});
  std::sort(All.begin(), All.end(), [](const Segment &A, const Segment &B) {
    return A.Range.Lo < B.Range.Lo;
  });
  Segments.clear();
  for (const Segment &S : All) {
    if (!Segments.empty() && S.Range.Lo < Segments.back().Range.Hi) {
      Segment &Prev = Segments.back();
      Prev.Range.Hi = std::max(Prev.Range.Hi, S.Range.Hi);
      if (Prev.Buffer == kNoBuffer)
        Prev.Buffer = S.Buffer;
      continue;
    }
    Segments.push_back(S);
  }
  if (Segments.empty())
    Segments.push_back({{0, 1}, kNoBuffer, 0});
  // Gaps between segments are drawn 2% of the bytes shown, shared.
  double Bytes = 0;
  for (const Segment &S : Segments)
    Bytes += double(S.Range.Hi - S.Range.Lo);
  const double Gap = std::max(1.0, Bytes * 0.02 / double(Segments.size()));
  double Y = 0;
  for (size_t I = 0; I < Segments.size(); ++I) {
    Segments[I].Y = Y;
    Y += double(Segments[I].Range.Hi - Segments[I].Range.Lo) +
         (I + 1 < Segments.size() ? Gap : 0);
  }
  YSpan = std::max(1.0, Y);
  // A multiplication per access, not a division.
  RowsPerByte = double(GridRows) / YSpan;
}

bool HtmlReportTool::anotherPass() {
  if (Pass > 0)
    return false;
  Pass = 1;
  // Lanes in processor order (the map is ordered by processor id).
  for (auto [Processor, Records] : Extent.processorRecords()) {
    LaneOfProcessor[Processor] = uint32_t(LaneProcessors.size());
    LaneProcessors.push_back(Processor);
    LaneRecords.push_back(Records);
  }
  LastProcessor = LaneProcessors.empty() ? 0 : LaneProcessors[0];
  LastLane = 0;
  Total = Extent.accesses();
  layoutSegments();
  Gridded = MaxPoints == 0 || Total > MaxPoints;
  LaneRecordIndex.assign(LaneRecords.size(), 0);
  LaneLaunch.assign(LaneRecords.size(), UINT32_MAX);
  WindowSize = std::max<uint64_t>(1, Total / 200);
  WindowLeft = WindowSize;
  if (Gridded) {
    LaneColumn.assign(LaneRecords.size(), std::vector<Cell>(GridRows));
    LaneColumnRows.assign(LaneRecords.size(), {});
    LaneCells.assign(LaneRecords.size(), {});
    LaneColumnIndex.assign(LaneRecords.size(), UINT64_MAX);
    LaneColumn0.assign(LaneRecords.size(), 0);
    LaneNextColumnAt.assign(LaneRecords.size(), 0);
  }
  if (!Gridded) {
    PointX.reserve(Total);
    PointOffset.reserve(Total);
    PointLane.reserve(Total);
    PointSegment.reserve(Total);
    PointLengthKind.reserve(Total);
    PointWorkgroup.reserve(Total);
  }
  return true;
}

std::string HtmlReportTool::dataJson() const {
  std::string Out;
  raw_string_ostream OS(Out);
  json::OStream J(OS);
  // Up to six numbers per access shown: written as text straight into the
  // page, not through a json::Value each, which made the JSON of two
  // million accesses cost ten times the decoding of the whole trace.
  // Each(Emit) calls Emit(X) for each number, in order.
  auto NumbersOf = [&](auto Each, bool Delta) {
    fmt::memory_buffer Text;
    Text.push_back('[');
    uint64_t Previous = 0;
    bool First = true;
    Each([&](uint64_t X) {
      if (!First)
        Text.push_back(',');
      First = false;
      // Deltas keep the common case (next record, same segment) short.
      fmt::format_to(std::back_inserter(Text), FMT_COMPILE("{}"),
                     Delta ? int64_t(X - Previous) : int64_t(X));
      Previous = X;
    });
    Text.push_back(']');
    J.rawValue(StringRef(Text.data(), Text.size()));
  };
  auto Numbers = [&](const auto &V, bool Delta) {
    NumbersOf(
        [&](auto Emit) {
          for (const auto &X : V)
            Emit(uint64_t(X));
        },
        Delta);
  };
  J.object([&] {
    J.attribute("title", Title);
    J.attribute("total_accesses", Total);
    J.attribute("shown", uint64_t(PointX.size()));
    uint64_t Records = 0;
    for (uint64_t N : LaneRecords)
      Records += N;
    J.attribute("records", Records);
    J.attributeArray("lanes", [&] {
      for (size_t L = 0; L < LaneProcessors.size(); ++L)
        J.array([&] {
          J.value(LaneProcessors[L]);
          J.value(LaneRecords[L]);
        });
    });
    J.attributeArray("launches", [&] {
      for (auto [Lane, X] : LaunchStarts)
        J.array([&, Lane = Lane, X = X] {
          J.value(Lane);
          J.value(X);
        });
    });
    // What wrapped rings lost and what the rewriter could not trace, as
    // every other view says it.
    J.attribute("run", runJson(Census));
    J.attribute("selection", selectionJson(Census));
    J.attribute("run_text", Census ? runText(*Census) + unselectedText(*Census)
                                   : std::string());
    J.attribute("loss", censusJson(Census));
    J.attribute("loss_text", Census
                                 ? lossText(*Census) + untracedText(*Census) +
                                       uninstrumentedText(*Census)
                                 : std::string());
    J.attributeArray("sites", [&] {
      for (const Site &S : Sites)
        J.object([&] {
          J.attribute("site", S.Id);
          J.attribute("function", S.Function);
          J.attribute("workgroups", S.Workgroups);
          J.attribute("loads", S.Loads);
          J.attribute("stores", S.Stores);
        });
    });
    // [site, x, y, z, pid, loads, stores, load bytes, store bytes, values,
    //  prints, first record, last record, start us, end us | null,
    //  beginning lost 0 | 1]
    bool AnyTimed = false;
    uint64_t Origin = UINT64_MAX;
    for (const Workgroup &W : Workgroups)
      if (W.Timed) {
        AnyTimed = true;
        Origin = std::min(Origin, W.StartNs);
      }
    J.attribute("timed", AnyTimed);
    J.attributeArray("workgroups", [&] {
      for (const Workgroup &W : Workgroups)
        J.array([&] {
          for (uint64_t V :
               {uint64_t(W.Site), uint64_t(W.Id[0]), uint64_t(W.Id[1]),
                uint64_t(W.Id[2]), uint64_t(W.ProcessorId), W.Counts.Loads,
                W.Counts.Stores, W.Counts.LoadBytes, W.Counts.StoreBytes,
                W.Counts.Values, W.Counts.Prints, W.FirstRecord, W.LastRecord})
            J.value(V);
          if (W.Timed) {
            J.value(double(W.StartNs - Origin) / 1000.0);
            J.value(double(W.EndNs - Origin) / 1000.0);
          } else {
            J.value(nullptr);
            J.value(nullptr);
          }
          J.value(uint64_t(W.BeginningLost));
        });
    });
    // Addresses as hex strings: they may exceed a double's 53 bits.
    // [hex address, size, label, axis position]
    J.attribute("yspan", YSpan);
    J.attributeArray("segments", [&] {
      for (const Segment &S : Segments)
        J.array([&] {
          J.value(fmt::format("{:x}", S.Range.Lo));
          J.value(S.Range.Hi - S.Range.Lo);
          J.value(S.Buffer != kNoBuffer && Census
                      ? Census->bufferLabel(S.Buffer)
                      : fmt::format("0x{:x}", S.Range.Lo));
          J.value(S.Y);
        });
    });
    if (Gridded) {
      // Every access counted in one cell: [lane, column, row, loads,
      // stores, workgroup] as columns.
      // Lane by lane: the keys' order (lane first), read where the lanes
      // keep them, not copied into one vector first.
      J.attributeObject("grid", [&] {
        J.attribute("columns", GridColumns);
        J.attribute("rows", GridRows);
        auto Column = [&](const char *Name, auto Get) {
          J.attributeBegin(Name);
          NumbersOf(
              [&](auto Emit) {
                for (const auto &Cells : LaneCells)
                  for (const auto &C : Cells)
                    Emit(uint64_t(Get(C)));
              },
              false);
          J.attributeEnd();
        };
        using KV = std::pair<uint64_t, Cell>;
        Column("n", [](const KV &C) { return int64_t(C.first >> 42); });
        Column("c", [](const KV &C) {
          return int64_t((C.first >> 21) & ((1u << 21) - 1));
        });
        Column("r",
               [](const KV &C) { return int64_t(C.first & ((1u << 21) - 1)); });
        Column("loads", [](const KV &C) { return int64_t(C.second.Loads); });
        Column("stores", [](const KV &C) { return int64_t(C.second.Stores); });
        Column("w", [](const KV &C) { return int64_t(C.second.Workgroup); });
      });
    }
    J.attributeObject("points", [&] {
      J.attributeBegin("n");
      Numbers(PointLane, false);
      J.attributeEnd();
      J.attributeBegin("x");
      Numbers(PointX, true);
      J.attributeEnd();
      J.attributeBegin("s");
      Numbers(PointSegment, false);
      J.attributeEnd();
      J.attributeBegin("o");
      Numbers(PointOffset, false);
      J.attributeEnd();
      J.attributeBegin("l");
      Numbers(PointLengthKind, false);
      J.attributeEnd();
      J.attributeBegin("w");
      Numbers(PointWorkgroup, false);
      J.attributeEnd();
      J.attributeBegin("a");
      Numbers(PointAtomic, true);
      J.attributeEnd();
    });
  });
  OS.flush();
  // Inside <script>, "</script" or "<!--" in a string would end or confuse
  // the element; "<\/" is the same JSON string. Without either (the map's
  // numbers are most of the text), no copy.
  auto Unsafe = [&](size_t I) {
    return I + 1 < Out.size() && (Out[I + 1] == '/' || Out[I + 1] == '!');
  };
  size_t First = Out.find('<');
  while (First != std::string::npos && !Unsafe(First))
    First = Out.find('<', First + 1);
  if (First == std::string::npos)
    return Out;
  std::string Safe;
  Safe.reserve(Out.size());
  size_t Copied = 0;
  for (size_t I = First; I != std::string::npos; I = Out.find('<', I + 1)) {
    if (Unsafe(I)) {
      Safe.append(Out, Copied, I - Copied);
      Safe += "\\u003c";
      Copied = I + 1;
    }
  }
  Safe.append(Out, Copied);
  return Safe;
}

namespace {

/// One bar or line chart as inline SVG, log2 x axis labels given.
struct Chart {
  std::string Title, XLabel, YLabel;
  std::vector<std::string> Labels;
  std::vector<double> Values;
  bool Bars = true;
  /// Y axis maximum (0: the largest value).
  double YMax = 0;
  std::string YUnit;
};

std::string svg(const Chart &C) {
  constexpr int W = 460, H = 220, Left = 52, Bottom = 44, Top = 22;
  const int PW = W - Left - 10, PH = H - Top - Bottom;
  double Max = C.YMax;
  for (double V : C.Values)
    Max = std::max(Max, V);
  if (Max <= 0)
    Max = 1;
  std::string Out =
      fmt::format("<figure class=\"plot\"><svg "
                  "width=\"{}\" height=\"{}\" role=\"img\"><title>{}</title>"
                  "<text x=\"{}\" y=\"14\" class=\"pt\">{}</text>",
                  W, H, C.Title, Left, C.Title);
  Out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
                     "class=\"ax\"/><line x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" "
                     "y2=\"{2}\" class=\"ax\"/>",
                     Left, Top, Top + PH, Left + PW);
  for (int T = 0; T <= 4; ++T) {
    const double V = Max * T / 4;
    const int Y = Top + PH - int(PH * T / 4);
    Out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"yl\">{}{}</text>",
                       Left - 4, Y + 4, readableNumber(V), C.YUnit);
  }
  const size_t N = std::max<size_t>(1, C.Values.size());
  const double Step = double(PW) / double(N);
  std::string Path;
  for (size_t I = 0; I < C.Values.size(); ++I) {
    const double X = Left + Step * double(I);
    const double BarH = double(PH) * C.Values[I] / Max;
    if (C.Bars)
      Out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
                         "height=\"{:.1f}\" class=\"bar\"><title>{}: "
                         "{}</title></rect>",
                         X + 1, Top + PH - BarH, std::max(1.0, Step - 2), BarH,
                         I < C.Labels.size() ? C.Labels[I] : "",
                         uint64_t(C.Values[I]));
    else
      Path += fmt::format("{}{:.1f},{:.1f}", Path.empty() ? "M" : " L",
                          X + Step / 2, Top + PH - BarH);
    if (I < C.Labels.size() && !C.Labels[I].empty())
      Out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" class=\"xl\">{}</text>",
                         X + Step / 2, Top + PH + 14, C.Labels[I]);
  }
  if (!Path.empty())
    Out += "<path d=\"" + Path + "\" class=\"curve\"/>";
  Out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"xt\">{}</text>"
                     "</svg></figure>\n",
                     Left + PW / 2, H - 6, C.XLabel);
  return Out;
}

std::string sizeText(uint64_t Bytes) {
  if (Bytes >= (1u << 20))
    return fmt::format("{}M", Bytes >> 20);
  if (Bytes >= 1024)
    return fmt::format("{}K", Bytes >> 10);
  return fmt::format("{}", Bytes);
}

} // namespace

std::string HtmlReportTool::plotsHtml() const {
  std::string Out;
  // Reuse distances (in distinct 64-byte lines, power-of-two buckets).
  const std::vector<uint64_t> &ReuseHistogram = reuse().buckets();
  const uint64_t ColdLines = reuse().firstUses();
  unsigned Highest = 0;
  for (unsigned B = 0; B < ReuseHistogram.size(); ++B)
    if (ReuseHistogram[B])
      Highest = B;
  Chart Distances;
  Distances.Title = "Reuse distance (distinct 64-byte lines between uses)";
  Distances.XLabel =
      "distance (lines, power-of-two buckets; last bar: first use)";
  for (unsigned B = 0; B <= Highest; ++B) {
    Distances.Labels.push_back(B == 0 ? "0"
                               : B % 2 || Highest < 12
                                   ? sizeText(uint64_t(1) << (B - 1))
                                   : "");
    Distances.Values.push_back(double(ReuseHistogram[B]));
  }
  Distances.Labels.push_back("new");
  Distances.Values.push_back(double(ColdLines));
  Out += svg(Distances);
  // A fully associative LRU cache of C lines hits exactly the accesses
  // whose reuse distance is below C.
  Chart Miss;
  Miss.Title = "Modelled miss rate against cache size (fully associative LRU)";
  Miss.XLabel = "cache size (bytes)";
  Miss.Bars = false;
  Miss.YMax = 100;
  Miss.YUnit = "%";
  uint64_t Counted = ColdLines;
  for (uint64_t V : ReuseHistogram)
    Counted += V;
  for (unsigned K = 10; K <= 30; ++K) { // 1 KiB .. 1 GiB
    const uint64_t Lines = (uint64_t(1) << K) / 64;
    // Buckets [2^(b-1), 2^b) at or above Lines miss.
    uint64_t Misses = ColdLines;
    for (unsigned B = 1; B < ReuseHistogram.size(); ++B)
      if ((uint64_t(1) << (B - 1)) >= Lines)
        Misses += ReuseHistogram[B];
    Miss.Labels.push_back(K % 2 == 0 ? sizeText(uint64_t(1) << K) : "");
    Miss.Values.push_back(Counted ? 100.0 * double(Misses) / double(Counted)
                                  : 0.0);
  }
  Out += svg(Miss);
  Chart Set;
  Set.Title = fmt::format("Working set: distinct 64-byte lines per {} "
                          "accesses",
                          WindowSize);
  Set.XLabel = "accesses (record order)";
  Set.Bars = false;
  for (size_t I = 0; I < WorkingSet.size(); ++I) {
    Set.Labels.push_back(I % 40 == 0 ? readableNumber(double(I * WindowSize))
                                     : "");
    Set.Values.push_back(double(WorkingSet[I]));
  }
  Out += svg(Set);
  Out += fmt::format("<p class=\"note\">Reuse distances and working sets "
                     "count every one of {} line accesses, as "
                     "<code>wgtrace-view cache</code> does.</p>\n",
                     reuse().lineAccesses());
  return Out;
}

std::string readableNumber(double V) {
  static const char *const Suffixes[] = {"", "k", "M", "G", "T", "P"};
  unsigned S = 0;
  while (std::abs(V) >= 999.5 && S + 1 < std::size(Suffixes)) {
    V /= 1000;
    ++S;
  }
  return fmt::format("{:.3g}{}", V, Suffixes[S]);
}

std::string htmlEscape(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string HtmlReportTool::damageHtml() const {
  if (!Census || Census->Damage.empty())
    return "";
  // Styled in place, so that the page of an undamaged file is byte for
  // byte what it was; static HTML, so that it shows without the script.
  std::string S =
      "<div id=\"damage\" style=\"color: #b00; background: #fdecea; "
      "padding: 4px 8px; border-left: 3px solid #d04040; margin-bottom: "
      "8px\"><b>The trace is damaged:</b> this page shows what decoded; "
      "the records the damage made unreadable are in no count.\n"
      "<pre style=\"white-space: pre-wrap\">";
  const std::string &Name = Input.empty() ? Title : Input;
  for (const std::string &Message : Census->Damage) {
    std::string Line = "error: ";
    Line += Name;
    Line += ": ";
    Line += Message;
    S += htmlEscape(Line) + "\n";
  }
  return S + "</pre></div>\n";
}

std::string HtmlReportTool::racesHtml() const {
  if (!Races)
    return {};
  std::string Out = fmt::format(
      "<h2>Races</h2>\n<p id=\"races-summary\">{} racing workgroup pair{} "
      "in {} group{} of racing accesses (as <code>wgtrace-view races</code> "
      "counts and lists them).</p>\n",
      Races->raceCount(), Races->raceCount() == 1 ? "" : "s",
      Races->groupCount(), Races->groupCount() == 1 ? "" : "s");
  if (Races->races().empty())
    return Out;
  Out += "<table id=\"races\"><thead><tr><th>kind</th><th>kernel</th>"
         "<th>launch</th><th>pairs</th><th>bytes</th><th>buffer</th>"
         "<th class=\"l\">side A (store)</th><th class=\"l\">side B</th>"
         "</tr></thead><tbody>\n";
  const LaunchTracker &Tracker = Races->launches();
  auto Side = [&](uint32_t Source) {
    const std::string &S = Races->sources()[Source];
    return htmlEscape(S.empty() ? "(no access site)" : S);
  };
  size_t Rows = 0;
  for (const RacesTool::Race &Rc : Races->races()) {
    if (Rows++ == MaxRaceRows)
      break;
    const LaunchTracker::Launch &L = Tracker.launches()[Rc.Launch];
    const LaunchTracker::Site &S = Tracker.sites()[L.SiteKey];
    std::string Buffer =
        Rc.Buffer != kNoBuffer && Census && Rc.Buffer < Census->Buffers.size()
            ? Census->bufferLabel(Rc.Buffer)
            : "";
    Out += fmt::format(
        "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td class=\"l\">{}</td><td "
        "class=\"l\"><code>{}</code></td><td class=\"l\"><code>{}</code>"
        "</td></tr>\n",
        Rc.K == RacesTool::Kind::WriteWrite ? "write-write" : "read-write",
        htmlEscape(fmt::format("{}: {}", S.Id, S.Function)), L.Ordinal,
        Rc.Pairs, Rc.Bytes, htmlEscape(Buffer), Side(Rc.SourceA),
        Side(Rc.SourceB));
  }
  Out += "</tbody></table>\n";
  const uint64_t Shown = std::min<uint64_t>(Races->races().size(), MaxRaceRows);
  if (Races->groupCount() > Shown)
    Out += fmt::format("<p class=\"note\" id=\"races-more\">{} more groups "
                       "not shown.</p>\n",
                       Races->groupCount() - Shown);
  return Out;
}

std::string HtmlReportTool::linesHtml() const {
  if (!Annotate)
    return {};
  const std::vector<CacheLevel> &Levels = Annotate->levels();
  std::string LevelText;
  for (const CacheLevel &L : Levels)
    LevelText += fmt::format("{}{} {}, {} ways, {}-byte lines",
                             LevelText.empty() ? "" : "; ", L.Name,
                             L.Geometry.Size % (1 << 20) == 0
                                 ? fmt::format("{} MiB", L.Geometry.Size >> 20)
                             : L.Geometry.Size % 1024 == 0
                                 ? fmt::format("{} KiB", L.Geometry.Size >> 10)
                                 : fmt::format("{} bytes", L.Geometry.Size),
                             L.Geometry.Ways, L.Geometry.LineSize);
  // Every (kernel, line) with accesses, the most first-level misses first.
  struct Row {
    const AnnotateTool::Kernel *K;
    const AnnotateTool::LineRow *L;
    size_t Order;
  };
  std::vector<Row> Rows;
  for (const AnnotateTool::Kernel &K : Annotate->kernels())
    for (const AnnotateTool::LineRow &L : K.Lines)
      Rows.push_back({&K, &L, Rows.size()});
  auto Misses = [](const AnnotateTool::Counts &C) {
    return C.LevelMisses[0].Read + C.LevelMisses[0].Write;
  };
  // (std::stable_sort's temporary buffer is deprecated in the library
  // built against here: the order breaks ties.)
  std::sort(Rows.begin(), Rows.end(), [&](const Row &A, const Row &B) {
    return Misses(A.L->C) != Misses(B.L->C) ? Misses(A.L->C) > Misses(B.L->C)
                                            : A.Order < B.Order;
  });
  std::string Out =
      fmt::format("<h2>Misses per source line</h2>\n<p class=\"note\">As "
                  "<code>wgtrace-view annotate</code> counts them (caches: {}; "
                  "per kernel, the most {} misses first).</p>\n",
                  htmlEscape(LevelText), Levels.empty() ? "" : Levels[0].Name);
  Out += "<table id=\"lines\"><thead><tr><th class=\"l\">kernel</th>"
         "<th class=\"l\">line</th><th>loads</th><th>stores</th>";
  for (const CacheLevel &L : Levels)
    Out += fmt::format("<th>{0}mr</th><th>{0}mw</th>", L.Name);
  Out += "<th class=\"l\">accesses</th></tr></thead><tbody>\n";
  for (size_t I = 0; I < Rows.size() && I < MaxLineRows; ++I) {
    const AnnotateTool::LineRow &L = *Rows[I].L;
    Out += fmt::format(
        "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td>"
        "<td>{}</td><td>{}</td>",
        htmlEscape(Rows[I].K->Name),
        htmlEscape(L.Where.known() ? L.Where.str() : "(no source line)"),
        L.C.Loads, L.C.Stores);
    for (size_t V = 0; V < Levels.size(); ++V)
      Out += fmt::format("<td>{}</td><td>{}</td>", L.C.LevelMisses[V].Read,
                         L.C.LevelMisses[V].Write);
    std::string Texts;
    for (const std::string &T : L.Texts)
      Texts += (Texts.empty() ? "" : ", ") + T;
    Out += fmt::format("<td class=\"l\"><code>{}</code></td></tr>\n",
                       htmlEscape(Texts));
  }
  Out += "</tbody></table>\n";
  if (Rows.size() > MaxLineRows)
    Out += fmt::format("<p class=\"note\" id=\"lines-more\">{} more lines "
                       "not shown.</p>\n",
                       Rows.size() - MaxLineRows);
  return Out;
}

std::string HtmlReportTool::hotSourceHtml() const {
  if (!Annotate)
    return {};
  std::string Out = fmt::format(
      "<h2>Hottest lines in their source</h2>\n<p class=\"note\">Per "
      "kernel, the {} lines with the most accesses, as <code>wgtrace-view "
      "annotate --top {} --context 2</code> shows them.</p>\n",
      HotLines, HotLines);
  constexpr uint32_t Context = 2;
  for (const AnnotateTool::Kernel &K : Annotate->kernels()) {
    std::vector<const AnnotateTool::LineRow *> Hot;
    for (const AnnotateTool::LineRow &L : K.Lines)
      if (L.Where.known())
        Hot.push_back(&L);
    // Ties in file order (K.Lines is).
    std::sort(Hot.begin(), Hot.end(), [](auto *A, auto *B) {
      return A->C.accesses() != B->C.accesses()
                 ? A->C.accesses() > B->C.accesses()
                 : A < B;
    });
    if (Hot.size() > HotLines)
      Hot.resize(HotLines);
    if (Hot.empty())
      continue;
    Out += fmt::format("<h3>{}</h3>\n<pre class=\"src\">", htmlEscape(K.Name));
    for (const AnnotateTool::LineRow *Row : Hot) {
      const SourceText *Text = Annotate->source(Row->Where.File);
      Out += fmt::format("<b>{}</b>  {} loads, {} stores",
                         htmlEscape(Row->Where.str()), Row->C.Loads,
                         Row->C.Stores);
      const std::vector<CacheLevel> &Levels = Annotate->levels();
      for (size_t V = 0; V < Levels.size(); ++V)
        Out += fmt::format(", {}mr {} {}mw {}", Levels[V].Name,
                           Row->C.LevelMisses[V].Read, Levels[V].Name,
                           Row->C.LevelMisses[V].Write);
      Out += "\n";
      const uint32_t Line = Row->Where.Line;
      for (uint32_t L = Line > Context ? Line - Context : 1;
           L <= Line + Context; ++L) {
        std::optional<StringRef> S = Text ? Text->line(L) : std::nullopt;
        if (!S && L != Line)
          continue;
        std::string Shown =
            S ? S->str()
              : "[no source] " +
                    (Row->Texts.empty() ? std::string() : Row->Texts.front());
        Out += fmt::format("{}{:>6} | {}\n", L == Line ? "&gt;" : " ", L,
                           htmlEscape(Shown));
      }
      Out += "\n";
    }
    Out += "</pre>\n";
  }
  return Out;
}

void HtmlReportTool::finish() {
  flushOpenCell();
  // A site's loads and stores are its workgroups'.
  for (const Workgroup &W : Workgroups) {
    Sites[W.Site].Loads += W.Counts.Loads;
    Sites[W.Site].Stores += W.Counts.Stores;
  }
  for (uint32_t Lane = 0; Lane < LaneColumnIndex.size(); ++Lane)
    flushColumn(Lane);
  if (!WindowLines.empty())
    WorkingSet.push_back(WindowLines.size());
  // The map's data needs nothing of the sections: it is written while
  // their thread may still be reading.
  const std::string Data = dataJson();
  if (WaitForSections)
    WaitForSections();
  const std::string Damage = damageHtml();
  ShowsDamage = !Damage.empty();
  writeHtmlReportPage(OS, Title, Damage, Data,
                      plotsHtml() + racesHtml() + linesHtml() +
                          hotSourceHtml());
  OS.flush();
}

} // namespace wgtrace::viewer
