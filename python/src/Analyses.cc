//===- Analyses.cc --------------------------------------------------------===//

#include "Analyses.h"

#include "analyses/AnnotateTool.h"
#include "analyses/CacheTool.h"
#include "analyses/FootprintTool.h"
#include "analyses/RacesTool.h"
#include "analyses/SummaryTool.h"
#include "reader/TraceReader.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace llvm;
using namespace wgtrace::viewer;

namespace wgtrace::python {

AnalysisResult runAnalysis(const TraceFile &File,
                           const AnalysisRequest &Request) {
  AnalysisResult Result;
  raw_string_ostream OS(Result.Json);
  std::unique_ptr<AnalysisTool> Tool;
  switch (Request.Kind) {
  case AnalysisKind::Summary:
    Tool = std::make_unique<SummaryTool>(OS, /*Json=*/true, Request.LineSize,
                                         Request.By);
    break;
  case AnalysisKind::Footprint:
    Tool = std::make_unique<FootprintTool>(OS, /*Json=*/true);
    break;
  case AnalysisKind::Races: {
    auto Races = std::make_unique<RacesTool>(OS, /*Json=*/true, Request.Limit);
    Races->setThreads(Request.Threads);
    Tool = std::move(Races);
    break;
  }
  case AnalysisKind::Cache: {
    auto Cache = std::make_unique<CacheTool>(
        OS, /*Json=*/true, Request.CacheLevels, Request.Cold, Request.By);
    Cache->setNote(Request.CacheNote);
    Tool = std::move(Cache);
    break;
  }
  case AnalysisKind::Annotate: {
    AnnotateTool::Options O;
    // cache's levels, as the CLI's annotate takes them.
    O.Levels = Request.CacheLevels;
    O.Note = Request.CacheNote;
    O.Cold = Request.Cold;
    Tool = std::make_unique<AnnotateTool>(OS, /*Json=*/true, std::move(O));
    break;
  }
  }
  TraceReader Reader(File, RingMode::WrapAware, Request.Filter);
  Reader.setThreads(Request.Threads);
  AnalysisTool *Tools[] = {Tool.get()};
  // The damage, if any, is the caller's to report: wgtrace.open() has
  // the viewer's message and where it is.
  if (Error E = Reader.run(Tools)) {
    consumeError(std::move(E));
    Result.Damaged = true;
  }
  OS.flush();
  Result.Nothing = Reader.census().nothingToAnalyse(Request.Filter.describe());
  return Result;
}

} // namespace wgtrace::python
