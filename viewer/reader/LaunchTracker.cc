//===- LaunchTracker.cc ---------------------------------------------------===//

#include "reader/LaunchTracker.h"

#include "reader/Metadata.h"

using namespace llvm;

namespace wgtrace::viewer {

uint64_t linearId(const std::array<uint32_t, 3> &Id,
                  const std::array<uint32_t, 3> &Count) {
  return Id[0] + uint64_t(Count[0]) * (Id[1] + uint64_t(Count[1]) * Id[2]);
}

uint32_t LaunchTracker::siteKey(uint32_t Site, StringRef Function,
                                StringRef Location) {
  auto [It, New] =
      SiteKeys.try_emplace({Site, Function.str()}, uint32_t(Sites.size()));
  if (New)
    Sites.push_back({Site, Function.str(), Location.str()});
  return It->second;
}

uint32_t LaunchTracker::workgroup(const Record &R, const Metadata &Meta) {
  // A copy of an invocation seen before: no site lookup.
  if (uint32_t Known = find(R.Workgroup->Invocation); Known != UINT32_MAX)
    return Known;
  const format::WorkgroupRecord &WG = R.Workgroup->Record;
  Workgroup W;
  W.Site = WG.DispatchId;
  W.Id = {WG.Id[0], WG.Id[1], WG.Id[2]};
  W.Count = {WG.Count[0], WG.Count[1], WG.Count[2]};
  W.ProcessorId = WG.ProcessorId;
  return add(
      R.Workgroup->Invocation, W, Meta.siteFunction(W.Site).nameOr("(null)"),
      W.Site < Meta.SiteLocations.size() ? StringRef(Meta.SiteLocations[W.Site])
                                         : StringRef());
}

uint32_t LaunchTracker::add(uint64_t Invocation, Workgroup W,
                            StringRef Function, StringRef Location) {
  auto [Known, New] = ByInvocation.try_emplace(Invocation, Workgroups.size());
  if (!New)
    return Known->second;
  uint32_t Key = siteKey(W.Site, Function, Location);
  StreamSite &S = Current[{W.ProcessorId, Key}];
  uint64_t Linear = linearId(W.Id, W.Count);
  bool NewLaunch = S.Local == UINT32_MAX || Locals[S.Local].Grid != W.Count ||
                   Linear < S.LastLinear || S.Seen.contains(Linear);
  if (NewLaunch) {
    S.Local = Locals.size();
    S.Seen.clear();
    LocalLaunch L;
    L.SiteKey = Key;
    L.Stream = W.ProcessorId;
    L.Grid = W.Count;
    Locals.push_back(std::move(L));
  }
  S.Seen.insert(Linear);
  S.LastLinear = Linear;
  W.Local = S.Local;
  uint32_t Index = Workgroups.size();
  Locals[S.Local].Workgroups.push_back(Index);
  Workgroups.push_back(W);
  return Index;
}

std::vector<uint32_t> LaunchTracker::merge(const LaunchTracker &Shard,
                                           uint64_t FirstInvocation) {
  std::vector<uint64_t> InvocationOf(Shard.Workgroups.size());
  for (const auto &[Invocation, Index] : Shard.ByInvocation)
    InvocationOf[Index] = Invocation;
  std::vector<uint32_t> Here;
  Here.reserve(Shard.Workgroups.size());
  for (uint32_t I = 0; I < Shard.Workgroups.size(); ++I) {
    const Workgroup &W = Shard.Workgroups[I];
    const Site &S = Shard.Sites[Shard.Locals[W.Local].SiteKey];
    Here.push_back(
        add(FirstInvocation + InvocationOf[I], W, S.Function, S.Location));
  }
  for (const auto &[Index, Number] : Shard.Numbers)
    Numbers[Here[Index]] = Number;
  return Here;
}

void LaunchTracker::launchNumber(uint64_t Invocation, uint64_t Number) {
  auto It = ByInvocation.find(Invocation);
  if (It != ByInvocation.end())
    Numbers[It->second] = Number;
}

uint32_t LaunchTracker::assembleNumbered() {
  const uint32_t First = static_cast<uint32_t>(Locals.size());
  if (Numbers.empty())
    return First;
  // (site key, number) -> its locals, one per stream.
  std::map<std::pair<uint32_t, uint64_t>, std::vector<uint32_t>> ByLaunch;
  std::map<std::tuple<uint32_t, uint64_t, uint32_t>, uint32_t> LocalOf;
  for (uint32_t I = 0; I < First; ++I) {
    std::vector<uint32_t> Kept;
    const uint32_t Key = Locals[I].SiteKey, Stream = Locals[I].Stream;
    for (uint32_t W : Locals[I].Workgroups) {
      auto Number = Numbers.find(W);
      if (Number == Numbers.end()) {
        Kept.push_back(W);
        continue;
      }
      auto [It, New] = LocalOf.try_emplace({Key, Number->second, Stream},
                                           uint32_t(Locals.size()));
      if (New) {
        LocalLaunch L;
        L.SiteKey = Key;
        L.Stream = Stream;
        L.Grid = Workgroups[W].Count;
        Locals.push_back(std::move(L));
        ByLaunch[{Key, Number->second}].push_back(It->second);
      }
      Locals[It->second].Workgroups.push_back(W);
      Workgroups[W].Local = It->second;
    }
    Locals[I].Workgroups = std::move(Kept);
  }
  std::map<uint32_t, uint32_t> Ordinals;
  for (auto &[KeyAndNumber, Members] : ByLaunch) {
    Launch G;
    G.SiteKey = KeyAndNumber.first;
    G.Ordinal = Ordinals[G.SiteKey]++;
    G.Grid = Locals[Members.front()].Grid;
    for (uint32_t L : Members) {
      Locals[L].Global = uint32_t(Launches.size());
      G.Locals.push_back(L);
    }
    Launches.push_back(std::move(G));
  }
  return First;
}

void LaunchTracker::assemble() {
  Current.clear();
  // Workgroups that name their launch (OpenMP iterations) are grouped by
  // it; the order of the records recovers the others'.
  const uint32_t Numbered = assembleNumbered();
  // Per site: its streams in order of first appearance, each with its
  // launches in order.
  std::vector<std::vector<std::vector<uint32_t>>> Queues(Sites.size());
  std::vector<std::map<uint32_t, size_t>> StreamIndex(Sites.size());
  for (uint32_t I = 0; I < Numbered; ++I) {
    const LocalLaunch &L = Locals[I];
    if (L.Workgroups.empty())
      continue; // its workgroups named their launch
    auto [It, New] =
        StreamIndex[L.SiteKey].try_emplace(L.Stream, Queues[L.SiteKey].size());
    if (New)
      Queues[L.SiteKey].emplace_back();
    Queues[L.SiteKey][It->second].push_back(I);
  }
  for (uint32_t Key = 0; Key < Sites.size(); ++Key) {
    auto &Streams = Queues[Key];
    std::vector<size_t> Next(Streams.size(), 0);
    uint32_t Ordinal = 0;
    while (true) {
      Launch G;
      G.SiteKey = Key;
      G.Ordinal = Ordinal;
      DenseSet<uint64_t> Ids;
      bool HaveGrid = false;
      for (size_t S = 0; S < Streams.size(); ++S) {
        if (Next[S] == Streams[S].size())
          continue;
        LocalLaunch &L = Locals[Streams[S][Next[S]]];
        if (HaveGrid && L.Grid != G.Grid)
          continue;
        bool Collides = false;
        for (uint32_t W : L.Workgroups)
          if (Ids.contains(linearId(Workgroups[W].Id, Workgroups[W].Count)))
            Collides = true;
        if (Collides)
          continue;
        HaveGrid = true;
        G.Grid = L.Grid;
        for (uint32_t W : L.Workgroups)
          Ids.insert(linearId(Workgroups[W].Id, Workgroups[W].Count));
        L.Global = Launches.size();
        G.Locals.push_back(Streams[S][Next[S]]);
        ++Next[S];
      }
      if (!HaveGrid)
        break; // every stream's launches are assigned
      Launches.push_back(std::move(G));
      ++Ordinal;
    }
  }
}

} // namespace wgtrace::viewer
