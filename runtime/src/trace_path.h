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

#include <cstddef>
#include <string>
#include <string_view>

namespace wgtrace::runtime {

/// What is wrong with \p Pattern as a trace file pattern, or "" if nothing.
std::string tracePathProblem(std::string_view Pattern);

/// Expands \p Pattern into \p Out (\p Size bytes, terminated). Returns
/// false when the result does not fit. Async-signal-safe.
bool expandTracePath(const char *Pattern, char *Out, size_t Size);

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_TRACE_PATH_H
