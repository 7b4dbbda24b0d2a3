//===- trace_writer.h - Writing the chunked trace file --------------------===//
//
// A ring-mode trace is the metadata chunk, one ring chunk per ring, then
// the timing chunks. Writing allocates nothing once the metadata is cached,
// so the crash handler can use the same code.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_TRACE_WRITER_H
#define WGTRACE_RUNTIME_TRACE_WRITER_H

#include "output_target.h"
#include "run_record.h"
#include "sink.h"
#include "thread_ring.h"

#include "wgtrace/format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wgtrace::runtime {

/// Rebuilds the cached metadata chunk content from every registered module.
/// Called when a module registers and before each trace is written.
void refreshMetadata();

void writeMetadataChunk(Sink &Out);

/// Writes a complete ring-mode trace to \p Path (output_target.h: a file
/// through a temporary file renamed into place, so that a reader never sees
/// half a trace; a device, FIFO or socket in place). Reports wrapped rings
/// on stderr when \p Report. Returns false and fills \p Error on failure.
bool writeTrace(const std::string &Path, bool Report, std::string *Error);

/// The process's trace file while it is written (at exit in ring mode,
/// during the run in stream mode).
struct TraceFileWrite {
  /// The expanded path asked for.
  char Path[PATH_MAX] = {};
  output::Target Target;
  output::Open File;
  /// What may be replaced there (trace_path.h).
  output::FileIdentity Baseline;
};

/// Opens the trace file for the expanded path \p Path into \p W. Prints
/// why not (reportNotWritten) and returns false. Async-signal-safe.
bool openTraceFile(const char *Path, TraceFileWrite &W);

/// Completes \p W after \p WriteError (an errno, or 0: all written): the
/// file replaced or written beside another process's (one warning line
/// naming both), or the temporary file removed and the reason printed.
/// Returns whether the trace was written. Async-signal-safe.
bool commitTraceFile(TraceFileWrite &W, int WriteError);

/// A complete ring-mode trace in memory.
std::vector<uint8_t> snapshotTrace();

/// Where the trace goes: setTraceFile(), else WGTRACE_FILE, else empty; a
/// pattern (trace_path.h). Returns a pointer to a static buffer: the crash
/// handler reads it.
const char *tracePath();

/// tracePath() expanded for this process into \p Out (async-signal-safe);
/// false when it does not fit.
bool expandedTracePath(char *Out, size_t Size);

/// Exit status of a process that would have exited 0 but could not write
/// its trace (sysexits.h's EX_IOERR).
inline constexpr int kExitTraceNotWritten = 74;

/// Notes that the trace could not be written (the reason was printed):
/// the process will not exit 0.
void noteTraceNotWritten();

/// Prints "wgtrace: error: trace not written: <What> '<Path>': <reason of
/// errno Error>" without allocating, and notes it (noteTraceNotWritten).
void reportNotWritten(const char *What, const char *Path, int Error);

/// Writes the trace now, once per process (exit, crash, terminate or a
/// termination signal), saying \p How the run ended. \p InSignalHandler
/// restricts it to async-signal-safe calls. Reports on stderr why it could
/// not, and makes the exit status say so.
void writeFinalTrace(const RunEnding &How, bool InSignalHandler);

/// In a handler of termination signal \p Signal that the program handles
/// itself (ring mode): writes the trace so far, with async-signal-safe
/// calls, before the program's handler runs. The program may go on; the
/// trace is then written again at exit.
void writeTraceBeforeHandler(int Signal);

/// Arranges, once, for the trace to be written at process exit.
void writeTraceAtExit();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_TRACE_WRITER_H
