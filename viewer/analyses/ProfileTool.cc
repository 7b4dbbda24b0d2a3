//===- ProfileTool.cc -----------------------------------------------------===//

#include "analyses/ProfileTool.h"

#include <fmt/format.h>

using namespace llvm;

namespace wgtrace::viewer {

void ProfileTool::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
  if (IsShard)
    Keeper.beginRing(Info, /*WithKeys=*/false);
  Repeatable = false;
  LastInvocation = UINT64_MAX;
  LastLineFrom = UINT64_MAX;
}

uint32_t ProfileTool::id(Dimension D, const Record &R) {
  uint64_t From = 0;
  const Metadata *Scope = Meta;
  switch (D) {
  case Kernel:
    From = Meta->SiteFunctions[R.Workgroup->Record.DispatchId];
    break;
  case Site:
    From = R.Workgroup->Record.DispatchId;
    break;
  case Buffer:
    From = R.Buffer;
    Scope = nullptr;
    break;
  case Line:
    From = R.AccessSite;
    break;
  case Dimensions:
    break;
  }
  Table &T = Tables[D];
  auto [It, New] = Ids[D].try_emplace({Scope, From}, uint32_t(T.Keys.size()));
  if (New) {
    T.Keys.emplace_back();
    std::string Label;
    if (D == Kernel) {
      Label = Meta->Functions[From].nameOr("(null)").str();
    } else if (D == Site) {
      Label = fmt::format("{}: {}", From,
                          Meta->siteFunction(uint32_t(From)).nameOr("(null)"));
    } else if (D == Line) {
      const AccessSite *A = Meta->accessSite(uint32_t(From));
      Label = A && A->Where.known() ? A->Where.str() : "(no access site)";
    }
    T.Labels.push_back(std::move(Label)); // buffers: named in finish()
  }
  return It->second;
}

void ProfileTool::flushPending() {
  if (!Pending.Accesses)
    return;
  for (unsigned D = 0; D < Dimensions; ++D) {
    Measures &M = Tables[D].Keys[PendingIds[D]].M;
    M.Accesses += Pending.Accesses;
    M.Bytes += Pending.Bytes;
    M.addMisses(Pending);
  }
  Pending = Measures();
}

void ProfileTool::addLine(Key &K, uint64_t Line) {
  if (K.LastLine == Line)
    return;
  K.Lines.insert(Line);
  K.LastLine = Line;
}

bool ProfileTool::markLine(uint64_t Line, uint64_t Combo) {
  const uint64_t Page = Line >> PageShift;
  if (Page != LastPage || !LastPageLines) {
    // Inserting may move every entry: only this pointer is kept.
    LastPageLines = &Pages[Page];
    LastPage = Page;
  }
  PageLines &P = *LastPageLines;
  if (P.Combo[0] != Combo) {
    // The other slot, or a fresh one in place of the older.
    if (P.Combo[1] != Combo) {
      P.Combo[1] = Combo;
      P.Lines[1] = 0;
    }
    std::swap(P.Combo[0], P.Combo[1]);
    std::swap(P.Lines[0], P.Lines[1]);
  }
  const uint64_t Bit = uint64_t(1) << (Line & ((uint64_t(1) << PageShift) - 1));
  if (P.Lines[0] & Bit)
    return false;
  P.Lines[0] |= Bit;
  return true;
}

void ProfileTool::record(const Record &R) {
  if (Cold && R.Workgroup && R.Tag == format::Tag::Workgroup &&
      Begun.insert(R.Workgroup->Invocation).second) {
    if (IsShard)
      Keeper.coldStart();
    else
      Caches.clear();
    Repeatable = false;
    return;
  }
  if (!R.Workgroup ||
      (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore))
    return;
  uint64_t First = R.Memory.Address >> LineShift;
  uint64_t Last = R.Memory.Length
                      ? (R.Memory.Address + (R.Memory.Length - 1)) >> LineShift
                      : First;
  if (Last < First)
    Last = First;
  if (Repeatable && First == Last && First == PrevLine &&
      R.Workgroup->Invocation == LastInvocation && R.Buffer == LastBufferFrom &&
      R.AccessSite == LastLineFrom) {
    // The line and keys of the access before: a cache hit that changes
    // nothing, the same pending run, a line already in every set.
    ++Pending.Accesses;
    Pending.Bytes += R.Memory.Length;
    return;
  }
  recordOther(R, First, Last);
}

uint32_t ProfileTool::pendingCombo() {
  if (PendingCombo == UINT32_MAX) {
    auto [It, New] = ComboIndex.try_emplace(
        {(uint64_t(PendingIds[Kernel]) << 32) | PendingIds[Site],
         (uint64_t(PendingIds[Buffer]) << 32) | PendingIds[Line]},
        uint32_t(Combos.size()));
    if (New)
      Combos.push_back(PendingIds);
    PendingCombo = It->second;
  }
  return PendingCombo;
}

void ProfileTool::recordOther(const Record &R, uint64_t First, uint64_t Last) {
  if (R.Workgroup->Invocation != LastInvocation || Meta != LastMeta) {
    LastInvocation = R.Workgroup->Invocation;
    LastMeta = Meta;
    LastKernel = id(Kernel, R);
    LastSite = id(Site, R);
  }
  if (R.Buffer != LastBufferFrom) {
    LastBufferFrom = R.Buffer;
    LastBuffer = id(Buffer, R);
  }
  if (R.AccessSite != LastLineFrom) {
    LastLineFrom = R.AccessSite;
    LastLine = id(Line, R);
  }
  // Field by field: a 16-byte compare of the array would load what was
  // just stored in four parts (a store-forwarding stall per access).
  if (LastKernel != PendingIds[Kernel] || LastSite != PendingIds[Site] ||
      LastBuffer != PendingIds[Buffer] || LastLine != PendingIds[Line]) {
    flushPending();
    PendingIds = {LastKernel, LastSite, LastBuffer, LastLine};
    PendingCombo = UINT32_MAX;
  }
  ++Pending.Accesses;
  Pending.Bytes += R.Memory.Length;
  if (IsShard) {
    // Its misses are counted at the merge, in file order.
    Keeper.keep(R.Memory.Address, R.Memory.Length, pendingCombo(),
                R.Memory.IsStore);
  } else {
    const unsigned Missed = Caches.access(R.Memory.Address, R.Memory.Length);
    for (unsigned L = 0; L < Missed; ++L)
      ++Pending.Misses[2 * L + R.Memory.IsStore];
  }
  const bool Packable = LastKernel < 0xFFFF && LastSite < 0xFFFF &&
                        LastBuffer < 0xFFFF && LastLine < 0xFFFF;
  const uint64_t Combo = uint64_t(LastKernel) | (uint64_t(LastSite) << 16) |
                         (uint64_t(LastBuffer) << 32) |
                         (uint64_t(LastLine) << 48);
  Repeatable = Packable && First == Last;
  if (Packable && First == Last && First == PrevLine && Combo == PrevCombo)
    return;
  PrevLine = Last;
  PrevCombo = Packable ? Combo : ~Combo;
  for (uint64_t L = First;; ++L) {
    if (Packable && !markLine(L, Combo)) {
      if (L == Last)
        break;
      continue;
    }
    for (unsigned D = 0; D < Dimensions; ++D)
      addLine(Tables[D].Keys[PendingIds[D]], L);
    if (L == Last)
      break;
  }
}

std::unique_ptr<AnalysisTool> ProfileTool::newShard() const {
  // It simulates nothing: the first level alone gives it the line size.
  auto Shard = std::make_unique<ProfileTool>(
      std::vector<CacheLevel>{Caches.levels()[0]}, Cold);
  Shard->IsShard = true;
  Shard->KeptPool = KeptPool;
  Shard->Keeper = AccessKeeper(Shard->LineShift, KeptPool);
  return Shard;
}

void ProfileTool::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  ProfileTool &From = static_cast<ProfileTool &>(Shard);
  From.flushPending();
  // Each of its keys is the key here of the same metadata and id (a buffer
  // by the file's index): its counts added, its lines joined.
  std::array<std::vector<uint32_t>, Dimensions> Here;
  for (unsigned D = 0; D < Dimensions; ++D) {
    Table &T = Tables[D];
    const Table &Theirs = From.Tables[D];
    Here[D].resize(Theirs.Keys.size());
    for (const auto &[Where, Id] : From.Ids[D]) {
      std::pair<const Metadata *, uint64_t> Mine = Where;
      if (D == Buffer && Mine.second != kNoBuffer)
        Mine.second = Place.Buffers[Mine.second];
      auto [It, New] = Ids[D].try_emplace(Mine, uint32_t(T.Keys.size()));
      if (New) {
        T.Keys.emplace_back();
        T.Labels.push_back(Theirs.Labels[Id]);
      }
      Here[D][Id] = It->second;
      Key &K = T.Keys[It->second];
      const Measures &M = Theirs.Keys[Id].M;
      K.M.Accesses += M.Accesses;
      K.M.Bytes += M.Bytes;
      for (uint64_t L : Theirs.Keys[Id].Lines)
        K.Lines.insert(L);
      K.LastLine = UINT64_MAX;
    }
  }
  // The misses per combination of keys, then added to each of its keys.
  std::vector<Measures> Missed(From.Combos.size());
  std::shared_ptr<const KeptChunk> Chunk = From.Keeper.take();
  replayAccesses(Caches, *Chunk,
                 [&](size_t, const KeptAccess &A, unsigned Levels) {
                   Measures &M = Missed[A.owner()];
                   for (unsigned L = 0; L < Levels; ++L)
                     ++M.Misses[2 * L + A.store()];
                 });
  for (size_t C = 0; C < Missed.size(); ++C)
    for (unsigned D = 0; D < Dimensions; ++D)
      Tables[D].Keys[Here[D][From.Combos[C][D]]].M.addMisses(Missed[C]);
}

void ProfileTool::finish() {
  flushPending();
  for (const auto &[Key, Id] : Ids[Buffer])
    Tables[Buffer].Labels[Id] =
        Key.second == kNoBuffer
            ? "(no buffer)"
            : (Census ? Census->bufferLabel(uint32_t(Key.second))
                      : "buffer " + std::to_string(Key.second));
  for (unsigned D = 0; D < Dimensions; ++D) {
    Table &T = Tables[D];
    // Keys with one label (a kernel in two metadata chunks) are one row:
    // their distinct lines are a union.
    std::map<std::string, std::vector<uint32_t>> ByLabel;
    for (uint32_t I = 0; I < T.Keys.size(); ++I)
      ByLabel[T.Labels[I]].push_back(I);
    for (const auto &[Label, Keys] : ByLabel) {
      Measures &M = Results[D][Label];
      if (Keys.size() == 1) {
        M = T.Keys[Keys[0]].M;
        M.Lines = T.Keys[Keys[0]].Lines.size();
        continue;
      }
      DenseSet<uint64_t> Lines;
      for (uint32_t I : Keys) {
        const Measures &K = T.Keys[I].M;
        M.Accesses += K.Accesses;
        M.Bytes += K.Bytes;
        M.addMisses(K);
        for (uint64_t L : T.Keys[I].Lines)
          Lines.insert(L);
      }
      M.Lines = Lines.size();
    }
  }
  if (!RacesFrom)
    return;
  const LaunchTracker &Tracker = RacesFrom->launches();
  for (const RacesTool::Race &Rc : RacesFrom->races()) {
    const LaunchTracker::Launch &L = Tracker.launches()[Rc.Launch];
    const LaunchTracker::Site &S = Tracker.sites()[L.SiteKey];
    Results[Kernel][S.Function].Races += Rc.Pairs;
    Results[Site][fmt::format("{}: {}", S.Id, S.Function)].Races += Rc.Pairs;
    Results[Buffer][Rc.Buffer == kNoBuffer
                        ? std::string("(no buffer)")
                        : (Census ? Census->bufferLabel(Rc.Buffer)
                                  : "buffer " + std::to_string(Rc.Buffer))]
        .Races += Rc.Pairs;
    auto LineOf = [&](uint32_t Source) {
      const std::string &Line = RacesFrom->sourceLines()[Source];
      return Line.empty() ? std::string("(no access site)") : Line;
    };
    std::string A = LineOf(Rc.SourceA), B = LineOf(Rc.SourceB);
    Results[Line][A].Races += Rc.Pairs;
    if (B != A)
      Results[Line][B].Races += Rc.Pairs;
  }
}

} // namespace wgtrace::viewer
