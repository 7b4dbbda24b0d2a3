//===- stream_writer.h - Lossless tracing with bounded memory -------------===//

#ifndef WGTRACE_RUNTIME_STREAM_WRITER_H
#define WGTRACE_RUNTIME_STREAM_WRITER_H

#include "run_record.h"
#include "thread_ring.h"

namespace wgtrace::runtime {

/// Stream mode (WGTRACE_MODE=stream): each thread records into one buffer
/// while a writer thread appends its previous, full buffer to the file as a
/// ring buffer chunk. A thread holds at most two buffers, so memory stays
/// bounded; a thread that fills its buffer before the writer returned the
/// other one waits, so nothing is lost.
class StreamWriter {
public:
  /// Opens the file and starts the writer thread, if not yet: called when
  /// the first ring is made, so that a signal handler finds the file open.
  virtual void begin() = 0;
  /// Hands \p TR's full buffer (and the timing of its workgroups) to the
  /// writer and gives TR an empty one, waiting for it if need be.
  virtual void exchange(ThreadRing &TR) = 0;
  /// Writes every thread's partial buffer and the run record saying \p How
  /// the run ended, and closes the file. In a signal handler it waits a
  /// bounded time for the writer thread instead of joining it.
  virtual void finish(const RunEnding &How, bool InSignalHandler) = 0;

protected:
  ~StreamWriter() = default;
};

StreamWriter &streamWriter();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_STREAM_WRITER_H
