//===- RacesTool.cc -------------------------------------------------------===//

#include "RacesTool.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>
#include <queue>
#include <tuple>

using namespace llvm;

namespace wgtrace::viewer {

void RacesTool::beginRing(const RingInfo &Info) { Meta = Info.Meta; }

void RacesTool::record(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  if (R.Tag == format::Tag::Workgroup) {
    uint32_t W = Tracker.workgroup(R, *Meta);
    if (W >= PerWorkgroup.size())
      PerWorkgroup.resize(W + 1);
    LastInvocation = R.Workgroup->Invocation;
    LastWorkgroup = W;
    return;
  }
  if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
    return;
  Interval I = accessRange(R.Memory.Address, R.Memory.Length);
  if (I.Lo == I.Hi)
    return; // a zero-length access touches no byte
  if (R.Workgroup->Invocation != LastInvocation) {
    uint32_t W = Tracker.find(R.Workgroup->Invocation);
    if (W == UINT32_MAX)
      return;
    LastInvocation = R.Workgroup->Invocation;
    LastWorkgroup = W;
  }
  Accesses &A = PerWorkgroup[LastWorkgroup];
  (R.Memory.IsStore ? A.Stores : A.Loads).add(I.Lo, I.Hi);
}

namespace {
struct Tagged {
  Interval Range;
  uint32_t Workgroup;
  bool Write;
};
struct EndsLater {
  bool operator()(const Tagged &X, const Tagged &Y) const {
    return X.Range.Hi > Y.Range.Hi;
  }
};
/// Active ranges of the sweep, the one ending first on top. Exposes the
/// container so that all of them can be visited.
struct ActiveSet : std::priority_queue<Tagged, std::vector<Tagged>, EndsLater> {
  const std::vector<Tagged> &all() const { return c; }
  void expire(uint64_t Before) {
    while (!empty() && top().Range.Hi <= Before)
      pop();
  }
};
} // namespace

void RacesTool::detect(uint32_t LaunchIndex) {
  const LaunchTracker::Launch &L = Tracker.launches()[LaunchIndex];
  std::vector<Tagged> All;
  for (uint32_t Local : L.Locals)
    for (uint32_t W : Tracker.locals()[Local].Workgroups) {
      if (W >= PerWorkgroup.size())
        continue;
      // A stream-mode copy shares its workgroup's slot: visit it once.
      if (Tracker.workgroups()[W].Local != Local)
        continue;
      for (const Interval &I : PerWorkgroup[W].Loads.ranges())
        All.push_back({I, W, false});
      for (const Interval &I : PerWorkgroup[W].Stores.ranges())
        All.push_back({I, W, true});
    }
  std::sort(All.begin(), All.end(), [](const Tagged &X, const Tagged &Y) {
    return X.Range.Lo < Y.Range.Lo;
  });

  DenseMap<std::tuple<uint32_t, uint32_t, int>, size_t> PairIndex;
  std::vector<Race> Found;
  auto Report = [&](const Tagged &X, const Tagged &Y) {
    if (X.Workgroup == Y.Workgroup || (!X.Write && !Y.Write))
      return;
    Kind K = X.Write && Y.Write ? Kind::WriteWrite : Kind::ReadWrite;
    // A is the writer of a read-write pair, else the lower workgroup.
    const Tagged *A = &X, *B = &Y;
    if (K == Kind::ReadWrite ? !A->Write : A->Workgroup > B->Workgroup)
      std::swap(A, B);
    Interval Overlap{std::max(A->Range.Lo, B->Range.Lo),
                     std::min(A->Range.Hi, B->Range.Hi)};
    auto [It, New] = PairIndex.try_emplace({A->Workgroup, B->Workgroup, int(K)},
                                           Found.size());
    if (New) {
      Race Rc;
      Rc.K = K;
      Rc.Launch = LaunchIndex;
      Rc.A = A->Workgroup;
      Rc.B = B->Workgroup;
      Rc.Overlap = Overlap;
      Rc.AccessA = A->Range;
      Rc.AccessB = B->Range;
      Found.push_back(Rc);
    }
    Found[It->second].Bytes += Overlap.Hi - Overlap.Lo;
  };

  // Sweep by address. Every range still active when a range starts
  // overlaps it (it started no later and ends after this start), so each
  // comparison below is a real overlap; reads are never compared with
  // reads, which keeps shared read-only inputs cheap.
  ActiveSet Reads, Writes;
  for (const Tagged &X : All) {
    Reads.expire(X.Range.Lo);
    Writes.expire(X.Range.Lo);
    for (const Tagged &Y : Writes.all())
      Report(X, Y);
    if (X.Write)
      for (const Tagged &Y : Reads.all())
        Report(X, Y);
    (X.Write ? Writes : Reads).push(X);
  }

  std::sort(Found.begin(), Found.end(), [](const Race &X, const Race &Y) {
    return std::tie(X.Overlap.Lo, X.A, X.B) < std::tie(Y.Overlap.Lo, Y.A, Y.B);
  });
  RaceCount += Found.size();
  for (const Race &Rc : Found) {
    if (Races.size() >= Limit)
      break;
    Races.push_back(Rc);
  }
}

void RacesTool::finish() {
  Tracker.assemble();
  for (uint32_t L = 0; L < Tracker.launches().size(); ++L)
    detect(L);
  if (Json)
    printJson();
  else
    printText();
  OS.flush();
}

static const char *kindName(RacesTool::Kind K) {
  return K == RacesTool::Kind::WriteWrite ? "write-write" : "read-write";
}

static std::string idText(const LaunchTracker::Workgroup &W) {
  return fmt::format("{},{},{}", W.Id[0], W.Id[1], W.Id[2]);
}

void RacesTool::printText() {
  const auto &Launches = Tracker.launches();
  OS << fmt::format("{} racing workgroup pair{} in {} launch{} of {} "
                    "dispatch site{}\n",
                    RaceCount, RaceCount == 1 ? "" : "s", Launches.size(),
                    Launches.size() == 1 ? "" : "es", Tracker.sites().size(),
                    Tracker.sites().size() == 1 ? "" : "s");
  uint32_t Shown = UINT32_MAX;
  for (const Race &Rc : Races) {
    const LaunchTracker::Launch &L = Launches[Rc.Launch];
    const LaunchTracker::Site &S = Tracker.sites()[L.SiteKey];
    if (Rc.Launch != Shown) {
      Shown = Rc.Launch;
      OS << fmt::format("\ndispatch site {}: {}{}, launch {} (grid {}x{}x{})\n",
                        S.Id, S.Function,
                        S.Location.empty() ? "" : " at " + S.Location,
                        L.Ordinal, L.Grid[0], L.Grid[1], L.Grid[2]);
      OS << fmt::format("  {:<11} {:>18} {:>8}  {:<14} {:>4} {:<30}  {:<14} "
                        "{:>4} {}\n",
                        "kind", "address", "bytes", "workgroup A", "pid",
                        "access A", "workgroup B", "pid", "access B");
    }
    const auto &A = Tracker.workgroups()[Rc.A];
    const auto &B = Tracker.workgroups()[Rc.B];
    auto Access = [](bool Write, const Interval &I) {
      return fmt::format("{} {:#x}+{}", Write ? "store" : "load", I.Lo,
                         I.Hi - I.Lo);
    };
    OS << fmt::format("  {:<11} {:>#18x} {:>8}  {:<14} {:>4} {:<30}  {:<14} "
                      "{:>4} {}\n",
                      kindName(Rc.K), Rc.Overlap.Lo, Rc.Bytes, idText(A),
                      A.ProcessorId, Access(true, Rc.AccessA), idText(B),
                      B.ProcessorId,
                      Access(Rc.K == Kind::WriteWrite, Rc.AccessB));
  }
  if (RaceCount > Races.size())
    OS << fmt::format("\n... {} more pairs not shown (--limit)\n",
                      RaceCount - Races.size());
  OS << censusText(Census);
}

void RacesTool::printJson() {
  const auto &Launches = Tracker.launches();
  auto Wg = [&](uint32_t I) {
    const auto &W = Tracker.workgroups()[I];
    return json::Object{{"id", json::Array{W.Id[0], W.Id[1], W.Id[2]}},
                        {"pid", W.ProcessorId}};
  };
  auto Access = [](bool Write, const Interval &I) {
    return json::Object{{"kind", Write ? "store" : "load"},
                        {"address", I.Lo},
                        {"size", I.Hi - I.Lo}};
  };
  json::Array List;
  for (const Race &Rc : Races) {
    const LaunchTracker::Launch &L = Launches[Rc.Launch];
    const LaunchTracker::Site &S = Tracker.sites()[L.SiteKey];
    json::Object A = Wg(Rc.A), B = Wg(Rc.B);
    A["access"] = Access(true, Rc.AccessA);
    B["access"] = Access(Rc.K == Kind::WriteWrite, Rc.AccessB);
    List.push_back(
        json::Object{{"kind", kindName(Rc.K)},
                     {"site", S.Id},
                     {"function", S.Function},
                     {"location", S.Location},
                     {"launch", L.Ordinal},
                     {"grid", json::Array{L.Grid[0], L.Grid[1], L.Grid[2]}},
                     {"address", Rc.Overlap.Lo},
                     {"size", Rc.Overlap.Hi - Rc.Overlap.Lo},
                     {"overlap_bytes", Rc.Bytes},
                     {"a", std::move(A)},
                     {"b", std::move(B)}});
  }
  json::Value Root = json::Object{{"races", RaceCount},
                                  {"launches", uint64_t(Launches.size())},
                                  {"loss", censusJson(Census)},
                                  {"listed", std::move(List)}};
  OS << formatv("{0:2}", Root) << "\n";
}

} // namespace wgtrace::viewer
