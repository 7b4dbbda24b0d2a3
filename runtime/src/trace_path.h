//===- trace_path.h - Where a process writes its trace --------------------===//
//
// WGTRACE_FILE (and setTraceFile) may name a pattern, so that many processes
// (MPI ranks, test runners) write one file each, as LLVM_PROFILE_FILE does:
// %p the process id, %h the host name, %t the time the process started
// (YYYYMMDD-HHMMSS, local time), %% a percent sign. The pattern is expanded
// when the trace is written, without allocating: a process that forks
// writes its own file, and the crash handler can expand it too.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_TRACE_PATH_H
#define WGTRACE_RUNTIME_TRACE_PATH_H

#include "output_target.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace wgtrace::runtime {

/// What is wrong with \p Pattern as a trace file pattern, or "" if nothing.
std::string tracePathProblem(std::string_view Pattern);

/// Expands \p Pattern into \p Out (\p Size bytes, terminated). Returns
/// false when the result does not fit. Async-signal-safe.
bool expandTracePath(const char *Pattern, char *Out, size_t Size);

// Several processes may share one pattern without %p (an MPI job, a test
// runner whose processes share the environment). A process replaces the
// file at its path only when that file is still what was there when the
// process began (an earlier run's trace) or what the process wrote itself;
// a file another process wrote since is never replaced: the trace goes
// beside it ("<path>.<pid>"). These keep what that needs; the functions
// below are async-signal-safe but for noteTraceFileAtStart().

/// Notes which file \p Pattern's path names now: called when the runtime
/// loads (WGTRACE_FILE) and by setTraceFile().
void noteTraceFileAtStart(const char *Pattern);

/// Where this process writes the trace for the expanded path \p Path: the
/// path itself, or the file beside it that an earlier write of this
/// process went to. \p Baseline receives the file that may be replaced
/// there (see above).
const char *traceFileFor(const char *Path, output::FileIdentity &Baseline);

/// The trace for the expanded path \p Path was written to \p Written:
/// later writes of this process go there and replace it.
void noteTraceFileWritten(const char *Path, const char *Written);

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_TRACE_PATH_H
