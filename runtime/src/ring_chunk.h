//===- ring_chunk.h - A ring's records as ring buffer chunks --------------===//
//
// Every ring chunk wgtrace writes starts with its first record at offset 0,
// never wraps, keeps no record in its padding, is as small as the
// power-of-two ring (at least 4 KiB) that holds its records, and ends with
// a RingTrailer saying which ring it belongs to and what that ring lost
// (docs/FORMAT.md). IREE's dump tool prints such a chunk from its first
// record to its last. Nothing here allocates: the crash handler uses it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_RING_CHUNK_H
#define WGTRACE_RUNTIME_RING_CHUNK_H

#include "checksum_sink.h"
#include "sink.h"
#include "thread_ring.h"

#include "wgtrace/format.h"

#include <cstdint>
#include <vector>

namespace wgtrace::runtime {

/// The ring size of a chunk holding \p Used bytes of records: the smallest
/// power of two of at least 4 KiB that holds them.
uint64_t chunkRingSize(uint64_t Used);

/// After the bytes of a chunk's ring storage have been written through
/// \p Out: the zeros up to the lost-site entries, \p Trailer's
/// LostSiteCount entries of \p LostSites (entry 0 nearest to the checksum
/// table), the checksums, \p Trailer (version 2) and the head word \p Head.
void writeTail(ChecksumSink &Out, uint64_t RingSize,
               const format::RingTrailer &Trailer,
               const format::LostSite *LostSites, uint64_t Head);

/// Ring mode: decides what \p TR's chunk holds (TR.Plan): the records from
/// the oldest one a chunk may start at (ThreadRing::oldestChunkStart) to
/// the head. Walks them to count records and invocations, and stops early
/// at a record that is torn or keyed to no record before it, which only a
/// signal arriving in the middle of the runtime's own writes leaves.
void planRingChunk(ThreadRing &TR);

/// What a ring chunk's trailer says beyond the chunk itself.
struct TrailerLoss {
  uint64_t Bytes = 0;
  uint64_t Records = 0;
  uint64_t Workgroups = 0;
};

/// Ring mode: what TR lost, as its chunk (TR.Plan) will report it.
TrailerLoss ringLoss(const ThreadRing &TR);

/// Ring mode: writes the chunk TR.Plan describes, rotated so that its first
/// record is at offset 0 and keys made relative to it, with its trailer
/// (flags \p Flags besides kTrailerWrapped, which it sets itself when
/// records were overwritten).
void writeRingChunk(Sink &Out, const ThreadRing &TR, uint16_t Flags);

/// Ring mode: the timing chunk (version 1) of TR's chunk, which is the
/// \p RingsBack-th ring chunk before it. Writes nothing when no workgroup
/// of the chunk was timed.
void writeRingTimingChunk(Sink &Out, const ThreadRing &TR, uint32_t RingsBack);

/// Stream mode: one buffer of records, [0, Used) of Data, keys already
/// relative to its front.
struct BufferChunk {
  const uint8_t *Data;
  uint64_t Used;
  /// The buffer's size (WGTRACE_BUFFER_SIZE).
  uint64_t RingSize;
  uint32_t RingId;
  uint64_t Sequence;
  /// Lifetime offset of Data[0] in the ring.
  uint64_t Lifetime;
};

/// Stream mode: writes \p B as a ring chunk of its full size, or, when
/// \p Compact, of the smallest ring that holds it.
void writeBufferChunk(Sink &Out, const BufferChunk &B, uint16_t Flags,
                      bool Compact);

/// Stream mode: the timing chunk (version 1) of the workgroups that ended
/// in a buffer (their Key is their record's offset in its chunk). Writes
/// nothing for no entries.
void writeTimingChunk(Sink &Out, const format::TimingChunkHeader &Header,
                      const std::vector<TimingEntry> &Entries);

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_RING_CHUNK_H
