//===- checksum_sink.h - A ring chunk's checksums as it is written --------===//
//
// A ring chunk's content passes through a ChecksumSink on its way to the
// file, which hashes each block of its ring and its tail (docs/FORMAT.md,
// "The ring trailer") as the bytes go by: the writer never reads a chunk
// twice, and stream mode's writer thread and the exit handler pay for the
// checksums, never the kernels. Nothing here allocates: the crash handler
// uses it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_CHECKSUM_SINK_H
#define WGTRACE_RUNTIME_CHECKSUM_SINK_H

#include "sink.h"

#include "wgtrace/format.h"

#include <cstdint>

namespace wgtrace::runtime {

class ChecksumSink final : public Sink {
public:
  /// For the content of a ring chunk of \p RingSize bytes of ring, whose
  /// chunk header \p Out has already received.
  ChecksumSink(Sink &Out, uint64_t RingSize);

  void write(const void *Data, uint64_t Length) override;

  /// write() for bytes that another thread may still be changing (a
  /// running thread's current buffer): copies them in pieces first, so
  /// that the checksums are those of the bytes the file gets.
  void writeCopied(const void *Data, uint64_t Length);

  /// Content bytes written so far.
  uint64_t position() const { return Position; }

  /// Ends the content with \p Length bytes at \p Last, which hold a
  /// ChecksumHeader at \p HeaderAt (content offset) whose TailChecksum is
  /// 0: fills in the block checksums (their table must lie in \p Last) and
  /// the tail checksum, and writes \p Last.
  void finish(uint8_t *Last, uint64_t Length, uint64_t HeaderAt);

private:
  Sink &Out;
  uint64_t BlockSize;
  uint32_t BlockCount;
  /// Content offset of the next byte, and of the tail (the end of the
  /// last block).
  uint64_t Position = 0;
  uint64_t TailBegin;
  /// The block being hashed (or the tail once Position >= TailBegin).
  format::Xxh64 Hash;
  uint32_t Sums[format::kMaxChecksumBlocks] = {};
};

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_CHECKSUM_SINK_H
