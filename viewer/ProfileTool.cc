//===- ProfileTool.cc -----------------------------------------------------===//

#include "ProfileTool.h"

#include <fmt/format.h>

using namespace llvm;

namespace wgtrace::viewer {

void ProfileTool::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
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

void ProfileTool::count(Key &K, const Record &R, uint64_t Misses) {
  ++K.M.Accesses;
  K.M.Bytes += R.Memory.Length;
  K.M.Misses += Misses;
}

void ProfileTool::addLine(Key &K, uint64_t Line) {
  if (K.LastLine == Line)
    return;
  K.Lines.insert(Line);
  K.LastLine = Line;
}

void ProfileTool::record(const Record &R) {
  if (!R.Workgroup ||
      (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore))
    return;
  uint64_t First = R.Memory.Address >> LineShift;
  uint64_t Last = R.Memory.Length
                      ? (R.Memory.Address + (R.Memory.Length - 1)) >> LineShift
                      : First;
  if (Last < First)
    Last = First;
  uint64_t Misses = 0;
  for (uint64_t L = First;; ++L) {
    Misses += !Cache.access(L);
    if (L == Last)
      break;
  }
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
  Key *Keys[Dimensions] = {
      &Tables[Kernel].Keys[LastKernel], &Tables[Site].Keys[LastSite],
      &Tables[Buffer].Keys[LastBuffer], &Tables[Line].Keys[LastLine]};
  for (Key *K : Keys)
    count(*K, R, Misses);
  const bool Packable = LastKernel < 0xFFFF && LastSite < 0xFFFF &&
                        LastBuffer < 0xFFFF && LastLine < 0xFFFF;
  const uint64_t Combo = uint64_t(LastKernel) | (uint64_t(LastSite) << 16) |
                         (uint64_t(LastBuffer) << 32) |
                         (uint64_t(LastLine) << 48);
  if (Packable && First == Last && First == PrevLine && Combo == PrevCombo)
    return;
  PrevLine = Last;
  PrevCombo = Packable ? Combo : ~Combo;
  for (uint64_t L = First;; ++L) {
    if (Packable) {
      auto [It, New] = LineKeys.try_emplace(L, Combo);
      if (!New && It->second == Combo) {
        if (L == Last)
          break;
        continue;
      }
      It->second = Combo;
    }
    for (Key *K : Keys)
      addLine(*K, L);
    if (L == Last)
      break;
  }
}

void ProfileTool::finish() {
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
        M.Misses += K.Misses;
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
