//===- trace_writer.h - Writing the chunked trace file --------------------===//
//
// Every path that writes a trace goes through a Sink: the file at exit, a
// snapshot in memory, the stream writer thread, and the crash handler.
// Writing allocates nothing once the metadata is cached, so the crash
// handler can use the same code.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_TRACE_WRITER_H
#define WGTRACE_RUNTIME_TRACE_WRITER_H

#include "thread_ring.h"

#include "wgtrace/format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wgtrace::runtime {

class Sink {
public:
  virtual ~Sink() = default;
  virtual void write(const void *Data, uint64_t Length) = 0;
  bool failed() const { return Failed; }

protected:
  bool Failed = false;
};

/// Writes to a file descriptor with write(2): usable in a signal handler.
class FdSink final : public Sink {
public:
  explicit FdSink(int Fd) : Fd(Fd) {}
  void write(const void *Data, uint64_t Length) override;

private:
  int Fd;
};

class VectorSink final : public Sink {
public:
  explicit VectorSink(std::vector<uint8_t> &Out) : Out(Out) {}
  void write(const void *Data, uint64_t Length) override;

private:
  std::vector<uint8_t> &Out;
};

/// Rebuilds the cached metadata chunk content from every registered module.
/// Called when a module registers and before each trace is written.
void refreshMetadata();

void writeMetadataChunk(Sink &Out);

/// Ring mode: writes \p TR as one ring buffer chunk (and its timing chunk
/// when timing is on). After a wrap, the bytes of records older than the
/// oldest intact workgroup record are written as 0xFF, so that a reader
/// scanning from the head finds that record first (docs/FORMAT.md).
/// Returns the bytes lost to the wrap.
uint64_t writeRingChunk(Sink &Out, const ThreadRing &TR);

/// Stream mode: one buffer's records, handed to the writer.
struct StreamBuffer {
  uint8_t *Data;
  uint64_t Size;
  /// Bytes of records, from ring offset Start (ThreadRing::Start).
  uint64_t Used;
  uint64_t Start;
};

/// Stream mode: writes a buffer as a ring buffer chunk that never wrapped,
/// then the timing chunk of its workgroups. Rewrites the keys in the
/// buffer of one that starts past offset 0.
void writeBufferChunk(Sink &Out, const StreamBuffer &B,
                      const std::vector<TimingEntry> &Timing);

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
