//===- TraceFile.h - A trace file and its chunks ----------------*- C++ -*-===//
//
// The file is memory-mapped, never read into memory: traces are as large as
// the rings that produced them (gigabytes), and every consumer streams.
// Chunks are handed out one at a time after their header and bounds have
// been checked, so nothing downstream can index past the mapping.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_TRACEFILE_H
#define WGTRACE_VIEWER_TRACEFILE_H

#include "reader/ChunkError.h"
#include "reader/ChunkMemory.h"

#include "wgtrace/format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <vector>

namespace wgtrace::viewer {

/// One chunk whose header and extent have been validated.
struct Chunk {
  ChunkLocation Where;
  /// Offset of the chunk header: its plain offset (ChunkLocation), which
  /// is the file offset in a file without compressed chunks.
  uint64_t Offset = 0;
  format::ChunkHeader Header{};
  /// The content_length bytes after the header (no padding).
  llvm::ArrayRef<uint8_t> Content;
  /// A chunk read from a compressed chunk: the header and content of the
  /// chunk it holds, decompressed into memory that Content points into.
  std::shared_ptr<const uint8_t[]> Decompressed;
  /// The bytes the chunk takes in the file, header and padding included.
  uint64_t FileLength = 0;

  uint64_t contentOffset() const { return Offset + format::kChunkHeaderSize; }
  format::ChunkType type() const {
    return static_cast<format::ChunkType>(Header.Type);
  }
};

/// The tail of a compressed chunk's content (its last
/// format::compressedTailLength bytes: head, trailer, checksums, lost
/// sites), decompressed alone.
struct CompressedTail {
  /// The whole content's length.
  uint64_t ContentLength = 0;
  std::vector<uint8_t> Bytes;
  /// The records' frame (the content before the tail, compressed), in the
  /// file, and whether it holds word deltas (format::Codec).
  llvm::ArrayRef<uint8_t> Records;
  bool WordDeltas = false;
};

class TraceFile {
public:
  /// Maps \p Path read-only; "-" reads standard input. A pipe, a FIFO, a
  /// device or standard input is read whole into memory.
  static llvm::Expected<TraceFile> open(llvm::StringRef Path);
  /// Another reading of the same bytes, for a second reader (another
  /// thread): it shares the mapping or the memory and releases pages as
  /// its own reading passes them. Opening the path again would not do: a
  /// stream (a pipe, a FIFO, standard input) gives its bytes to the first
  /// reader only, and a file replaced at its path in between (a running
  /// program's snapshot is written to a temporary and renamed over it)
  /// would give the second reader another trace.
  TraceFile share() const;
  /// Wraps bytes already in memory (tests, the fuzzer). The bytes must
  /// outlive the TraceFile.
  static TraceFile fromBytes(llvm::ArrayRef<uint8_t> Bytes);

  llvm::ArrayRef<uint8_t> bytes() const { return Bytes; }

  /// Tells the kernel that the bytes [Begin, End) (file offsets) will not be
  /// needed soon: their pages leave this process's resident set (they stay
  /// in the page cache and fault back in if read again). Streaming a mapped
  /// file would otherwise count every page read as resident memory, growing
  /// with the file. A no-op unless the file is memory-mapped.
  void release(uint64_t Begin, uint64_t End) const;

  /// Iterates chunks in file order.
  class ChunkIterator {
  public:
    explicit ChunkIterator(llvm::ArrayRef<uint8_t> Bytes) : Bytes(Bytes) {}
    /// Fills \p C with the next chunk and returns true, returns false at the
    /// end of the file, or an error for a damaged header. Known chunk types
    /// only: an unknown type is an error because its length cannot be
    /// trusted to skip it (IREE's tool stops there too). A compressed
    /// chunk is handed out decompressed, as the chunk it holds; one whose
    /// frame is damaged (its checksum, its sizes, what zstd says) is
    /// skipped, its header having said where the next chunk is, and its
    /// error kept for takeSkipped().
    llvm::Expected<bool> next(Chunk &C);

    /// From now on, hands compressed chunks out as they are in the file
    /// (Where.Compressed set, Header and Content the compressed chunk's)
    /// for the caller to decompress with decompress(), on another thread if
    /// it likes (compress and decompress do). The plain offsets after one
    /// assume it decompresses to the size its header gives: a caller stops
    /// at the first that does not.
    void keepCompressed() { KeepCompressed = true; }
    /// Decompresses \p C, a compressed chunk handed out as it is (see
    /// keepCompressed()), into the chunk it holds, in \p Memory's blocks
    /// when given; or gives the error that next() would have given for it,
    /// or kept for takeSkipped().
    static llvm::Error decompress(Chunk &C, ChunkMemory *Memory = nullptr);
    /// For a compressed chunk \p C handed out as it is: its tail alone
    /// (format::Codec::ZstdTail), decompressed from the tail's frame, or
    /// std::nullopt for a chunk of one frame (codecs 1 and 2), which only
    /// decompress() reads; or the error decompress() would give for its
    /// header or its tail's frame.
    static llvm::Expected<std::optional<CompressedTail>>
    decompressTail(const Chunk &C);
    /// For a compressed chunk \p C handed out as it is: the error with
    /// which next() would have ended the reading there (a frame that
    /// cannot be read and whose decompressed size is not known either), or
    /// success where next() would have read it or skipped it. Decompresses
    /// only where the header and its checksum cannot tell.
    static llvm::Error endOfReading(const Chunk &C);
    /// How many zstd frames of records (a chunk's whole content, or all
    /// but a tail that has a frame of its own) this process has
    /// decompressed so far, on any thread: what a reading costs beyond the
    /// decoding (tests).
    static uint64_t framesDecompressed();
    /// next() decompresses into \p Memory's blocks: one reused block for
    /// a reading that lets each chunk go before the next.
    void useMemory(std::shared_ptr<ChunkMemory> M) { Memory = std::move(M); }

    /// The errors of the compressed chunks skipped since the last call
    /// (one line each), or success.
    llvm::Error takeSkipped();
    /// How many chunks takeSkipped() would report: ring chunks all (only
    /// ring chunks are compressed), which timing chunks count back over.
    size_t skipped() const { return Skipped.size(); }

    /// After next() reported a chunk cut by the end of the file: that chunk
    /// with the content the file holds (shorter than content_length), so
    /// that a reader can show what came before the cut; null otherwise.
    const Chunk *cutChunk() const { return Cut ? &*Cut : nullptr; }
    /// Bytes of the cut chunk's content that the file lacks.
    uint64_t missingBytes() const { return Missing; }

  private:
    /// Decompresses the compressed chunk \p C into C itself (into
    /// \p Memory's blocks when given); an error says what is wrong with it.
    static llvm::Error decompressFrame(Chunk &C, ChunkMemory *Memory);
    /// \p E, what is wrong with compressed chunk \p C, as next() reports
    /// it.
    static llvm::Error asChunkError(const Chunk &C, llvm::Error E);
    /// next() for one chunk; sets \p Skip for a damaged compressed one.
    llvm::Expected<bool> read(Chunk &C, bool &Skip);

    llvm::ArrayRef<uint8_t> Bytes;
    uint64_t Offset = 0;
    /// The plain offset of the next chunk (ChunkLocation).
    uint64_t Plain = 0;
    unsigned Index = 0;
    bool KeepCompressed = false;
    std::shared_ptr<ChunkMemory> Memory;
    /// The skipped chunks' errors (copies of ChunkErrorInfo's fields: an
    /// iterator is copied, an Error cannot be).
    struct SkippedChunk {
      ChunkLocation Where;
      uint64_t FileOffset;
      std::string Problem;
    };
    std::vector<SkippedChunk> Skipped;
    std::optional<Chunk> Cut;
    uint64_t Missing = 0;
  };
  ChunkIterator chunks() const { return ChunkIterator(Bytes); }

private:
  std::shared_ptr<llvm::MemoryBuffer> Buffer;
  llvm::ArrayRef<uint8_t> Bytes;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_TRACEFILE_H
