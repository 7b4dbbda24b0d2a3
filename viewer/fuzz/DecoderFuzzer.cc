//===- DecoderFuzzer.cc - libFuzzer entry point for the trace decoder ----===//
//
// Feeds arbitrary bytes through the reader in both ring modes with the dump
// tool attached, so that formatting of every decoded field is exercised too.
// Errors are expected; crashes, leaks and out-of-bounds reads are not.
//
//===----------------------------------------------------------------------===//

#include "analyses/CacheTool.h"
#include "analyses/FootprintTool.h"
#include "analyses/ProfileTool.h"
#include "analyses/RacesTool.h"
#include "analyses/SummaryTool.h"
#include "output/ChromeTraceTool.h"
#include "output/DumpTool.h"
#include "output/HtmlReportTool.h"
#include "output/IreeConvertTool.h"
#include "output/RecordTableTool.h"
#include "reader/TraceReader.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace wgtrace::viewer;

// libFuzzer calls the entry point by this name.
// NOLINTNEXTLINE(readability-identifier-naming)
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A real file is mmapped page-aligned; a heap copy is 16-byte aligned
  // like every chunk, so the FlatBuffer verifier sees the same alignment,
  // and is exactly Size bytes so that ASan catches a read past the end.
  std::vector<uint8_t> Copy(Data, Data + Size);
  TraceFile File = TraceFile::fromBytes(Copy);
  for (RingMode Mode : {RingMode::WrapAware, RingMode::IreeCompat}) {
    llvm::raw_null_ostream Null;
    DumpOptions Options;
    Options.IreeCompat = Mode == RingMode::IreeCompat;
    DumpTool Dump(Null, Options);
    SummaryTool Summary(Null, /*Json=*/Mode == RingMode::IreeCompat);
    TraceReader Reader(File, Mode);
    RacesTool Races(Null, /*Json=*/Mode == RingMode::WrapAware);
    FootprintTool Footprint(Null, /*Json=*/Mode == RingMode::IreeCompat);
    CacheGeometry Small{1024, 64, 2};
    CacheTool Cache(Null, /*Json=*/Mode == RingMode::WrapAware, Small,
                    /*Cold=*/Mode == RingMode::IreeCompat);
    ChromeTraceTool Chrome(Null);
    RecordTableTool Table(Null, Mode == RingMode::WrapAware
                                    ? RecordTableTool::Format::Csv
                                    : RecordTableTool::Format::JsonLines);
    HtmlReportTool Html(Null, "fuzz", /*MaxPoints=*/64);
    ProfileTool Profile({{"D1", Small}});
    Profile.attachRaces(Races);
    IreeConvertTool Convert(Null);
    SummaryTool ByLine(Null, /*Json=*/true, 64, GroupBy::Line);
    CacheTool ByBuffer(Null, /*Json=*/false, Small, /*Cold=*/false,
                       GroupBy::Buffer);
    AnalysisTool *Tools[] = {&Dump,    &Summary, &Races,  &Footprint,
                             &Cache,   &Chrome,  &Table,  &Html,
                             &Profile, &Convert, &ByLine, &ByBuffer};
    llvm::consumeError(Reader.run(Tools));
  }
  // The reading on threads (TraceReader::runShards: the survey of the
  // trailers, the shards and their merge, compressed chunks decompressed as
  // they are decoded), which only tools that read shards take.
  {
    llvm::raw_null_ostream Null;
    SummaryTool Summary(Null, /*Json=*/false);
    RacesTool Races(Null, /*Json=*/true);
    CacheTool Cache(Null, /*Json=*/false, CacheGeometry{1024, 64, 2},
                    /*Cold=*/false);
    IreeConvertTool Convert(Null);
    TraceReader Reader(File, RingMode::WrapAware);
    Reader.setThreads(2);
    AnalysisTool *Tools[] = {&Summary, &Races, &Cache, &Convert};
    llvm::consumeError(Reader.run(Tools));
  }
  return 0;
}
