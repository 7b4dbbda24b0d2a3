//===- trace_writer.h - Writing the chunked trace file --------------------===//

#ifndef WGTRACE_RUNTIME_TRACE_WRITER_H
#define WGTRACE_RUNTIME_TRACE_WRITER_H

#include <cstdint>
#include <string>
#include <vector>

namespace wgtrace::runtime {

/// Serialises the metadata of every registered module as the content of a
/// metadata chunk (a FlatBuffer with identifier "IDBD").
std::vector<uint8_t> buildMetadata();

/// Writes the whole trace (metadata chunk, then one ring chunk per thread
/// that recorded anything) to \p Path, through a temporary file renamed into
/// place so that a reader never sees half a trace. Returns false and fills
/// \p Error on failure.
bool writeTrace(const std::string &Path, std::string *Error);

/// Arranges, once, for the trace to be written at process exit to the path
/// set by setTraceFile() or WGTRACE_FILE.
void writeTraceAtExit();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_TRACE_WRITER_H
