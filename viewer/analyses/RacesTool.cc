//===- RacesTool.cc -------------------------------------------------------===//

#include "analyses/RacesTool.h"

#include "analyses/HugePages.h"
#include "analyses/RecyclePool.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <future>
#include <iterator>
#include <queue>
#include <tuple>

using namespace llvm;

namespace wgtrace::viewer {

void RacesTool::beginRing(const RingInfo &Info) {
  closeRun();
  // The previous ring's lists are gone: their memory may hold another.
  LastCritical = {};
  Meta = Info.Meta;
  if (Meta)
    CriticalNames.insert(Meta->CriticalNames.begin(),
                         Meta->CriticalNames.end());
}

uint32_t RacesTool::syncOf(const Record &R) {
  if (R.Atomic)
    return SyncAtomic;
  if (!R.Critical)
    return SyncPlain;
  ArrayRef<uint64_t> Names = R.CriticalNames;
  if (Names.empty())
    Names = ArrayRef<uint64_t>(R.CriticalName);
  // The decoder keeps one copy of each list per ring: accesses in a run
  // of one section give the same list, found without a search.
  if (Names.data() == LastCritical.data() &&
      Names.size() == LastCritical.size() && !R.CriticalNames.empty())
    return LastSync;
  auto It = CriticalIndex.find(Names);
  if (It == CriticalIndex.end()) {
    It = CriticalIndex
             .emplace(std::vector<uint64_t>(Names.begin(), Names.end()),
                      uint32_t(CriticalLists.size()))
             .first;
    CriticalLists.push_back(It->first);
  }
  LastCritical = R.CriticalNames;
  LastSync = SyncCritical + It->second;
  return LastSync;
}

bool RacesTool::synchronised(uint32_t X, uint32_t Y) const {
  if (X == SyncPlain || Y == SyncPlain)
    return false;
  if (X == Y)
    return true;
  if (X < SyncCritical || Y < SyncCritical)
    return false; // an atomic operation and a critical section
  const std::vector<uint64_t> &A = CriticalLists[X - SyncCritical];
  const std::vector<uint64_t> &B = CriticalLists[Y - SyncCritical];
  return std::any_of(A.begin(), A.end(), [&](uint64_t Name) {
    return std::find(B.begin(), B.end(), Name) != B.end();
  });
}

std::vector<std::string> RacesTool::criticalNames(uint32_t Sync) const {
  std::vector<std::string> Names;
  for (uint64_t Hash : CriticalLists[Sync - SyncCritical]) {
    auto It = CriticalNames.find(Hash);
    Names.push_back(It != CriticalNames.end() ? It->second
                                              : fmt::format("#{:016x}", Hash));
  }
  return Names;
}

void RacesTool::closeRun() {
  if (Open.Ranges)
    Open.Ranges->add(Open.Lo, Open.Hi);
  Open.Ranges = nullptr;
}

uint32_t RacesTool::newSource(uint32_t Site) {
  LastSite = Site;
  LastSourceMeta = Meta;
  auto [It, New] = SourceOf.try_emplace({Meta, Site}, 0);
  if (New) {
    const AccessSite *A = Meta ? Meta->accessSite(Site) : nullptr;
    std::string Label = A && A->Where.known() ? A->Where.str() : "";
    if (A && !A->Text.empty())
      Label += (Label.empty() ? "`" : " `") + A->Text + "`";
    if (Label.empty())
      Label = fmt::format("access site {}", Site);
    It->second = uint32_t(Sources.size());
    Sources.push_back(std::move(Label));
    SourceLines.push_back(A && A->Where.known() ? A->Where.str() : "");
    SourceThreadOwned.push_back(A && A->ThreadOwned);
  }
  LastSource = It->second;
  return It->second;
}

void RacesTool::record(const Record &R) {
  // The common case first, with nothing else in the way: the next access
  // of the open run.
  if (Open.Ranges && R.Workgroup &&
      (R.Tag == format::Tag::MemoryLoad || R.Tag == format::Tag::MemoryStore) &&
      R.Workgroup->Invocation == Open.Invocation && R.AccessSite == Open.Site &&
      R.Buffer == Open.Buffer && R.Memory.IsStore == Open.Write &&
      !R.Critical && uint32_t(R.Atomic) == Open.Sync) {
    const Interval I = accessRange(R.Memory.Address, R.Memory.Length);
    if (I.Lo == I.Hi)
      return; // a zero-length access touches no byte
    // What IntervalAccumulator::add would do to the run's last range.
    if (I.Lo >= Open.Lo && I.Lo <= Open.Hi) {
      Open.Hi = std::max(Open.Hi, I.Hi);
      return;
    }
    Open.Ranges->add(Open.Lo, Open.Hi);
    Open.Lo = I.Lo;
    Open.Hi = I.Hi;
    return;
  }
  recordOther(R);
}

void RacesTool::recordOther(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  if (R.Tag == format::Tag::Workgroup) {
    closeRun(); // PerWorkgroup may move
    uint32_t W = Tracker.workgroup(R, *Meta);
    if (W >= PerWorkgroup.size())
      PerWorkgroup.resize(W + 1);
    LastInvocation = R.Workgroup->Invocation;
    LastWorkgroup = W;
    return;
  }
  if (R.Tag == format::Tag::Value &&
      R.Value.Type == format::ValueType::Launch) {
    Tracker.launchNumber(R.Workgroup->Invocation, R.Value.Bits);
    return;
  }
  if (R.Tag == format::Tag::Value &&
      R.Value.Type == format::ValueType::ThreadStack) {
    const uint32_t W = Tracker.find(R.Workgroup->Invocation);
    if (W < PerWorkgroup.size())
      PerWorkgroup[W].OwnStack = format::threadStackRange(R.Value.Bits);
    return;
  }
  if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
    return;
  // Storage of a container local to the function that made the access:
  // the workgroup's own while it lives (a freed one's addresses may be
  // another workgroup's next).
  if (R.AccessSite && Meta && R.AccessSite <= Meta->AccessSites.size() &&
      Meta->AccessSites[R.AccessSite - 1].WorkgroupOwned)
    return;
  Interval I = accessRange(R.Memory.Address, R.Memory.Length);
  if (I.Lo == I.Hi)
    return; // a zero-length access touches no byte
  const bool Write = R.Memory.IsStore;
  const uint32_t Sync = syncOf(R);
  closeRun();
  if (R.Workgroup->Invocation != LastInvocation) {
    uint32_t W = Tracker.find(R.Workgroup->Invocation);
    if (W == UINT32_MAX)
      return;
    LastInvocation = R.Workgroup->Invocation;
    LastWorkgroup = W;
  }
  Accesses &A = PerWorkgroup[LastWorkgroup];
  const uint32_t Source = source(R.AccessSite);
  auto Same = [&](const AccessRun &Run) {
    return Run.Write == Write && Run.Sync == Sync && Run.Source == Source &&
           Run.Buffer == R.Buffer;
  };
  if (A.Last >= A.Runs.size() || !Same(A.Runs[A.Last])) {
    auto It = std::find_if(A.Runs.begin(), A.Runs.end(), Same);
    if (It == A.Runs.end()) {
      A.Runs.push_back({Write, Sync, Source, R.Buffer, IntervalAccumulator()});
      It = A.Runs.end() - 1;
    }
    A.Last = It - A.Runs.begin();
  }
  Open = {&A.Runs[A.Last].Ranges, I.Lo,     I.Hi,  R.Workgroup->Invocation,
          R.AccessSite,           R.Buffer, Write, Sync};
}

/// One access range of a launch as the sweep sees it.
struct SweptRange {
  Interval Range;
  uint32_t Workgroup;
  bool Write;
  uint32_t Sync;
  uint32_t Source;
  uint32_t Buffer;
  /// Storage of the running thread's own: its access site says so, or it
  /// lies in the thread's own stack (Accesses::OwnStack).
  bool ThreadOwned;
};

namespace {
struct EndsLater {
  bool operator()(const SweptRange &X, const SweptRange &Y) const {
    return X.Range.Hi > Y.Range.Hi;
  }
};
/// Active ranges of the sweep, the one ending first on top. Exposes the
/// container so that all of them can be visited.
struct ActiveSet
    : std::priority_queue<SweptRange, std::vector<SweptRange>, EndsLater> {
  const std::vector<SweptRange> &all() const { return c; }
  void expire(uint64_t Before) {
    while (!empty() && top().Range.Hi <= Before)
      pop();
  }
};
/// A race group while a launch is swept.
struct Group {
  RacesTool::Race Rc;
  IntervalAccumulator Overlaps;
  DenseSet<uint64_t> Pairs, WriteWrite, ReadWrite;
};
} // namespace

RacesTool::LaunchRaces RacesTool::detect(uint32_t LaunchIndex,
                                         std::vector<SweptRange> &All) {
  const LaunchTracker::Launch &L = Tracker.launches()[LaunchIndex];
  // Sized first: grown by doubling, the vector of a launch's ranges was
  // copied into fresh pages again and again, and those page faults were
  // most of the sweep's system time (and cost two threads more than one).
  // The buffer of the launches swept before serves again (finish()), and
  // huge pages fault in the rest 2 MiB at a time.
  auto EachRun = [&](auto Visit) {
    for (uint32_t Local : L.Locals)
      for (uint32_t W : Tracker.locals()[Local].Workgroups) {
        if (W >= PerWorkgroup.size())
          continue;
        for (AccessRun &Run : PerWorkgroup[W].Runs)
          Visit(W, Run);
      }
  };
  size_t Ranges = 0;
  EachRun(
      [&](uint32_t, AccessRun &Run) { Ranges += Run.Ranges.ranges().size(); });
  All.clear();
  All.reserve(Ranges);
  adviseHugePages(All.data(), All.capacity() * sizeof(SweptRange));
  EachRun([&](uint32_t W, AccessRun &Run) {
    const format::ThreadStackRange Own = PerWorkgroup[W].OwnStack;
    for (const Interval &I : Run.Ranges.ranges())
      All.push_back({I, W, Run.Write, Run.Sync, Run.Source, Run.Buffer,
                     SourceThreadOwned[Run.Source] ||
                         (I.Lo >= Own.Lo && I.Hi <= Own.Hi)});
  });
  std::sort(All.begin(), All.end(),
            [](const SweptRange &X, const SweptRange &Y) {
              return X.Range.Lo < Y.Range.Lo;
            });

  const std::vector<LaunchTracker::Workgroup> &Workgroups =
      Tracker.workgroups();
  DenseSet<uint64_t> LaunchPairs;
  DenseMap<std::pair<uint64_t, uint64_t>, size_t> GroupIndex;
  std::vector<Group> Groups;
  auto Report = [&](const SweptRange &X, const SweptRange &Y) {
    if (X.Workgroup == Y.Workgroup || (!X.Write && !Y.Write) ||
        synchronised(X.Sync, Y.Sync))
      return;
    // Storage of the thread's own (a per-thread histogram, a threadprivate
    // array, a local array of a function the region calls): one thread's
    // iterations take turns at it; had another thread run one of them, it
    // would have used that thread's.
    if (X.ThreadOwned && Y.ThreadOwned &&
        Workgroups[X.Workgroup].ProcessorId ==
            Workgroups[Y.Workgroup].ProcessorId)
      return;
    const uint64_t Pair = (uint64_t(std::min(X.Workgroup, Y.Workgroup)) << 32) |
                          std::max(X.Workgroup, Y.Workgroup);
    LaunchPairs.insert(Pair);
    // Side A writes; between two writers, the lower source (then the lower
    // workgroup) first.
    const SweptRange *A = &X, *B = &Y;
    if (!A->Write || (B->Write && std::tie(B->Source, B->Workgroup) <
                                      std::tie(A->Source, A->Workgroup)))
      std::swap(A, B);
    // Accesses of one source are mostly of one class, but those without
    // an access site (source 0) may be of any: apart.
    const std::pair<uint64_t, uint64_t> Key{
        (uint64_t(A->Source) << 32) | A->Sync,
        (uint64_t(B->Source) << 32) | B->Sync};
    Interval Overlap{std::max(A->Range.Lo, B->Range.Lo),
                     std::min(A->Range.Hi, B->Range.Hi)};
    auto [It, New] = GroupIndex.try_emplace(Key, Groups.size());
    if (New) {
      Group G;
      G.Rc.Launch = LaunchIndex;
      G.Rc.SourceA = A->Source;
      G.Rc.SourceB = B->Source;
      G.Rc.WriteB = B->Write;
      G.Rc.AtomicA = A->Sync == SyncAtomic;
      G.Rc.AtomicB = B->Sync == SyncAtomic;
      if (A->Sync >= SyncCritical) {
        G.Rc.EnclosingA = criticalNames(A->Sync);
        G.Rc.CriticalA = G.Rc.EnclosingA.back();
        G.Rc.EnclosingA.pop_back();
      }
      if (B->Sync >= SyncCritical) {
        G.Rc.EnclosingB = criticalNames(B->Sync);
        G.Rc.CriticalB = G.Rc.EnclosingB.back();
        G.Rc.EnclosingB.pop_back();
      }
      G.Rc.Buffer = A->Buffer != kNoBuffer ? A->Buffer : B->Buffer;
      G.Rc.A = A->Workgroup;
      G.Rc.B = B->Workgroup;
      G.Rc.AccessA = A->Range;
      G.Rc.AccessB = B->Range;
      Groups.push_back(std::move(G));
    }
    Group &G = Groups[It->second];
    G.Overlaps.add(Overlap.Lo, Overlap.Hi);
    G.Pairs.insert(Pair);
    (A->Write && B->Write ? G.WriteWrite : G.ReadWrite).insert(Pair);
  };

  // Sweep by address. Every range still active when a range starts
  // overlaps it (it started no later and ends after this start), so each
  // comparison below is a real overlap; reads are never compared with
  // reads, and atomic accesses never with atomic ones (they are
  // synchronised), which keeps shared read-only inputs and atomic counters
  // cheap. Accesses inside critical sections are compared with everything
  // (Report leaves out those of sections of the same name).
  ActiveSet Reads, Writes, AtomicReads, AtomicWrites, CriticalReads,
      CriticalWrites;
  for (const SweptRange &X : All) {
    for (ActiveSet *Set : {&Reads, &Writes, &AtomicReads, &AtomicWrites,
                           &CriticalReads, &CriticalWrites})
      Set->expire(X.Range.Lo);
    for (const SweptRange &Y : Writes.all())
      Report(X, Y);
    for (const SweptRange &Y : CriticalWrites.all())
      Report(X, Y);
    if (X.Write) {
      for (const SweptRange &Y : Reads.all())
        Report(X, Y);
      for (const SweptRange &Y : CriticalReads.all())
        Report(X, Y);
    }
    if (X.Sync != SyncAtomic) {
      for (const SweptRange &Y : AtomicWrites.all())
        Report(X, Y);
      if (X.Write)
        for (const SweptRange &Y : AtomicReads.all())
          Report(X, Y);
    }
    if (X.Sync == SyncAtomic)
      (X.Write ? AtomicWrites : AtomicReads).push(X);
    else if (X.Sync >= SyncCritical)
      (X.Write ? CriticalWrites : CriticalReads).push(X);
    else
      (X.Write ? Writes : Reads).push(X);
  }

  LaunchRaces Result;
  std::vector<Race> &Found = Result.Found;
  for (Group &G : Groups) {
    Race &Rc = G.Rc;
    Rc.Ranges = G.Overlaps.ranges();
    Rc.Overlap = Rc.Ranges.front();
    for (const Interval &I : Rc.Ranges)
      Rc.Bytes += I.Hi - I.Lo;
    Rc.Pairs = G.Pairs.size();
    Rc.WriteWritePairs = G.WriteWrite.size();
    Rc.ReadWritePairs = G.ReadWrite.size();
    Rc.K = Rc.WriteWritePairs ? Kind::WriteWrite : Kind::ReadWrite;
    Found.push_back(std::move(Rc));
  }
  std::sort(Found.begin(), Found.end(), [](const Race &X, const Race &Y) {
    return std::tie(X.Overlap.Lo, X.SourceA, X.SourceB) <
           std::tie(Y.Overlap.Lo, Y.SourceA, Y.SourceB);
  });
  Result.Pairs = LaunchPairs.size();
  return Result;
}

void RacesTool::keep(LaunchRaces Launch) {
  RaceCount += Launch.Pairs;
  GroupCount += Launch.Found.size();
  // Without a column the first groups by launch and address are listed;
  // with one, each launch's groups are merged into the listed ones (a
  // stable sort: ties keep launch order) and the rest dropped, so memory
  // stays bounded by the groups listed.
  const uint64_t Keep = Order.Top ? std::min(Limit, Order.Top) : Limit;
  for (Race &Rc : Launch.Found) {
    if (Order.Column.empty() && Races.size() >= Keep)
      break;
    Races.push_back(std::move(Rc));
  }
  if (!Order.Column.empty()) {
    uint64_t Race::*Field = columnField(Order.Column);
    RowOrder{Order.Column, Keep}.apply(
        Races, [Field](const Race &Rc) { return Rc.*Field; });
  }
}

namespace {
const char *const kRaceColumns[] = {"pairs", "write_write_pairs",
                                    "read_write_pairs", "overlap_bytes"};
} // namespace

ArrayRef<const char *> RacesTool::columns() { return kRaceColumns; }

uint64_t RacesTool::Race::*RacesTool::columnField(StringRef Column) {
  static constexpr uint64_t Race::*Fields[] = {
      &Race::Pairs, &Race::WriteWritePairs, &Race::ReadWritePairs,
      &Race::Bytes};
  static_assert(std::size(Fields) == std::size(kRaceColumns));
  for (size_t I = 0; I < std::size(kRaceColumns); ++I)
    if (Column == kRaceColumns[I])
      return Fields[I];
  return nullptr;
}

std::unique_ptr<AnalysisTool> RacesTool::newShard() const {
  return std::make_unique<RacesTool>(nulls(), Json, Limit);
}

void RacesTool::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  RacesTool &From = static_cast<RacesTool &>(Shard);
  From.closeRun();
  CriticalNames.insert(From.CriticalNames.begin(), From.CriticalNames.end());
  // Its sources and critical-section lists in the order it met them, after
  // those met here.
  std::vector<std::pair<const Metadata *, uint32_t>> SiteOf(
      From.Sources.size());
  for (const auto &[Key, Index] : From.SourceOf)
    SiteOf[Index] = Key;
  std::vector<uint32_t> SourceHere(From.Sources.size(), 0);
  for (uint32_t I = 1; I < From.Sources.size(); ++I) {
    auto [It, New] = SourceOf.try_emplace(SiteOf[I], uint32_t(Sources.size()));
    if (New) {
      Sources.push_back(From.Sources[I]);
      SourceLines.push_back(From.SourceLines[I]);
      SourceThreadOwned.push_back(From.SourceThreadOwned[I]);
    }
    SourceHere[I] = It->second;
  }
  std::vector<uint32_t> ListHere;
  for (const std::vector<uint64_t> &List : From.CriticalLists) {
    auto It = CriticalIndex.find(List);
    if (It == CriticalIndex.end()) {
      It = CriticalIndex.emplace(List, uint32_t(CriticalLists.size())).first;
      CriticalLists.push_back(List);
    }
    ListHere.push_back(It->second);
  }
  const std::vector<uint32_t> Here =
      Tracker.merge(From.Tracker, Place.FirstInvocation);
  for (uint32_t W = 0; W < Here.size(); ++W) {
    if (Here[W] >= PerWorkgroup.size())
      PerWorkgroup.resize(Here[W] + 1);
    if (W >= From.PerWorkgroup.size())
      continue;
    Accesses &To = PerWorkgroup[Here[W]];
    To = std::move(From.PerWorkgroup[W]);
    for (AccessRun &Run : To.Runs) {
      Run.Source = SourceHere[Run.Source];
      if (Run.Sync >= SyncCritical)
        Run.Sync = SyncCritical + ListHere[Run.Sync - SyncCritical];
      if (Run.Buffer != kNoBuffer)
        Run.Buffer = Place.Buffers[Run.Buffer];
    }
  }
}

void RacesTool::finish() {
  closeRun();
  Tracker.assemble();
  const uint32_t Launches = Tracker.launches().size();
  // The buffers of the launches' ranges, kept from launch to launch: one
  // per thread sweeping.
  RecyclePool<std::vector<SweptRange>> Buffers;
  auto Sweep = [this, &Buffers](uint32_t L) {
    std::vector<SweptRange> All = Buffers.take();
    LaunchRaces Found = detect(L, All);
    Buffers.give(std::move(All));
    return Found;
  };
  if (Threads == 1 || Launches < 2) {
    for (uint32_t L = 0; L < Launches; ++L)
      keep(Sweep(L));
  } else {
    // Launches share no workgroup: each is swept on a thread of its own,
    // and kept in launch order. At most twice the threads' launches wait.
    DefaultThreadPool Pool(hardware_concurrency(Threads));
    const uint32_t Window = 2 * Pool.getMaxConcurrency();
    std::vector<LaunchRaces> Found(Launches);
    std::vector<std::shared_future<void>> Done(Launches);
    uint32_t Next = 0;
    for (uint32_t L = 0; L < Launches; ++L) {
      for (; Next < Launches && Next < L + Window; ++Next)
        Done[Next] =
            Pool.async([&Found, &Sweep, Next] { Found[Next] = Sweep(Next); });
      Done[L].wait();
      keep(std::move(Found[L]));
      Found[L] = LaunchRaces();
    }
  }
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

std::string RacesTool::bufferText(const Race &Rc) const {
  if (Rc.Buffer == kNoBuffer || !Census || Rc.Buffer >= Census->Buffers.size())
    return {};
  const BufferInfo &B = Census->Buffers[Rc.Buffer];
  return fmt::format(" in {}+{:#x}", Census->bufferLabel(Rc.Buffer),
                     Rc.Overlap.Lo - B.Base);
}

void RacesTool::printText() {
  const auto &Launches = Tracker.launches();
  OS << runHeader(Census);
  OS << fmt::format("{} racing workgroup pair{} in {} launch{} of {} "
                    "dispatch site{}\n",
                    RaceCount, RaceCount == 1 ? "" : "s", Launches.size(),
                    Launches.size() == 1 ? "" : "es", Tracker.sites().size(),
                    Tracker.sites().size() == 1 ? "" : "s");
  uint32_t Shown = UINT32_MAX;
  auto Side = [&](const char *Kind, uint32_t Source) {
    const std::string &S = Sources[Source];
    return fmt::format("{} {}", Kind, S.empty() ? "(no access site)" : S);
  };
  for (const Race &Rc : Races) {
    const LaunchTracker::Launch &L = Launches[Rc.Launch];
    const LaunchTracker::Site &S = Tracker.sites()[L.SiteKey];
    if (Rc.Launch != Shown) {
      Shown = Rc.Launch;
      OS << fmt::format("\ndispatch site {}: {}{}, launch {} (grid {}x{}x{})\n",
                        S.Id, S.Function,
                        S.Location.empty() ? "" : " at " + S.Location,
                        L.Ordinal, L.Grid[0], L.Grid[1], L.Grid[2]);
    }
    const auto &A = Tracker.workgroups()[Rc.A];
    const auto &B = Tracker.workgroups()[Rc.B];
    std::string Ranges;
    for (size_t I = 0; I < Rc.Ranges.size() && I < 4; ++I)
      Ranges += fmt::format("{}{:#x}+{}", I ? ", " : "", Rc.Ranges[I].Lo,
                            Rc.Ranges[I].Hi - Rc.Ranges[I].Lo);
    if (Rc.Ranges.size() > 4)
      Ranges += fmt::format(", ... {} more", Rc.Ranges.size() - 4);
    OS << fmt::format("  {} {} ({} byte{}{}): {} workgroup pair{} ({} "
                      "write-write, {} read-write)\n",
                      Rc.K == Kind::WriteWrite ? "write-write" : "read-write",
                      Ranges, Rc.Bytes, Rc.Bytes == 1 ? "" : "s",
                      bufferText(Rc), Rc.Pairs, Rc.Pairs == 1 ? "" : "s",
                      Rc.WriteWritePairs, Rc.ReadWritePairs);
    // Side B wrote in the write-write pairs, read in the read-write ones.
    const char *KindB = Rc.WriteWritePairs && Rc.ReadWritePairs ? "load/store"
                        : Rc.WriteWritePairs                    ? "store"
                                                                : "load";
    auto Sync = [](bool Atomic, const std::optional<std::string> &Critical,
                   const std::vector<std::string> &Enclosing) {
      if (Atomic)
        return std::string("atomic ");
      if (!Critical)
        return std::string();
      std::string Text;
      auto Add = [&](const std::string &Name) {
        Text += Name.empty() ? std::string("unnamed-critical ")
                             : fmt::format("critical({}) ", Name);
      };
      for (const std::string &Name : Enclosing)
        Add(Name);
      Add(*Critical);
      return Text;
    };
    const std::string AtomicA = Sync(Rc.AtomicA, Rc.CriticalA, Rc.EnclosingA);
    const std::string AtomicB = Sync(Rc.AtomicB, Rc.CriticalB, Rc.EnclosingB);
    OS << fmt::format("    {}{}  vs  {}{}\n", AtomicA,
                      Side("store", Rc.SourceA), AtomicB,
                      Side(KindB, Rc.SourceB));
    OS << fmt::format("    e.g. {} (pid {}, {}{} {:#x}+{}) and {} (pid {}, "
                      "{}{} {:#x}+{})\n",
                      idText(A), A.ProcessorId, AtomicA, "store", Rc.AccessA.Lo,
                      Rc.AccessA.Hi - Rc.AccessA.Lo, idText(B), B.ProcessorId,
                      AtomicB, Rc.WriteB ? "store" : "load", Rc.AccessB.Lo,
                      Rc.AccessB.Hi - Rc.AccessB.Lo);
  }
  if (GroupCount > Races.size())
    OS << "\n"
       << omittedText(GroupCount - Races.size(), "groups of racing accesses",
                      /*Indent=*/0, "--limit, --top");
  OS << censusText(Census);
}

void RacesTool::printJson() {
  const auto &Launches = Tracker.launches();
  auto Side = [&](uint32_t W, bool Write, bool Atomic,
                  const std::optional<std::string> &Critical,
                  const std::vector<std::string> &Enclosing, uint32_t Source,
                  const Interval &I) {
    const auto &WG = Tracker.workgroups()[W];
    json::Object Access{{"kind", Write ? "store" : "load"},
                        {"atomic", Atomic},
                        {"address", I.Lo},
                        {"size", I.Hi - I.Lo}};
    // The critical section's name ("" for the unnamed one), null outside.
    Access["critical"] =
        Critical ? json::Value(*Critical) : json::Value(nullptr);
    // The sections around it, outermost first (an access in one of their
    // names on the other side would not race).
    json::Array Around;
    for (const std::string &Name : Enclosing)
      Around.push_back(Name);
    Access["enclosing_critical"] = std::move(Around);
    return json::Object{{"id", json::Array{WG.Id[0], WG.Id[1], WG.Id[2]}},
                        {"pid", WG.ProcessorId},
                        {"source", Sources[Source]},
                        {"access", std::move(Access)}};
  };
  json::Array List;
  for (const Race &Rc : Races) {
    const LaunchTracker::Launch &L = Launches[Rc.Launch];
    const LaunchTracker::Site &S = Tracker.sites()[L.SiteKey];
    json::Array Ranges;
    for (const Interval &I : Rc.Ranges)
      Ranges.push_back(json::Array{I.Lo, I.Hi - I.Lo});
    json::Object O{{"kind", kindName(Rc.K)},
                   {"site", S.Id},
                   {"function", S.Function},
                   {"location", S.Location},
                   {"launch", L.Ordinal},
                   {"grid", json::Array{L.Grid[0], L.Grid[1], L.Grid[2]}},
                   {"address", Rc.Overlap.Lo},
                   {"size", Rc.Overlap.Hi - Rc.Overlap.Lo},
                   {"ranges", std::move(Ranges)},
                   {"overlap_bytes", Rc.Bytes},
                   {"pairs", Rc.Pairs},
                   {"write_write_pairs", Rc.WriteWritePairs},
                   {"read_write_pairs", Rc.ReadWritePairs},
                   {"a", Side(Rc.A, true, Rc.AtomicA, Rc.CriticalA,
                              Rc.EnclosingA, Rc.SourceA, Rc.AccessA)},
                   {"b", Side(Rc.B, Rc.WriteB, Rc.AtomicB, Rc.CriticalB,
                              Rc.EnclosingB, Rc.SourceB, Rc.AccessB)}};
    if (Rc.Buffer != kNoBuffer && Census &&
        Rc.Buffer < Census->Buffers.size()) {
      O["buffer"] = Census->bufferLabel(Rc.Buffer);
      O["buffer_offset"] = Rc.Overlap.Lo - Census->Buffers[Rc.Buffer].Base;
    }
    List.push_back(std::move(O));
  }
  OmittedRows Omitted{"listed"};
  Omitted.add("listed", GroupCount - Races.size());
  json::Value Root = json::Object{
      {"schema", "wgtrace-races/1"}, {"races", RaceCount},
      {"groups", GroupCount},        {"launches", uint64_t(Launches.size())},
      {"run", runJson(Census)},      {"selection", selectionJson(Census)},
      {"loss", censusJson(Census)},  {"listed", std::move(List)},
      {"omitted", Omitted.json()}};
  OS << formatv("{0:2}", Root) << "\n";
}

} // namespace wgtrace::viewer
