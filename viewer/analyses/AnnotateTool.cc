//===- AnnotateTool.cc ----------------------------------------------------===//

#include "analyses/AnnotateTool.h"

#include "reader/Metadata.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

using namespace llvm;

namespace wgtrace::viewer {

void AnnotateTool::Counts::add(const Counts &O) {
  Loads += O.Loads;
  Stores += O.Stores;
  LoadBytes += O.LoadBytes;
  StoreBytes += O.StoreBytes;
  for (unsigned L = 0; L < LevelMisses.size(); ++L) {
    LevelMisses[L].Read += O.LevelMisses[L].Read;
    LevelMisses[L].Write += O.LevelMisses[L].Write;
  }
}

AnnotateTool::AnnotateTool(raw_ostream &OS, bool Json, Options O)
    : OS(OS), Json(Json), Opts(std::move(O)), Caches(Opts.Levels),
      LineShift(__builtin_ctzll(Opts.Levels.at(0).Geometry.LineSize)) {}

std::vector<std::string>
AnnotateTool::columns(const std::vector<CacheLevel> &Levels) {
  std::vector<std::string> Names = {"accesses", "loads", "stores", "bytes",
                                    "lines"};
  for (const CacheLevel &L : Levels) {
    Names.push_back(L.Name + "mr");
    Names.push_back(L.Name + "mw");
  }
  return Names;
}

double AnnotateTool::column(const Counts &C, StringRef Name) const {
  if (Name.empty() || Name == "accesses")
    return double(C.accesses());
  if (Name == "loads")
    return double(C.Loads);
  if (Name == "stores")
    return double(C.Stores);
  if (Name == "bytes")
    return double(C.bytes());
  if (Name == "lines")
    return double(C.CacheLines);
  for (unsigned L = 0; L < Opts.Levels.size(); ++L) {
    if (Name == Opts.Levels[L].Name + "mr")
      return double(C.LevelMisses[L].Read);
    if (Name == Opts.Levels[L].Name + "mw")
      return double(C.LevelMisses[L].Write);
  }
  return 0.0;
}

/// Whether \p A and \p B name one file: equal, or one a relative path the
/// other ends with (a kernel's place is the path as given to the rewriter,
/// an access site's the absolute one).
static bool sameFile(StringRef A, StringRef B) {
  if (A == B)
    return true;
  if (A.size() < B.size())
    std::swap(A, B);
  return !B.empty() && !B.starts_with("/") && A.ends_with(B) &&
         A[A.size() - B.size() - 1] == '/';
}

void AnnotateTool::beginRing(const RingInfo &Info) {
  Lines.beginRing(Info.Meta);
  if (IsShard)
    Keeper.beginRing(Info, /*WithKeys=*/false);
  noteMetadata(Info.Meta);
}

void AnnotateTool::noteMetadata(const Metadata *M) {
  if (M == Meta || !M)
    return;
  Meta = M;
  // A shard's are noted where it is merged.
  if (IsShard)
    return;
  // The kernels' copies of their definitions, for files moved or changed.
  for (uint32_t F = 0; F < Meta->Functions.size(); ++F) {
    const FunctionInfo &Fn = Meta->Functions[F];
    const FunctionExtension *X = Meta->functionExtension(F);
    if (!Fn.Name || !Fn.Source || Fn.Source->empty() || !X || !X->Where.known())
      continue;
    std::string Name = Fn.Name->str();
    Copies.try_emplace(Name, SourceEvidence::KernelCopy{Name, X->Where.Line,
                                                        Fn.Source->str()});
    CopyFiles.try_emplace(Name, X->Where.File);
  }
  for (const AccessSite &A : Meta->AccessSites)
    if (A.Where.known() && !A.Text.empty())
      Expressions[A.Where.File].insert({A.Where.Line, A.Where.Column, A.Text});
}

uint32_t AnnotateTool::kernelNamed(const std::string &Name) {
  auto [It, New] = KernelIndex.try_emplace(Name, uint32_t(Kernels.size()));
  if (New) {
    Kernels.emplace_back();
    Kernels.back().Name = Name;
    KernelCacheLines.emplace_back();
    KernelLastLine.push_back(UINT64_MAX);
  }
  return It->second;
}

uint32_t AnnotateTool::kernelOf(const Record &R) {
  const format::WorkgroupRecord &WG = R.Workgroup->Record;
  const uint32_t Kernel =
      kernelNamed(Meta->siteFunction(WG.DispatchId).nameOr("(null)").str());
  const std::string &Where = WG.DispatchId < Meta->SiteLocations.size()
                                 ? Meta->SiteLocations[WG.DispatchId]
                                 : std::string();
  std::string Site = Where.empty()
                         ? fmt::format("site {}", WG.DispatchId)
                         : fmt::format("site {} at {}", WG.DispatchId, Where);
  std::vector<std::string> &Sites = Kernels[Kernel].Sites;
  if (!is_contained(Sites, Site))
    Sites.push_back(std::move(Site));
  return Kernel;
}

AnnotateTool::Slot &AnnotateTool::newSlot(uint64_t Key) {
  auto [It, New] = SlotIndex.try_emplace(Key, uint32_t(Slots.size()));
  if (New) {
    Slots.emplace_back();
    Slots.back().Kernel = uint32_t(Key >> 32);
    Slots.back().Line = uint32_t(Key);
  }
  LastSlotKey = Key;
  LastSlot = It->second;
  return Slots[LastSlot];
}

/// Adds the lines [First, Last] to \p Set, unless they are the one line
/// added last.
static void addLines(DenseSet<uint64_t> &Set, uint64_t &LastLine,
                     uint64_t First, uint64_t Last) {
  if (First == Last && First == LastLine)
    return;
  for (uint64_t L = First;; ++L) {
    Set.insert(L);
    if (L == Last)
      break;
  }
  LastLine = Last;
}

void AnnotateTool::record(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  if (R.Tag == format::Tag::Workgroup) {
    bool New = KernelOf.workgroup(R.Workgroup->Invocation,
                                  [&] { return kernelOf(R); });
    // As `cache --cold`: a copy continuing a workgroup keeps the cache.
    if (New && Opts.Cold) {
      if (IsShard)
        Keeper.coldStart();
      else
        Caches.clear();
    }
    return;
  }
  if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
    return;
  std::optional<uint32_t> Kernel = KernelOf.ownerOf(R.Workgroup->Invocation);
  if (!Kernel)
    return;
  Slot &S = slot(R, *Kernel);
  const bool Store = R.Memory.IsStore;
  if (Store) {
    ++S.C.Stores;
    S.C.StoreBytes += R.Memory.Length;
  } else {
    ++S.C.Loads;
    S.C.LoadBytes += R.Memory.Length;
  }
  uint64_t First = R.Memory.Address >> LineShift;
  uint64_t Last = R.Memory.Length
                      ? (R.Memory.Address + (R.Memory.Length - 1)) >> LineShift
                      : First;
  if (Last < First)
    Last = First; // wraps past the top of the address space
  if (Opts.CountLines) {
    addLines(S.CacheLines, S.LastLine, First, Last);
    addLines(KernelCacheLines[*Kernel], KernelLastLine[*Kernel], First, Last);
    addLines(AllCacheLines, AllLastLine, First, Last);
  }
  // As `cache` counts it: one reference whatever lines it covers, its
  // misses going on to the next level. A shard's go through the caches at
  // the merge, in file order.
  if (IsShard)
    Keeper.keep(R.Memory.Address, R.Memory.Length, LastSlot, Store);
  else
    S.C.countMisses(Store, Caches.access(R.Memory.Address, R.Memory.Length));
}

std::unique_ptr<AnalysisTool> AnnotateTool::newShard() const {
  // It simulates nothing: the first level alone gives it the line size.
  Options O = Opts;
  O.Levels = {Opts.Levels[0]};
  O.Print = false;
  auto Shard = std::make_unique<AnnotateTool>(nulls(), Json, std::move(O));
  Shard->IsShard = true;
  Shard->KeptPool = KeptPool;
  Shard->Keeper = AccessKeeper(Shard->LineShift, KeptPool);
  return Shard;
}

/// Adds the lines of \p From to \p To.
static void addAll(DenseSet<uint64_t> &To, const DenseSet<uint64_t> &From) {
  for (uint64_t L : From)
    To.insert(L);
}

void AnnotateTool::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  AnnotateTool &From = static_cast<AnnotateTool &>(Shard);
  noteMetadata(From.Meta);
  // Kernels, line groups and slots new here in the order the shard met
  // them, after those of the chunks before: the one-thread order.
  std::vector<uint32_t> KernelHere(From.Kernels.size());
  for (uint32_t K = 0; K < KernelHere.size(); ++K) {
    const Kernel &Theirs = From.Kernels[K];
    KernelHere[K] = kernelNamed(Theirs.Name);
    std::vector<std::string> &Sites = Kernels[KernelHere[K]].Sites;
    for (const std::string &Site : Theirs.Sites)
      if (!is_contained(Sites, Site))
        Sites.push_back(Site);
    if (Opts.CountLines)
      addAll(KernelCacheLines[KernelHere[K]], From.KernelCacheLines[K]);
  }
  if (Opts.CountLines)
    addAll(AllCacheLines, From.AllCacheLines);
  std::vector<uint32_t> LineHere(From.Lines.size());
  for (uint32_t L = 0; L < LineHere.size(); ++L)
    LineHere[L] = Lines.adopt(From.Lines, L, Place.Buffers);
  std::vector<uint32_t> SlotHere(From.Slots.size());
  for (uint32_t I = 0; I < SlotHere.size(); ++I) {
    const Slot &Theirs = From.Slots[I];
    newSlot((uint64_t(KernelHere[Theirs.Kernel]) << 32) |
            LineHere[Theirs.Line]);
    SlotHere[I] = LastSlot;
    Slot &S = Slots[LastSlot];
    S.C.add(Theirs.C);
    if (Opts.CountLines)
      addAll(S.CacheLines, Theirs.CacheLines);
  }
  std::shared_ptr<const KeptChunk> Chunk = From.Keeper.take();
  replayAccesses(Caches, *Chunk,
                 [&](size_t, const KeptAccess &A, unsigned Missed) {
                   Slots[SlotHere[A.owner()]].C.countMisses(A.store(), Missed);
                 });
}

const SourceText *AnnotateTool::source(StringRef File) const {
  auto It = Sources.find(File.str());
  return It == Sources.end() ? nullptr : &It->second;
}

void AnnotateTool::loadSources() {
  std::set<std::string> Files;
  for (const Kernel &K : Kernels)
    for (const LineRow &L : K.Lines)
      if (L.Where.known())
        Files.insert(L.Where.File);
  for (const std::string &File : Files) {
    SourceEvidence E;
    if (auto It = Expressions.find(File); It != Expressions.end())
      for (const auto &[Line, Column, Text] : It->second)
        E.Expressions.push_back({Line, Column, Text});
    for (const auto &[Name, Copy] : Copies)
      if (sameFile(CopyFiles[Name], File))
        E.Kernels.push_back(Copy);
    Sources.emplace(File, SourceText::load(File, E, Opts.SourceDirs));
  }
}

void AnnotateTool::finish() {
  for (const Slot &S : Slots) {
    LineRow Row;
    Row.Where = Lines.place(S.Line);
    Row.Texts = Lines.texts(S.Line);
    Row.C = S.C;
    Row.C.CacheLines = S.CacheLines.size();
    Kernels[S.Kernel].Totals.add(Row.C);
    Totals.add(Row.C);
    Kernels[S.Kernel].Lines.push_back(std::move(Row));
  }
  for (uint32_t K = 0; K < Kernels.size(); ++K) {
    Kernels[K].Totals.CacheLines = KernelCacheLines[K].size();
    // File, then line; accesses without a line last.
    std::sort(Kernels[K].Lines.begin(), Kernels[K].Lines.end(),
              [](const LineRow &A, const LineRow &B) {
                if (A.Where.known() != B.Where.known())
                  return A.Where.known();
                return std::tie(A.Where.File, A.Where.Line) <
                       std::tie(B.Where.File, B.Where.Line);
              });
  }
  Totals.CacheLines = AllCacheLines.size();
  // The hottest kernel first, by the sort column.
  // (std::stable_sort's temporary buffer is deprecated in the library clang
  // and GCC build against here: names break the ties.)
  std::sort(Kernels.begin(), Kernels.end(),
            [&](const Kernel &A, const Kernel &B) {
              double HA = column(A.Totals, Opts.Order.Column),
                     HB = column(B.Totals, Opts.Order.Column);
              return HA != HB ? HA > HB : A.Name < B.Name;
            });
  loadSources();
  if (!Opts.Print)
    return;
  if (Json)
    printJson();
  else
    printText();
  OS.flush();
}

namespace {

/// A run of source lines listed together: lines with accesses and their
/// context.
struct ListingChunk {
  std::string File;
  uint32_t First = 0;
  uint32_t Last = 0;
  /// The largest sort value of its lines, and the rank of its hottest line.
  double Heat = 0;
  size_t Rank = 0;
};

} // namespace

/// The chunks of kernel \p K's listing, in the order they are shown.
static std::vector<ListingChunk>
chunksOf(const AnnotateTool::Kernel &K, const AnnotateTool::Options &Opts,
         const std::function<double(const AnnotateTool::Counts &)> &Heat) {
  // The lines annotated: all, or the --top hottest.
  std::vector<const AnnotateTool::LineRow *> Hot;
  for (const AnnotateTool::LineRow &L : K.Lines)
    if (L.Where.known())
      Hot.push_back(&L);
  // Hottest first (ties in file order), the first --top of them.
  std::sort(Hot.begin(), Hot.end(), [&](auto *A, auto *B) {
    double HA = Heat(A->C), HB = Heat(B->C);
    return HA != HB ? HA > HB : A < B; // K.Lines is in file order
  });
  if (Opts.Order.Top && Hot.size() > Opts.Order.Top)
    Hot.resize(Opts.Order.Top);
  std::map<std::pair<std::string, uint32_t>, size_t> RankOf;
  for (size_t I = 0; I < Hot.size(); ++I)
    RankOf.emplace(std::make_pair(Hot[I]->Where.File, Hot[I]->Where.Line), I);
  // In file order, merged where their context meets.
  std::vector<ListingChunk> Chunks;
  for (const auto &[Place, Rank] : RankOf) {
    const auto &[File, Line] = Place;
    uint32_t First = Line > Opts.Context ? Line - Opts.Context : 1;
    uint32_t Last = Line + Opts.Context;
    double H = Heat(Hot[Rank]->C);
    if (!Chunks.empty() && Chunks.back().File == File &&
        First <= Chunks.back().Last + 1) {
      ListingChunk &C = Chunks.back();
      C.Last = std::max(C.Last, Last);
      if (Rank < C.Rank) {
        C.Rank = Rank;
        C.Heat = H;
      }
      continue;
    }
    Chunks.push_back({File, First, Last, H, Rank});
  }
  if (!Opts.FileOrder) {
    std::sort(Chunks.begin(), Chunks.end(),
              [](const ListingChunk &A, const ListingChunk &B) {
                return A.Rank < B.Rank;
              });
  } else {
    // Files in the order of their hottest line, each from its top.
    std::map<std::string, size_t> FileRank;
    for (const ListingChunk &C : Chunks) {
      auto [It, New] = FileRank.try_emplace(C.File, C.Rank);
      if (!New)
        It->second = std::min(It->second, C.Rank);
    }
    std::sort(Chunks.begin(), Chunks.end(),
              [&](const ListingChunk &A, const ListingChunk &B) {
                return std::make_tuple(FileRank[A.File], A.First) <
                       std::make_tuple(FileRank[B.File], B.First);
              });
  }
  return Chunks;
}

/// The lines with accesses of kernel \p K that --top leaves out of its
/// listing.
static uint64_t linesLeftOut(const AnnotateTool::Kernel &K,
                             const AnnotateTool::Options &Opts) {
  uint64_t Known = 0;
  for (const AnnotateTool::LineRow &L : K.Lines)
    Known += L.Where.known();
  return Opts.Order.Top && Known > Opts.Order.Top ? Known - Opts.Order.Top : 0;
}

/// 1234567 -> "1,234,567", as cg_annotate prints counts.
static std::string grouped(uint64_t N) {
  std::string Digits = std::to_string(N);
  std::string Out;
  for (size_t I = 0; I < Digits.size(); ++I) {
    if (I && (Digits.size() - I) % 3 == 0)
      Out += ',';
    Out += Digits[I];
  }
  return Out;
}

static const char *const kRule =
    "--------------------------------------------------------------------"
    "------------\n";

void AnnotateTool::printText() {
  // Columns: cachegrind's event names, widths fitting the totals (no
  // line or kernel has more than all of them).
  std::vector<std::string> Names = {"Ld", "St", "Bytes", "Lines"};
  for (const CacheLevel &L : Opts.Levels) {
    Names.push_back(L.Name + "mr");
    Names.push_back(L.Name + "mw");
  }
  auto Values = [&](const Counts &C) {
    std::vector<uint64_t> V = {C.Loads, C.Stores, C.bytes(), C.CacheLines};
    for (unsigned L = 0; L < Opts.Levels.size(); ++L) {
      V.push_back(C.LevelMisses[L].Read);
      V.push_back(C.LevelMisses[L].Write);
    }
    return V;
  };
  std::vector<size_t> Widths;
  {
    std::vector<uint64_t> Most = Values(Totals);
    for (size_t I = 0; I < Names.size(); ++I)
      Widths.push_back(std::max(Names[I].size(), grouped(Most[I]).size()));
  }
  auto Row = [&](const Counts *C, StringRef Text) {
    std::string Line;
    std::vector<uint64_t> V = C ? Values(*C) : std::vector<uint64_t>();
    for (size_t I = 0; I < Names.size(); ++I)
      Line += fmt::format("{:>{}} ", C ? grouped(V[I]) : ".", Widths[I]);
    Line += Text.str();
    return StringRef(Line).rtrim().str() + "\n";
  };
  std::string Header;
  for (size_t I = 0; I < Names.size(); ++I)
    Header += fmt::format("{:>{}} ", Names[I], Widths[I]);
  Header = StringRef(Header).rtrim().str() + "\n";
  auto Title = [&](StringRef T) { OS << kRule << "-- " << T << "\n" << kRule; };

  OS << runHeader(Census);
  Title("Metadata");
  OS << fmt::format("Trace:            {}\n", Opts.Trace);
  for (const CacheLevel &L : Opts.Levels)
    OS << fmt::format("{:<18}{} bytes, {}-byte lines, {} ways, {} sets, "
                      "LRU\n",
                      "Cache " + L.Name + ":", L.Geometry.Size,
                      L.Geometry.LineSize, L.Geometry.Ways, L.Geometry.sets());
  if (!Opts.Note.empty())
    OS << "Cache note:       " << Opts.Note << "\n";
  OS << fmt::format("Caches:           write-allocate, the misses of a level "
                    "looked up in the next; {}\n",
                    Opts.Cold ? "emptied before each workgroup"
                              : "shared by all workgroups in record order");
  OS << "Events shown:     " << join(Names, " ") << "\n";
  OS << "                  (loads, stores, bytes of both, distinct cache "
        "lines, then per level read and write misses)\n";
  OS << "Event sort order: "
     << (Opts.Order.Column.empty() ? "accesses (Ld + St)" : Opts.Order.Column)
     << "\n";
  OS << fmt::format(
      "Annotation:       {}, {} line{} of context{}\n",
      Opts.FileOrder ? "in file order" : "hottest lines first", Opts.Context,
      Opts.Context == 1 ? "" : "s",
      Opts.Order.Top
          ? fmt::format(", the {} hottest lines of each kernel", Opts.Order.Top)
          : std::string());
  OS << "Kernels:          "
     << (Opts.KernelGlob.empty() ? "all" : "matching " + Opts.KernelGlob)
     << "\n\n";

  Title("Summary");
  OS << Header << "\n";
  OS << Row(&Totals, "PROGRAM TOTALS");
  for (const Kernel &K : Kernels)
    OS << Row(&K.Totals, K.Name);

  auto Heat = [&](const Counts &C) { return column(C, Opts.Order.Column); };
  for (const Kernel &K : Kernels) {
    OS << "\n";
    Title("Kernel: " + K.Name + " (" + join(K.Sites, "; ") + ")");
    OS << Header << "\n";
    OS << Row(&K.Totals, "kernel total");
    std::string ShownFile;
    for (const ListingChunk &C : chunksOf(K, Opts, Heat)) {
      const SourceText *Text = source(C.File);
      if (C.File != ShownFile) {
        ShownFile = C.File;
        OS << "\n-- File: " << C.File << "\n";
        switch (Text->origin()) {
        case SourceOrigin::Disk:
          OS << "--   source: the file on disk"
             << (Text->path() == C.File
                     ? std::string()
                     : " found at " + Text->path() + " (--source-dir)")
             << "\n";
          break;
        case SourceOrigin::MetadataCopy:
          OS << "--   source: the trace metadata's copy of the kernel "
                "definitions (the file is "
             << Text->reason() << ")\n";
          break;
        case SourceOrigin::None:
          OS << "--   source: none (the file is " << Text->reason()
             << "); lines show their accesses' text\n";
          break;
        }
      }
      uint32_t Next = 0; // the line after the last one printed
      for (uint32_t L = C.First; L <= C.Last; ++L) {
        auto It = std::lower_bound(
            K.Lines.begin(), K.Lines.end(), std::make_pair(&C.File, L),
            [](const LineRow &Row, const auto &At) {
              return Row.Where.known() &&
                     std::tie(Row.Where.File, Row.Where.Line) <
                         std::tie(*At.first, At.second);
            });
        const LineRow *Counted = It != K.Lines.end() && It->Where.known() &&
                                         It->Where.File == C.File &&
                                         It->Where.Line == L
                                     ? &*It
                                     : nullptr;
        std::optional<StringRef> Source = Text->line(L);
        // Context comes only from text there is.
        if (!Counted && !Source)
          continue;
        if (L != Next)
          OS << "-- line " << L << " " << std::string(40, '-') << "\n";
        Next = L + 1;
        std::string Shown = Source
                                ? Source->str()
                                : "[no source] " + join(Counted->Texts, ", ");
        OS << Row(Counted ? &Counted->C : nullptr, Shown);
      }
    }
    if (uint64_t Left = linesLeftOut(K, Opts))
      OS << "\n" << omittedText(Left, "lines with accesses", 0);
    if (!K.Lines.empty() && !K.Lines.back().Where.known()) {
      OS << "\n";
      OS << Row(&K.Lines.back().C, "(accesses with no source line)");
    }
  }
  OS << censusText(Census);
}

void AnnotateTool::printJson() {
  auto CountsJ = [&](const Counts &C) {
    json::Object O{{"loads", C.Loads},
                   {"stores", C.Stores},
                   {"load_bytes", C.LoadBytes},
                   {"store_bytes", C.StoreBytes},
                   {"lines", C.CacheLines}};
    for (unsigned L = 0; L < Opts.Levels.size(); ++L) {
      O[Opts.Levels[L].Name + "mr"] = C.LevelMisses[L].Read;
      O[Opts.Levels[L].Name + "mw"] = C.LevelMisses[L].Write;
    }
    return O;
  };
  auto Heat = [&](const Counts &C) { return column(C, Opts.Order.Column); };
  json::Array KernelsJ;
  for (const Kernel &K : Kernels) {
    json::Array LinesJ;
    json::Value NoLine = nullptr;
    for (const LineRow &L : K.Lines) {
      json::Object O = CountsJ(L.C);
      if (!L.Where.known()) {
        NoLine = std::move(O);
        continue;
      }
      O["file"] = L.Where.File;
      O["line"] = L.Where.Line;
      O["accesses"] = json::Array(L.Texts);
      LinesJ.push_back(std::move(O));
    }
    OmittedRows Omitted{"lines"};
    Omitted.add("lines", linesLeftOut(K, Opts));
    json::Array ChunksJ;
    for (const ListingChunk &C : chunksOf(K, Opts, Heat)) {
      const SourceText *Text = source(C.File);
      json::Array SourceJ;
      for (uint32_t L = C.First; L <= C.Last; ++L) {
        std::optional<StringRef> S = Text->line(L);
        SourceJ.push_back(S ? json::Value(*S) : json::Value(nullptr));
      }
      ChunksJ.push_back(json::Object{{"file", C.File},
                                     {"first", C.First},
                                     {"last", C.Last},
                                     {"source", std::move(SourceJ)}});
    }
    KernelsJ.push_back(json::Object{{"kernel", K.Name},
                                    {"sites", json::Array(K.Sites)},
                                    {"totals", CountsJ(K.Totals)},
                                    {"lines", std::move(LinesJ)},
                                    {"no_line", std::move(NoLine)},
                                    {"chunks", std::move(ChunksJ)},
                                    {"omitted", Omitted.json()}});
  }
  json::Array FilesJ;
  for (const auto &[File, Text] : Sources)
    FilesJ.push_back(json::Object{{"file", File},
                                  {"source", sourceOriginName(Text.origin())},
                                  {"path", Text.path()},
                                  {"reason", Text.reason()}});
  json::Array LevelsJ;
  for (const CacheLevel &L : Opts.Levels)
    LevelsJ.push_back(json::Object{{"name", L.Name},
                                   {"size", L.Geometry.Size},
                                   {"line_size", L.Geometry.LineSize},
                                   {"ways", L.Geometry.Ways},
                                   {"sets", L.Geometry.sets()}});
  json::Value Root = json::Object{
      {"schema", "wgtrace-annotate/2"},
      {"cache", json::Object{{"levels", std::move(LevelsJ)},
                             {"cold_per_workgroup", Opts.Cold},
                             {"note", Opts.Note}}},
      {"order", Opts.FileOrder ? "file" : "hot"},
      {"sort", Opts.Order.Column.empty() ? "accesses" : Opts.Order.Column},
      {"top", Opts.Order.Top},
      {"context", Opts.Context},
      {"totals", CountsJ(Totals)},
      {"kernels", std::move(KernelsJ)},
      {"files", std::move(FilesJ)},
      {"run", runJson(Census)},
      {"selection", selectionJson(Census)},
      {"loss", censusJson(Census)}};
  OS << formatv("{0:2}", Root) << "\n";
}

} // namespace wgtrace::viewer
