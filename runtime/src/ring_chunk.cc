//===- ring_chunk.cc - A ring's records as ring buffer chunks -------------===//

#include "ring_chunk.h"

#include <algorithm>
#include <cstring>

namespace wgtrace::runtime {
namespace {

uint64_t firstWord(const uint8_t *Record) {
  uint64_t Word;
  std::memcpy(&Word, Record, sizeof(Word));
  return Word;
}

/// The bits of a record's first word below its workgroup key.
constexpr uint64_t kLowBits = format::keyBits(1) - 1;

/// Ring mode: the record at lifetime offset \p V of \p TR. Its bytes are
/// contiguous from there: one that crosses the ring's end spilled into the
/// padding.
const uint8_t *recordAt(const ThreadRing &TR, uint64_t V) {
  return TR.Data + (V & TR.mask());
}

/// If the WORKGROUP record at lifetime offset \p V is a copy (followed by
/// its Continuation VALUE), the lifetime offset of its invocation's first
/// record; else ~0.
uint64_t continuedFrom(const ThreadRing &TR, uint64_t V, uint64_t End) {
  uint64_t Next = V + format::kWorkgroupRecordSize;
  if (Next + format::kValueRecordSize > End)
    return ~uint64_t{0};
  const uint8_t *Value = recordAt(TR, Next);
  if (format::recordTag(Value) != uint8_t(format::Tag::Value))
    return ~uint64_t{0};
  format::ValueRecord R = format::decodeValue(Value);
  if (R.Type != format::ValueType::Continuation ||
      R.WorkgroupOffset != (V & TR.mask()))
    return ~uint64_t{0};
  return R.Bits;
}

} // namespace

void writeTail(ChecksumSink &Out, uint64_t RingSize,
               const format::RingTrailer &Trailer,
               const format::LostSite *LostSites, uint64_t Head) {
  // Zeros up to the ring's end (hashed as its blocks), then the tail
  // composed whole, so that its checksum can cover it.
  if (Out.position() < RingSize)
    writeRepeated(Out, 0, RingSize - Out.position());
  const uint64_t Start = Out.position();
  const uint64_t End = format::ringChunkContentLength(RingSize);
  uint8_t Tail[format::kRingPadding] = {};
  auto At = [&](uint64_t Offset) { return Tail + (Offset - Start); };
  const uint64_t SitesEnd = format::lostSitesEnd(RingSize);
  for (uint32_t I = 0; I < Trailer.LostSiteCount; ++I)
    std::memcpy(At(SitesEnd - (I + 1) * sizeof(format::LostSite)),
                &LostSites[I], sizeof(format::LostSite));
  const uint64_t HeaderAt = format::checksumHeaderOffset(RingSize);
  const format::ChecksumHeader Header = {format::checksumBlockSize(RingSize),
                                         format::checksumBlockCount(RingSize),
                                         0};
  std::memcpy(At(HeaderAt), &Header, sizeof(Header));
  std::memcpy(At(format::ringTrailerOffset(RingSize)), &Trailer,
              sizeof(Trailer));
  std::memcpy(At(End - format::kRingHeadSize), &Head, sizeof(Head));
  Out.finish(Tail, End - Start, HeaderAt);
}

namespace {

format::RingTrailer makeTrailer(uint16_t Flags, uint32_t RingId,
                                uint64_t Sequence, uint64_t Lifetime,
                                uint64_t RingSize, const TrailerLoss &Loss) {
  format::RingTrailer T = {};
  T.Magic = format::kRingTrailerMagic;
  T.Version = format::kRingTrailerVersion;
  T.Flags = Flags;
  T.RingId = RingId;
  T.ChunkSequence = Sequence;
  T.BaseVirtualOffset = Lifetime;
  T.RingSize = RingSize;
  T.BytesLost = Loss.Bytes;
  T.RecordsLost = Loss.Records;
  T.WorkgroupsLost = Loss.Workgroups;
  return T;
}

/// Ring mode: the chunk offset of the WORKGROUP record that \p First's
/// invocation has in TR's chunk, or ~0 when it has none.
uint64_t timingOffset(const ThreadRing &TR, uint64_t First) {
  const ChunkPlan &P = TR.Plan;
  if (First >= P.Begin)
    return First < P.End ? First - P.Begin : ~uint64_t{0};
  for (unsigned I = 0; I < P.CarriedCount; ++I)
    if (P.Carried[I].First == First)
      return P.Carried[I].ChunkOffset;
  return ~uint64_t{0};
}

} // namespace

uint64_t chunkRingSize(uint64_t Used) {
  uint64_t Size = 4096;
  while (Size < Used)
    Size <<= 1;
  return Size;
}

void planRingChunk(ThreadRing &TR) {
  ChunkPlan &P = TR.Plan;
  uint64_t Head = TR.head();
  P.Begin = TR.oldestChunkStart(Head);
  P.Records = P.Invocations = 0;
  P.CarriedCount = 0;
  std::fill(P.SiteSurvivors.begin(), P.SiteSurvivors.end(), 0);
  auto Survived = [&](uint32_t Site) {
    ++P.Invocations;
    if (Site < P.SiteSurvivors.size())
      ++P.SiteSurvivors[Site];
  };
  uint64_t V = P.Begin;
  while (V < Head) {
    const uint8_t *Record = recordAt(TR, V);
    uint64_t Size = format::recordSize(Record);
    if (Size == 0 || V + Size > Head ||
        (V & TR.mask()) + Size >
            TR.size() + format::kRingPadding - format::kRingHeadSize)
      break;
    if (format::recordTag(Record) == uint8_t(format::Tag::Workgroup)) {
      uint64_t First = continuedFrom(TR, V, Head);
      uint32_t Site = format::decodeWorkgroup(Record).DispatchId;
      if (First == ~uint64_t{0}) {
        Survived(Site);
      } else if (First < P.Begin) {
        // Begun before the chunk: counted at its first copy in it.
        bool Seen = false;
        for (unsigned I = 0; I < P.CarriedCount && !Seen; ++I)
          Seen = P.Carried[I].First == First;
        if (!Seen && P.CarriedCount < ChunkPlan::MaxCarried) {
          P.Carried[P.CarriedCount++] = {First, V - P.Begin};
          Survived(Site);
        }
      }
    } else {
      // The key must name a WORKGROUP record of the chunk before this one.
      uint64_t Key = format::wordWorkgroupOffset(firstWord(Record));
      uint64_t KeyV = P.Begin + ((Key - P.Begin) & TR.mask());
      if (Key >= TR.size() || KeyV >= V ||
          format::recordTag(TR.Data + Key) != uint8_t(format::Tag::Workgroup))
        break;
    }
    ++P.Records;
    V += Size;
  }
  P.End = V;
}

TrailerLoss ringLoss(const ThreadRing &TR) {
  const ChunkPlan &P = TR.Plan;
  const RingCounts &C = TR.Counts;
  uint64_t Head = TR.head();
  TrailerLoss Loss;
  Loss.Bytes = (P.Begin - TR.Floor) + (Head - P.End);
  uint64_t Big =
      C.WorkgroupRecords * format::kWorkgroupRecordSize + C.PrintBytes;
  uint64_t Kept = Head - TR.Floor;
  uint64_t Records =
      C.WorkgroupRecords + C.Prints +
      (Kept > Big ? (Kept - Big) / format::kMemoryRecordSize : 0);
  Loss.Records = Records > P.Records ? Records - P.Records : 0;
  Loss.Workgroups =
      C.Invocations > P.Invocations ? C.Invocations - P.Invocations : 0;
  return Loss;
}

void writeRingChunk(Sink &Out, const ThreadRing &TR, uint16_t Flags) {
  const ChunkPlan &P = TR.Plan;
  uint64_t Used = P.End - P.Begin;
  uint64_t RingSize = chunkRingSize(Used);
  uint64_t Length = format::ringChunkContentLength(RingSize);
  writeChunkHeader(Out, format::ChunkType::DispatchRingBuffer, Length);
  ChecksumSink Content(Out, RingSize);

  // The records, in order from the chunk's first, copied in pieces small
  // enough for a signal handler's stack, keys made relative to the first.
  uint8_t Piece[16384];
  uint64_t Fill = 0;
  for (uint64_t V = P.Begin; V < P.End;) {
    const uint8_t *Record = recordAt(TR, V);
    uint64_t Size = format::recordSize(Record);
    if (Fill + Size > sizeof(Piece)) {
      Content.write(Piece, Fill);
      Fill = 0;
    }
    std::memcpy(Piece + Fill, Record, Size);
    if (format::recordTag(Record) != uint8_t(format::Tag::Workgroup)) {
      uint64_t Word = firstWord(Record);
      uint64_t Key = (format::wordWorkgroupOffset(Word) - P.Begin) & TR.mask();
      Word = (Word & kLowBits) | format::keyBits(Key);
      std::memcpy(Piece + Fill, &Word, sizeof(Word));
    }
    Fill += Size;
    V += Size;
  }
  Content.write(Piece, Fill);

  // Sites whose invocations were all overwritten, in dispatch id order, as
  // many as the padding holds.
  format::LostSite Lost[format::kMaxLostSites];
  uint32_t LostCount = 0;
  bool Truncated = false;
  const std::vector<uint64_t> &Invocations = TR.Counts.SiteInvocations;
  for (size_t Site = 0; Site < Invocations.size(); ++Site) {
    uint64_t Survivors =
        Site < P.SiteSurvivors.size() ? P.SiteSurvivors[Site] : 0;
    if (Invocations[Site] <= Survivors)
      continue;
    if (LostCount == format::kMaxLostSites) {
      Truncated = true;
      break;
    }
    uint64_t Count = Invocations[Site] - Survivors;
    Lost[LostCount++] = {
        static_cast<uint32_t>(Site),
        static_cast<uint32_t>(std::min<uint64_t>(Count, UINT32_MAX))};
  }
  TrailerLoss Loss = ringLoss(TR);
  if (P.Begin > TR.Floor)
    Flags |= format::kTrailerWrapped;
  if (Truncated)
    Flags |= format::kTrailerLostSitesTruncated;
  format::RingTrailer Trailer =
      makeTrailer(Flags, TR.Ordinal, 0, P.Begin, TR.size(), Loss);
  Trailer.LostSiteCount = LostCount;
  writeTail(Content, RingSize, Trailer, Lost, Used);
  writeChunkPadding(Out, Length);
}

void writeRingTimingChunk(Sink &Out, const ThreadRing &TR, uint32_t RingsBack) {
  uint64_t Count = 0;
  for (const TimingEntry &T : TR.Timing)
    Count += timingOffset(TR, T.First) != ~uint64_t{0};
  if (Count == 0)
    return;
  uint64_t Length =
      sizeof(format::TimingChunkHeader) + Count * sizeof(format::TimingRecord);
  writeChunkHeader(Out, format::ChunkType::WorkgroupTiming, Length,
                   format::kTimingChunkVersion);
  format::TimingChunkHeader Header = {RingsBack, TR.Ordinal, 0};
  Out.write(&Header, sizeof(Header));
  for (const TimingEntry &T : TR.Timing) {
    uint64_t Offset = timingOffset(TR, T.First);
    if (Offset == ~uint64_t{0})
      continue;
    format::TimingRecord R = {Offset, T.StartNs, T.EndNs, T.Processor, 0};
    Out.write(&R, sizeof(R));
  }
  writeChunkPadding(Out, Length);
}

void writeBufferChunk(Sink &Out, const BufferChunk &B, uint16_t Flags,
                      bool Compact) {
  uint64_t RingSize = Compact ? chunkRingSize(B.Used) : B.RingSize;
  uint64_t Length = format::ringChunkContentLength(RingSize);
  writeChunkHeader(Out, format::ChunkType::DispatchRingBuffer, Length);
  ChecksumSink Content(Out, RingSize);
  // A compact chunk is a ring's current buffer, which its thread may still
  // be writing (flushTrace, a signal).
  if (Compact)
    Content.writeCopied(B.Data, B.Used);
  else
    Content.write(B.Data, B.Used);
  format::RingTrailer Trailer =
      makeTrailer(Flags | format::kTrailerStream, B.RingId, B.Sequence,
                  B.Lifetime, B.RingSize, TrailerLoss());
  writeTail(Content, RingSize, Trailer, nullptr, B.Used);
  writeChunkPadding(Out, Length);
}

void writeTimingChunk(Sink &Out, const format::TimingChunkHeader &Header,
                      const std::vector<TimingEntry> &Entries) {
  if (Entries.empty())
    return;
  uint64_t Length = sizeof(format::TimingChunkHeader) +
                    Entries.size() * sizeof(format::TimingRecord);
  writeChunkHeader(Out, format::ChunkType::WorkgroupTiming, Length,
                   format::kTimingChunkVersion);
  Out.write(&Header, sizeof(Header));
  for (const TimingEntry &T : Entries) {
    format::TimingRecord R = {T.Key, T.StartNs, T.EndNs, T.Processor, 0};
    Out.write(&R, sizeof(R));
  }
  writeChunkPadding(Out, Length);
}

} // namespace wgtrace::runtime
