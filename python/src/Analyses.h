//===- Analyses.h - The viewer's analyses, as their --json says -*- C++ -*-===//
//
// The Python module's summary, footprint, races, cache and annotate run the
// very
// tools behind `wgtrace-view <analysis> --json` and hand their JSON text to
// Python, which turns it into DataFrames: the results are the CLI's by
// construction, including what a later version of a tool adds.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_PYTHON_ANALYSES_H
#define WGTRACE_PYTHON_ANALYSES_H

#include "analyses/AccessGrouping.h"
#include "reader/TraceFile.h"
#include "reader/WorkgroupJoiner.h"
#include "simulator/CacheHierarchy.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wgtrace::python {

enum class AnalysisKind : uint8_t {
  Summary,
  Footprint,
  Races,
  Cache,
  Annotate
};

/// An analysis and its options (those of the subcommand of the same name).
struct AnalysisRequest {
  AnalysisKind Kind = AnalysisKind::Summary;
  /// summary --line-size.
  uint64_t LineSize = 64;
  /// races --limit.
  uint64_t Limit = 100;
  /// cache and annotate: --l1, --l2, --ll (as chooseCacheLevels() resolved
  /// them), the note on where they came from, --cold.
  std::vector<viewer::CacheLevel> CacheLevels;
  std::string CacheNote;
  bool Cold = false;
  /// summary and cache --by.
  viewer::GroupBy By = viewer::GroupBy::Workgroup;
  /// --kernel, --dispatch, --workgroup (the kernel glob must be valid).
  viewer::WorkgroupFilter Filter;
  /// --threads (TraceReader::setThreads; 0: the cores available), as
  /// every analysis here takes it.
  unsigned Threads = 1;
};

struct AnalysisResult {
  /// The --json output.
  std::string Json;
  /// Why there is nothing to analyse (the CLI's error line then, and exit
  /// status 2), or "".
  std::string Nothing;
  /// The reader stopped at damage: the report covers the records before
  /// it, and the CLI would fail (exit status 2).
  bool Damaged = false;
};

/// Runs the analysis over \p File. Damage stops it as it stops the CLI:
/// the result covers the records before it, and says so (Damaged; a
/// caller that opened the file with wgtrace.open() learnt of it then).
AnalysisResult runAnalysis(const viewer::TraceFile &File,
                           const AnalysisRequest &Request);

} // namespace wgtrace::python

#endif // WGTRACE_PYTHON_ANALYSES_H
