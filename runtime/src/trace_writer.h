//===- trace_writer.h - Writing the chunked trace file --------------------===//
//
// A ring-mode trace is the metadata chunk, one ring chunk per ring, then
// the timing chunks. Writing allocates nothing once the metadata is cached,
// so the crash handler can use the same code.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_TRACE_WRITER_H
#define WGTRACE_RUNTIME_TRACE_WRITER_H

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

/// Writes a complete ring-mode trace to \p Path through a temporary file
/// renamed into place, so that a reader never sees half a trace. Reports
/// wrapped rings on stderr when \p Report. Returns false and fills \p Error
/// on failure.
bool writeTrace(const std::string &Path, bool Report, std::string *Error);

/// A complete ring-mode trace in memory.
std::vector<uint8_t> snapshotTrace();

/// Where the trace goes: setTraceFile(), else WGTRACE_FILE, else empty.
/// Returns a pointer to a static buffer: the crash handler reads it.
const char *tracePath();

/// Arranges, once, for the trace to be written at process exit.
void writeTraceAtExit();

/// Writes the trace now, once per process (exit, crash or terminate).
/// \p InSignalHandler restricts it to async-signal-safe calls.
void writeFinalTrace(bool InSignalHandler);

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_TRACE_WRITER_H
