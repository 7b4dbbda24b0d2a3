//===- run_record.h - How the run ended, as the trace's last chunk --------===//
//
// Every trace the runtime writes ends with the run record chunk
// (format.h): whether the program exited (with which status), was ended by
// a signal or crashed (which signal), or went on (a trace written by
// flushTrace); how many workgroups it ran and their largest processor id;
// and the launches of kernels that are not instrumented. A reader that
// finds no run record where the metadata promised one knows the file was
// cut short.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_RUN_RECORD_H
#define WGTRACE_RUNTIME_RUN_RECORD_H

#include "sink.h"

#include "wgtrace/format.h"

namespace wgtrace::runtime {

/// How the run ended, as a trace written now says it.
struct RunEnding {
  format::RunEnd End = format::RunEnd::Running;
  /// RunEnd::Exit: the status (-1 when not known).
  int Status = -1;
  /// RunEnd::Signal and RunEnd::Crash.
  int Signal = 0;
};

/// Writes the run record chunk. \p Unlocked: the rings are listed without
/// their lock (the crash handler). Allocates nothing.
void writeRunRecordChunk(Sink &Out, const RunEnding &How, bool Unlocked);

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_RUN_RECORD_H
