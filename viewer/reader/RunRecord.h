//===- RunRecord.h - How the run that wrote a trace ended -------*- C++ -*-===//
//
// The run record (format.h, docs/FORMAT.md) is the last chunk of every
// trace wgtrace writes: a ring buffer chunk without records whose trailer
// says so and whose storage says whether the program exited (and with
// which status), was ended by a signal, crashed, or went on; how many
// workgroups it ran and their largest processor id; and which places
// launched kernels that are not instrumented. Every view shows it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_RUNRECORD_H
#define WGTRACE_VIEWER_RUNRECORD_H

#include "reader/TraceFile.h"

#include "wgtrace/format.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wgtrace::viewer {

struct Metadata;

/// A place that launched kernels that are not instrumented.
struct UninstrumentedLaunch {
  std::string File;
  uint32_t Line = 0;
  std::string Kernel;
  /// The dispatch site of a rewritten launch, or format::kNoDispatchSite.
  uint32_t DispatchId = format::kNoDispatchSite;
  uint64_t Launches = 0;
  uint64_t Workgroups = 0;
};

/// A decoded run record.
struct RunInfo {
  unsigned Chunk = 0;
  uint64_t FileOffset = 0;
  format::RunEnd End = format::RunEnd::Running;
  int32_t ExitStatus = 0;
  uint32_t Signal = 0;
  uint64_t Workgroups = 0;
  uint32_t MaxProcessorId = 0;
  std::vector<UninstrumentedLaunch> Uninstrumented;
  /// All launches of kernels that are not instrumented (the list may hold
  /// fewer places than launched them).
  uint64_t UninstrumentedLaunches = 0;

  /// "exited with status 0", "ended by signal 15 (SIGTERM)", "crashed:
  /// signal 11 (SIGSEGV)", "still running (written by flushTrace)".
  std::string endText() const;
  /// {"end": "exit"|"signal"|"crash"|"running", "status", "signal",
  ///  "signal_name", "workgroups", "uninstrumented_launches"}.
  llvm::json::Object json() const;
};

/// Whether \p C is a run record chunk: a ring buffer chunk whose trailer
/// has kTrailerRunRecord. Reads only its trailer (the chunk is valid).
bool isRunRecordChunk(const Chunk &C);

/// Whether \p C, cut by the end of the file, is what is left of a run
/// record chunk: a ring chunk of the run record's ring size whose content
/// begins with the run record's magic. Its trailer is gone, so
/// isRunRecordChunk() cannot tell, and decoding it as a ring would report
/// the run record's bytes as a record it does not know.
bool isCutRunRecordChunk(const Chunk &C);

/// Decodes the run record chunk \p C; damage is located as every other.
llvm::Expected<RunInfo> decodeRunRecord(const Chunk &C);

/// "SIGTERM" for 15, "signal 99" for a number it does not know.
std::string signalName(uint32_t Signal);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_RUNRECORD_H
