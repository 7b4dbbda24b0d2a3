//===- RecordStream.h - Compressed records read as a stream -----*- C++ -*-===//
//
// A compressed ring chunk decompressed whole takes memory as large as its
// ring (64 MiB on the bench) that is written once by zstd and read once by
// the decoder: on a virtual machine its first touch alone cost a quarter
// of the reading. The records' frame of a chunk whose tail has a frame of
// its own (codecs 3 and 4) can instead be decompressed as the decoder moves
// through it, into a window of half a MiB (or two checksum blocks) that
// stays in the cache: the tail already said where the records end and what
// every block must sum to.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_RECORDSTREAM_H
#define WGTRACE_VIEWER_RECORDSTREAM_H

#include "wgtrace/format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <memory>

struct ZSTD_DCtx_s;

namespace wgtrace::viewer {

/// This thread's zstd decompression context, reused from chunk to chunk.
ZSTD_DCtx_s *threadDecompressor();
/// How many zstd frames of records (a chunk's whole content, or all but
/// a tail that has a frame of its own) this process has begun to
/// decompress, whole or as a stream.
std::atomic<uint64_t> &recordFramesDecompressed();
/// The error of a zstd frame (\p Which: "" or " of the tail") that
/// decompressed to \p Got bytes where its chunk's header says \p Want.
llvm::Error frameLengthError(const char *Which, uint64_t Got, uint64_t Want);

class RecordStream {
public:
  /// The zstd \p Frame holding content bytes [0, \p Length), stored as
  /// word deltas when \p WordDeltas (format::Codec). The window holds
  /// \p WindowBytes bytes; reach() must never ask for more at once.
  RecordStream(llvm::ArrayRef<uint8_t> Frame, uint64_t Length, bool WordDeltas,
               uint64_t WindowBytes);

  /// Starts over from the frame's first byte, on this thread's context:
  /// every call of reach() and finish() must come from the same thread.
  void rewind();

  /// Makes content bytes [\p Keep, \p Until) (Until clamped to the length)
  /// readable through at(), decompressing what is not yet. Bytes before
  /// \p Keep may be dropped, and the window may move: the result is how
  /// far (pointers into it from before move back by as many bytes). An
  /// error is zstd's, or a frame that ends before its length.
  llvm::Expected<uint64_t> reach(uint64_t Keep, uint64_t Until);

  /// The content bytes [begin(), end()) are readable.
  uint64_t begin() const { return Begin; }
  uint64_t end() const { return End; }
  /// Content byte \p Offset, which the last reach() made readable.
  const uint8_t *at(uint64_t Offset) const {
    return Window.get() + (Offset - Begin);
  }

  /// How many times a window has slid in this process, on any thread
  /// (tests: a window smaller than the records was read through).
  static uint64_t slides();

  /// Decompresses the rest of the frame without keeping it, and checks that
  /// it holds exactly the length: the whole frame is read before the
  /// records read from it count.
  llvm::Error finish();

private:
  /// Decompresses into the window after End, as much as fits.
  llvm::Error fill();

  llvm::ArrayRef<uint8_t> Frame;
  uint64_t Length;
  bool WordDeltas;
  uint64_t Capacity;
  std::unique_ptr<uint8_t[]> Window;
  /// The content bytes [Begin, End) are in the window, from its start.
  uint64_t Begin = 0;
  uint64_t End = 0;
  /// Content bytes decompressed: End, and a word that WordDeltas waits
  /// to complete.
  uint64_t Raw = 0;
  /// How much of the frame zstd has read; whether the frame has ended.
  size_t Read = 0;
  bool Ended = false;
  ZSTD_DCtx_s *Context = nullptr;
  format::WordDeltaDecoder Deltas;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_RECORDSTREAM_H
