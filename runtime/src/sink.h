//===- sink.h - Where the bytes of a trace go -----------------------------===//
//
// Every path that writes a trace goes through a Sink: the file at exit, a
// snapshot in memory, the stream writer thread, and the crash handler.
// Writing allocates nothing, so the crash handler can use the same code.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_SINK_H
#define WGTRACE_RUNTIME_SINK_H

#include "wgtrace/format.h"

#include <cstdint>
#include <vector>

namespace wgtrace::runtime {

class Sink {
public:
  virtual ~Sink() = default;
  virtual void write(const void *Data, uint64_t Length) = 0;
  bool failed() const { return Failed; }
  /// errno of the first failed write, 0 if none.
  int error() const { return Error; }
  /// Marks the sink failed with \p Errno (a writer in front of it that
  /// could not produce its bytes: a compressed chunk zstd could not make).
  void fail(int Errno) {
    if (!Failed) {
      Failed = true;
      Error = Errno;
    }
  }

protected:
  bool Failed = false;
  int Error = 0;
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

/// Writes \p Length bytes of \p Byte, without allocating.
void writeRepeated(Sink &Out, uint8_t Byte, uint64_t Length);

void writeChunkHeader(Sink &Out, format::ChunkType Type, uint64_t Length,
                      uint16_t Version = 0);

/// The zeros that bring a chunk of \p Length content bytes to the next
/// chunk's alignment.
void writeChunkPadding(Sink &Out, uint64_t Length);

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_SINK_H
