//===- RingDecoder.cc -----------------------------------------------------===//

#include "reader/RingDecoder.h"

#include "reader/WorkgroupJoiner.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <deque>
#include <optional>
#include <set>
#include <vector>

using namespace llvm;

namespace wgtrace::viewer {

namespace {
std::string hex(uint64_t Value) { return "0x" + utohexstr(Value, true); }
} // namespace

Error RingDecoder::readTail(uint64_t Length, const Metadata *Meta,
                            const RecordLimits &Checks) {
  ContentLength = Length;
  Limits = Checks;
  Strict = Meta && Meta->RunRecordPromised;
  Info.Where = C.Where;
  Info.FileOffset = C.contentOffset();
  Info.Meta = Meta;
  if (Length < format::kRingPadding + format::kRecordAlignment)
    return chunkError(C.Where, C.Offset + 8,
                      Twine("ring content of ") + Twine(Length) +
                          " bytes has no room for a ring and its " +
                          Twine(format::kRingPadding) + "-byte padding");
  Info.Size = Length - format::kRingPadding;
  if (!format::isPowerOfTwo(Info.Size))
    return chunkError(C.Where, C.Offset + 8,
                      Twine("ring size ") + Twine(Info.Size) +
                          " is not a power of two");
  Mask = Info.Size - 1;
  uint64_t HeadOffset = Length - format::kRingHeadSize;
  std::memcpy(&Info.Head, at(HeadOffset), sizeof(Info.Head));
  if (Info.Head % format::kRecordAlignment != 0)
    return chunkError(C.Where, Info.FileOffset + HeadOffset,
                      Twine("head ") + Twine(Info.Head) +
                          " is not a multiple of the 16-byte record "
                          "alignment");
  Info.Wrapped = Info.Head > Info.Size;
  if (Error E = readTrailer())
    return E;
  if (Strict)
    if (Error E = checkWrittenChunk())
      return E;
  return Error::success();
}

Expected<RingDecoder> RingDecoder::create(const Chunk &C, const Metadata *Meta,
                                          RingMode Mode,
                                          const RecordLimits &Limits) {
  RingDecoder D(C);
  const RingInfo &Info = D.Info;
  if (Error E = D.readTail(C.Content.size(), Meta, Limits))
    return E;
  if (D.Strict)
    if (Error E = D.checkZeroesAfterHead())
      return E;

  if (!Info.Wrapped) {
    D.Begin = 0;
    D.End = Info.Head;
    return D;
  }
  if (Mode == RingMode::IreeCompat) {
    // IREE's tool reads [0, R) of a wrapped ring as if it had not wrapped;
    // records there may belong to different laps, so keys are not checked
    // and a record may end anywhere inside the chunk.
    D.Begin = 0;
    D.End = Info.Size;
    D.BoundByEnd = false;
    D.CheckKeys = false;
    return D;
  }
  if (Error E = D.locateWrappedStart())
    return E;
  return D;
}

Expected<RingDecoder> RingDecoder::fromTail(const Chunk &Compressed,
                                            ArrayRef<uint8_t> Tail,
                                            uint64_t ContentLength,
                                            const Metadata *Meta,
                                            const RecordLimits &Limits) {
  Chunk C = Compressed;
  C.Content = Tail;
  RingDecoder D(C);
  D.ContentBegin = ContentLength - Tail.size();
  if (Error E = D.readTail(ContentLength, Meta, Limits))
    return E;
  return D;
}

Expected<std::optional<RingInfo>>
RingDecoder::survey(const Chunk &Compressed, const CompressedTail &Tail,
                    const Metadata *Meta, RingMode Mode,
                    const RecordLimits &Limits) {
  Expected<RingDecoder> D =
      fromTail(Compressed, Tail.Bytes, Tail.ContentLength, Meta, Limits);
  if (!D)
    return D.takeError();
  // What only the records tell: the zeroes after the head of a chunk
  // without checksums, where a wrapped ring's records begin.
  if ((D->Strict && !D->BlockSize) ||
      (D->Info.Wrapped && Mode == RingMode::WrapAware))
    return std::nullopt;
  return D->Info;
}

Expected<std::optional<RingDecoder>>
RingDecoder::createStreamed(const Chunk &Compressed, CompressedTail Tail,
                            const Metadata *Meta, const RecordLimits &Limits) {
  auto Bytes =
      std::make_shared<const std::vector<uint8_t>>(std::move(Tail.Bytes));
  Expected<RingDecoder> D =
      fromTail(Compressed, *Bytes, Tail.ContentLength, Meta, Limits);
  if (!D)
    return D.takeError();
  // The records from ring offset 0 to the head, all in the records'
  // frame (a ring that wrapped reads alike in either mode: not here).
  // The zeroes after the head of a writer's chunk without checksums are
  // checked before any record is read (create()).
  if ((D->Strict && !D->BlockSize) || D->Info.Wrapped ||
      D->ContentBegin != D->Info.Size)
    return std::nullopt;
  D->Begin = 0;
  D->End = D->Info.Head;
  D->TailBytes = std::move(Bytes);
  // The window holds what verifyBlocks() and a record need at once: the
  // record before the one read (delivered one record later), that record
  // and the block after them; and half a MiB at least, so that zstd is
  // called seldom, but less than a core's cache (larger windows measured
  // slower on the bench's trace: 0.48 s at 8 MiB, 0.33 s at 64 KiB-2 MiB).
  constexpr uint64_t MinWindow = uint64_t{512} << 10;
  const uint64_t Window = std::min(
      D->ContentBegin,
      std::max(MinWindow, 2 * D->BlockSize + 4 * format::kMaxRecordSize));
  D->Stream = std::make_unique<RecordStream>(Tail.Records, D->ContentBegin,
                                             Tail.WordDeltas, Window);
  return std::optional<RingDecoder>(std::move(*D));
}

Expected<RingDecoder> RingDecoder::createCut(const Chunk &C,
                                             uint64_t ContentLength,
                                             const Metadata *Meta,
                                             const RecordLimits &Limits) {
  RingDecoder D(C);
  D.Limits = Limits;
  D.Strict = true;
  D.Cut = true;
  RingInfo &Info = D.Info;
  Info.Where = C.Where;
  Info.FileOffset = C.contentOffset();
  Info.Meta = Meta;
  if (ContentLength < format::kRingPadding + format::kRecordAlignment ||
      !format::isPowerOfTwo(ContentLength - format::kRingPadding))
    return chunkError(C.Where, C.Offset + 8,
                      Twine("ring content of ") + Twine(ContentLength) +
                          " bytes is no power-of-two ring and its " +
                          Twine(format::kRingPadding) + "-byte padding");
  Info.Size = ContentLength - format::kRingPadding;
  D.Mask = Info.Size - 1;
  // Where the records end: at the writer's zeroes, or at the last record
  // the cut left whole. A slot that starts no record is left inside the
  // range, so that decode() reports it as the damage it is.
  const uint64_t Available = std::min<uint64_t>(C.Content.size(), Info.Size) &
                             ~uint64_t(format::kRecordAlignment - 1);
  uint64_t A = 0;
  while (A + format::kRecordAlignment <= Available) {
    const uint8_t *P = C.Content.data() + A;
    const uint64_t Size = format::recordSize(P);
    if (Size == 0) {
      A += format::kRecordAlignment;
      break;
    }
    if (A + Size > C.Content.size())
      break;
    // All zeroes is no record (a WORKGROUP record's grid is never 0x0x0,
    // and its first 16 bytes are zero for workgroup 0,0,0 of site 0).
    if (std::all_of(P, P + Size, [](uint8_t B) { return B == 0; }))
      break;
    A += Size;
  }
  D.Begin = 0;
  D.End = A;
  Info.Head = A;
  Info.Cut = true;
  return D;
}

Error RingDecoder::readTrailer() {
  // The trailer lies where no record can reach: records end before R +
  // kMaxRecordSize - 16 only when they start in the ring, and wgtrace's
  // writer (the only one that writes trailers) lets no record spill.
  const uint64_t At = format::ringTrailerOffset(Info.Size);
  format::RingTrailer T;
  std::memcpy(&T, at(At), sizeof(T));
  if (T.Magic != format::kRingTrailerMagic)
    return Error::success(); // IREE's chunk, or written before extension 1
  const uint64_t FileAt = Info.FileOffset + At;
  if (T.Version != format::kRingTrailerVersion &&
      T.Version != format::kRingTrailerVersionUnchecked)
    return chunkError(Info.Where,
                      FileAt + offsetof(format::RingTrailer, Version),
                      Twine("ring trailer version ") + Twine(T.Version) +
                          " is not a supported version (" +
                          Twine(format::kRingTrailerVersionUnchecked) + ", " +
                          Twine(format::kRingTrailerVersion) + ")");
  if (T.Version == format::kRingTrailerVersion)
    if (Error E = readChecksums())
      return E;
  const uint32_t MaxLostSites = T.Version == format::kRingTrailerVersion
                                    ? format::kMaxLostSites
                                    : format::kMaxLostSitesUnchecked;
  if (T.LostSiteCount > MaxLostSites)
    return chunkError(
        Info.Where, FileAt + offsetof(format::RingTrailer, LostSiteCount),
        Twine("ring trailer lists ") + Twine(T.LostSiteCount) +
            " lost sites, at most " + Twine(MaxLostSites) + " fit");
  // What every writer of trailers writes (docs/FORMAT.md, "The ring
  // trailer"): anything else is damage.
  constexpr uint16_t Known =
      format::kTrailerWrapped | format::kTrailerStream | format::kTrailerCrash |
      format::kTrailerLostSitesTruncated | format::kTrailerRunRecord;
  if (T.Flags & ~Known)
    return chunkError(Info.Where, FileAt + offsetof(format::RingTrailer, Flags),
                      "ring trailer flags 0x" + Twine::utohexstr(T.Flags) +
                          " have bits no writer sets");
  if (!format::isPowerOfTwo(T.RingSize) || T.RingSize < Info.Size)
    return chunkError(
        Info.Where, FileAt + offsetof(format::RingTrailer, RingSize),
        Twine("ring trailer says the ring had ") + Twine(T.RingSize) +
            " bytes, which is no power of two of at least "
            "its chunk's " +
            Twine(Info.Size));
  const bool Lost =
      T.BytesLost || T.RecordsLost || T.WorkgroupsLost || T.LostSiteCount;
  if ((T.Flags & format::kTrailerStream) &&
      (Lost || (T.Flags & format::kTrailerWrapped)))
    return chunkError(Info.Where, FileAt + offsetof(format::RingTrailer, Flags),
                      "ring trailer of a stream-mode chunk says records were "
                      "lost, which stream mode never loses");
  if (!(T.Flags & format::kTrailerStream) && T.ChunkSequence != 0)
    return chunkError(
        Info.Where, FileAt + offsetof(format::RingTrailer, ChunkSequence),
        Twine("ring trailer of a ring-mode chunk has sequence ") +
            Twine(T.ChunkSequence) + ", which only stream mode counts");
  if (!(T.Flags & (format::kTrailerWrapped | format::kTrailerCrash)) && Lost)
    return chunkError(Info.Where,
                      FileAt + offsetof(format::RingTrailer, BytesLost),
                      "ring trailer says records were lost by a ring that "
                      "neither wrapped nor was cut by a crash");
  Info.Trailer = T;
  Info.LostSites.resize(T.LostSiteCount);
  const uint64_t SitesEnd = format::lostSitesEnd(Info.Size, T.Version);
  for (uint32_t I = 0; I < T.LostSiteCount; ++I)
    std::memcpy(&Info.LostSites[I],
                at(SitesEnd - (I + 1) * sizeof(format::LostSite)),
                sizeof(format::LostSite));
  return Error::success();
}

Error RingDecoder::readChecksums() {
  // The tail's checksum first: it covers the trailer, the lost sites, the
  // block table and the head, which say what everything else means.
  const uint64_t R = Info.Size;
  const uint64_t Length = ContentLength;
  const uint64_t TailBegin = format::checksumTailOffset(R);
  format::ChecksumHeader H;
  std::memcpy(&H, at(format::checksumHeaderOffset(R)), sizeof(H));
  const uint32_t Sum = format::tailChecksumOf(at(TailBegin), Length);
  if (Sum != H.TailChecksum)
    return chunkError(Info.Where, Info.FileOffset + TailBegin,
                      Twine("checksum mismatch in the tail [") +
                          hex(TailBegin) + ", " + hex(Length) +
                          ") (ring trailer, lost sites, block checksums, "
                          "head): 0x" +
                          Twine::utohexstr(Sum) + ", expected 0x" +
                          Twine::utohexstr(H.TailChecksum));
  if (H.BlockSize != format::checksumBlockSize(R) ||
      H.BlockCount != format::checksumBlockCount(R))
    return chunkError(
        Info.Where, Info.FileOffset + format::checksumHeaderOffset(R),
        Twine("checksum blocks of ") + Twine(H.BlockSize) + " bytes, " +
            Twine(H.BlockCount) + " of them, in a ring of " + Twine(R) +
            " bytes, which has " + Twine(format::checksumBlockCount(R)) +
            " of " + Twine(format::checksumBlockSize(R)));
  // Only wgtrace's writer writes checksums, and it never wraps a chunk.
  if (Info.Wrapped)
    return chunkError(
        Info.Where, Info.FileOffset + Length - format::kRingHeadSize,
        Twine("head ") + Twine(Info.Head) + " is past the ring's " + Twine(R) +
            " bytes in a chunk with checksums, whose writer "
            "never wraps a chunk");
  BlockSize = H.BlockSize;
  BlockCount = H.BlockCount;
  return Error::success();
}

Error RingDecoder::verifyBlocks(uint64_t &Verified, uint64_t Until,
                                uint64_t Keep, uint64_t &Moved) const {
  while (Verified < BlockCount && Verified * BlockSize < Until) {
    const uint64_t Begin = Verified * BlockSize;
    if (Stream)
      if (Error E = reachRing(std::min(Keep, Begin), Begin + BlockSize, Moved))
        return E;
    uint32_t Want;
    std::memcpy(&Want,
                at(format::checksumTableOffset(Info.Size) + 4 * Verified),
                sizeof(Want));
    const uint32_t Sum =
        format::blockChecksum(ring(Begin), BlockSize, Verified);
    if (Sum != Want)
      return chunkError(Info.Where, Info.FileOffset + Begin,
                        Twine("checksum mismatch in block ") + Twine(Verified) +
                            " [" + hex(Begin) + ", " + hex(Begin + BlockSize) +
                            ") of the ring: 0x" + Twine::utohexstr(Sum) +
                            ", expected 0x" + Twine::utohexstr(Want));
    ++Verified;
  }
  return Error::success();
}

Error RingDecoder::reachRing(uint64_t Keep, uint64_t Until,
                             uint64_t &Moved) const {
  Expected<uint64_t> Slid = Stream->reach(Keep, Until);
  if (!Slid) {
    FrameProblem = toString(Slid.takeError());
    return chunkError(Info.Where, Info.FileOffset + Keep,
                      Twine("the records' frame cannot be read: ") +
                          FrameProblem);
  }
  Moved += *Slid;
  return Error::success();
}

Error RingDecoder::checkWrittenChunk() {
  const uint64_t HeadAt =
      Info.FileOffset + ContentLength - format::kRingHeadSize;
  if (!Info.Trailer)
    return chunkError(Info.Where,
                      Info.FileOffset + format::ringTrailerOffset(Info.Size),
                      "no ring trailer, which every ring chunk of this file's "
                      "writer has (its metadata says run_record)");
  if (Info.Head > Info.Size)
    return chunkError(Info.Where, HeadAt,
                      Twine("head ") + Twine(Info.Head) +
                          " is past the ring's " + Twine(Info.Size) +
                          " bytes; this file's writer never wraps a chunk");
  return Error::success();
}

Error RingDecoder::checkZeroesAfterHead() const {
  // The writer zeroes what follows its records up to the lost-site
  // entries: a record there means that the head is damaged. The checksums
  // of a version-2 chunk cover the head and those zeroes. A chunk
  // without trailer was refused already (checkWrittenChunk).
  if (BlockSize || !Info.Trailer)
    return Error::success();
  const format::RingTrailer &T = *Info.Trailer;
  const uint64_t Sites = format::lostSitesEnd(Info.Size, T.Version) -
                         uint64_t(T.LostSiteCount) * sizeof(format::LostSite);
  if (Info.Head + format::kRecordAlignment <= Sites) {
    const uint8_t *P = C.Content.data() + Info.Head;
    for (unsigned I = 0; I < format::kRecordAlignment; ++I)
      if (P[I])
        return chunkError(Info.Where, Info.FileOffset + Info.Head,
                          Twine("bytes after the head (") + Twine(Info.Head) +
                              ") are not zero: the head does not say where "
                              "the records end");
  }
  return Error::success();
}

std::string
RingDecoder::workgroupProblem(const format::WorkgroupRecord &W) const {
  if (!W.Count[0] || !W.Count[1] || !W.Count[2])
    return fmt::format("grid {}x{}x{} has a zero dimension", W.Count[0],
                       W.Count[1], W.Count[2]);
  if (W.Id[0] >= W.Count[0] || W.Id[1] >= W.Count[1] || W.Id[2] >= W.Count[2])
    return fmt::format("workgroup id {},{},{} lies outside its grid {}x{}x{}",
                       W.Id[0], W.Id[1], W.Id[2], W.Count[0], W.Count[1],
                       W.Count[2]);
  if (Limits.MaxProcessorId && W.ProcessorId > *Limits.MaxProcessorId)
    return fmt::format("processor id {} is larger than any the run wrote "
                       "({}, says its run record)",
                       W.ProcessorId, *Limits.MaxProcessorId);
  return {};
}

std::string RingDecoder::recordProblem(const uint8_t *P, const Record &R,
                                       uint64_t Previous) const {
  const Metadata *Meta = Info.Meta;
  switch (R.Tag) {
  case format::Tag::Workgroup:
    // Checked before the joiner saw it (workgroupProblem).
    return {};
  case format::Tag::MemoryLoad:
  case format::Tag::MemoryStore:
    if (R.Memory.Length == 0)
      return fmt::format("{} of 0 bytes", R.Memory.IsStore ? "STORE" : "LOAD");
    // Every access site of a run is in its metadata (docs/FORMAT.md); a
    // writer before the run record may have had no table for some.
    if (!Meta || !Strict)
      return {};
    if (R.AccessSite > Meta->AccessSites.size())
      return fmt::format("access site {} is beyond the {} access sites of "
                         "the metadata",
                         R.AccessSite, Meta->AccessSites.size());
    // A file of wgtrace's without access sites holds bare user-space
    // addresses, below 2^48 (docs/FORMAT.md).
    if (!Meta->HasAccessSites && R.AddressWord > format::kAccessAddressMask)
      return fmt::format("address {:#x} is no user-space address",
                         R.AddressWord);
    return {};
  case format::Tag::Value: {
    // IREE's dump tool prints value types it does not know and goes on: a
    // file of another writer may have types of its own. wgtrace's writer
    // writes only those format.h defines.
    if (!Strict)
      return {};
    const format::ValueType Type = R.Value.Type;
    if (!format::isKnownValueType(Type))
      return fmt::format("unknown value type 0x{:02X}", unsigned(Type));
    if (Type == format::ValueType::Continuation) {
      // Right after the copy of the WORKGROUP record it continues.
      if (R.Value.Ordinal != 0 || R.WorkgroupOffset != Previous ||
          R.Offset != Previous + format::kWorkgroupRecordSize)
        return "Continuation value does not follow its WORKGROUP record";
      return {};
    }
    if (Type == format::ValueType::Unselected) {
      // Right after the WORKGROUP record of the invocation it leaves out
      // (the next slot: a record that spills is followed at the front).
      if (R.Value.Ordinal != 0 || R.WorkgroupOffset != Previous ||
          R.Offset !=
              ((Previous + format::kWorkgroupRecordSize) & (Info.Size - 1)))
        return "Unselected value does not follow its WORKGROUP record";
      return {};
    }
    if (Type == format::ValueType::UninstrumentedCall) {
      // Its bits index the metadata's indirect calls, its ordinal is 0.
      if (R.Value.Ordinal != 0 || !Meta ||
          R.Value.Bits >= Meta->IndirectCalls.size())
        return fmt::format("UninstrumentedCall value names call {} of the "
                           "{} indirect calls of the metadata",
                           R.Value.Bits, Meta ? Meta->IndirectCalls.size() : 0);
      return {};
    }
    // A buffer value's ordinal is not checked against the site's kernel:
    // a dispatch through a function pointer (PRK's stencil choosing star2
    // or star4) has a site whose function is not the kernel that ran and
    // recorded its own parameters.
    return {};
  }
  case format::Tag::Print: {
    if (!Strict)
      return {};
    uint32_t Length = format::decodePrintHeader(P).Length;
    if (Length > format::kMaxPrintLength)
      return fmt::format("PRINT of {} bytes is longer than the {} a record "
                         "holds",
                         Length, format::kMaxPrintLength);
    const uint8_t *Text = P + format::kPrintHeaderSize;
    if (std::memchr(Text, 0, Length))
      return "PRINT text has a NUL byte, which the writer never writes";
    const uint64_t Size = format::printRecordSize(Length);
    for (uint64_t I = format::kPrintHeaderSize + Length; I < Size; ++I)
      if (P[I])
        return "PRINT padding is not zero";
    return {};
  }
  default:
    return {};
  }
}

uint64_t RingDecoder::syntacticSize(uint64_t Phys) const {
  // Phys < R and R + 4096 bytes exist, so the 16-byte prefix is readable.
  const uint8_t *P = C.Content.data() + Phys;
  if (format::recordTag(P) == uint8_t(format::Tag::Workgroup)) {
    // Only a plausible workgroup record counts: this rejects most 16-byte
    // slots that merely start with a zero byte, e.g. the second half of a
    // workgroup record cut by the lap boundary.
    format::WorkgroupRecord WG = format::decodeWorkgroup(P);
    size_t NumSites = Info.Meta ? Info.Meta->SiteFunctions.size() : 0;
    if (WG.DispatchId >= NumSites)
      return 0;
    for (int I = 0; I < 3; ++I)
      if (WG.Id[I] >= WG.Count[I])
        return 0;
  }
  const uint64_t Size = format::recordSize(P);
  if (Size == 0)
    return 0;
  if (Phys + Size > C.Content.size() - format::kRingHeadSize)
    return 0;
  return Size;
}

bool RingDecoder::isFiller(uint64_t Phys) const {
  const uint8_t *P = C.Content.data() + Phys;
  for (unsigned I = 0; I < format::kRecordAlignment; ++I)
    if (P[I] != 0xFF)
      return false;
  return true;
}

// The surviving lap is the absolute range [H - R, H): every record that
// starts in it is intact (see docs/VIEWER.md). Its first bytes may be the
// tail of a record that started in the previous lap (at most one record, so
// at most kMaxRecordSize - 16 bytes), followed by records whose workgroup
// record was overwritten. Both are skipped and counted as lost.
Error RingDecoder::locateWrappedStart() {
  const uint64_t R = Info.Size, H = Info.Head, W = H - R;

  // Phase 1: the first record boundary. Try each 16-byte slot of the
  // possibly cut prefix and keep the first one from which tags and lengths
  // chain exactly up to the head. Chains that fail mark the slots they
  // passed: a later candidate that lands on one fails the same way, so the
  // whole phase reads each slot at most once.
  //
  // wgtrace's runtime overwrites what it knows to be lost (records before
  // the oldest intact workgroup record) with 0xFF bytes, which no record
  // starts with: the search starts after that filler.
  uint64_t First = W;
  while (First < H && isFiller(First & Mask))
    First += format::kRecordAlignment;
  if (First == H) {
    Begin = End = H;
    Info.StartOffset = H & Mask;
    Info.LostBytes = R;
    return Error::success();
  }
  BitVector Failed(R / format::kRecordAlignment);
  uint64_t Boundary = H;
  bool Found = false;
  uint64_t CandidateEnd =
      First + std::min<uint64_t>(H - First, format::kMaxRecordSize);
  for (uint64_t Candidate = First; Candidate < CandidateEnd && !Found;
       Candidate += format::kRecordAlignment) {
    uint64_t A = Candidate;
    while (true) {
      if (A == H) {
        Found = true;
        Boundary = Candidate;
        break;
      }
      uint64_t Slot = (A & Mask) / format::kRecordAlignment;
      if (Failed[Slot])
        break;
      Failed.set(Slot);
      uint64_t Size = syntacticSize(A & Mask);
      if (Size == 0 || A + Size > H)
        break;
      A += Size;
    }
  }
  if (!Found)
    return chunkError(Info.Where, Info.FileOffset + (W & Mask),
                      Twine("ring wrapped (head ") + Twine(H) +
                          ") but no record boundary in the first " +
                          Twine(format::kMaxRecordSize) +
                          " bytes of the surviving lap chains up to the head");

  // Phase 2: the oldest workgroup record from which every later record's
  // key names a workgroup record at or after it. Records before it belong
  // to workgroups whose WORKGROUP record was overwritten.
  DenseSet<uint64_t> Since;
  bool HaveStart = false;
  uint64_t Start = H;
  for (uint64_t A = Boundary; A < H;) {
    uint64_t Phys = A & Mask;
    const uint8_t *P = C.Content.data() + Phys;
    uint64_t Size = syntacticSize(Phys);
    if (format::recordTag(P) == uint8_t(format::Tag::Workgroup)) {
      if (!HaveStart) {
        HaveStart = true;
        Start = A;
        Since.clear();
      }
      Since.insert(Phys);
    } else if (HaveStart) {
      uint64_t Word;
      std::memcpy(&Word, P, sizeof(Word));
      if (!Since.contains(format::wordWorkgroupOffset(Word)))
        HaveStart = false;
    }
    A += Size;
  }
  if (!HaveStart)
    Start = H;
  Begin = Start;
  End = H;
  Info.StartOffset = Start & Mask;
  Info.LostBytes = Start - W;
  return Error::success();
}

Error RingDecoder::decode(function_ref<void(Record &)> Sink,
                          WorkgroupJoiner *Joiner) const {
  if (!Stream)
    return decodeRecords(Sink, Joiner);
  Stream->rewind();
  FrameProblem.clear();
  Error E = decodeRecords(Sink, Joiner);
  // Damage in the records or not, a frame that zstd cannot read to its
  // end is what decompressing it whole would have reported instead.
  if (FrameProblem.empty())
    if (Error F = Stream->finish())
      FrameProblem = toString(std::move(F));
  return E;
}

Error RingDecoder::decodeRecords(function_ref<void(Record &)> Sink,
                                 WorkgroupJoiner *Joiner) const {
  const Metadata *Meta = Info.Meta;
  const size_t NumSites = Meta ? Meta->SiteFunctions.size() : 0;
  const bool HasAccessSites = Meta && Meta->HasAccessSites;
  // Ids that wrapped may name the wrong site: records keep none.
  const bool TrustAccessSites = HasAccessSites && !Meta->accessSiteIdsWrapped();
  const uint64_t Limit =
      Cut ? C.Content.size() : ContentLength - format::kRingHeadSize;
  // A deque: records hold pointers into it while later ones are added.
  std::deque<WorkgroupInfo> Workgroups;
  DenseMap<uint64_t, size_t> ByOffset;
  // Most records belong to the workgroup decoded last: skip the hash lookup.
  const WorkgroupInfo *Last = nullptr;

  // Ring offset from which records have not been reported as consumed.
  constexpr uint64_t ConsumedStep = 16 << 20;
  uint64_t ConsumedFrom = Begin & Mask;

  // The chunk's last record's workgroup, for the joiner (a stream-mode
  // buffer change re-emits it at the start of the ring's next chunk).
  struct ChunkEnd {
    WorkgroupJoiner *Joiner;
    const std::deque<WorkgroupInfo> &Workgroups;
    const WorkgroupInfo *Last = nullptr;
    ~ChunkEnd() {
      if (Joiner)
        Joiner->endChunk(Last);
    }
  } EndOfChunk{Joiner, Workgroups};

  // The records the last Atomic VALUE marks that are still to come
  // (format::AtomicOp bits: a LOAD, then a STORE), the workgroup they are
  // keyed to and where the mark is.
  unsigned AtomicPending = 0;
  /// The operation of the last mark, which its records carry.
  format::AtomicOp AtomicMarkOp = format::AtomicOp::None;
  uint64_t AtomicKey = 0;
  uint64_t AtomicMark = 0;
  // The same for the last Critical VALUE: its records still to come (one
  // that may be a LOAD or a STORE, or a LOAD then a STORE) and its name.
  unsigned CriticalPending = 0;
  bool CriticalEither = false;
  uint64_t CriticalName = 0;
  // Per workgroup (its record's ring offset): the critical sections its
  // CriticalSection VALUEs entered and did not leave, innermost last.
  // Every copy of a WORKGROUP record enters its open sections again.
  DenseMap<uint64_t, SmallVector<uint64_t, 2>> OpenSections;
  // The lists of sections records are inside (Record::CriticalNames), kept
  // once each while the ring is decoded: a record is delivered after the
  // next one is read, which may enter or leave a section.
  std::set<std::vector<uint64_t>, CriticalListLess> HeldLists;
  auto Held = [&](ArrayRef<uint64_t> Open,
                  std::optional<uint64_t> Marked) -> ArrayRef<uint64_t> {
    SmallVector<uint64_t, 4> Names(Open.begin(), Open.end());
    if (Marked && (Names.empty() || Names.back() != *Marked))
      Names.push_back(*Marked);
    auto It = HeldLists.find(ArrayRef<uint64_t>(Names));
    if (It == HeldLists.end())
      It = HeldLists.emplace(Names.begin(), Names.end()).first;
    return *It;
  };

  // A record is delivered once the record after it has been checked too:
  // damage that makes one record look valid (a cut PRINT length, a tag
  // turned into another) seldom leaves the bytes after it a valid record,
  // and then neither is taken for data. Two slots, no copies.
  Record Slots[2];
  unsigned Current = 0;
  bool Pending = false;
  uint64_t PendingPhys = 0;
  auto Deliver = [&] {
    Record &Done = Slots[Current ^ 1];
    EndOfChunk.Last = Done.Workgroup;
    Sink(Done);
    if (Consumed && PendingPhys - ConsumedFrom >= ConsumedStep) {
      // PendingPhys < ConsumedFrom after a wrap: the difference is huge as
      // an unsigned, so restart from here without reporting the tail (the
      // caller releases the whole chunk at its end anyway).
      if (PendingPhys > ConsumedFrom)
        Consumed(Info.FileOffset + ConsumedFrom, Info.FileOffset + PendingPhys);
      ConsumedFrom = PendingPhys;
    }
  };
  // Blocks [0, Verified) of a chunk with checksums matched theirs: a
  // record is read only once the blocks it lies in did, and the records
  // before a block that does not are delivered (they lie in blocks that
  // matched: the one pending too, as it ends before this record).
  uint64_t Verified = 0;
  // A streamed chunk's records are read only once this made them readable
  // too (verifying a block does): its window keeps the pending record and
  // the one read from \p Keep (its ring offset) on, and the pending
  // record's text moves with the window.
  auto Verify = [&](uint64_t Keep, uint64_t Until) -> Error {
    if (!BlockSize && !Stream)
      return Error::success();
    uint64_t Moved = 0;
    if (Pending)
      Keep = std::min(PendingPhys, Keep);
    Error E = BlockSize ? verifyBlocks(Verified, Until, Keep, Moved)
                        : reachRing(Keep, Until, Moved);
    if (Moved && Pending && Slots[Current ^ 1].Text.data()) {
      StringRef &Text = Slots[Current ^ 1].Text;
      Text = StringRef(Text.data() - Moved, Text.size());
    }
    if (E && Pending)
      Deliver();
    return E;
  };
  // Ring offset of the record before (a Continuation follows its copy).
  uint64_t PreviousOffset = ~uint64_t{0};
  // What every record sets before its tag's own fields.
  auto Start = [&](Record &Rec, uint8_t Tag, uint64_t Phys,
                   uint64_t FileOffset) {
    Rec.Tag = static_cast<format::Tag>(Tag);
    Rec.Offset = Phys;
    Rec.FileOffset = FileOffset;
    Rec.Text = StringRef();
    Rec.Buffer = kNoBuffer;
    Rec.Atomic = false;
    Rec.AtomicOp = format::AtomicOp::None;
    Rec.Critical = false;
    Rec.CriticalNames = {};
  };
  // A LOAD's or STORE's own fields.
  auto SetMemory = [&](Record &Rec, const format::MemoryRecord &M) {
    Rec.Memory = M;
    Rec.WorkgroupOffset = M.WorkgroupOffset;
    Rec.AddressWord = M.Address;
    if (HasAccessSites) {
      if (TrustAccessSites)
        Rec.AccessSite = format::accessSiteOfWord(M.Address);
      Rec.Memory.Address = format::addressOfWord(M.Address);
    }
  };
  // The record at \p Phys passed every check: the one before it (in the
  // other slot) is data.
  auto Accept = [&](uint64_t Phys) {
    PreviousOffset = Phys;
    if (Pending)
      Deliver();
    Pending = true;
    PendingPhys = Phys;
    Current ^= 1;
  };
  // Checks that apply to every LOAD and STORE (recordProblem's), decided
  // once per chunk.
  const bool CheckSites = CheckKeys && Strict && Meta;
  const uint64_t NumAccessSites = Meta ? Meta->AccessSites.size() : 0;
  for (uint64_t A = Begin; A < End;) {
    // Most records are LOADs and STOREs of the workgroup decoded last, with
    // no mark pending and no critical section open, in blocks verified
    // already: they take this loop, which decides what the full path below
    // decides for them in a fraction of its instructions (the viewer's
    // speed is the decoder's). Anything else, or any doubt, goes below.
    // Only the full path changes what a run of them depends on, so it is
    // read once per run, not once per record.
    if (Last && !Last->Unselected && !CriticalPending && !AtomicPending &&
        OpenSections.empty()) {
      const uint64_t LastOffset = Last->Offset;
      const uint64_t PhysEnd =
          BlockSize ? std::min(Limit, Verified * BlockSize)
                    : (Stream ? std::min(Limit, Stream->end()) : Limit);
      // The verified blocks are in the chunk, or in a streamed chunk's
      // window from WindowBegin on.
      const uint64_t WindowBegin = Stream ? Stream->begin() : 0;
      const uint8_t *Window = ring(WindowBegin);
      while (A < End) {
        const uint64_t Phys = A & Mask;
        const uint8_t *P = Window + (Phys - WindowBegin);
        const uint8_t FastTag = format::recordTag(P);
        if ((FastTag != uint8_t(format::Tag::MemoryLoad) &&
             FastTag != uint8_t(format::Tag::MemoryStore)) ||
            Phys + format::kMemoryRecordSize > PhysEnd ||
            (BoundByEnd && A + format::kMemoryRecordSize > End))
          break;
        const format::MemoryRecord M = format::decodeMemory(P);
        if (M.WorkgroupOffset != LastOffset || M.Length == 0)
          break;
        Record &Rec = Slots[Current];
        if (CheckSites) {
          const uint32_t Site = TrustAccessSites
                                    ? format::accessSiteOfWord(M.Address)
                                    : Rec.AccessSite;
          if (Site > NumAccessSites ||
              (!HasAccessSites && M.Address > format::kAccessAddressMask))
            break;
        }
        Start(Rec, FastTag, Phys, Info.FileOffset + Phys);
        SetMemory(Rec, M);
        Rec.Workgroup = Last;
        Accept(Phys);
        A += format::kMemoryRecordSize;
      }
      if (A >= End)
        break;
    }
    Record &Rec = Slots[Current];
    const uint64_t Phys = A & Mask;
    const uint64_t FileOffset = Info.FileOffset + Phys;
    auto Fail = [&](const Twine &Problem) {
      return chunkError(Info.Where, FileOffset,
                        Twine("record at ring offset ") + hex(Phys) + ": " +
                            Problem);
    };
    // Records start 16-byte aligned: the tag and length are in one block.
    if (Error E = Verify(Phys, Phys + format::kRecordAlignment))
      return E;
    const uint8_t *P = ring(Phys);
    const uint8_t TagByte = format::recordTag(P);
    const uint64_t Size = format::recordSize(P);
    // A WORKGROUP record is read with the record after it (a copy's
    // Continuation VALUE).
    const uint64_t Reach = Size + (TagByte == uint8_t(format::Tag::Workgroup)
                                       ? format::kValueRecordSize
                                       : 0);
    if (Size && Phys + Reach <= Limit) {
      if (Error E = Verify(Phys, Phys + Reach))
        return E;
      P = ring(Phys);
    }
    if (Size == 0)
      return Fail(Twine("unknown record tag ") + Twine(unsigned(TagByte)));
    if (Phys + Size > Limit)
      return Fail(Twine(Size) + "-byte record crosses the end of the ring "
                                "chunk's storage");
    if (BoundByEnd && A + Size > End)
      return Fail(Twine(Size) + "-byte record crosses the head (" +
                  Twine(Info.Head) + ")");

    Start(Rec, TagByte, Phys, FileOffset);
    if (CriticalPending) {
      // As an atomic mark's: its records follow it at once.
      uint64_t Word;
      std::memcpy(&Word, P, sizeof(Word));
      const bool Load = CriticalPending & unsigned(format::AtomicOp::Load);
      const bool Fits =
          format::wordWorkgroupOffset(Word) == AtomicKey &&
          (CriticalEither ? Rec.Tag == format::Tag::MemoryLoad ||
                                Rec.Tag == format::Tag::MemoryStore
                          : Rec.Tag == (Load ? format::Tag::MemoryLoad
                                             : format::Tag::MemoryStore));
      if (Fits) {
        Rec.Critical = true;
        Rec.CriticalName = CriticalName;
        // A statement's own section, inside those its workgroup entered.
        auto Open = OpenSections.find(format::wordWorkgroupOffset(Word));
        Rec.CriticalNames =
            Held(Open == OpenSections.end() ? ArrayRef<uint64_t>()
                                            : ArrayRef<uint64_t>(Open->second),
                 CriticalName);
        CriticalPending =
            CriticalEither || !Load
                ? 0
                : CriticalPending & ~unsigned(format::AtomicOp::Load);
      } else {
        CriticalPending = 0;
        if (CheckKeys)
          return Fail(Twine("the critical section mark at ring offset ") +
                      hex(AtomicMark) +
                      " is not followed by its records of workgroup offset " +
                      hex(AtomicKey));
      }
    }
    if (AtomicPending) {
      // The mark's records follow it at once (the runtime reserves them
      // together): anything else in between is damage. --iree-compat's
      // reading of a wrapped ring may mix laps, and checks nothing.
      const bool Load = AtomicPending & unsigned(format::AtomicOp::Load);
      const format::Tag Want =
          Load ? format::Tag::MemoryLoad : format::Tag::MemoryStore;
      uint64_t Word;
      std::memcpy(&Word, P, sizeof(Word));
      if (Rec.Tag == Want && format::wordWorkgroupOffset(Word) == AtomicKey) {
        Rec.Atomic = true;
        Rec.AtomicOp = AtomicMarkOp;
        AtomicPending =
            Load ? AtomicPending & ~unsigned(format::AtomicOp::Load) : 0;
      } else {
        AtomicPending = 0;
        if (CheckKeys)
          return Fail(Twine("the atomic mark at ring offset ") +
                      hex(AtomicMark) + " is not followed by its " +
                      (Load ? "LOAD" : "STORE") + " of workgroup offset " +
                      hex(AtomicKey));
      }
    }
    if (Rec.Tag == format::Tag::Workgroup) {
      if (!OpenSections.empty())
        OpenSections.erase(Phys);
      WorkgroupInfo WG;
      WG.Offset = Phys;
      WG.Index = Workgroups.size();
      WG.Record = format::decodeWorkgroup(P);
      if (WG.Record.DispatchId >= NumSites)
        return Fail(Twine("dispatch id ") + Twine(WG.Record.DispatchId) +
                    " is beyond the " + Twine(NumSites) +
                    " dispatch sites of the " +
                    (Meta ? "preceding metadata chunk" : "(missing) metadata"));
      if (CheckKeys) {
        std::string Problem = workgroupProblem(WG.Record);
        if (!Problem.empty())
          return Fail(Problem);
      }
      // The VALUE at ring position Pos, if the record after this one is
      // one and lies inside what was decoded.
      auto ValueAt = [&](uint64_t Pos) -> std::optional<format::ValueRecord> {
        if (A + format::kWorkgroupRecordSize + format::kValueRecordSize > End ||
            Pos + format::kValueRecordSize > Limit ||
            format::recordTag(ring(Pos)) != uint8_t(format::Tag::Value))
          return std::nullopt;
        return format::decodeValue(ring(Pos));
      };
      // A copy of a continuing invocation's record is followed by a
      // Continuation VALUE keyed to it (docs/FORMAT.md): look one record
      // ahead so that the joiner knows before any tool sees the copy.
      if (auto V = ValueAt(Phys + format::kWorkgroupRecordSize);
          V && V->Type == format::ValueType::Continuation &&
          V->WorkgroupOffset == Phys) {
        WG.HasContinuation = true;
        WG.ContinuationOf = V->Bits;
      }
      // An invocation the runtime's filter left out is followed by its
      // Unselected VALUE, in the next slot of the ring (a record that
      // spills into the padding is followed at the front of the ring).
      if (auto V = ValueAt((A + format::kWorkgroupRecordSize) & Mask);
          V && V->Type == format::ValueType::Unselected &&
          V->WorkgroupOffset == Phys) {
        WG.Unselected = true;
        WG.UnselectedBy = V->Bits;
      }
      if (Joiner)
        Joiner->workgroup(WG, A == Begin);
      else
        WG.Invocation = WG.Index;
      ByOffset[Phys] = Workgroups.size();
      Workgroups.push_back(WG);
      Last = &Workgroups.back();
      Rec.WorkgroupOffset = Phys;
      Rec.Workgroup = Last;
    } else {
      switch (Rec.Tag) {
      case format::Tag::Print: {
        format::PrintRecord Print = format::decodePrintHeader(P);
        Rec.WorkgroupOffset = Print.WorkgroupOffset;
        StringRef Text(reinterpret_cast<const char *>(P) +
                           format::kPrintHeaderSize,
                       Print.Length);
        Rec.Text = Text.substr(0, Text.find('\0'));
        break;
      }
      case format::Tag::Value:
        Rec.Value = format::decodeValue(P);
        Rec.WorkgroupOffset = Rec.Value.WorkgroupOffset;
        if (Rec.Value.Type == format::ValueType::UninstrumentedCall)
          ++UninstrumentedCalls[Rec.Value.Bits];
        if (Rec.Value.Type == format::ValueType::Atomic) {
          const uint64_t Op = Rec.Value.Bits;
          if (Op > uint64_t(format::AtomicOp::Update) ||
              Rec.Value.Ordinal !=
                  format::atomicRecords(format::AtomicOp(Op))) {
            if (CheckKeys)
              return Fail(Twine("atomic mark with operation ") + Twine(Op) +
                          " and record count " +
                          Twine(unsigned(Rec.Value.Ordinal)) +
                          " (operations: 0 none, 1 load, 2 store, 3 update, "
                          "marking 0, 1, 1 and 2 records)");
            break;
          }
          AtomicPending = unsigned(Op);
          AtomicMarkOp = format::AtomicOp(Op);
          AtomicKey = Rec.WorkgroupOffset;
          AtomicMark = Phys;
        }
        if (Rec.Value.Type == format::ValueType::Critical) {
          const unsigned Marked = Rec.Value.Ordinal;
          if (Marked < 1 || Marked > 2) {
            if (CheckKeys)
              return Fail(Twine("critical section mark with record count ") +
                          Twine(Marked) + " (it marks 1 or 2 records)");
            break;
          }
          CriticalPending = Marked == 2 ? unsigned(format::AtomicOp::Update)
                                        : unsigned(format::AtomicOp::Load);
          CriticalEither = Marked == 1;
          CriticalName = Rec.Value.Bits;
          AtomicKey = Rec.WorkgroupOffset;
          AtomicMark = Phys;
        }
        if (Rec.Value.Type == format::ValueType::CriticalSection) {
          if (Rec.Value.Ordinal > 1) {
            if (CheckKeys)
              return Fail(Twine("critical section VALUE with ordinal ") +
                          Twine(unsigned(Rec.Value.Ordinal)) +
                          " (1 enters the section, 0 leaves it)");
            break;
          }
          if (Rec.Value.Ordinal == 1) {
            OpenSections[Rec.WorkgroupOffset].push_back(Rec.Value.Bits);
            break;
          }
          // Leaves the innermost open section of the name. None open: its
          // enter was overwritten by a wrap along with the records after
          // it, which a copy would have entered again.
          auto Open = OpenSections.find(Rec.WorkgroupOffset);
          if (Open == OpenSections.end())
            break;
          auto Entered = std::find(Open->second.rbegin(), Open->second.rend(),
                                   Rec.Value.Bits);
          if (Entered != Open->second.rend())
            Open->second.erase(std::next(Entered).base());
          if (Open->second.empty())
            OpenSections.erase(Open);
        }
        break;
      default:
        SetMemory(Rec, format::decodeMemory(P));
        // Inside a section its workgroup entered: an access a helper or a
        // library call made, which carries no mark of its own. An atomic
        // one stays atomic.
        if (!OpenSections.empty() && !Rec.Critical && !Rec.Atomic) {
          auto Open = OpenSections.find(Rec.WorkgroupOffset);
          if (Open != OpenSections.end()) {
            Rec.Critical = true;
            Rec.CriticalName = Open->second.back();
            Rec.CriticalNames = Held(Open->second, std::nullopt);
          }
        }
        break;
      }
      if (Last && Last->Offset == Rec.WorkgroupOffset) {
        Rec.Workgroup = Last;
      } else {
        auto It = ByOffset.find(Rec.WorkgroupOffset);
        Rec.Workgroup =
            It == ByOffset.end() ? nullptr : &Workgroups[It->second];
        if (!Rec.Workgroup && CheckKeys)
          return Fail(Twine("workgroup offset ") + hex(Rec.WorkgroupOffset) +
                      " points at no workgroup record");
      }
      // An invocation the filter left out recorded nothing but its mark.
      if (CheckKeys && Rec.Workgroup && Rec.Workgroup->Unselected &&
          !(Rec.Tag == format::Tag::Value &&
            Rec.Value.Type == format::ValueType::Unselected))
        return Fail(Twine("record of the workgroup at ring offset ") +
                    hex(Rec.WorkgroupOffset) +
                    ", which its Unselected value says recorded nothing");
    }
    if (CheckKeys) {
      std::string Problem = recordProblem(P, Rec, PreviousOffset);
      if (!Problem.empty())
        return Fail(Problem);
    }
    Accept(Phys);
    A += Size;
  }
  if (Pending)
    Deliver();
  Pending = false;
  // The blocks after the records hold the writer's zeroes: damage there is
  // damage too, reported once every record has been delivered.
  return BlockSize ? Verify(Info.Size, Info.Size) : Error::success();
}

} // namespace wgtrace::viewer
