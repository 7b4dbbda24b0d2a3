//===- wgtrace-view.cc - Decode, analyse and export wgtrace traces --------===//
//
// Exit status: 0 success, 1 usage error (or an analysis found a problem,
// e.g. races), 2 the trace is damaged (after printing what was decodable).
//
//===----------------------------------------------------------------------===//

#include "CacheTool.h"
#include "ChromeTraceTool.h"
#include "DumpTool.h"
#include "FootprintTool.h"
#include "HtmlReportTool.h"
#include "Progress.h"
#include "RacesTool.h"
#include "RecordTableTool.h"
#include "SummaryTool.h"
#include "ToolCommandLine.h"
#include "ToolIdentity.h"
#include "TraceReader.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <memory>

using namespace llvm;
using namespace wgtrace::viewer;

namespace {

constexpr int kExitUsage = 1;
/// An analysis found what it looks for (races).
constexpr int kExitFound = 1;
constexpr int kExitDamaged = 2;

cl::OptionCategory ViewCategory("wgtrace-view options");

cl::SubCommand DumpCmd("dump", "Print the trace as text (IREE's format)");
cl::opt<std::string> DumpFile(cl::Positional, cl::desc("<trace file>"),
                              cl::Required, cl::sub(DumpCmd));
cl::opt<bool> IreeCompat(
    "iree-compat",
    cl::desc("Reproduce iree-dump-instruments byte for byte (sign-extended "
             "8/16-bit values, wrapped rings read from offset 0)"),
    cl::sub(DumpCmd), cl::cat(ViewCategory));
cl::opt<int64_t> DispatchFilter("dispatch",
                                cl::desc("Show only this dispatch site "
                                         "(default: all)"),
                                cl::init(-1), cl::sub(DumpCmd),
                                cl::cat(ViewCategory));
cl::opt<std::string> WorkgroupFilter("workgroup",
                                     cl::desc("Show only workgroup x,y,z"),
                                     cl::value_desc("x,y,z"), cl::sub(DumpCmd),
                                     cl::cat(ViewCategory));

cl::SubCommand SummaryCmd("summary",
                          "Loads, stores, bytes, distinct cache lines, "
                          "values and prints per site, workgroup and kernel");
cl::opt<std::string> SummaryFile(cl::Positional, cl::desc("<trace file>"),
                                 cl::Required, cl::sub(SummaryCmd));
cl::opt<bool> SummaryJson("json", cl::desc("Print JSON instead of a table"),
                          cl::sub(SummaryCmd), cl::cat(ViewCategory));
cl::opt<unsigned> SummaryLineSize("line-size",
                                  cl::desc("Cache line size in bytes (a "
                                           "power of two; default: 64)"),
                                  cl::init(64), cl::sub(SummaryCmd),
                                  cl::cat(ViewCategory));

cl::SubCommand RacesCmd("races",
                        "Pairs of workgroups of one launch that touch the "
                        "same bytes, at least one writing (exit status 1 "
                        "when any)");
cl::opt<std::string> RacesFile(cl::Positional, cl::desc("<trace file>"),
                               cl::Required, cl::sub(RacesCmd));
cl::opt<bool> RacesJson("json", cl::desc("Print JSON instead of a table"),
                        cl::sub(RacesCmd), cl::cat(ViewCategory));
cl::opt<uint64_t> RacesLimit("limit",
                             cl::desc("List at most this many racing pairs "
                                      "(all are counted; default: 100)"),
                             cl::init(100), cl::sub(RacesCmd),
                             cl::cat(ViewCategory));

cl::SubCommand FootprintCmd("footprint",
                            "Per workgroup: byte ranges touched per buffer "
                            "and the stride pattern of each access stream");
cl::opt<std::string> FootprintFile(cl::Positional, cl::desc("<trace file>"),
                                   cl::Required, cl::sub(FootprintCmd));
cl::opt<bool> FootprintJson("json", cl::desc("Print JSON instead of text"),
                            cl::sub(FootprintCmd), cl::cat(ViewCategory));

cl::SubCommand CacheCmd("cache",
                        "Hits and misses per workgroup in a set-associative "
                        "LRU cache, and a reuse-distance histogram");
cl::opt<std::string> CacheFile(cl::Positional, cl::desc("<trace file>"),
                               cl::Required, cl::sub(CacheCmd));
cl::opt<bool> CacheJson("json", cl::desc("Print JSON instead of a table"),
                        cl::sub(CacheCmd), cl::cat(ViewCategory));
cl::opt<std::string> CacheLevel("level",
                                cl::desc("Preset: l1 (32 KiB, 8 ways) or l2 "
                                         "(1 MiB, 16 ways), 64-byte lines "
                                         "(default: l1)"),
                                cl::init("l1"), cl::sub(CacheCmd),
                                cl::cat(ViewCategory));
cl::opt<std::string> CacheSize("cache-size",
                               cl::desc("Cache size in bytes (suffixes k, "
                                        "kib, m, mib; default: the level's)"),
                               cl::sub(CacheCmd), cl::cat(ViewCategory));
cl::opt<unsigned> CacheLineSize("line-size",
                                cl::desc("Line size in bytes (default 64)"),
                                cl::sub(CacheCmd), cl::cat(ViewCategory));
cl::opt<unsigned> CacheWays("ways",
                            cl::desc("Associativity (default: the level's)"),
                            cl::sub(CacheCmd), cl::cat(ViewCategory));
cl::opt<bool> CacheCold("cold",
                        cl::desc("Empty the cache before each workgroup"),
                        cl::sub(CacheCmd), cl::cat(ViewCategory));

cl::SubCommand ExportCmd("export",
                         "Chrome trace event JSON (Perfetto, "
                         "chrome://tracing), or one row per record as CSV "
                         "or JSON Lines");
cl::opt<std::string> ExportFile(cl::Positional, cl::desc("<trace file>"),
                                cl::Required, cl::sub(ExportCmd));
cl::opt<std::string> ExportFormat("format",
                                  cl::desc("chrome, csv or jsonl (default: "
                                           "chrome)"),
                                  cl::init("chrome"), cl::sub(ExportCmd),
                                  cl::cat(ViewCategory));
cl::opt<std::string> ExportOutput("o", cl::desc("Output file (default stdout)"),
                                  cl::value_desc("file"), cl::init("-"),
                                  cl::sub(ExportCmd), cl::cat(ViewCategory));

cl::SubCommand HtmlCmd("html",
                       "One self-contained HTML report: dispatch sites, "
                       "workgroups and a zoomable access map");
cl::opt<std::string> HtmlFile(cl::Positional, cl::desc("<trace file>"),
                              cl::Required, cl::sub(HtmlCmd));
cl::opt<std::string> HtmlOutput("o", cl::desc("Output file (default stdout)"),
                                cl::value_desc("report.html"), cl::init("-"),
                                cl::sub(HtmlCmd), cl::cat(ViewCategory));
const std::string kMaxPointsHelp =
    fmt::format("Downsample the access map above this many accesses "
                "(default: {})",
                HtmlReportTool::DefaultMaxPoints);
cl::opt<uint64_t> HtmlMaxPoints("max-points", cl::desc(kMaxPointsHelp),
                                cl::init(HtmlReportTool::DefaultMaxPoints),
                                cl::sub(HtmlCmd), cl::cat(ViewCategory));

/// Reports how wrapped rings were decoded, on stderr so that stdout keeps
/// IREE's exact format.
class WrapNotes : public AnalysisTool {
public:
  explicit WrapNotes(StringRef File) : File(File) {}
  void beginRing(const RingInfo &Info) override {
    if (!Info.Wrapped || IreeCompat)
      return;
    WithColor::note(errs(), "wgtrace-view")
        << File
        << fmt::format(": offset {:#x}: chunk {} (ring): ring of {} bytes "
                       "wrapped (head {}): {} bytes lost, showing records "
                       "from ring offset {:#x}\n",
                       Info.FileOffset, Info.Where.Index, Info.Size, Info.Head,
                       Info.LostBytes, Info.StartOffset);
  }
  void record(const Record &) override {}
  bool wantsRecords() const override { return false; }

private:
  std::string File;
};

int reportError(StringRef File, Error E) {
  int Status = kExitDamaged;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    WithColor::error(errs(), "wgtrace-view")
        << File << ": " << EI.message() << "\n";
  });
  return Status;
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

/// Runs \p Tools over \p File with the wrap notes and, on a terminal, the
/// progress line; returns the exit status for damage (or 0).
int runTools(StringRef Path, const TraceFile &File, RingMode Mode,
             ArrayRef<AnalysisTool *> Tools) {
  WrapNotes Notes(Path);
  Progress Status(errs(), File.bytes().size(), /*Enabled=*/true);
  SmallVector<AnalysisTool *, 4> All = {&Notes};
  All.append(Tools.begin(), Tools.end());
  // Only on a terminal (it would cost a call per record for nothing); last,
  // so that its line is erased after the tools have printed theirs.
  if (Progress::enabledForStderr())
    All.push_back(&Status);
  TraceReader Reader(File, Mode);
  if (Error E = Reader.run(All))
    return reportError(Path, std::move(E));
  return 0;
}

int runDump() {
  DumpOptions Options;
  Options.IreeCompat = IreeCompat;
  if (DispatchFilter >= 0)
    Options.Dispatch = static_cast<uint32_t>(DispatchFilter);
  if (!WorkgroupFilter.empty()) {
    std::array<uint32_t, 3> Id;
    if (!parseWorkgroup(WorkgroupFilter, Id)) {
      WithColor::error(errs(), "wgtrace-view")
          << "--workgroup expects x,y,z, got '" << WorkgroupFilter << "'\n";
      return kExitUsage;
    }
    Options.WorkgroupId = Id;
  }
  Expected<TraceFile> File = TraceFile::open(DumpFile);
  if (!File)
    return reportError(DumpFile, File.takeError());
  DumpTool Dump(outs(), Options);
  AnalysisTool *Tools[] = {&Dump};
  if (int Status = runTools(
          DumpFile, *File,
          IreeCompat ? RingMode::IreeCompat : RingMode::WrapAware, Tools))
    return Status;
  return 0;
}

int runSummary() {
  if (!isPowerOf2_32(SummaryLineSize)) {
    WithColor::error(errs(), "wgtrace-view")
        << "--line-size must be a power of two\n";
    return kExitUsage;
  }
  Expected<TraceFile> File = TraceFile::open(SummaryFile);
  if (!File)
    return reportError(SummaryFile, File.takeError());
  SummaryTool Summary(outs(), SummaryJson, SummaryLineSize);
  AnalysisTool *Tools[] = {&Summary};
  if (int Status = runTools(SummaryFile, *File, RingMode::WrapAware, Tools))
    return Status;
  return 0;
}

int runRaces() {
  Expected<TraceFile> File = TraceFile::open(RacesFile);
  if (!File)
    return reportError(RacesFile, File.takeError());
  RacesTool Races(outs(), RacesJson, RacesLimit);
  AnalysisTool *Tools[] = {&Races};
  if (int Status = runTools(RacesFile, *File, RingMode::WrapAware, Tools))
    return Status;
  return Races.raceCount() ? kExitFound : 0;
}

int runFootprint() {
  Expected<TraceFile> File = TraceFile::open(FootprintFile);
  if (!File)
    return reportError(FootprintFile, File.takeError());
  FootprintTool Footprint(outs(), FootprintJson);
  AnalysisTool *Tools[] = {&Footprint};
  if (int Status = runTools(FootprintFile, *File, RingMode::WrapAware, Tools))
    return Status;
  return 0;
}

/// "32768", "32k", "32KiB", "1m", "1MiB".
bool parseSize(StringRef Text, uint64_t &Out) {
  std::string Lower = Text.trim().lower();
  StringRef T = Lower;
  uint64_t Scale = 1;
  for (auto [Suffix, S] : {std::pair<StringRef, uint64_t>{"kib", 1 << 10},
                           {"mib", 1 << 20},
                           {"k", 1 << 10},
                           {"m", 1 << 20}})
    if (T.consume_back(Suffix)) {
      Scale = S;
      break;
    }
  if (T.getAsInteger(10, Out))
    return false;
  Out *= Scale;
  return true;
}

int runCache() {
  CacheGeometry G;
  if (CacheLevel == "l2") {
    G.Size = 1 << 20;
    G.Ways = 16;
  } else if (CacheLevel != "l1") {
    WithColor::error(errs(), "wgtrace-view") << "--level must be l1 or l2\n";
    return kExitUsage;
  }
  if (CacheSize.getNumOccurrences() && !parseSize(CacheSize, G.Size)) {
    WithColor::error(errs(), "wgtrace-view")
        << "--cache-size expects bytes, e.g. 32768, 32k, 1MiB\n";
    return kExitUsage;
  }
  if (CacheLineSize.getNumOccurrences())
    G.LineSize = CacheLineSize;
  if (CacheWays.getNumOccurrences())
    G.Ways = CacheWays;
  if (!isPowerOf2_64(G.LineSize) || G.Ways == 0 ||
      G.Size % (G.LineSize * G.Ways) != 0 || !isPowerOf2_64(G.sets())) {
    WithColor::error(errs(), "wgtrace-view")
        << "the line size and the number of sets (cache size / (line size "
           "* ways)) must be powers of two\n";
    return kExitUsage;
  }
  Expected<TraceFile> File = TraceFile::open(CacheFile);
  if (!File)
    return reportError(CacheFile, File.takeError());
  CacheTool Cache(outs(), CacheJson, G, CacheCold);
  AnalysisTool *Tools[] = {&Cache};
  if (int Status = runTools(CacheFile, *File, RingMode::WrapAware, Tools))
    return Status;
  return 0;
}

int runExport() {
  if (ExportFormat != "chrome" && ExportFormat != "csv" &&
      ExportFormat != "jsonl") {
    WithColor::error(errs(), "wgtrace-view")
        << "--format must be chrome, csv or jsonl\n";
    return kExitUsage;
  }
  Expected<TraceFile> File = TraceFile::open(ExportFile);
  if (!File)
    return reportError(ExportFile, File.takeError());
  std::error_code EC;
  raw_fd_ostream Out(ExportOutput, EC);
  if (EC) {
    WithColor::error(errs(), "wgtrace-view")
        << ExportOutput << ": " << EC.message() << "\n";
    return kExitUsage;
  }
  std::unique_ptr<AnalysisTool> Tool;
  if (ExportFormat == "chrome")
    Tool = std::make_unique<ChromeTraceTool>(Out);
  else
    Tool = std::make_unique<RecordTableTool>(
        Out, ExportFormat == "csv" ? RecordTableTool::Format::Csv
                                   : RecordTableTool::Format::JsonLines);
  AnalysisTool *Tools[] = {Tool.get()};
  if (int Status = runTools(ExportFile, *File, RingMode::WrapAware, Tools))
    return Status;
  return 0;
}

int runHtml() {
  Expected<TraceFile> File = TraceFile::open(HtmlFile);
  if (!File)
    return reportError(HtmlFile, File.takeError());
  std::error_code EC;
  raw_fd_ostream Out(HtmlOutput, EC);
  if (EC) {
    WithColor::error(errs(), "wgtrace-view")
        << HtmlOutput << ": " << EC.message() << "\n";
    return kExitUsage;
  }
  HtmlReportTool Html(Out, sys::path::filename(HtmlFile).str(), HtmlMaxPoints);
  AnalysisTool *Tools[] = {&Html};
  return runTools(HtmlFile, *File, RingMode::WrapAware, Tools);
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
  if (DumpCmd)
    return runDump();
  if (SummaryCmd)
    return runSummary();
  if (RacesCmd)
    return runRaces();
  if (FootprintCmd)
    return runFootprint();
  if (CacheCmd)
    return runCache();
  if (ExportCmd)
    return runExport();
  if (HtmlCmd)
    return runHtml();
  errs() << "wgtrace-view: error: a subcommand is required (try --help)\n";
  return kExitUsage;
}
