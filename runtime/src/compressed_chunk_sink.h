//===- compressed_chunk_sink.h - A chunk written compressed ---------------===//
//
// WGTRACE_COMPRESS=zstd: every ring buffer chunk (ring mode at exit, each
// stream-mode buffer in the writer thread) goes to the file as a compressed
// chunk (format::ChunkType::Compressed, docs/FORMAT.md) that decodes on its
// own: a zstd frame of the content before its tail, as it is or as word
// deltas, whichever a sample of the chunk compresses smaller, then a frame
// of the tail (format::Codec::ZstdTail). The chunk writers do not change:
// they write the plain chunk through a CompressedChunkSink, which keeps the
// compressed bytes (a fraction of the chunk) and writes the compressed chunk
// when finished. It allocates, so the crash and signal handlers write plain
// chunks.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_COMPRESSED_CHUNK_SINK_H
#define WGTRACE_RUNTIME_COMPRESSED_CHUNK_SINK_H

#include "sink.h"

#include "wgtrace/format.h"

#include <cstdint>
#include <vector>

namespace wgtrace::runtime {

/// Whether this runtime was built with libzstd.
bool compressionBuiltIn();

class CompressedChunkSink final : public Sink {
public:
  /// Compresses at zstd level \p Level into memory; finish() writes the
  /// chunk to \p Out.
  CompressedChunkSink(Sink &Out, int Level);
  ~CompressedChunkSink() override;
  CompressedChunkSink(const CompressedChunkSink &) = delete;
  CompressedChunkSink &operator=(const CompressedChunkSink &) = delete;

  /// Takes one chunk: its header, its content and its padding (ignored).
  void write(const void *Data, uint64_t Length) override;
  /// Writes the compressed chunk to the sink given at construction.
  void finish();

private:
  void compress(const uint8_t *Data, uint64_t Length, bool Last);
  /// Decides the codec on the sample, then compresses the sample.
  void choose();
  /// Compresses content bytes in the chosen codec.
  void feed(const uint8_t *Data, uint64_t Length);
  /// Appends the tail's frame to the records' frame.
  void compressTail();

  // [[maybe_unused]]: a runtime built without libzstd never compresses
  // (its settings refuse WGTRACE_COMPRESS) and uses none of them.
  Sink &Out;
  [[maybe_unused]] int Level;
  [[maybe_unused]] uint8_t HeaderBytes[format::kChunkHeaderSize] = {};
  [[maybe_unused]] uint64_t HeaderFill = 0;
  [[maybe_unused]] format::ChunkHeader Inner{};
  /// Content bytes taken so far (the padding after them is dropped).
  [[maybe_unused]] uint64_t Taken = 0;
  /// The content's tail (format::compressedTailLength), compressed in a
  /// frame of its own after the records' frame.
  std::vector<uint8_t> TailBytes;
  /// The chunk's first bytes, until its codec is chosen on them: word
  /// deltas or the plain content, whichever zstd makes smaller.
  std::vector<uint8_t> Sample;
  [[maybe_unused]] bool Chosen = false;
  [[maybe_unused]] format::Codec Codec = format::Codec::Zstd;
  /// The content as the frame holds it with Codec::ZstdWordDeltas.
  [[maybe_unused]] format::WordDeltaEncoder Deltas;
  /// One block of the content encoded, on its way to zstd.
  std::vector<uint8_t> Encoded;
  /// The frame so far: its first FrameUsed bytes.
  std::vector<uint8_t> Frame;
  [[maybe_unused]] uint64_t FrameUsed = 0;
  [[maybe_unused]] void *Context = nullptr;
};

/// Writes the chunk \p Write writes to a Sink: through a
/// CompressedChunkSink at level \p Level, or to \p Out as it is when
/// \p Level is 0.
template <typename WriteChunk>
void writeChunkCompressed(Sink &Out, int Level, WriteChunk &&Write) {
  if (Level == 0) {
    Write(Out);
    return;
  }
  CompressedChunkSink Compressed(Out, Level);
  Write(static_cast<Sink &>(Compressed));
  Compressed.finish();
}

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_COMPRESSED_CHUNK_SINK_H
