//===- SummaryTool.cc -----------------------------------------------------===//

#include "analyses/SummaryTool.h"

#include "reader/WorkgroupIdentity.h"

#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>

using namespace llvm;

namespace wgtrace::viewer {

void SummaryTool::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
  Grouping.beginRing(Info.Meta);
}

size_t SummaryTool::siteIndex(const Record &R) {
  uint32_t Site = R.Workgroup->Record.DispatchId;
  auto [It, New] = SiteByKey.try_emplace({Meta, Site}, Sites.size());
  if (New) {
    SiteSummary S;
    S.Site = Site;
    S.Function = Meta->siteFunction(Site).nameOr("(null)").str();
    Sites.push_back(std::move(S));
    SiteLines.push_back(SiteSets->take());
  }
  return It->second;
}

DenseSet<uint64_t> &SummaryTool::kernelLines(const std::string &Function) {
  auto [It, New] = KernelLines.try_emplace(Function);
  if (New)
    It->second = SiteSets->take();
  return It->second;
}

/// Adds the lines of \p From to \p To.
static void addAll(DenseSet<uint64_t> &To, const DenseSet<uint64_t> &From) {
  for (uint64_t L : From)
    To.insert(L);
}

void SummaryTool::addLines(DenseSet<uint64_t> &Lines, uint64_t &LastLine,
                           uint64_t Address, uint32_t Length) const {
  uint64_t First = Address >> LineShift;
  uint64_t Last = (Address + (Length ? Length - 1 : 0)) >> LineShift;
  if (Last < First)
    Last = First; // the access wraps past the top of the address space
  if (First == Last && First == LastLine)
    return;
  for (uint64_t L = First;; ++L) {
    Lines.insert(L);
    if (L == Last)
      break;
  }
  LastLine = Last;
}

SummaryTool::Open &SummaryTool::open(const Record &R) {
  const WorkgroupInfo &WG = *R.Workgroup;
  auto [It, New] = Opened.try_emplace(WG.Invocation);
  Open &O = It->second;
  if (New) {
    O.Summary.Invocation = WG.Invocation;
    O.Summary.Id = {WG.Record.Id[0], WG.Record.Id[1], WG.Record.Id[2]};
    O.Summary.Count = {WG.Record.Count[0], WG.Record.Count[1],
                       WG.Record.Count[2]};
    O.Summary.ProcessorId = WG.Record.ProcessorId;
    O.Summary.BeginningLost = WG.BeginningLost;
    // A continuation copy or a reopened invocation was counted already.
    O.Summary.Counts.Workgroups = Rows.count(WG.Invocation) ? 0 : 1;
    O.Site = siteIndex(R);
    O.Lines = WorkgroupSets->take();
  }
  LastInvocation = WG.Invocation;
  LastOpen = &O;
  return O;
}

void SummaryTool::record(const Record &R) {
  // Most records are a LOAD or STORE of the workgroup of the record before,
  // within the cache line of its last access: only counted.
  if (R.Workgroup && R.Workgroup->Invocation == LastInvocation &&
      (R.Tag == format::Tag::MemoryLoad || R.Tag == format::Tag::MemoryStore) &&
      !Grouping.perAccess()) {
    const uint64_t Address = R.Memory.Address, Length = R.Memory.Length;
    const uint64_t First = Address >> LineShift;
    if (First == LastOpen->LastLine &&
        (Address + (Length ? Length - 1 : 0)) >> LineShift == First) {
      LastOpen->Summary.Counts.countAccess(R);
      return;
    }
  }
  recordInFull(R);
}

void SummaryTool::recordInFull(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  Open &O = R.Workgroup->Invocation == LastInvocation ? *LastOpen : open(R);
  if (R.Tag == format::Tag::Workgroup)
    return;
  O.Summary.Counts.count(R);
  if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
    return;
  addLines(O.Lines, O.LastLine, R.Memory.Address, R.Memory.Length);
  if (Grouping.perAccess()) {
    uint32_t Key = Grouping.key(R);
    if (Key >= Groups.size())
      Groups.resize(Key + 1);
    Group &G = Groups[Key];
    G.Counts.count(R);
    addLines(G.Lines, G.LastLine, R.Memory.Address, R.Memory.Length);
  }
}

void SummaryTool::endWorkgroups(ArrayRef<uint64_t> Invocations) {
  for (uint64_t I : Invocations) {
    auto It = Opened.find(I);
    if (It == Opened.end())
      continue; // filtered out, or ended already
    Open &O = It->second;
    O.Summary.Counts.Lines = O.Lines.size();
    SiteSummary &S = Sites[O.Site];
    S.Totals.add(O.Summary.Counts);
    Kernels[S.Function].add(O.Summary.Counts);
    addAll(SiteLines[O.Site], O.Lines);
    if (!IsShard)
      addAll(kernelLines(S.Function), O.Lines);
    auto Row = Rows.find(I);
    if (Row == Rows.end()) {
      Rows[I] = {O.Site, S.Workgroups.size()};
      S.Workgroups.push_back(O.Summary);
    } else {
      // Continued after it was ended: its lines are counted per part.
      WorkgroupSummary &W =
          Sites[Row->second.first].Workgroups[Row->second.second];
      W.Counts.add(O.Summary.Counts);
      W.Counts.Lines += O.Summary.Counts.Lines;
    }
    WorkgroupSets->give(std::move(O.Lines));
    Opened.erase(It);
  }
  LastInvocation = UINT64_MAX;
  LastOpen = nullptr;
}

std::unique_ptr<AnalysisTool> SummaryTool::newShard() const {
  auto Shard = std::make_unique<SummaryTool>(
      nulls(), Json, uint64_t(1) << LineShift, Grouping.by());
  Shard->WorkgroupSets = WorkgroupSets;
  Shard->SiteSets = SiteSets;
  Shard->IsShard = true;
  return Shard;
}

void SummaryTool::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  SummaryTool &From = static_cast<SummaryTool &>(Shard);
  // Its sites in the order they appeared in it, after those seen here.
  std::vector<std::pair<const Metadata *, uint32_t>> KeyOf(From.Sites.size());
  for (const auto &[Key, Index] : From.SiteByKey)
    KeyOf[Index] = Key;
  for (size_t I = 0; I < From.Sites.size(); ++I) {
    auto [It, New] = SiteByKey.try_emplace(KeyOf[I], Sites.size());
    if (New) {
      SiteSummary S;
      S.Site = From.Sites[I].Site;
      S.Function = From.Sites[I].Function;
      Sites.push_back(std::move(S));
      SiteLines.push_back(SiteSets->take());
    }
    SiteSummary &To = Sites[It->second];
    To.Totals.add(From.Sites[I].Totals);
    for (WorkgroupSummary W : From.Sites[I].Workgroups) {
      W.Invocation += Place.FirstInvocation;
      To.Workgroups.push_back(W);
    }
    // A kernel's lines are those of its sites.
    addAll(SiteLines[It->second], From.SiteLines[I]);
    addAll(kernelLines(From.Sites[I].Function), From.SiteLines[I]);
    SiteSets->give(std::move(From.SiteLines[I]));
  }
  for (const auto &[Name, Counts] : From.Kernels)
    Kernels[Name].add(Counts);
  for (uint32_t K = 0; K < From.Groups.size(); ++K) {
    const uint32_t Key = Grouping.adopt(From.Grouping, K, Place.Buffers);
    if (Key >= Groups.size())
      Groups.resize(Key + 1);
    Groups[Key].Counts.add(From.Groups[K].Counts);
    addAll(Groups[Key].Lines, From.Groups[K].Lines);
  }
}

void SummaryTool::finish() {
  for (size_t I = 0; I < Sites.size(); ++I) {
    Sites[I].Totals.Lines = SiteLines[I].size();
    // Rows in the order their workgroups began.
    std::sort(Sites[I].Workgroups.begin(), Sites[I].Workgroups.end(),
              [](const WorkgroupSummary &A, const WorkgroupSummary &B) {
                return A.Invocation < B.Invocation;
              });
  }
  for (auto &[Name, Counts] : Kernels)
    Counts.Lines = KernelLines[Name].size();
  for (uint32_t K = 0; K < Groups.size(); ++K) {
    GroupSummary G;
    G.Label = Grouping.label(K);
    G.Texts = Grouping.texts(K);
    G.Counts = Groups[K].Counts;
    G.Counts.Lines = Groups[K].Lines.size();
    GroupRows.push_back(std::move(G));
  }
  // Labels are unique (one row per line or buffer).
  std::sort(GroupRows.begin(), GroupRows.end(),
            [](const GroupSummary &A, const GroupSummary &B) {
              return A.Label < B.Label;
            });
  // A kernel whose workgroups the filter all left out still ran: its row
  // says so (0 selected, and how many ran) rather than vanishing.
  if (Census)
    for (const SiteCensus &S : Census->Sites)
      if (S.Unselected)
        Kernels.try_emplace(S.Function);
  if (Order.active()) {
    uint64_t AccessCounts::*Field = accessCountField(Order.Column);
    auto Of = [Field](const AccessCounts &C) { return Field ? C.*Field : 0; };
    for (SiteSummary &S : Sites) {
      S.OmittedWorkgroups =
          Order.apply(S.Workgroups,
                      [&](const WorkgroupSummary &W) { return Of(W.Counts); });
      Omitted.add("workgroups", S.OmittedWorkgroups);
    }
    if (Grouping.by() == GroupBy::Site)
      Omitted.add("sites", Order.apply(Sites, [&](const SiteSummary &S) {
        return Of(S.Totals);
      }));
    Omitted.add("groups", Order.apply(GroupRows, [&](const GroupSummary &G) {
      return Of(G.Counts);
    }));
    Omitted.add("kernels", Kernels.size() - kernelRows().size());
  }
  if (Json)
    printJson();
  else
    printText();
  OS.flush();
}

std::vector<std::pair<std::string, AccessCounts>>
SummaryTool::kernelRows() const {
  std::vector<std::pair<std::string, AccessCounts>> Rows(Kernels.begin(),
                                                         Kernels.end());
  uint64_t AccessCounts::*Field = accessCountField(Order.Column);
  Order.apply(Rows, [Field](const std::pair<std::string, AccessCounts> &K) {
    return Field ? K.second.*Field : 0;
  });
  return Rows;
}

uint64_t SummaryTool::notSelected(std::optional<uint32_t> Site,
                                  StringRef Function) const {
  uint64_t Count = 0;
  if (Census)
    for (const SiteCensus &S : Census->Sites)
      if ((!Site || S.Site == *Site) && S.Function == Function)
        Count += S.Unselected;
  return Count;
}

static std::string row(StringRef Label, const AccessCounts &C, StringRef Pid) {
  return fmt::format("  {:<14} {:>4} {:>10} {:>10} {:>8} {:>12} {:>12} "
                     "{:>8} {:>7} {:>7}\n",
                     Label.str(), Pid.str(), C.Loads, C.Stores, C.Atomics,
                     C.LoadBytes, C.StoreBytes, C.Lines, C.Values, C.Prints);
}

void SummaryTool::printText() {
  const std::string Header =
      fmt::format("  {:<14} {:>4} {:>10} {:>10} {:>8} {:>12} {:>12} {:>8} "
                  "{:>7} {:>7}\n",
                  "workgroup", "pid", "loads", "stores", "atomic", "load bytes",
                  "store bytes", "lines", "values", "prints");
  OS << runHeader(Census);
  // A trace written under WGTRACE_FILTER: the workgroup counts are of the
  // selected workgroups, and a column says how many ran.
  const bool Filtered = Census && Census->unselected();
  const char *WorkgroupsHeader = Filtered ? "selected" : "workgroups";
  const std::string RanHeader = Filtered ? fmt::format(" {:>10}", "ran") : "";
  auto Ran = [&](uint64_t Selected, uint64_t Left) {
    return Filtered ? fmt::format(" {:>10}", Selected + Left) : std::string();
  };
  if (Grouping.perAccess())
    printGroupsText();
  else if (Grouping.by() == GroupBy::Site) {
    OS << "dispatch sites\n";
    // As wide as the longest label, so that the columns stay aligned
    // (OpenMP loops' names are long: `3: omp for at src/a.cpp:162 in f`).
    size_t LabelWidth = 24;
    for (const SiteSummary &S : Sites)
      LabelWidth = std::max(LabelWidth,
                            fmt::formatted_size("{}: {}", S.Site, S.Function));
    OS << fmt::format("  {:<{}} {:>10}{} {:>10} {:>10} {:>8} {:>12} {:>12} "
                      "{:>8} {:>7} {:>7}\n",
                      "site", LabelWidth, WorkgroupsHeader, RanHeader, "loads",
                      "stores", "atomic", "load bytes", "store bytes", "lines",
                      "values", "prints");
    for (const SiteSummary &S : Sites) {
      const AccessCounts &C = S.Totals;
      OS << fmt::format(
          "  {:<{}} {:>10}{} {:>10} {:>10} {:>8} {:>12} {:>12} "
          "{:>8} {:>7} {:>7}\n",
          fmt::format("{}: {}", S.Site, S.Function), LabelWidth, C.Workgroups,
          Ran(C.Workgroups, notSelected(S.Site, S.Function)), C.Loads, C.Stores,
          C.Atomics, C.LoadBytes, C.StoreBytes, C.Lines, C.Values, C.Prints);
    }
    OS << omittedText(Omitted.count("sites"), "sites");
    OS << "\n";
  } else if (Grouping.by() == GroupBy::Workgroup) {
    for (const SiteSummary &S : Sites) {
      const uint64_t Left = notSelected(S.Site, S.Function);
      if (Left)
        OS << fmt::format("dispatch site {}: {} ({} workgroups selected of {} "
                          "that ran)\n",
                          S.Site, S.Function, S.Totals.Workgroups,
                          S.Totals.Workgroups + Left);
      else
        OS << fmt::format("dispatch site {}: {} ({} workgroups)\n", S.Site,
                          S.Function, S.Totals.Workgroups);
      OS << Header;
      uint64_t Marked = 0;
      for (const WorkgroupSummary &W : S.Workgroups) {
        OS << row(workgroupLabel(W.Id, W.BeginningLost), W.Counts,
                  std::to_string(W.ProcessorId));
        Marked += W.BeginningLost;
      }
      OS << omittedText(S.OmittedWorkgroups, "workgroups");
      OS << row("total", S.Totals, "");
      OS << beginningLostNote(Marked);
      OS << "\n";
    }
  }
  OS << "kernels\n";
  const std::vector<std::pair<std::string, AccessCounts>> KernelRows =
      kernelRows();
  size_t NameWidth = 14;
  for (const auto &[Name, C] : KernelRows)
    NameWidth = std::max(NameWidth, Name.size());
  OS << fmt::format("  {:<{}} {:>10}{} {:>10} {:>10} {:>8} {:>12} {:>12} "
                    "{:>8} {:>7} {:>7}\n",
                    "function", NameWidth, WorkgroupsHeader, RanHeader, "loads",
                    "stores", "atomic", "load bytes", "store bytes", "lines",
                    "values", "prints");
  for (const auto &[Name, C] : KernelRows)
    OS << fmt::format("  {:<{}} {:>10}{} {:>10} {:>10} {:>8} {:>12} {:>12} "
                      "{:>8} {:>7} {:>7}\n",
                      Name, NameWidth, C.Workgroups,
                      Ran(C.Workgroups, notSelected(std::nullopt, Name)),
                      C.Loads, C.Stores, C.Atomics, C.LoadBytes, C.StoreBytes,
                      C.Lines, C.Values, C.Prints);
  OS << omittedText(Omitted.count("kernels"), "kernels");
  OS << censusText(Census, /*AllSites=*/true);
}

void SummaryTool::printGroupsText() {
  const bool Lines = Grouping.by() == GroupBy::Line;
  OS << (Lines ? "by source line (the access sites on each line)\n"
               : "by buffer (the kernel parameter each access falls in)\n");
  OS << fmt::format("  {:<28} {:>10} {:>10} {:>8} {:>12} {:>12} {:>8}{}\n",
                    Lines ? "source" : "buffer", "loads", "stores", "atomic",
                    "load bytes", "store bytes", "lines",
                    Lines ? "  accesses" : "");
  for (const GroupSummary &G : GroupRows) {
    std::string Texts;
    for (const std::string &T : G.Texts)
      Texts += (Texts.empty() ? "  " : ", ") + T;
    const AccessCounts &C = G.Counts;
    OS << fmt::format("  {:<28} {:>10} {:>10} {:>8} {:>12} {:>12} {:>8}{}\n",
                      G.Label, C.Loads, C.Stores, C.Atomics, C.LoadBytes,
                      C.StoreBytes, C.Lines, Texts);
  }
  OS << omittedText(Omitted.count("groups"),
                    Grouping.by() == GroupBy::Line ? "lines" : "buffers");
  OS << "\n";
}

static json::Object toJson(const AccessCounts &C) {
  return json::Object{
      {"workgroups", C.Workgroups}, {"loads", C.Loads},
      {"stores", C.Stores},         {"atomics", C.Atomics},
      {"load_bytes", C.LoadBytes},  {"store_bytes", C.StoreBytes},
      {"lines", C.Lines},           {"values", C.Values},
      {"prints", C.Prints}};
}

void SummaryTool::printJson() {
  json::Array SitesJ;
  for (const SiteSummary &S : Sites) {
    json::Array WGs;
    for (const WorkgroupSummary &W : S.Workgroups) {
      json::Object O = toJson(W.Counts);
      O.erase("workgroups");
      O["id"] = json::Array{W.Id[0], W.Id[1], W.Id[2]};
      O["count"] = json::Array{W.Count[0], W.Count[1], W.Count[2]};
      O["pid"] = W.ProcessorId;
      O["beginning_lost"] = W.BeginningLost;
      WGs.push_back(std::move(O));
    }
    json::Object SiteJ{
        {"site", S.Site},
        {"function", S.Function},
        {"totals", toJson(S.Totals)},
        {"workgroups_not_selected", notSelected(S.Site, S.Function)}};
    if (Grouping.by() == GroupBy::Workgroup)
      SiteJ["workgroups"] = std::move(WGs);
    SitesJ.push_back(std::move(SiteJ));
  }
  json::Array GroupsJ;
  for (const GroupSummary &G : GroupRows) {
    json::Object O = toJson(G.Counts);
    O.erase("workgroups");
    O[Grouping.by() == GroupBy::Line ? "source" : "buffer"] = G.Label;
    if (Grouping.by() == GroupBy::Line)
      O["text"] = json::Array(G.Texts);
    GroupsJ.push_back(std::move(O));
  }
  json::Object KernelsJ;
  for (const auto &[Name, C] : kernelRows()) {
    json::Object K = toJson(C);
    K["workgroups_not_selected"] = notSelected(std::nullopt, Name);
    KernelsJ[Name] = std::move(K);
  }
  json::Value Root = json::Object{{"schema", "wgtrace-summary/1"},
                                  {"line_size", uint64_t(1) << LineShift},
                                  {"lost_bytes", lostBytes()},
                                  {"run", runJson(Census)},
                                  {"selection", selectionJson(Census)},
                                  {"loss", censusJson(Census)},
                                  {"by", groupByName(Grouping.by())},
                                  {"groups", std::move(GroupsJ)},
                                  {"sites", std::move(SitesJ)},
                                  {"kernels", std::move(KernelsJ)},
                                  {"omitted", Omitted.json()}};
  OS << formatv("{0:2}", Root) << "\n";
}

} // namespace wgtrace::viewer
