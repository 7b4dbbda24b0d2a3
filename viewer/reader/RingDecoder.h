//===- RingDecoder.h - The record stream of one ring chunk ------*- C++ -*-===//
//
// Validates a ring chunk's geometry and head, chooses the range of records
// that can be trusted, and streams them. For a ring whose head passed its
// size (it wrapped), only the last lap survives; docs/VIEWER.md ("Wrapped
// rings") specifies how its first trustworthy record is found and what the
// runtime must guarantee for that to work.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_RINGDECODER_H
#define WGTRACE_VIEWER_RINGDECODER_H

#include "reader/Metadata.h"
#include "reader/Record.h"
#include "reader/RecordStream.h"
#include "reader/TraceFile.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class WorkgroupJoiner;

enum class RingMode : uint8_t {
  /// Show exactly the records that survived; the default.
  WrapAware,
  /// Read ring offsets [0, min(head, R)) as IREE's iree-dump-instruments
  /// does, even when the ring wrapped.
  IreeCompat,
};

/// What records are checked against beyond their metadata and the format
/// (docs/FORMAT.md, "Damage").
struct RecordLimits {
  /// The largest processor id the run wrote, from the run record after
  /// the chunk; unknown without one.
  std::optional<uint32_t> MaxProcessorId;
};

class RingDecoder {
public:
  /// Checks the chunk's geometry, head and trailer and, for a wrapped ring,
  /// locates the first record to show. \p Meta may be null.
  static llvm::Expected<RingDecoder> create(const Chunk &C,
                                            const Metadata *Meta, RingMode Mode,
                                            const RecordLimits &Limits = {});

  /// What create() would check and find of compressed chunk
  /// \p Compressed from its \p Tail alone (head, trailer, checksums, lost
  /// sites; TraceFile::ChunkIterator::decompressTail): its info, or
  /// std::nullopt where the records must tell too (the zeroes after the
  /// head of a chunk without checksums, where a wrapped ring's records
  /// begin), or the error create() would give. A reader learns whether to
  /// read a file on threads without decompressing each chunk twice.
  static llvm::Expected<std::optional<RingInfo>>
  survey(const Chunk &Compressed, const CompressedTail &Tail,
         const Metadata *Meta, RingMode Mode, const RecordLimits &Limits = {});

  /// A decoder of compressed chunk \p Compressed that decompresses its
  /// records as decode() reads them, into a window of half a MiB or two
  /// checksum blocks (RecordStream), its \p Tail (decompressTail) having said
  /// where they end and, with checksums, what each block sums to: for a ring
  /// that did not wrap, whose tail is the ring's padding. For any other, and
  /// for a chunk of a writer that zeroes what follows its records but that has
  /// no checksums, std::nullopt: it is decompressed whole. Else as
  /// create().
  static llvm::Expected<std::optional<RingDecoder>>
  createStreamed(const Chunk &Compressed, CompressedTail Tail,
                 const Metadata *Meta, const RecordLimits &Limits = {});

  /// A ring chunk of \p ContentLength bytes cut by the end of the file
  /// (\p C holds what the file has): its records from ring offset 0 up to
  /// the cut. Only for a chunk of a writer that never wraps a chunk and
  /// zeroes what follows its records (\p Meta promises a run record):
  /// without the head, where its records end is told by those zeroes, and
  /// the order of a wrapped ring's records could not be known.
  static llvm::Expected<RingDecoder> createCut(const Chunk &C,
                                               uint64_t ContentLength,
                                               const Metadata *Meta,
                                               const RecordLimits &Limits = {});

  const RingInfo &info() const { return Info; }

  /// Calls \p Sink for every record in ring order. Stops at the first
  /// damaged record and returns its error; the records before it have been
  /// delivered. With \p Joiner, every WORKGROUP record is numbered by it
  /// (WorkgroupInfo::Invocation) before the sink sees it, and told the
  /// owner of the chunk's last record at the end.
  llvm::Error decode(llvm::function_ref<void(Record &)> Sink,
                     WorkgroupJoiner *Joiner = nullptr) const;

  /// Called during decode() with file ranges [Begin, End) of records
  /// already delivered, every few MiB, so that a caller can release them
  /// (TraceFile::release): a ring chunk may be gigabytes.
  void onConsumed(std::function<void(uint64_t Begin, uint64_t End)> F) {
    Consumed = std::move(F);
  }

  /// After decode() of a decoder of createStreamed(): what zstd or the
  /// frame's length said was wrong with the records' frame, which
  /// decompress() would have found before any record was read; then the
  /// records decode() delivered and its error do not count. Else empty.
  const std::string &frameProblem() const { return FrameProblem; }

  /// After decode(): how many UninstrumentedCall VALUEs it read, per call
  /// (the VALUE's bits, an index of Metadata::IndirectCalls).
  const std::map<uint64_t, uint64_t> &uninstrumentedCalls() const {
    return UninstrumentedCalls;
  }

private:
  explicit RingDecoder(const Chunk &C) : C(C) {}

  /// A decoder of compressed chunk \p Compressed that reads content
  /// bytes from \p ContentLength - Tail.size() on from \p Tail, after
  /// the checks of its tail (readTail).
  static llvm::Expected<RingDecoder> fromTail(const Chunk &Compressed,
                                              llvm::ArrayRef<uint8_t> Tail,
                                              uint64_t ContentLength,
                                              const Metadata *Meta,
                                              const RecordLimits &Limits);
  /// decode() but for the end of the records' frame of a streamed chunk.
  llvm::Error decodeRecords(llvm::function_ref<void(Record &)> Sink,
                            WorkgroupJoiner *Joiner) const;
  /// A streamed chunk: makes ring bytes [\p Keep, \p Until) readable
  /// (RecordStream::reach), \p Moved growing by as many bytes as the
  /// window moved; an error says why the records' frame cannot be read
  /// (FrameProblem).
  llvm::Error reachRing(uint64_t Keep, uint64_t Until, uint64_t &Moved) const;
  /// The ring byte at offset \p Phys (below the ring's size) as decode()
  /// reads it: in the chunk, or in the stream's window.
  const uint8_t *ring(uint64_t Phys) const {
    return Stream ? Stream->at(Phys) : C.Content.data() + Phys;
  }

  /// Size of the record at ring offset \p Phys judged by its tag, length
  /// and (for WORKGROUP) plausibility: dispatch id below the site count and
  /// id < count in every dimension. 0 if it is not a plausible record or
  /// overruns the chunk. Used only to find where a wrapped ring's records
  /// begin.
  uint64_t syntacticSize(uint64_t Phys) const;
  /// Whether the 16-byte slot at ring offset \p Phys is the runtime's 0xFF
  /// filler over overwritten records.
  bool isFiller(uint64_t Phys) const;
  /// The content byte at offset \p Offset (at least ContentBegin).
  const uint8_t *at(uint64_t Offset) const {
    return C.Content.data() + (Offset - ContentBegin);
  }
  /// The checks of a chunk of \p Length content bytes that its tail
  /// tells: geometry, head, trailer, checksums, and the writer's rules.
  llvm::Error readTail(uint64_t Length, const Metadata *Meta,
                       const RecordLimits &Checks);
  /// For a wrapped ring: sets Info.StartOffset and Info.LostBytes.
  llvm::Error locateWrappedStart();
  /// Reads wgtrace's ring trailer into Info when the chunk has one, and
  /// checks it.
  llvm::Error readTrailer();
  /// A version-2 trailer's checksums: the tail's, checked here (it covers
  /// the trailer, lost sites, block table and head), and the block
  /// geometry, which decode() checks block by block.
  llvm::Error readChecksums();
  /// Checks the blocks from \p Verified on that start before ring offset
  /// \p Until, advancing \p Verified past those that match. A streamed
  /// chunk's window keeps ring bytes from \p Keep on, and \p Moved grows
  /// by as many bytes as it moved.
  llvm::Error verifyBlocks(uint64_t &Verified, uint64_t Until, uint64_t Keep,
                           uint64_t &Moved) const;
  /// A chunk of a writer that ends its files with a run record (Strict):
  /// it has a trailer and never wraps.
  llvm::Error checkWrittenChunk();
  /// Such a chunk without checksums: nothing follows its head.
  llvm::Error checkZeroesAfterHead() const;
  /// The checks of a WORKGROUP record beyond its dispatch id: its grid, its
  /// id in it, its processor id; the problem, or "".
  std::string workgroupProblem(const format::WorkgroupRecord &W) const;
  /// The checks of one record beyond its size and key (see "Damage");
  /// the problem, or "" when the record is plausible.
  std::string recordProblem(const uint8_t *P, const Record &R,
                            uint64_t Previous) const;

  Chunk C;
  /// The content's length, and the offset in it of C.Content's first byte
  /// (survey(): the tail's).
  uint64_t ContentLength = 0;
  uint64_t ContentBegin = 0;
  RingInfo Info;
  uint64_t Mask = 0;
  /// Absolute head positions [Begin, End) to decode.
  uint64_t Begin = 0;
  uint64_t End = 0;
  /// Records must end at or before End (false: only inside the chunk).
  bool BoundByEnd = true;
  /// Every key must name a workgroup record decoded before it, and every
  /// record must be plausible.
  bool CheckKeys = true;
  /// The chunk was cut by the end of the file (createCut): it has no head
  /// word, no trailer and no padding.
  bool Cut = false;
  /// The chunk's writer is wgtrace's, as the metadata's run_record says:
  /// the writer's own rules hold too (trailers, zeroed print padding).
  bool Strict = false;
  /// A chunk with checksums (trailer version 2): its blocks; 0 without.
  uint64_t BlockSize = 0;
  uint64_t BlockCount = 0;
  RecordLimits Limits;
  std::function<void(uint64_t, uint64_t)> Consumed;
  /// Counted as decode() reads the records.
  mutable std::map<uint64_t, uint64_t> UninstrumentedCalls;
  /// A streamed chunk (createStreamed): its tail, which C.Content points
  /// into, and its records' frame.
  std::shared_ptr<const std::vector<uint8_t>> TailBytes;
  std::unique_ptr<RecordStream> Stream;
  mutable std::string FrameProblem;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_RINGDECODER_H
