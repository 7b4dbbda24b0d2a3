//===- CacheTool.cc -------------------------------------------------------===//

#include "analyses/CacheTool.h"

#include "reader/Metadata.h"

#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

using namespace llvm;

namespace wgtrace::viewer {

void CacheTool::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
  Grouping.beginRing(Info.Meta);
  if (IsShard)
    Keeper.beginRing(Info, Grouping.perAccess());
}

void CacheTool::keep(const Record &R, uint32_t Owner) {
  const bool PerAccess = Grouping.perAccess();
  Keeper.keep(R.Memory.Address, R.Memory.Length, Owner, R.Memory.IsStore,
              PerAccess, PerAccess ? Grouping.key(R) : 0);
}

void CacheTool::record(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  if (R.Tag == format::Tag::Workgroup) {
    bool New = Owners.workgroup(R.Workgroup->Invocation, [&] {
      Workgroup W;
      static_cast<WorkgroupIdentity &>(W) = WorkgroupIdentity::of(R, *Meta);
      Workgroups.push_back(std::move(W));
      return uint32_t(Workgroups.size() - 1);
    });
    // A copy continuing a workgroup is not a new workgroup: the cache
    // stays as it was.
    if (New && Cold) {
      if (IsShard) {
        Keeper.coldStart();
        return;
      }
      Caches.clear();
      Reuse.forgetLines();
    }
    return;
  }
  if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
    return;
  std::optional<uint32_t> Owner = Owners.ownerOf(R.Workgroup->Invocation);
  if (!Owner)
    return;
  if (IsShard) {
    keep(R, *Owner);
    return;
  }
  Counts &C = Workgroups[*Owner].C;
  const bool Store = R.Memory.IsStore;
  const unsigned Missed = Caches.access(R.Memory.Address, R.Memory.Length);
  C.count(Store, Missed);
  Totals.count(Store, Missed);
  if (Grouping.perAccess()) {
    uint32_t Key = Grouping.key(R);
    if (Key >= Groups.size())
      Groups.resize(Key + 1);
    Groups[Key].count(Store, Missed);
  }
  Reuse.accessBytes(R.Memory.Address, R.Memory.Length, LineShift);
}

std::unique_ptr<AnalysisTool> CacheTool::newShard() const {
  // It simulates nothing: the first level alone gives it the line size.
  auto Shard = std::make_unique<CacheTool>(
      nulls(), Json, std::vector<CacheLevel>{Caches.levels()[0]}, Cold,
      Grouping.by());
  Shard->IsShard = true;
  Shard->KeptPool = KeptPool;
  Shard->Keeper = AccessKeeper(Shard->LineShift, KeptPool);
  return Shard;
}

void CacheTool::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  CacheTool &From = static_cast<CacheTool &>(Shard);
  // Its workgroups began in it: after those here, in its order.
  const size_t FirstWorkgroup = Workgroups.size();
  Workgroups.insert(Workgroups.end(),
                    std::make_move_iterator(From.Workgroups.begin()),
                    std::make_move_iterator(From.Workgroups.end()));
  std::vector<uint32_t> KeyHere(From.Grouping.size());
  for (uint32_t K = 0; K < KeyHere.size(); ++K) {
    KeyHere[K] = Grouping.adopt(From.Grouping, K, Place.Buffers);
    if (KeyHere[K] >= Groups.size())
      Groups.resize(KeyHere[K] + 1);
  }
  // The reuse distances on the lane, beside the caches here.
  std::shared_ptr<const KeptChunk> Chunk = From.Keeper.take();
  if (!Lane)
    Lane = std::make_unique<ReuseLane>(Reuse, LineShift);
  Lane->count(Chunk);

  const bool PerAccess = Grouping.perAccess();
  replayAccesses(
      Caches, *Chunk, [&](size_t I, const KeptAccess &A, unsigned Missed) {
        const bool Store = A.store();
        Counts &C = Workgroups[FirstWorkgroup + A.owner()].C;
        Counts *Group = PerAccess ? &Groups[KeyHere[Chunk->Keys[I]]] : nullptr;
        C.count(Store, Missed);
        Totals.count(Store, Missed);
        if (Group)
          Group->count(Store, Missed);
        if (A.Repeat) {
          C.countHits(Store, A.Repeat);
          Totals.countHits(Store, A.Repeat);
          if (Group)
            Group->countHits(Store, A.Repeat);
        }
      });
}

void CacheTool::finish() {
  if (Lane)
    Lane->wait();
  if (Grouping.perAccess()) {
    for (uint32_t K = 0; K < Groups.size(); ++K)
      GroupRows.push_back({Grouping.label(K), Grouping.texts(K), Groups[K]});
  } else if (Grouping.by() == GroupBy::Site ||
             Grouping.by() == GroupBy::Kernel) {
    // Per site, or per kernel over all the sites that launched it.
    const bool PerKernel = Grouping.by() == GroupBy::Kernel;
    std::map<std::pair<uint32_t, std::string>, size_t> Index;
    for (const Workgroup &W : Workgroups) {
      auto [It, New] = Index.try_emplace({PerKernel ? 0u : W.Site, W.Function},
                                         GroupRows.size());
      if (New)
        GroupRows.push_back(
            {PerKernel ? W.Function : fmt::format("{}: {}", W.Site, W.Function),
             {},
             Counts()});
      GroupRows[It->second].C.add(W.C);
    }
  }
  // Most first-level misses first (then most last-level misses): where a
  // change would matter.
  auto Key = [this](const Counts &C) {
    const LevelMisses &First = C.Misses[0];
    const LevelMisses &Last = C.Misses[levels().size() - 1];
    return std::make_pair(First.Read + First.Write, Last.Read + Last.Write);
  };
  std::sort(GroupRows.begin(), GroupRows.end(),
            [&](const GroupCounts &A, const GroupCounts &B) {
              auto KA = Key(A.C), KB = Key(B.C);
              return KA != KB ? KA > KB : A.Label < B.Label;
            });
  if (Order.active()) {
    auto Of = [this](const Counts &C) { return column(C, Order.Column); };
    Omitted.add("groups", Order.apply(GroupRows, [&](const GroupCounts &G) {
      return Of(G.C);
    }));
    // Workgroups are listed per site: sorted and cut within each site,
    // sites in the order they first appear.
    std::map<uint32_t, uint32_t> SiteRank;
    for (const Workgroup &W : Workgroups)
      SiteRank.try_emplace(W.Site, uint32_t(SiteRank.size()));
    std::vector<std::vector<Workgroup>> PerSite(SiteRank.size());
    for (Workgroup &W : Workgroups)
      PerSite[SiteRank[W.Site]].push_back(std::move(W));
    std::vector<Workgroup> Kept;
    for (std::vector<Workgroup> &Site : PerSite) {
      const uint32_t SiteId = Site.front().Site;
      const uint64_t Left =
          Order.apply(Site, [&](const Workgroup &W) { return Of(W.C); });
      OmittedPerSite[SiteId] = Left;
      // Listed with --by workgroup only.
      if (Grouping.by() == GroupBy::Workgroup)
        Omitted.add("workgroups", Left);
      Kept.insert(Kept.end(), std::make_move_iterator(Site.begin()),
                  std::make_move_iterator(Site.end()));
    }
    Workgroups = std::move(Kept);
  }
  if (Json)
    printJson();
  else
    printText();
  OS.flush();
}

std::vector<std::string>
CacheTool::columns(const std::vector<CacheLevel> &Levels) {
  std::vector<std::string> Names = {"accesses", "reads", "writes"};
  for (const CacheLevel &L : Levels) {
    Names.push_back(L.Name + "mr");
    Names.push_back(L.Name + "mw");
  }
  return Names;
}

double CacheTool::column(const Counts &C, const std::string &Name) const {
  if (Name == "accesses")
    return double(C.accesses());
  if (Name == "reads")
    return double(C.Reads);
  if (Name == "writes")
    return double(C.Writes);
  for (unsigned L = 0; L < levels().size(); ++L) {
    if (Name == levels()[L].Name + "mr")
      return double(C.Misses[L].Read);
    if (Name == levels()[L].Name + "mw")
      return double(C.Misses[L].Write);
  }
  return 0.0;
}

/// The column (and JSON key) that names a row of a grouped report.
static const char *groupColumn(GroupBy By) {
  switch (By) {
  case GroupBy::Line:
    return "source";
  case GroupBy::Buffer:
    return "buffer";
  case GroupBy::Kernel:
    return "kernel";
  case GroupBy::Site:
  case GroupBy::Workgroup:
    break;
  }
  return "site";
}

/// Misses of a level per access, in percent (cachegrind's "D1 miss rate").
static double rate(uint64_t Misses, uint64_t Accesses) {
  return Accesses ? 100.0 * double(Misses) / double(Accesses) : 0.0;
}

static std::string bucketLabel(unsigned B) {
  if (B == 0)
    return "0";
  uint64_t Lo = uint64_t(1) << (B - 1);
  uint64_t Hi = (B == 64 ? 0 : (uint64_t(1) << B)) - 1;
  return Lo == Hi ? fmt::format("{}", Lo) : fmt::format("{}-{}", Lo, Hi);
}

void CacheTool::printText() {
  OS << runHeader(Census);
  std::string Levels;
  for (const CacheLevel &L : levels())
    Levels +=
        fmt::format("{}{} {} bytes, {} ways, {}-byte lines ({} sets)",
                    Levels.empty() ? "" : "; ", L.Name, L.Geometry.Size,
                    L.Geometry.Ways, L.Geometry.LineSize, L.Geometry.sets());
  OS << fmt::format("caches: {}\n  LRU, write-allocate, the misses of a level "
                    "looked up in the next; {}\n",
                    Levels,
                    Cold ? "emptied before each workgroup"
                         : "shared by all workgroups in record order");
  if (!Note.empty())
    OS << "  note: " << Note << "\n";
  OS << "\n";
  std::string CountHeads =
      fmt::format("{:>12} {:>12} {:>12}", "accesses", "reads", "writes");
  for (const CacheLevel &L : levels())
    CountHeads += fmt::format(" {:>10} {:>10}", L.Name + "mr", L.Name + "mw");
  auto CountCells = [&](const Counts &C) {
    std::string Cells =
        fmt::format("{:>12} {:>12} {:>12}", C.accesses(), C.Reads, C.Writes);
    for (unsigned L = 0; L < levels().size(); ++L)
      Cells +=
          fmt::format(" {:>10} {:>10}", C.Misses[L].Read, C.Misses[L].Write);
    return Cells;
  };
  if (Grouping.by() != GroupBy::Workgroup) {
    const char *Name = groupColumn(Grouping.by());
    OS << fmt::format("  {:<25} {}\n", Name, CountHeads);
    for (const GroupCounts &G : GroupRows) {
      std::string Texts;
      for (const std::string &T : G.Texts)
        Texts += (Texts.empty() ? "  " : ", ") + T;
      OS << fmt::format("  {:<25} {}{}\n", G.Label, CountCells(G.C), Texts);
    }
    OS << omittedText(Omitted.count("groups"), Grouping.by() == GroupBy::Line
                                                   ? std::string("lines")
                                                   : std::string(Name) + "s");
  }
  if (Grouping.by() == GroupBy::Workgroup)
    OS << fmt::format("  {:<20} {:>4} {}\n", "workgroup", "pid", CountHeads);
  uint32_t Site = UINT32_MAX;
  uint64_t Marked = 0;
  for (const Workgroup &W : Workgroups) {
    if (Grouping.by() != GroupBy::Workgroup)
      break;
    if (W.Site != Site) {
      if (Site != UINT32_MAX)
        OS << omittedText(OmittedPerSite[Site], "workgroups");
      Site = W.Site;
      OS << fmt::format("dispatch site {}: {}\n", W.Site, W.Function);
    }
    OS << fmt::format("  {:<20} {:>4} {}\n",
                      workgroupLabel(W.Id, W.BeginningLost), W.ProcessorId,
                      CountCells(W.C));
    Marked += W.BeginningLost;
  }
  if (Grouping.by() == GroupBy::Workgroup && Site != UINT32_MAX)
    OS << omittedText(OmittedPerSite[Site], "workgroups");
  if (Grouping.by() == GroupBy::Workgroup)
    OS << fmt::format("  {:<20} {:>4} {}\n", "total", "", CountCells(Totals));
  else
    OS << fmt::format("  {:<25} {}\n", "total", CountCells(Totals));
  // cachegrind's summary lines: each level's misses per access.
  OS << "\nmiss rates (misses per access: all, reads, writes)\n";
  for (unsigned L = 0; L < levels().size(); ++L) {
    const LevelMisses &M = Totals.Misses[L];
    OS << fmt::format("  {:<4} {:>7.2f}% {:>7.2f}% {:>7.2f}%\n",
                      levels()[L].Name,
                      rate(M.Read + M.Write, Totals.accesses()),
                      rate(M.Read, Totals.Reads), rate(M.Write, Totals.Writes));
  }
  OS << beginningLostNote(Marked);
  OS << "\nreuse distance (distinct lines between uses of a line)\n";
  OS << fmt::format("  {:<24} {:>12}\n", "distance", "line accesses");
  const std::vector<uint64_t> &Histogram = Reuse.buckets();
  for (unsigned B = 0; B < Histogram.size(); ++B)
    if (Histogram[B])
      OS << fmt::format("  {:<24} {:>12}\n", bucketLabel(B), Histogram[B]);
  OS << fmt::format("  {:<24} {:>12}\n", "first use", Reuse.firstUses());
  OS << censusText(Census);
}

void CacheTool::printJson() {
  auto CountsJ = [this](const Counts &C) {
    json::Object O{
        {"accesses", C.accesses()}, {"reads", C.Reads}, {"writes", C.Writes}};
    for (unsigned L = 0; L < levels().size(); ++L) {
      O[levels()[L].Name + "mr"] = C.Misses[L].Read;
      O[levels()[L].Name + "mw"] = C.Misses[L].Write;
    }
    return O;
  };
  json::Array LevelsJ;
  for (const CacheLevel &L : levels())
    LevelsJ.push_back(json::Object{{"name", L.Name},
                                   {"size", L.Geometry.Size},
                                   {"ways", L.Geometry.Ways},
                                   {"line_size", L.Geometry.LineSize},
                                   {"sets", L.Geometry.sets()}});
  json::Array WGs;
  for (const Workgroup &W : Workgroups) {
    json::Object O = CountsJ(W.C);
    O["site"] = W.Site;
    O["function"] = W.Function;
    O["id"] = json::Array{W.Id[0], W.Id[1], W.Id[2]};
    O["pid"] = W.ProcessorId;
    O["beginning_lost"] = W.BeginningLost;
    WGs.push_back(std::move(O));
  }
  json::Array GroupsJ;
  for (const GroupCounts &G : GroupRows) {
    json::Object O = CountsJ(G.C);
    O[groupColumn(Grouping.by())] = G.Label;
    if (Grouping.by() == GroupBy::Line)
      O["text"] = json::Array(G.Texts);
    GroupsJ.push_back(std::move(O));
  }
  json::Array Hist;
  const std::vector<uint64_t> &Histogram = Reuse.buckets();
  for (unsigned B = 0; B < Histogram.size(); ++B)
    if (Histogram[B]) {
      uint64_t Lo = B == 0 ? 0 : uint64_t(1) << (B - 1);
      uint64_t Hi =
          B == 0 ? 0 : (B == 64 ? UINT64_MAX : (uint64_t(1) << B) - 1);
      Hist.push_back(
          json::Object{{"min", Lo}, {"max", Hi}, {"count", Histogram[B]}});
    }
  json::Value Root = json::Object{
      {"schema", "wgtrace-cache/2"},        {"levels", std::move(LevelsJ)},
      {"cold_per_workgroup", Cold},         {"note", Note},
      {"by", groupByName(Grouping.by())},   {"groups", std::move(GroupsJ)},
      {"workgroups", std::move(WGs)},       {"totals", CountsJ(Totals)},
      {"reuse_distance", std::move(Hist)},  {"first_use", Reuse.firstUses()},
      {"omitted", Omitted.json()},          {"run", runJson(Census)},
      {"selection", selectionJson(Census)}, {"loss", censusJson(Census)}};
  OS << formatv("{0:2}", Root) << "\n";
}

} // namespace wgtrace::viewer
