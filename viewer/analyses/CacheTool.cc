//===- CacheTool.cc -------------------------------------------------------===//

#include "analyses/CacheTool.h"

#include "reader/Metadata.h"

#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

using namespace llvm;

namespace wgtrace::viewer {

void CacheTool::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
  Grouping.beginRing(Info.Meta);
}

void CacheTool::record(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  if (R.Tag == format::Tag::Workgroup) {
    auto [It, New] =
        ByInvocation.try_emplace(R.Workgroup->Invocation, Workgroups.size());
    if (New) {
      Workgroup W;
      static_cast<WorkgroupIdentity &>(W) = WorkgroupIdentity::of(R, *Meta);
      Workgroups.push_back(std::move(W));
      // A copy continuing a workgroup is not a new workgroup: the cache
      // stays as it was.
      if (Cold) {
        Cache.clear();
        Reuse.forgetLines();
      }
    }
    LastInvocation = R.Workgroup->Invocation;
    LastWorkgroup = It->second;
    return;
  }
  if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
    return;
  if (R.Workgroup->Invocation != LastInvocation) {
    auto It = ByInvocation.find(R.Workgroup->Invocation);
    if (It == ByInvocation.end())
      return;
    LastInvocation = It->first;
    LastWorkgroup = It->second;
  }
  Counts &C = Workgroups[LastWorkgroup].C;
  Counts *G = nullptr;
  if (Grouping.perAccess()) {
    uint32_t Key = Grouping.key(R);
    if (Key >= Groups.size())
      Groups.resize(Key + 1);
    G = &Groups[Key];
    ++G->Accesses;
  }
  ++C.Accesses;
  ++Totals.Accesses;
  uint64_t First = R.Memory.Address >> LineShift;
  uint64_t Last = R.Memory.Length
                      ? (R.Memory.Address + (R.Memory.Length - 1)) >> LineShift
                      : First;
  if (Last < First)
    Last = First; // wraps past the top of the address space
  for (uint64_t Line = First;; ++Line) {
    ++C.LineAccesses;
    ++Totals.LineAccesses;
    bool Hit = Cache.access(Line);
    (Hit ? C.Hits : C.Misses) += 1;
    (Hit ? Totals.Hits : Totals.Misses) += 1;
    if (!Hit) {
      uint64_t Counts::*Kind =
          R.Memory.IsStore ? &Counts::WriteMisses : &Counts::ReadMisses;
      C.*Kind += 1;
      Totals.*Kind += 1;
      if (G)
        G->*Kind += 1;
    }
    if (G) {
      ++G->LineAccesses;
      (Hit ? G->Hits : G->Misses) += 1;
    }
    Reuse.access(Line);
    if (Line == Last)
      break;
  }
}

void CacheTool::finish() {
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
      Counts &C = GroupRows[It->second].C;
      C.Accesses += W.C.Accesses;
      C.LineAccesses += W.C.LineAccesses;
      C.Hits += W.C.Hits;
      C.Misses += W.C.Misses;
      C.ReadMisses += W.C.ReadMisses;
      C.WriteMisses += W.C.WriteMisses;
    }
  }
  // Most misses first: where a change would matter.
  std::sort(GroupRows.begin(), GroupRows.end(),
            [](const GroupCounts &A, const GroupCounts &B) {
              return A.C.Misses != B.C.Misses ? A.C.Misses > B.C.Misses
                                              : A.Label < B.Label;
            });
  if (Order.active()) {
    auto Of = [this](const Counts &C) -> double {
      const std::string &Column = Order.Column;
      if (Column == "accesses")
        return double(C.Accesses);
      if (Column == "line_accesses")
        return double(C.LineAccesses);
      if (Column == "hits")
        return double(C.Hits);
      if (Column == "misses")
        return double(C.Misses);
      if (Column == "read_misses")
        return double(C.ReadMisses);
      if (Column == "write_misses")
        return double(C.WriteMisses);
      if (Column == "miss_rate")
        return C.LineAccesses ? double(C.Misses) / double(C.LineAccesses) : 0.0;
      return 0.0;
    };
    Order.apply(GroupRows, [&](const GroupCounts &G) { return Of(G.C); });
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
      Order.apply(Site, [&](const Workgroup &W) { return Of(W.C); });
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

llvm::ArrayRef<const char *> CacheTool::columns() {
  static const char *const Names[] = {
      "accesses",    "line_accesses", "hits",     "misses",
      "read_misses", "write_misses",  "miss_rate"};
  return Names;
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

static double rate(const CacheTool::Counts &C) {
  return C.LineAccesses ? 100.0 * double(C.Misses) / double(C.LineAccesses)
                        : 0.0;
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
  OS << fmt::format("cache: {} bytes, {}-byte lines, {} ways, {} sets, LRU; "
                    "{}\n\n",
                    Geometry.Size, Geometry.LineSize, Geometry.Ways,
                    Geometry.sets(),
                    Cold ? "emptied before each workgroup"
                         : "shared by all workgroups in record order");
  if (Grouping.by() != GroupBy::Workgroup) {
    const char *Name = groupColumn(Grouping.by());
    OS << fmt::format("  {:<25} {:>10} {:>12} {:>12} {:>12} {:>10} {:>10} "
                      "{:>8}\n",
                      Name, "accesses", "line accesses", "hits", "misses",
                      "read miss", "write miss", "miss %");
    for (const GroupCounts &G : GroupRows) {
      std::string Texts;
      for (const std::string &T : G.Texts)
        Texts += (Texts.empty() ? "  " : ", ") + T;
      OS << fmt::format("  {:<25} {:>10} {:>12} {:>12} {:>12} {:>10} {:>10} "
                        "{:>8.2f}{}\n",
                        G.Label, G.C.Accesses, G.C.LineAccesses, G.C.Hits,
                        G.C.Misses, G.C.ReadMisses, G.C.WriteMisses, rate(G.C),
                        Texts);
    }
  }
  if (Grouping.by() == GroupBy::Workgroup)
    OS << fmt::format("  {:<20} {:>4} {:>10} {:>12} {:>12} {:>12} {:>10} "
                      "{:>10} {:>8}\n",
                      "workgroup", "pid", "accesses", "line accesses", "hits",
                      "misses", "read miss", "write miss", "miss %");
  uint32_t Site = UINT32_MAX;
  uint64_t Marked = 0;
  for (const Workgroup &W : Workgroups) {
    if (Grouping.by() != GroupBy::Workgroup)
      break;
    if (W.Site != Site) {
      Site = W.Site;
      OS << fmt::format("dispatch site {}: {}\n", W.Site, W.Function);
    }
    OS << fmt::format("  {:<20} {:>4} {:>10} {:>12} {:>12} {:>12} {:>10} "
                      "{:>10} {:>8.2f}\n",
                      workgroupLabel(W.Id, W.BeginningLost), W.ProcessorId,
                      W.C.Accesses, W.C.LineAccesses, W.C.Hits, W.C.Misses,
                      W.C.ReadMisses, W.C.WriteMisses, rate(W.C));
    Marked += W.BeginningLost;
  }
  OS << fmt::format("  {:<20} {:>4} {:>10} {:>12} {:>12} {:>12} {:>10} "
                    "{:>10} {:>8.2f}\n",
                    "total", "", Totals.Accesses, Totals.LineAccesses,
                    Totals.Hits, Totals.Misses, Totals.ReadMisses,
                    Totals.WriteMisses, rate(Totals));
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
  auto CountsJ = [](const Counts &C) {
    return json::Object{{"accesses", C.Accesses},
                        {"line_accesses", C.LineAccesses},
                        {"hits", C.Hits},
                        {"misses", C.Misses},
                        {"read_misses", C.ReadMisses},
                        {"write_misses", C.WriteMisses}};
  };
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
  json::Value Root =
      json::Object{{"schema", "wgtrace-cache/1"},
                   {"cache", json::Object{{"size", Geometry.Size},
                                          {"line_size", Geometry.LineSize},
                                          {"ways", Geometry.Ways},
                                          {"sets", Geometry.sets()},
                                          {"cold_per_workgroup", Cold}}},
                   {"by", groupByName(Grouping.by())},
                   {"groups", std::move(GroupsJ)},
                   {"workgroups", std::move(WGs)},
                   {"totals", CountsJ(Totals)},
                   {"reuse_distance", std::move(Hist)},
                   {"first_use", Reuse.firstUses()},
                   {"run", runJson(Census)},
                   {"loss", censusJson(Census)}};
  OS << formatv("{0:2}", Root) << "\n";
}

} // namespace wgtrace::viewer
