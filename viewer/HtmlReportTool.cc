//===- HtmlReportTool.cc --------------------------------------------------===//

#include "HtmlReportTool.h"

#include "Metadata.h"

#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>

using namespace llvm;

namespace wgtrace::viewer {

void HtmlReportTool::beginRing(const RingInfo &Info) { Meta = Info.Meta; }

uint32_t HtmlReportTool::segmentOf(uint64_t Address) const {
  auto It =
      std::upper_bound(Segments.begin(), Segments.end(), Address,
                       [](uint64_t A, const Interval &S) { return A < S.Lo; });
  return It == Segments.begin() ? 0 : uint32_t(It - Segments.begin() - 1);
}

void HtmlReportTool::record(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  const bool IsAccess =
      R.Tag == format::Tag::MemoryLoad || R.Tag == format::Tag::MemoryStore;
  if (Pass == 0) {
    if (IsAccess) {
      ++Total;
      Interval I = accessRange(R.Memory.Address, std::max(R.Memory.Length, 1u));
      Touched.add(I.Lo, I.Hi);
    }
    return;
  }
  const uint64_t Index = RecordIndex++;
  auto Known = ByInvocation.find(R.Workgroup->Invocation);
  if (R.Tag == format::Tag::Workgroup && Known == ByInvocation.end()) {
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
    W.FirstRecord = W.LastRecord = Index;
    ByInvocation[R.Workgroup->Invocation] = Workgroups.size();
    Workgroups.push_back(W);
    return;
  }
  if (Known == ByInvocation.end())
    return;
  const uint32_t WI = Known->second;
  Workgroup &W = Workgroups[WI];
  W.LastRecord = Index;
  W.Counts.count(R);
  if (!IsAccess)
    return;
  ++(R.Memory.IsStore ? Sites[W.Site].Stores : Sites[W.Site].Loads);
  if (AccessIndex++ % Step != 0)
    return;
  uint32_t Segment = segmentOf(R.Memory.Address);
  PointX.push_back(Index);
  PointSegment.push_back(Segment);
  PointOffset.push_back(R.Memory.Address - Segments[Segment].Lo);
  PointLengthKind.push_back(R.Memory.Length * 2 + (R.Memory.IsStore ? 1 : 0));
  PointWorkgroup.push_back(WI);
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

bool HtmlReportTool::anotherPass() {
  if (Pass > 0)
    return false;
  Pass = 1;
  Segments = Touched.ranges();
  Touched = IntervalAccumulator(SegmentGap);
  Step =
      MaxPoints && Total > MaxPoints ? (Total + MaxPoints - 1) / MaxPoints : 1;
  uint64_t Expected = Total / Step + 1;
  PointX.reserve(Expected);
  PointOffset.reserve(Expected);
  PointSegment.reserve(Expected);
  PointLengthKind.reserve(Expected);
  PointWorkgroup.reserve(Expected);
  return true;
}

std::string HtmlReportTool::dataJson() const {
  std::string Out;
  raw_string_ostream OS(Out);
  json::OStream J(OS);
  auto Numbers = [&](const auto &V, bool Delta) {
    J.array([&] {
      uint64_t Previous = 0;
      for (uint64_t X : V) {
        // Deltas keep the common case (next record, same segment) short.
        J.value(Delta ? int64_t(X - Previous) : int64_t(X));
        Previous = X;
      }
    });
  };
  J.object([&] {
    J.attribute("title", Title);
    J.attribute("total_accesses", Total);
    J.attribute("shown", uint64_t(PointX.size()));
    J.attribute("step", Step);
    J.attribute("records", RecordIndex);
    // What wrapped rings lost and what the rewriter could not trace, as
    // every other view says it.
    J.attribute("loss", censusJson(Census));
    J.attribute("loss_text", Census ? lossText(*Census) + untracedText(*Census)
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
    //  prints, first record, last record, start us, end us | null]
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
        });
    });
    // Addresses as hex strings: they may exceed a double's 53 bits.
    J.attributeArray("segments", [&] {
      for (const Interval &S : Segments)
        J.array([&] {
          J.value(fmt::format("{:x}", S.Lo));
          J.value(S.Hi - S.Lo);
        });
    });
    J.attributeObject("points", [&] {
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
    });
  });
  OS.flush();
  // Inside <script>, "</script" or "<!--" in a string would end or confuse
  // the element; "<\/" is the same JSON string.
  std::string Safe;
  Safe.reserve(Out.size());
  for (size_t I = 0; I < Out.size(); ++I) {
    if (Out[I] == '<' && I + 1 < Out.size() &&
        (Out[I + 1] == '/' || Out[I + 1] == '!')) {
      Safe += "\\u003c";
      continue;
    }
    Safe += Out[I];
  }
  return Safe;
}

void HtmlReportTool::finish() {
  OS << htmlReportPage(Title, dataJson());
  OS.flush();
}

} // namespace wgtrace::viewer
