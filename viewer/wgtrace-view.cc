//===- wgtrace-view.cc - Decode, analyse and export wgtrace traces --------===//
//
// Exit status: 0 success, 1 usage error (or an analysis found a problem,
// e.g. races), 2 the trace is damaged, holds nothing to analyse, or the
// output could not be written (after printing what was decodable), 3 a
// report over a trace that misses part of the run (lost records, untraced
// accesses). Precedence: 2, then 1, then 3.
//
//===----------------------------------------------------------------------===//

#include "ToolCommandLine.h"
#include "ToolIdentity.h"
#include "analyses/AnnotateTool.h"
#include "analyses/CacheTool.h"
#include "analyses/DiffReport.h"
#include "analyses/FootprintTool.h"
#include "analyses/LineReuseTool.h"
#include "analyses/ProfileTool.h"
#include "analyses/Progress.h"
#include "analyses/RacesTool.h"
#include "analyses/SummaryTool.h"
#include "analyses/ToolPair.h"
#include "output/ChromeTraceTool.h"
#include "output/DumpTool.h"
#include "output/HtmlReportTool.h"
#include "output/IreeConvertTool.h"
#include "output/OutputFile.h"
#include "output/RecordTableTool.h"
#include "output/TraceRecompressor.h"
#include "reader/TraceReader.h"
#include "simulator/MachineCaches.h"
#include "wgtrace/settings_syntax.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <thread>

using namespace llvm;
using namespace wgtrace::viewer;

namespace {

constexpr int kExitUsage = 1;
/// An analysis found what it looks for (races).
constexpr int kExitFound = 1;
constexpr int kExitDamaged = 2;
/// The report is complete for the trace, but the trace is not for the run:
/// wrapped rings lost records, or the source has accesses the rewriter
/// could not wrap (the report's loss block says which). Never silent in
/// the exit status either, so that a script's gate (no races) does not
/// pass on part of the run.
constexpr int kExitIncomplete = 3;

/// The status of two outcomes together: damage over a finding or usage
/// error over an incomplete trace over success.
int worse(int A, int B) {
  auto Rank = [](int S) {
    return S == kExitIncomplete ? 1 : S == 0 ? 0 : S + 1;
  };
  return Rank(A) >= Rank(B) ? A : B;
}

/// kExitIncomplete when \p C says the trace misses part of the run.
int completeness(const TraceCensus &C) {
  return C.incomplete() ? kExitIncomplete : 0;
}

cl::OptionCategory ViewCategory("wgtrace-view options");

cl::SubCommand DumpCmd("dump", "Print the trace as text (IREE's format)");
cl::SubCommand SummaryCmd("summary",
                          "Loads, stores, bytes, distinct cache lines, "
                          "values and prints per site, workgroup and kernel "
                          "(several files: one report each)");
cl::SubCommand RacesCmd("races",
                        "Pairs of workgroups of one launch that touch the "
                        "same bytes, at least one writing (exit status 1 "
                        "when any; several files: one report each)");
cl::SubCommand FootprintCmd("footprint",
                            "Per workgroup: byte ranges touched per buffer "
                            "and the stride pattern of each access stream");
cl::SubCommand CacheCmd("cache",
                        "Hits and misses per workgroup in a set-associative "
                        "LRU cache, and a reuse-distance histogram");
cl::SubCommand ExportCmd("export",
                         "Chrome trace event JSON (Perfetto, "
                         "chrome://tracing), or one row per record as CSV "
                         "or JSON Lines (several files: one output)");
cl::SubCommand DiffCmd("diff",
                       "Two runs side by side: per kernel, site, buffer and "
                       "source line, accesses, bytes, distinct cache lines, "
                       "modelled misses and racing pairs before and after");
cl::SubCommand ConvertCmd("convert",
                          "Write the trace as a file IREE's "
                          "iree-dump-instruments reads exactly (--iree)");
cl::SubCommand CompressCmd("compress",
                           "Copy a trace with its ring chunks compressed "
                           "with zstd, as WGTRACE_COMPRESS=zstd writes them "
                           "(a file only wgtrace-view reads)");
cl::SubCommand DecompressCmd("decompress",
                             "Copy a trace with its compressed chunks "
                             "decompressed: the file an uncompressed run "
                             "writes, in IREE's format");
cl::SubCommand AnnotateCmd("annotate",
                           "Each kernel's source, every line that made "
                           "accesses with its loads, stores, bytes, distinct "
                           "cache lines and modelled misses, as cg_annotate "
                           "lists it");
cl::SubCommand HtmlCmd("html",
                       "One self-contained HTML report: dispatch sites, "
                       "workgroups and a zoomable access map");

cl::list<std::string> Inputs(cl::Positional, cl::desc("<trace file>..."),
                             cl::OneOrMore, cl::sub(DumpCmd),
                             cl::sub(SummaryCmd), cl::sub(RacesCmd),
                             cl::sub(FootprintCmd), cl::sub(CacheCmd),
                             cl::sub(ExportCmd), cl::sub(HtmlCmd),
                             cl::sub(DiffCmd), cl::sub(ConvertCmd),
                             cl::sub(AnnotateCmd));

cl::list<std::string> InOut(cl::Positional, cl::desc("<input> <output>"),
                            cl::OneOrMore, cl::sub(CompressCmd),
                            cl::sub(DecompressCmd));
cl::opt<std::string>
    CompressLevel("level",
                  cl::desc("zstd level, from 1 (fastest, the default) to 19"),
                  cl::value_desc("N"), cl::init("1"), cl::sub(CompressCmd),
                  cl::cat(ViewCategory));

// The filter of every subcommand.
cl::opt<std::string>
    KernelFilter("kernel",
                 cl::desc("Only workgroups of kernels whose name matches this "
                          "glob (e.g. 'matmul*')"),
                 cl::value_desc("glob"), cl::sub(DumpCmd), cl::sub(SummaryCmd),
                 cl::sub(RacesCmd), cl::sub(FootprintCmd), cl::sub(CacheCmd),
                 cl::sub(ExportCmd), cl::sub(HtmlCmd), cl::sub(DiffCmd),
                 cl::sub(AnnotateCmd), cl::cat(ViewCategory));
cl::opt<int64_t> DispatchFilter("dispatch",
                                cl::desc("Only workgroups of this dispatch "
                                         "site (default: all)"),
                                cl::init(-1), cl::sub(DumpCmd),
                                cl::sub(SummaryCmd), cl::sub(RacesCmd),
                                cl::sub(FootprintCmd), cl::sub(CacheCmd),
                                cl::sub(ExportCmd), cl::sub(HtmlCmd),
                                cl::sub(DiffCmd), cl::sub(AnnotateCmd),
                                cl::cat(ViewCategory));
cl::opt<std::string> WorkgroupFilterText(
    "workgroup", cl::desc("Only workgroup x,y,z"), cl::value_desc("x,y,z"),
    cl::sub(DumpCmd), cl::sub(SummaryCmd), cl::sub(RacesCmd),
    cl::sub(FootprintCmd), cl::sub(CacheCmd), cl::sub(ExportCmd),
    cl::sub(HtmlCmd), cl::sub(AnnotateCmd), cl::cat(ViewCategory));

cl::opt<bool> Json("json", cl::desc("Print JSON instead of text"),
                   cl::sub(SummaryCmd), cl::sub(RacesCmd),
                   cl::sub(FootprintCmd), cl::sub(CacheCmd), cl::sub(DiffCmd),
                   cl::sub(AnnotateCmd), cl::cat(ViewCategory));
cl::opt<std::string> Output("o",
                            cl::desc("Write to this file (atomically: "
                                     "nothing is left behind on an error; "
                                     "a symlink's target is written, a "
                                     "device, FIFO or socket in place; "
                                     "default: standard output, also '-')"),
                            cl::value_desc("file"), cl::init("-"),
                            cl::sub(SummaryCmd), cl::sub(RacesCmd),
                            cl::sub(FootprintCmd), cl::sub(CacheCmd),
                            cl::sub(ExportCmd), cl::sub(HtmlCmd),
                            cl::sub(DiffCmd), cl::sub(ConvertCmd),
                            cl::sub(AnnotateCmd), cl::cat(ViewCategory));

cl::opt<bool> IreeCompat(
    "iree-compat",
    cl::desc("Reproduce iree-dump-instruments byte for byte (sign-extended "
             "8/16-bit values, wrapped rings read from offset 0, access-site "
             "bits in addresses, stop at the first timing chunk)"),
    cl::sub(DumpCmd), cl::cat(ViewCategory));

cl::opt<bool> ToIree("iree",
                     cl::desc("Convert to IREE's format: IREE's metadata "
                              "tables, rings from offset 0 without wraps, "
                              "plain addresses, no wgtrace values, trailers "
                              "or timing chunks (the only target; required)"),
                     cl::sub(ConvertCmd), cl::cat(ViewCategory));

cl::opt<unsigned> LineSize("line-size",
                           cl::desc("Cache line size in bytes, a power of "
                                    "two (default: 64)"),
                           cl::init(64), cl::sub(SummaryCmd),
                           cl::cat(ViewCategory));

cl::opt<unsigned> Threads(
    "threads",
    cl::desc("Decode ring chunks (dump, export csv|jsonl: write the lines; "
             "compress, decompress: make the chunks; diff: of each file, the "
             "two at once; html: for the page and for its sections, the two "
             "at once) on N threads, the report the same (default: the "
             "cores available; diff: half of them each)"),
    cl::value_desc("N"), cl::sub(DumpCmd), cl::sub(SummaryCmd),
    cl::sub(RacesCmd), cl::sub(FootprintCmd), cl::sub(CacheCmd),
    cl::sub(AnnotateCmd), cl::sub(DiffCmd), cl::sub(ExportCmd),
    cl::sub(CompressCmd), cl::sub(DecompressCmd), cl::sub(HtmlCmd),
    cl::sub(ConvertCmd), cl::cat(ViewCategory));

cl::opt<std::string> By("by",
                        cl::desc("Rows per workgroup (default), site, kernel "
                                 "(all sites that launched it), line (source "
                                 "line of the accesses) or buffer (the kernel "
                                 "parameter they fall in)"),
                        cl::value_desc("workgroup|site|kernel|line|buffer"),
                        cl::init("workgroup"), cl::sub(SummaryCmd),
                        cl::sub(CacheCmd), cl::cat(ViewCategory));

// One option for every table report; its help names each report's columns
// (parseOrder() checks them), so that --help is the list a user needs.
cl::opt<std::string> SortColumn(
    "sort",
    cl::desc("Rows with the most of this column first (summary: "
             "workgroups, loads, stores, atomics, load_bytes, "
             "store_bytes, lines, values, prints; cache: accesses, "
             "reads, writes, and per level D1mr, D1mw, L2mr, L2mw, LLmr, "
             "LLmw; races: pairs, write_write_pairs, "
             "read_write_pairs, overlap_bytes; footprint: load_bytes, "
             "store_bytes, accesses; diff: the largest change of "
             "accesses, bytes, lines, each level's D1mr, D1mw, L2mr, L2mw, "
             "LLmr, LLmw, or races; annotate: accesses, "
             "loads, stores, bytes, lines, and per level D1mr, D1mw, L2mr, "
             "L2mw, LLmr, LLmw)"),
    cl::value_desc("column"), cl::sub(SummaryCmd), cl::sub(CacheCmd),
    cl::sub(RacesCmd), cl::sub(FootprintCmd), cl::sub(DiffCmd),
    cl::sub(AnnotateCmd), cl::cat(ViewCategory));
cl::opt<uint64_t> TopRows("top",
                          cl::desc("Only the first N rows of each table, "
                                   "saying how many it left out (annotate: "
                                   "the N hottest lines of each kernel; "
                                   "totals stay those of all rows; default: "
                                   "all)"),
                          cl::value_desc("N"), cl::sub(SummaryCmd),
                          cl::sub(CacheCmd), cl::sub(RacesCmd),
                          cl::sub(FootprintCmd), cl::sub(DiffCmd),
                          cl::sub(AnnotateCmd), cl::cat(ViewCategory));

cl::opt<uint64_t> RacesLimit("limit",
                             cl::desc("List at most this many groups of "
                                      "racing accesses (all are counted; "
                                      "default: 100)"),
                             cl::init(100), cl::sub(RacesCmd),
                             cl::cat(ViewCategory));

// The reports that model the cache hierarchy (D1, L2, LL, each the
// machine's unless given): cache, annotate and diff take its options,
// registered once for all, so that they parse, default and refuse alike.
cl::SubCommandGroup HierarchyCmds({&CacheCmd, &AnnotateCmd, &DiffCmd,
                                   &HtmlCmd});
cl::opt<std::string> L1Spec("l1",
                            cl::desc("The first level (D1): SIZE,WAYS,LINE, "
                                     "e.g. 32k,8,64 (default: the machine's "
                                     "L1 data cache)"),
                            cl::value_desc("size,ways,line"),
                            cl::sub(HierarchyCmds), cl::cat(ViewCategory));
cl::opt<std::string> L2Spec("l2",
                            cl::desc("The second level: SIZE,WAYS,LINE, or "
                                     "none to model D1 and LL only (default: "
                                     "the machine's L2 when it has a third "
                                     "level)"),
                            cl::value_desc("size,ways,line|none"),
                            cl::sub(HierarchyCmds), cl::cat(ViewCategory));
cl::opt<std::string> LLSpec("ll",
                            cl::desc("The last level (LL): SIZE,WAYS,LINE "
                                     "(default: the machine's last level, "
                                     "as cachegrind's LL)"),
                            cl::value_desc("size,ways,line"),
                            cl::sub(HierarchyCmds), cl::cat(ViewCategory));
// The single-level options cache, annotate and diff took before the hierarchy:
// refused with the options that replaced them, not accepted and ignored.
// Hidden, not ReallyHidden: the tool removes ReallyHidden options (LLVM's
// own).
cl::opt<std::string> OldCacheLevel("level", cl::Hidden,
                                   cl::desc("Gone: see --l1, --l2, --ll"),
                                   cl::sub(HierarchyCmds),
                                   cl::cat(ViewCategory));
cl::opt<std::string> OldCacheSize("cache-size", cl::Hidden,
                                  cl::desc("Gone: see --l1, --l2, --ll"),
                                  cl::sub(HierarchyCmds),
                                  cl::cat(ViewCategory));
cl::opt<std::string> OldCacheWays("ways", cl::Hidden,
                                  cl::desc("Gone: see --l1, --l2, --ll"),
                                  cl::sub(HierarchyCmds),
                                  cl::cat(ViewCategory));
cl::opt<std::string> OldLineSize("line-size", cl::Hidden,
                                 cl::desc("Gone: see --l1, --l2, --ll"),
                                 cl::sub(HierarchyCmds), cl::cat(ViewCategory));
cl::opt<bool> CacheCold("cold",
                        cl::desc("Empty the cache before each workgroup"),
                        cl::sub(HierarchyCmds), cl::cat(ViewCategory));

cl::list<std::string> SourceDirs(
    "source-dir",
    cl::desc("Where else to look for a source file that is not where the "
             "trace recorded it, or changed there: DIR/path, then DIR with "
             "shorter and shorter tails of the path (as cg_annotate's -I; "
             "repeatable, searched in order)"),
    cl::value_desc("dir"), cl::sub(AnnotateCmd), cl::sub(HtmlCmd),
    cl::cat(ViewCategory));
cl::opt<unsigned> AnnotateContext("context",
                                  cl::desc("Lines of source shown before and "
                                           "after each line with accesses "
                                           "(default: 3)"),
                                  cl::value_desc("N"), cl::init(3),
                                  cl::sub(AnnotateCmd), cl::cat(ViewCategory));
cl::opt<std::string>
    AnnotateOrder("order",
                  cl::desc("hot: the hottest lines (by --sort) first, each "
                           "with its context (default); file: in file order"),
                  cl::value_desc("hot|file"), cl::init("hot"),
                  cl::sub(AnnotateCmd), cl::cat(ViewCategory));

cl::opt<std::string> ExportFormat("format",
                                  cl::desc("chrome, csv or jsonl (default: "
                                           "chrome)"),
                                  cl::init("chrome"), cl::sub(ExportCmd),
                                  cl::cat(ViewCategory));

const std::string kMaxPointsHelp =
    fmt::format("Downsample the access map above this many accesses "
                "(default: {})",
                HtmlReportTool::DefaultMaxPoints);
cl::opt<uint64_t> HtmlMaxPoints("max-points", cl::desc(kMaxPointsHelp),
                                cl::init(HtmlReportTool::DefaultMaxPoints),
                                cl::sub(HtmlCmd), cl::cat(ViewCategory));

raw_ostream &error() { return WithColor::error(errs(), "wgtrace-view"); }
raw_ostream &note() { return WithColor::note(errs(), "wgtrace-view"); }

/// Reports how wrapped rings were decoded, on stderr so that stdout keeps
/// IREE's exact format.
class WrapNotes : public AnalysisTool {
public:
  explicit WrapNotes(StringRef File) : File(File) {}
  void beginRing(const RingInfo &Info) override {
    if (!Info.Wrapped || IreeCompat)
      return;
    note() << File
           << fmt::format(": offset {:#x}: chunk {} (ring): ring of {} bytes "
                          "wrapped (head {}): {} bytes lost, showing records "
                          "from ring offset {:#x}\n",
                          Info.FileOffset, Info.Where.Index, Info.Size,
                          Info.Head, Info.LostBytes, Info.StartOffset);
  }
  void record(const Record &) override {}
  bool wantsRecords() const override { return false; }

private:
  std::string File;
};

/// One error line, "<File>: <message>" (just the message without a file).
int reportError(StringRef File, Error E) {
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    error() << (File.empty() ? "" : File.str() + ": ") << EI.message() << "\n";
  });
  return kExitDamaged;
}

bool parseWorkgroup(StringRef Text, std::array<uint32_t, 3> &Id) {
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.size() != 3)
    return false;
  for (int I = 0; I < 3; ++I)
    if (Parts[I].trim().getAsInteger(10, Id[I]))
      return false;
  return true;
}

/// The filter options; false (after an error line) when one is malformed.
bool parseFilter(WorkgroupFilter &F) {
  if (KernelFilter.getNumOccurrences()) {
    if (Expected<GlobPattern> G = GlobPattern::create(KernelFilter); !G) {
      error() << "--kernel: " << toString(G.takeError()) << "\n";
      return false;
    }
    F.Kernel = KernelFilter;
  }
  if (DispatchFilter >= 0)
    F.Dispatch = static_cast<uint32_t>(DispatchFilter);
  if (!WorkgroupFilterText.empty()) {
    std::array<uint32_t, 3> Id;
    if (!parseWorkgroup(WorkgroupFilterText, Id)) {
      error() << "--workgroup expects x,y,z, got '" << WorkgroupFilterText
              << "'\n";
      return false;
    }
    F.Id = Id;
  }
  return true;
}

/// Metadata notes are printed once per run, whichever files repeat them.
std::set<std::string> NotesShown;

/// What one file's reading ended with.
struct FileRun {
  int Status = 0;
};

/// Reads \p Path and runs \p Tools over it with, on a terminal, the
/// progress line. \p Analysis: an error when there is nothing to analyse.
/// \p LossNotes: the census's loss goes to stderr as notes (for outputs
/// whose format has no room for it: dump, CSV).
int runFile(StringRef Path, const TraceFile &File, RingMode Mode,
            const WorkgroupFilter &Filter, ArrayRef<AnalysisTool *> Tools,
            bool Analysis, bool LossNotes);
int runFile(StringRef Path, RingMode Mode, const WorkgroupFilter &Filter,
            ArrayRef<AnalysisTool *> Tools, bool Analysis, bool LossNotes) {
  Expected<TraceFile> File = TraceFile::open(Path);
  if (!File)
    return reportError(Path, File.takeError());
  return runFile(Path, *File, Mode, Filter, Tools, Analysis, LossNotes);
}

/// runFile() for \p File, opened from \p Path already.
int runFile(StringRef Path, const TraceFile &File, RingMode Mode,
            const WorkgroupFilter &Filter, ArrayRef<AnalysisTool *> Tools,
            bool Analysis, bool LossNotes) {
  WrapNotes Notes(Path);
  Progress Status(errs(), File.bytes().size(), /*Enabled=*/true);
  SmallVector<AnalysisTool *, 4> All;
  // The dump's documented note for each wrapped ring it shows.
  if (!Analysis)
    All.push_back(&Notes);
  All.append(Tools.begin(), Tools.end());
  // Only on a terminal (it would cost a call per record for nothing); last,
  // so that its line is erased after the tools have printed theirs.
  if (Progress::enabledForStderr())
    All.push_back(&Status);
  TraceReader Reader(File, Mode, Filter);
  Reader.setThreads(Threads);
  Error E = Reader.run(All);
  const TraceCensus &C = Reader.census();
  for (const std::string &N : C.Notes)
    if (NotesShown.insert(N).second)
      note() << Path << ": " << N << "\n";
  if (LossNotes) {
    SmallVector<StringRef, 8> Lines;
    std::string Loss = runText(C) + lossText(C) + uninstrumentedText(C);
    StringRef(Loss).split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (StringRef L : Lines)
      note() << Path << ": " << L.trim() << "\n";
  }
  if (E)
    return reportError(Path, std::move(E));
  if (Analysis) {
    std::string Why = C.nothingToAnalyse(Filter.describe());
    if (!Why.empty()) {
      error() << Path << ": " << Why << "\n";
      return kExitDamaged;
    }
    return completeness(C);
  }
  return 0;
}

/// Commits \p Out, or discards it when an input was damaged (a partial
/// report is never left in a file) unless \p KeepDamaged: the report says
/// in itself where the damage is (html); returns the exit status.
int finishOutput(OutputFile &Out, int Status, bool KeepDamaged = false) {
  if (Status == kExitDamaged && Out.discardable() && !KeepDamaged) {
    Out.discard();
    note() << Out.path() << ": not written\n";
    return Status;
  }
  if (Error E = Out.commit())
    return reportError("", std::move(E));
  return Status;
}

/// Opens -o, runs \p Each for every input file (text reports one after
/// the other under a "== file ==" line, JSON reports in one {"files": [...]}
/// object), and commits the output unless a file was damaged (and
/// \p KeepDamaged, which \p Each may set, is false).
int runReports(bool IsJson,
               const std::function<int(StringRef Path, raw_ostream &OS)> &Each,
               const bool &KeepDamaged = false) {
  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::open(Output);
  if (!Out)
    return reportError("", Out.takeError());
  raw_ostream &OS = (*Out)->os();
  const bool Many = Inputs.size() > 1;
  int Status = 0;
  if (Many && IsJson)
    OS << "{\"schema\": \"wgtrace-files/1\", \"files\": [\n";
  for (size_t I = 0; I < Inputs.size(); ++I) {
    if (Many && IsJson)
      OS << (I ? ",\n" : "") << "{\"file\": " << json::Value(Inputs[I])
         << ", \"report\":\n";
    else if (Many)
      OS << (I ? "\n" : "") << "== " << Inputs[I] << " ==\n";
    Status = worse(Status, Each(Inputs[I], OS));
    if (Many && IsJson)
      OS << "}";
  }
  if (Many && IsJson)
    OS << "]}\n";
  return finishOutput(**Out, Status, KeepDamaged);
}

/// --threads: 0 (the option's default) is the cores available.
bool checkThreads() {
  if (Threads.getNumOccurrences() && Threads == 0) {
    error() << "--threads 0 decodes nothing; give at least 1\n";
    return false;
  }
  return true;
}

int runDump(const WorkgroupFilter &Filter) {
  if (!checkThreads())
    return kExitUsage;
  if (Inputs.size() != 1) {
    error() << "dump takes one trace file\n";
    return kExitUsage;
  }
  DumpOptions Options;
  Options.IreeCompat = IreeCompat;
  Options.Dispatch = Filter.Dispatch;
  Options.WorkgroupId = Filter.Id;
  DumpTool Dump(outs(), Options);
  Dump.setThreads(Threads);
  AnalysisTool *Tools[] = {&Dump};
  // The dump's own filter keeps the metadata; --kernel goes to the reader.
  WorkgroupFilter ReaderFilter;
  ReaderFilter.Kernel = Filter.Kernel;
  int Status = runFile(
      Inputs[0], IreeCompat ? RingMode::IreeCompat : RingMode::WrapAware,
      ReaderFilter, Tools, /*Analysis=*/false, /*LossNotes=*/true);
  if (Error E = checkStdout())
    return reportError("", std::move(E));
  return Status;
}

bool checkLineSize(unsigned &Size) {
  // 0 once meant 64 without a word; it is refused like any other size that
  // is not a power of two.
  if (!isPowerOf2_32(Size)) {
    error() << "--line-size " << Size << " is not a power of two\n";
    return false;
  }
  return true;
}

bool parseBy(GroupBy &Out) {
  std::optional<GroupBy> G = parseGroupBy(By);
  if (!G) {
    error() << "--by must be workgroup, site, kernel, line or buffer\n";
    return false;
  }
  Out = *G;
  return true;
}

/// --sort and --top, the column checked against the report's \p Columns.
bool parseOrder(StringRef Report, ArrayRef<const char *> Columns,
                RowOrder &Out) {
  if (SortColumn.getNumOccurrences() &&
      !llvm::is_contained(Columns, StringRef(SortColumn))) {
    error() << "--sort " << SortColumn << ": " << Report
            << " has no such column; it sorts by "
            << llvm::join(Columns.begin(), Columns.end(), ", ") << "\n";
    return false;
  }
  if (TopRows.getNumOccurrences() && TopRows == 0) {
    error() << "--top 0 keeps no row; give at least 1\n";
    return false;
  }
  Out.Column = SortColumn;
  Out.Top = TopRows;
  return true;
}

int runSummary(const WorkgroupFilter &Filter) {
  unsigned Line = LineSize;
  GroupBy Rows;
  RowOrder Order;
  if (!checkThreads() || !checkLineSize(Line) || !parseBy(Rows) ||
      !parseOrder("summary", accessCountColumns(), Order))
    return kExitUsage;
  return runReports(Json, [&](StringRef Path, raw_ostream &OS) {
    SummaryTool Summary(OS, Json, Line, Rows);
    Summary.setOrder(Order);
    AnalysisTool *Tools[] = {&Summary};
    return runFile(Path, RingMode::WrapAware, Filter, Tools, true, false);
  });
}

int runRaces(const WorkgroupFilter &Filter) {
  RowOrder Order;
  if (!checkThreads() || !parseOrder("races", RacesTool::columns(), Order))
    return kExitUsage;
  bool Found = false;
  int Status = runReports(Json, [&](StringRef Path, raw_ostream &OS) {
    RacesTool Races(OS, Json, RacesLimit);
    Races.setOrder(Order);
    Races.setThreads(Threads);
    AnalysisTool *Tools[] = {&Races};
    int S = runFile(Path, RingMode::WrapAware, Filter, Tools, true, false);
    Found |= Races.raceCount() != 0;
    return S;
  });
  return worse(Status, Found ? kExitFound : 0);
}

int runFootprint(const WorkgroupFilter &Filter) {
  RowOrder Order;
  if (!checkThreads() ||
      !parseOrder("footprint", FootprintTool::columns(), Order))
    return kExitUsage;
  return runReports(Json, [&](StringRef Path, raw_ostream &OS) {
    FootprintTool Footprint(OS, Json);
    Footprint.setOrder(Order);
    AnalysisTool *Tools[] = {&Footprint};
    return runFile(Path, RingMode::WrapAware, Filter, Tools, true, false);
  });
}

/// The levels \p Report (cache, annotate or diff) models: the machine's, each
/// replaced by its option.
bool parseHierarchy(StringRef Report, std::vector<CacheLevel> &Levels,
                    std::string &Note) {
  for (cl::Option *Old : std::initializer_list<cl::Option *>{
           &OldCacheLevel, &OldCacheSize, &OldCacheWays, &OldLineSize})
    if (Old->getNumOccurrences()) {
      error() << Report << " --" << Old->ArgStr << " is gone: " << Report
              << " models D1, L2 and LL in one pass; give "
                 "each level as --l1, --l2 or --ll SIZE,WAYS,LINE (e.g. "
                 "--l1 32k,8,64; --l2 none for D1 and LL only)\n";
      return false;
    }
  auto Spec = [](cl::opt<std::string> &Opt) -> std::optional<std::string> {
    if (!Opt.getNumOccurrences())
      return std::nullopt;
    return Opt.getValue();
  };
  Expected<std::vector<CacheLevel>> Chosen =
      chooseCacheLevels(Spec(L1Spec), Spec(L2Spec), Spec(LLSpec), Note);
  if (!Chosen) {
    error() << "--" << toString(Chosen.takeError()) << "\n";
    return false;
  }
  Levels = std::move(*Chosen);
  return true;
}

int runCache(const WorkgroupFilter &Filter) {
  std::vector<CacheLevel> Levels;
  std::string Note;
  GroupBy Rows;
  RowOrder Order;
  if (!checkThreads() || !parseHierarchy("cache", Levels, Note) ||
      !parseBy(Rows))
    return kExitUsage;
  std::vector<std::string> Columns = CacheTool::columns(Levels);
  std::vector<const char *> ColumnNames;
  ColumnNames.reserve(Columns.size());
  for (const std::string &C : Columns)
    ColumnNames.push_back(C.c_str());
  if (!parseOrder("cache", ColumnNames, Order))
    return kExitUsage;
  return runReports(Json, [&](StringRef Path, raw_ostream &OS) {
    CacheTool Cache(OS, Json, Levels, CacheCold, Rows);
    Cache.setNote(Note);
    Cache.setOrder(Order);
    AnalysisTool *Tools[] = {&Cache};
    return runFile(Path, RingMode::WrapAware, Filter, Tools, true, false);
  });
}

int runAnnotate(const WorkgroupFilter &Filter) {
  AnnotateTool::Options Options;
  if (!checkThreads() ||
      !parseHierarchy("annotate", Options.Levels, Options.Note))
    return kExitUsage;
  std::vector<std::string> Columns = AnnotateTool::columns(Options.Levels);
  SmallVector<const char *, 8> ColumnNames;
  for (const std::string &C : Columns)
    ColumnNames.push_back(C.c_str());
  if (!parseOrder("annotate", ColumnNames, Options.Order))
    return kExitUsage;
  if (AnnotateOrder != "hot" && AnnotateOrder != "file") {
    error() << "--order must be hot or file\n";
    return kExitUsage;
  }
  Options.Cold = CacheCold;
  Options.Context = AnnotateContext;
  Options.FileOrder = AnnotateOrder == "file";
  Options.KernelGlob = KernelFilter;
  Options.SourceDirs = SourceDirs;
  return runReports(Json, [&](StringRef Path, raw_ostream &OS) {
    AnnotateTool::Options ForFile = Options;
    ForFile.Trace = Path.str();
    AnnotateTool Annotate(OS, Json, std::move(ForFile));
    AnalysisTool *Tools[] = {&Annotate};
    return runFile(Path, RingMode::WrapAware, Filter, Tools, true, false);
  });
}

int runExport(const WorkgroupFilter &Filter) {
  if (!checkThreads())
    return kExitUsage;
  if (ExportFormat != "chrome" && ExportFormat != "csv" &&
      ExportFormat != "jsonl") {
    error() << "--format must be chrome, csv or jsonl\n";
    return kExitUsage;
  }
  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::open(Output);
  if (!Out)
    return reportError("", Out.takeError());
  // One output for all files: Chrome's trace has one process per file, the
  // tables a file column.
  std::unique_ptr<ChromeTraceTool> Chrome;
  std::unique_ptr<RecordTableTool> Table;
  if (ExportFormat == "chrome") {
    Chrome = std::make_unique<ChromeTraceTool>((*Out)->os());
    Chrome->setFileCount(Inputs.size());
  } else {
    Table = std::make_unique<RecordTableTool>(
        (*Out)->os(), ExportFormat == "csv"
                          ? RecordTableTool::Format::Csv
                          : RecordTableTool::Format::JsonLines);
    Table->setThreads(Threads);
  }
  int Status = 0;
  for (const std::string &Path : Inputs) {
    AnalysisTool *Tool =
        Chrome ? static_cast<AnalysisTool *>(Chrome.get()) : Table.get();
    if (Chrome && Inputs.size() > 1)
      Chrome->beginFile(Path);
    if (Table)
      Table->setFile(Inputs.size() > 1 ? StringRef(Path) : StringRef());
    AnalysisTool *Tools[] = {Tool};
    Status = worse(Status, runFile(Path, RingMode::WrapAware, Filter, Tools,
                                   true, /*LossNotes=*/true));
  }
  return finishOutput(**Out, Status);
}

int runDiff(const WorkgroupFilter &Filter) {
  if (Inputs.size() != 2) {
    error() << "diff takes two trace files: BEFORE AFTER\n";
    return kExitUsage;
  }
  std::vector<CacheLevel> Levels;
  std::string Note;
  RowOrder Order;
  if (!checkThreads() || !parseHierarchy("diff", Levels, Note))
    return kExitUsage;
  std::vector<std::string> Columns = diffColumns(Levels);
  std::vector<const char *> ColumnNames;
  ColumnNames.reserve(Columns.size());
  for (const std::string &C : Columns)
    ColumnNames.push_back(C.c_str());
  if (!parseOrder("diff", ColumnNames, Order))
    return kExitUsage;
  // The two runs are read at the same time, each on --threads threads;
  // by default half the cores each, so that both together take them all.
  // Each on all cores, six threads on two cores took 1.2x the time of one
  // each (the 512 MiB eight-ring traces).
  const unsigned PerFile =
      Threads.getNumOccurrences()
          ? unsigned(Threads)
          : std::max(1u, hardware_concurrency().compute_thread_count() / 2);
  struct Side {
    std::string Path;
    std::unique_ptr<ProfileTool> Profile;
    std::unique_ptr<RacesTool> Races;
    std::optional<TraceFile> File;
    std::unique_ptr<TraceReader> Reader;
    std::string Error;
  } Sides[2];
  auto Read = [&](Side &S) {
    Expected<TraceFile> File = TraceFile::open(S.Path);
    if (!File) {
      S.Error = toString(File.takeError());
      return;
    }
    S.File.emplace(std::move(*File));
    S.Profile = std::make_unique<ProfileTool>(Levels, CacheCold);
    S.Races = std::make_unique<RacesTool>(nulls(), false, UINT64_MAX);
    S.Races->setThreads(PerFile);
    S.Profile->attachRaces(*S.Races);
    S.Reader =
        std::make_unique<TraceReader>(*S.File, RingMode::WrapAware, Filter);
    S.Reader->setThreads(PerFile);
    // Races first: the profile reads its groups when it finishes. One
    // tool to the reader: a virtual call per record, not two.
    ToolPair<RacesTool, ProfileTool> Both(*S.Races, *S.Profile);
    AnalysisTool *Tools[] = {&Both};
    if (Error E = S.Reader->run(Tools))
      S.Error = toString(std::move(E));
    else
      S.Error = S.Reader->census().nothingToAnalyse(Filter.describe());
  };
  Sides[0].Path = Inputs[0];
  Sides[1].Path = Inputs[1];
  std::thread Other([&] { Read(Sides[1]); });
  Read(Sides[0]);
  Other.join();
  int Status = 0;
  for (Side &S : Sides) {
    if (S.Reader)
      for (const std::string &N : S.Reader->census().Notes)
        if (NotesShown.insert(N).second)
          note() << S.Path << ": " << N << "\n";
    if (!S.Error.empty()) {
      error() << S.Path << ": " << S.Error << "\n";
      Status = kExitDamaged;
    }
  }
  if (Status)
    return Status;
  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::open(Output);
  if (!Out)
    return reportError("", Out.takeError());
  printDiff((*Out)->os(), Json, Levels, Note,
            {Sides[0].Path, Sides[0].Profile.get(), &Sides[0].Reader->census()},
            {Sides[1].Path, Sides[1].Profile.get(), &Sides[1].Reader->census()},
            Order);
  return finishOutput(**Out, worse(completeness(Sides[0].Reader->census()),
                                   completeness(Sides[1].Reader->census())));
}

int runConvert(const WorkgroupFilter &Filter) {
  if (!checkThreads())
    return kExitUsage;
  if (!ToIree) {
    error() << "convert needs a target format: --iree\n";
    return kExitUsage;
  }
  if (Inputs.size() != 1) {
    error() << "convert takes one trace file\n";
    return kExitUsage;
  }
  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::open(Output);
  if (!Out)
    return reportError("", Out.takeError());
  IreeConvertTool Convert((*Out)->os());
  AnalysisTool *Tools[] = {&Convert};
  int Status = runFile(Inputs[0], RingMode::WrapAware, Filter, Tools,
                       /*Analysis=*/false, /*LossNotes=*/true);
  return finishOutput(**Out, Status);
}

/// compress and decompress: IN to OUT through a temporary file renamed
/// into place (OutputFile), never over IN.
int runRecompress(bool Compress) {
  const char *Name = Compress ? "compress" : "decompress";
  if (!checkThreads())
    return kExitUsage;
  if (InOut.size() != 2) {
    error() << Name << " takes an input and an output file\n";
    return kExitUsage;
  }
  int Level = 0;
  if (Compress) {
    std::optional<uint64_t> Parsed = wgtrace::settings::parseCount(
        CompressLevel, wgtrace::settings::kMinCompressionLevel,
        wgtrace::settings::kMaxCompressionLevel);
    if (!Parsed) {
      error() << "--level '" << CompressLevel
              << "' is not a zstd level; expected a whole number from "
              << wgtrace::settings::kMinCompressionLevel << " to "
              << wgtrace::settings::kMaxCompressionLevel << "\n";
      return kExitUsage;
    }
    Level = static_cast<int>(*Parsed);
  }
  const std::string &In = InOut[0], &OutPath = InOut[1];
  bool Same = In == OutPath;
  // Whether the output is the input under another name (a link): a path
  // that cannot be compared is not the input.
  if (!Same && sys::fs::exists(OutPath) &&
      sys::fs::equivalent(In, OutPath, Same))
    Same = false;
  if (Same) {
    error() << OutPath << ": is the input; " << Name
            << " writes a new file and never replaces its input\n";
    return kExitUsage;
  }
  Expected<TraceFile> File = TraceFile::open(In);
  if (!File)
    return reportError(In, File.takeError());
  Expected<std::unique_ptr<OutputFile>> Out = OutputFile::open(OutPath);
  if (!Out)
    return reportError("", Out.takeError());
  RecompressCounts Counts;
  Error E = Compress
                ? compressTrace(*File, (*Out)->os(), Level, Threads, Counts)
                : decompressTrace(*File, (*Out)->os(), Threads, Counts);
  if (E)
    return finishOutput(**Out, reportError(In, std::move(E)));
  if (!(*Out)->isStdout())
    note() << OutPath << ": " << Counts.Changed << " of " << Counts.Chunks
           << " chunks " << Name << "ed, "
           << fmt::format("{} to {} bytes", Counts.BytesBefore,
                          Counts.BytesAfter)
           << "\n";
  return finishOutput(**Out, 0);
}

int runHtml(const WorkgroupFilter &Filter) {
  if (!checkThreads())
    return kExitUsage;
  if (Inputs.size() != 1) {
    error() << "html takes one trace file\n";
    return kExitUsage;
  }
  // Its races and per-line sections are races' and annotate's results,
  // with their defaults (annotate's levels: cache's options).
  AnnotateTool::Options Lines;
  if (!parseHierarchy("html", Lines.Levels, Lines.Note))
    return kExitUsage;
  Lines.Cold = CacheCold;
  Lines.SourceDirs = SourceDirs;
  // The page shows loads, stores and misses per line, not distinct lines,
  // and writes its own tables.
  Lines.CountLines = false;
  Lines.Print = false;
  // A damaged file's page is written when something decoded: it shows
  // that, with the error line's message at its top, so it is no partial
  // report passed off as whole. Nothing decoded is nothing to analyse: no
  // page, as for a file without a workgroup.
  bool PageShowsDamage = false;
  auto Each = [&](StringRef Path, raw_ostream &OS) {
    HtmlReportTool Html(OS, sys::path::filename(Path).str(), HtmlMaxPoints);
    Html.nameInput(Path.str());
    RacesTool Races(nulls(), /*Json=*/false, /*Limit=*/RacesLimit);
    Races.setThreads(Threads);
    AnnotateTool::Options ForFile = Lines;
    ForFile.Trace = Path.str();
    AnnotateTool Annotate(nulls(), /*Json=*/false, std::move(ForFile));
    LineReuseTool Reuse;
    Expected<TraceFile> File = TraceFile::open(Path);
    if (!File)
      return reportError(Path, File.takeError());
    // The three read the file in a thread of their own while the page's two
    // passes read it here (damage is reported by this reading, which meets
    // the same); the page waits for them when it finishes. The page's first
    // pass reads ring chunks on --threads threads where the file allows
    // (AccessExtentTool's shards), and so do the three (their shards). Both
    // read the bytes opened once (TraceFile::share): a stream opened twice gave
    // each reading part of it, and the page called the trace damaged.
    std::thread Sections([&] {
      TraceFile Own = File->share();
      TraceReader Reader(Own, RingMode::WrapAware, Filter);
      Reader.setThreads(Threads);
      // One tool to the reader, as diff's: a virtual call per record, not
      // three.
      ToolPair<AnnotateTool, LineReuseTool> PerLine(Annotate, Reuse);
      ToolPair<RacesTool, decltype(PerLine)> Sections(Races, PerLine);
      AnalysisTool *Tools[] = {&Sections};
      consumeError(Reader.run(Tools));
    });
    auto Join = [&] {
      if (Sections.joinable())
        Sections.join();
    };
    Html.attach(&Races, &Annotate, &Reuse, Join);
    AnalysisTool *Tools[] = {&Html};
    int Status =
        runFile(Path, *File, RingMode::WrapAware, Filter, Tools, true, false);
    Join();
    PageShowsDamage = Html.showsDamage() && Html.workgroupCount() != 0;
    return Status;
  };
  return runReports(false, Each, PageShowsDamage);
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(ViewCategory);
  wgtrace::cli::setVersionPrinter("wgtrace-view");
  if (!wgtrace::cli::parseToolCommandLine(
          "wgtrace-view", argc, argv,
          "wgtrace-view: decode and analyse wgtrace "
          "(IREE dispatch instrumentation) traces\n"))
    return kExitUsage;
  WorkgroupFilter Filter;
  if (!parseFilter(Filter))
    return kExitUsage;
  if (DumpCmd)
    return runDump(Filter);
  if (SummaryCmd)
    return runSummary(Filter);
  if (RacesCmd)
    return runRaces(Filter);
  if (FootprintCmd)
    return runFootprint(Filter);
  if (CacheCmd)
    return runCache(Filter);
  if (ExportCmd)
    return runExport(Filter);
  if (HtmlCmd)
    return runHtml(Filter);
  if (AnnotateCmd)
    return runAnnotate(Filter);
  if (DiffCmd)
    return runDiff(Filter);
  if (ConvertCmd)
    return runConvert(Filter);
  if (CompressCmd)
    return runRecompress(/*Compress=*/true);
  if (DecompressCmd)
    return runRecompress(/*Compress=*/false);
  error() << "a subcommand is required (try --help)\n";
  return kExitUsage;
}
