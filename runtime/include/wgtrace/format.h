//===- wgtrace/format.h - The one definition of the trace format ----------===//
//
// Every constant and record layout of the on-disk trace lives here. The
// runtime (writer) and the viewer (reader) both include this header; nothing
// else restates a layout. The format is IREE's dispatch instrumentation
// stream ("IDB0" chunks), so files interoperate with iree-dump-instruments.
//
// Records are encoded and decoded with explicit shifts and masks instead of
// C bit-fields: bit-field order is implementation-defined, the file's is not.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_FORMAT_H
#define WGTRACE_FORMAT_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace wgtrace::format {

//===----------------------------------------------------------------------===//
// Chunks
//===----------------------------------------------------------------------===//

/// "IDB0" read as a little-endian u32.
inline constexpr uint32_t kChunkMagic = 0x42444930u;
inline constexpr size_t kChunkHeaderSize = 16;
inline constexpr size_t kChunkAlignment = 16;

enum class ChunkType : uint16_t {
  DispatchMetadata = 0,
  DispatchRingBuffer = 1,
  /// wgtrace extension, written only with WGTRACE_TIMING=1: start and end
  /// times of the workgroups of the ring buffer chunk just before it.
  WorkgroupTiming = 0x8001,
  /// wgtrace extension, written only with WGTRACE_COMPRESS: another chunk
  /// (a ring buffer chunk) whose content is compressed on its own
  /// (CompressedChunkHeader below). IREE's dump tool does not know it.
  Compressed = 0x8002,
};

/// The 16-byte header in front of every chunk.
struct ChunkHeader {
  uint32_t Magic;
  uint16_t Type;
  uint16_t Version;
  uint64_t ContentLength;
};
static_assert(sizeof(ChunkHeader) == kChunkHeaderSize);

constexpr uint64_t alignUp(uint64_t Value, uint64_t Alignment) {
  return (Value + Alignment - 1) & ~(Alignment - 1);
}

/// Offset of the chunk that follows a chunk starting at \p Offset.
constexpr uint64_t nextChunkOffset(uint64_t Offset, uint64_t ContentLength) {
  return Offset + kChunkHeaderSize + alignUp(ContentLength, kChunkAlignment);
}

/// FlatBuffer file identifier of the metadata chunk's content.
inline constexpr char kMetadataIdentifier[] = "IDBD";

//===----------------------------------------------------------------------===//
// Ring buffer chunk
//===----------------------------------------------------------------------===//

/// Bytes after the power-of-two ring: records may spill into them, and the
/// last 8 hold the u64 write head.
inline constexpr uint64_t kRingPadding = 4096;
inline constexpr uint64_t kRingHeadSize = 8;
/// The largest record: one starting at the last aligned slot of the ring
/// (R - 16) still ends before the head word (R + 4088).
inline constexpr uint64_t kMaxRecordSize = 4096;
inline constexpr uint64_t kRecordAlignment = 16;

/// Content length of a ring chunk holding a ring of \p RingSize bytes.
constexpr uint64_t ringChunkContentLength(uint64_t RingSize) {
  return RingSize + kRingPadding;
}

constexpr bool isPowerOfTwo(uint64_t Value) {
  return Value != 0 && (Value & (Value - 1)) == 0;
}

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

enum class Tag : uint8_t {
  Workgroup = 0,
  Print = 1,
  Value = 2,
  Reserved = 3,
  MemoryLoad = 4,
  MemoryStore = 5,
};

enum class ValueType : uint8_t {
  SInt8 = 0,
  UInt8,
  SInt16,
  UInt16,
  SInt32,
  UInt32,
  SInt64,
  UInt64,
  Pointer,
  Float16,
  Float32,
  Float64,
  BFloat16,

  // wgtrace extension 1: VALUE types IREE's schema does not have. IREE's
  // dump tool prints them as "<<unknown type: XX>>" and goes on.

  /// A kernel's buffer parameter: Ordinal indexes the function's
  /// WgtraceFunctionDef.params, Bits is the buffer's address. Written by the
  /// workgroup prologue right after the WORKGROUP record, for every
  /// workgroup (so that each workgroup names its buffers on its own: after
  /// a wrap, in a stream-mode chunk, under a filter).
  BufferBase = 0x40,
  /// Bytes of the buffer of the BufferBase with the same ordinal, when the
  /// parameter's type says it (a span's size, an array bound, a reference).
  BufferExtent = 0x41,
  /// Follows a WORKGROUP record that continues an invocation begun earlier
  /// in the same ring (re-emitted at a wrap or at a stream-mode buffer
  /// change, or when a kernel called from a kernel returns after one).
  /// Ordinal is 0; Bits is the ring-lifetime offset (RingTrailer::
  /// BaseVirtualOffset-relative counting) of the invocation's first
  /// WORKGROUP record. All copies with the same ring and Bits are one
  /// workgroup.
  Continuation = 0x42,
  /// A call through a pointer ran a function wgtrace did not instrument
  /// while this workgroup ran: its accesses are not in the trace. Ordinal
  /// is 0; Bits is the call's index in WgtraceDef.indirect_calls.
  UninstrumentedCall = 0x43,
  /// Marks the memory records right after it as one atomic operation's
  /// (docs/FORMAT.md, "Atomic accesses"): Bits is an AtomicOp, Ordinal the
  /// number of LOAD / STORE records it marks (atomicRecords(Op)). They
  /// follow it at once, keyed to the same workgroup: the runtime reserves
  /// the mark and its records together, so no continuation, buffer change or
  /// chunk boundary comes between them.
  Atomic = 0x44,
  /// Follows the WORKGROUP record of an iteration of an OpenMP loop (and
  /// every copy of it): Bits is the launch's dispatch number, the process's
  /// count of launches, so that readers group the iterations of one
  /// execution of the loop exactly (docs/FORMAT.md). Ordinal is 0.
  Launch = 0x45,
  /// Marks the memory records right after it as made inside an OpenMP
  /// critical section (docs/FORMAT.md, "Critical sections"): Bits is the
  /// section's name hashed (criticalNameHash: the unnamed section is the
  /// name ""), Ordinal the number of records it marks (1: a LOAD or a
  /// STORE; 2: a LOAD then a STORE of the same bytes, an update). They
  /// follow it at once, keyed to the same workgroup, reserved with it as an
  /// Atomic mark's are. The metadata's access sites name the sections.
  Critical = 0x46,
  /// Enters (Ordinal 1) or leaves (Ordinal 0) the OpenMP critical section
  /// whose name hashed is Bits (criticalNameHash) in an iteration of an
  /// OpenMP loop: every memory record of the workgroup between the two,
  /// whatever code makes it (a helper, a library call recorded as the
  /// library does it), is made inside the section (docs/FORMAT.md,
  /// "Critical sections"). An open section is kept with the buffers, so
  /// that every copy of the WORKGROUP record enters it again.
  CriticalSection = 0x47,
  /// Follows, at once, the WORKGROUP record of an invocation that the
  /// workgroup filter (WGTRACE_FILTER, wgtrace::setFilter) did not select:
  /// the invocation ran and recorded nothing else, which a selected
  /// invocation that made no access does not say. Ordinal is 0; Bits is
  /// the index in WgtraceDef.filters of the filter in force. The runtime
  /// reserves it with the WORKGROUP record, so nothing comes between them.
  Unselected = 0x48,
  /// Follows the WORKGROUP record of an iteration of an OpenMP `omp for`
  /// loop run by a parallel region the rewriter marked (and every copy of
  /// it): the part of the running thread's stack that is the thread's own
  /// in that region, from the frame the region runs in down
  /// (threadStackBits). What the thread keeps there (a caller's local array
  /// handed to an orphaned loop, NPB FT's `y1`) no other thread of the team
  /// reaches, so two iterations of one thread do not race on it. Ordinal
  /// is 0.
  ThreadStack = 0x49,
};
inline constexpr unsigned kValueTypeCount = 13;

/// Whether \p Type is one of IREE's value types (printed as a value).
constexpr bool isIreeValueType(ValueType Type) {
  return uint8_t(Type) < kValueTypeCount;
}

/// What an Atomic VALUE's records are: its Bits.
enum class AtomicOp : uint8_t {
  /// Marks no record: fills the end of a ring part or buffer that the
  /// next atomic operation's records do not fit in (the runtime writes one
  /// or two of them there, then goes on in the next part).
  None = 0,
  /// One LOAD: an atomic load (std::atomic<T>::load, the conversion,
  /// wait, __atomic_load_n).
  Load = 1,
  /// One STORE: an atomic store (store, operator=, atomic_flag::clear).
  Store = 2,
  /// A LOAD then a STORE of the same bytes: a read-modify-write (fetch_add,
  /// exchange, compare_exchange, ++, test_and_set, __sync_*), as
  /// WGTRACE_UPDATE records a plain update.
  Update = 3,
};

/// Memory records an Atomic VALUE of \p Op marks (its Ordinal).
constexpr unsigned atomicRecords(AtomicOp Op) {
  return (unsigned(Op) & 1) + ((unsigned(Op) >> 1) & 1);
}

/// Whether \p Type is a value type this format defines (IREE's and
/// wgtrace's): a reader of wgtrace's files takes any other for damage.
constexpr bool isKnownValueType(ValueType Type) {
  return isIreeValueType(Type) || Type == ValueType::BufferBase ||
         Type == ValueType::BufferExtent || Type == ValueType::Continuation ||
         Type == ValueType::UninstrumentedCall || Type == ValueType::Atomic ||
         Type == ValueType::Launch || Type == ValueType::Critical ||
         Type == ValueType::CriticalSection || Type == ValueType::Unselected ||
         Type == ValueType::ThreadStack;
}

/// A ThreadStack VALUE's Bits: the thread's own stack [Low, Frame) as the
/// frame (bits 0-47: an address of the 48-bit user space of x86-64 and
/// AArch64) and the whole pages below it (bits 48-63, at most 65535: a
/// larger stack counts as its top 256 MiB, and less is its own, never more).
inline constexpr unsigned kThreadStackFrameBits = 48;
inline constexpr uint64_t kThreadStackPage = 4096;
constexpr uint64_t threadStackBits(uint64_t Low, uint64_t Frame) {
  uint64_t Pages = Frame > Low ? (Frame - Low) / kThreadStackPage : 0;
  if (Pages > 0xFFFF)
    Pages = 0xFFFF;
  return Frame >> kThreadStackFrameBits
             ? 0 // not a user-space address: nothing is the thread's own
             : (Pages << kThreadStackFrameBits) | Frame;
}
/// [Lo, Hi) of a ThreadStack VALUE's Bits (threadStackBits).
struct ThreadStackRange {
  uint64_t Lo = 0;
  uint64_t Hi = 0;
};
constexpr ThreadStackRange threadStackRange(uint64_t Bits) {
  const uint64_t Frame = Bits & ((uint64_t{1} << kThreadStackFrameBits) - 1);
  const uint64_t Below = (Bits >> kThreadStackFrameBits) * kThreadStackPage;
  return Below > Frame ? ThreadStackRange{}
                       : ThreadStackRange{Frame - Below, Frame};
}

/// A Critical VALUE's Bits for the OpenMP critical section \p Name ("" for
/// the unnamed one): its 64-bit FNV-1a hash. One name is one section in
/// the whole program, whichever file it is written in, so the mark
/// carries the name itself (hashed), not an index of one module's table.
constexpr uint64_t criticalNameHash(std::string_view Name) {
  uint64_t Hash = 0xcbf29ce484222325ull;
  for (char C : Name) {
    Hash ^= uint8_t(C);
    Hash *= 0x100000001b3ull;
  }
  return Hash;
}

inline constexpr size_t kWorkgroupRecordSize = 32;
inline constexpr size_t kValueRecordSize = 16;
inline constexpr size_t kMemoryRecordSize = 16;
inline constexpr size_t kPrintHeaderSize = 8;

/// Widths of the packed fields.
inline constexpr unsigned kDispatchIdBits = 24;
inline constexpr uint32_t kMaxDispatchId = (1u << kDispatchIdBits) - 1;
inline constexpr unsigned kWorkgroupOffsetBits = 40;
inline constexpr uint64_t kMaxWorkgroupOffset =
    (uint64_t{1} << kWorkgroupOffsetBits) - 1;
inline constexpr uint32_t kMaxAccessLength = 0xFFFF;
/// Longest PRINT text that fits in one record without reaching the head.
inline constexpr uint32_t kMaxPrintLength = kMaxRecordSize - kPrintHeaderSize;

constexpr uint64_t printRecordSize(uint32_t Length) {
  return alignUp(kPrintHeaderSize + Length, kRecordAlignment);
}

/// The tag of the record whose first byte is at \p Record.
inline uint8_t recordTag(const void *Record) {
  return *static_cast<const uint8_t *>(Record);
}

/// Bytes of the record whose first 16 bytes are at \p Record, from its tag
/// (and a PRINT's length); 0 when the tag is not a record's.
inline uint64_t recordSize(const void *Record);

// The 64-bit first word shared by PRINT, VALUE, LOAD and STORE:
// tag:8 | payload:16 | workgroup_offset:40 (LOAD/STORE/PRINT: payload is the
// length; VALUE: payload is type:8 | ordinal:8).

constexpr uint64_t packWord(Tag T, uint64_t Payload16, uint64_t WgOffset) {
  return uint64_t(uint8_t(T)) | (Payload16 << 8) | (WgOffset << 24);
}
/// A workgroup key in place in a first word, to be or'ed with the rest.
constexpr uint64_t keyBits(uint64_t WgOffset) { return WgOffset << 24; }
constexpr uint64_t wordPayload(uint64_t Word) { return (Word >> 8) & 0xFFFF; }
constexpr uint64_t wordWorkgroupOffset(uint64_t Word) { return Word >> 24; }

/// WORKGROUP record, decoded.
struct WorkgroupRecord {
  uint32_t DispatchId;
  uint32_t Id[3];
  uint32_t Count[3];
  uint32_t ProcessorId;
};

inline void encodeWorkgroup(void *Dst, const WorkgroupRecord &R) {
  uint32_t Words[8] = {uint32_t(uint8_t(Tag::Workgroup)) | (R.DispatchId << 8),
                       R.Id[0],
                       R.Id[1],
                       R.Id[2],
                       R.Count[0],
                       R.Count[1],
                       R.Count[2],
                       R.ProcessorId};
  std::memcpy(Dst, Words, sizeof(Words));
}

inline WorkgroupRecord decodeWorkgroup(const void *Src) {
  uint32_t Words[8];
  std::memcpy(Words, Src, sizeof(Words));
  return {Words[0] >> 8,
          {Words[1], Words[2], Words[3]},
          {Words[4], Words[5], Words[6]},
          Words[7]};
}

//===----------------------------------------------------------------------===//
// wgtrace extension 1: access sites in the address word
//===----------------------------------------------------------------------===//

// When the metadata has WgtraceDef.access_sites, a LOAD/STORE record's
// second word is address:48 | access_site:16. User-space addresses on the
// platforms wgtrace supports (x86-64 and AArch64 with 4-level page tables)
// fit in 47 bits, so the top 16 bits are free. Site 0 means "no site" (an
// access made by code the rewriter did not number, e.g. a hand-written
// WGTRACE_LOAD). Without access_sites the word is the address, as in
// IREE's files.
inline constexpr unsigned kAccessSiteShift = 48;
inline constexpr uint64_t kAccessAddressMask =
    (uint64_t{1} << kAccessSiteShift) - 1;
inline constexpr uint32_t kNoAccessSite = 0;
inline constexpr uint32_t kMaxAccessSite = 0xFFFF;

/// The address word of a record of access site \p Site.
constexpr uint64_t accessSiteBits(uint32_t Site) {
  return uint64_t(Site) << kAccessSiteShift;
}
constexpr uint64_t addressOfWord(uint64_t Word) {
  return Word & kAccessAddressMask;
}
constexpr uint32_t accessSiteOfWord(uint64_t Word) {
  return uint32_t(Word >> kAccessSiteShift);
}

/// LOAD / STORE record, decoded.
struct MemoryRecord {
  bool IsStore;
  uint32_t Length;
  uint64_t WorkgroupOffset;
  uint64_t Address;
};

inline void encodeMemory(void *Dst, bool IsStore, uint64_t Length,
                         uint64_t WgOffset, uint64_t Address) {
  uint64_t Words[2] = {
      packWord(IsStore ? Tag::MemoryStore : Tag::MemoryLoad, Length, WgOffset),
      Address};
  std::memcpy(Dst, Words, sizeof(Words));
}

inline MemoryRecord decodeMemory(const void *Src) {
  uint64_t Words[2];
  std::memcpy(Words, Src, sizeof(Words));
  return {uint8_t(Words[0]) == uint8_t(Tag::MemoryStore),
          uint32_t(wordPayload(Words[0])), wordWorkgroupOffset(Words[0]),
          Words[1]};
}

/// VALUE record, decoded.
struct ValueRecord {
  ValueType Type;
  uint8_t Ordinal;
  uint64_t WorkgroupOffset;
  uint64_t Bits;
};

/// A VALUE record's 16-bit payload: type, then ordinal.
constexpr uint64_t valuePayload(ValueType Type, uint8_t Ordinal) {
  return uint64_t(uint8_t(Type)) | (uint64_t(Ordinal) << 8);
}

inline void encodeValue(void *Dst, ValueType Type, uint8_t Ordinal,
                        uint64_t WgOffset, uint64_t Bits) {
  uint64_t Words[2] = {
      packWord(Tag::Value, valuePayload(Type, Ordinal), WgOffset), Bits};
  std::memcpy(Dst, Words, sizeof(Words));
}

inline ValueRecord decodeValue(const void *Src) {
  uint64_t Words[2];
  std::memcpy(Words, Src, sizeof(Words));
  uint64_t Payload = wordPayload(Words[0]);
  return {ValueType(Payload & 0xFF), uint8_t(Payload >> 8),
          wordWorkgroupOffset(Words[0]), Words[1]};
}

/// PRINT record header, decoded; the text follows the 8-byte header.
struct PrintRecord {
  uint32_t Length;
  uint64_t WorkgroupOffset;
};

inline void encodePrintHeader(void *Dst, uint32_t Length, uint64_t WgOffset) {
  uint64_t Word = packWord(Tag::Print, Length, WgOffset);
  std::memcpy(Dst, &Word, sizeof(Word));
}

inline PrintRecord decodePrintHeader(const void *Src) {
  uint64_t Word;
  std::memcpy(&Word, Src, sizeof(Word));
  return {uint32_t(wordPayload(Word)), wordWorkgroupOffset(Word)};
}

inline uint64_t recordSize(const void *Record) {
  switch (static_cast<Tag>(recordTag(Record))) {
  case Tag::Workgroup:
    return kWorkgroupRecordSize;
  case Tag::Value:
    return kValueRecordSize;
  case Tag::MemoryLoad:
  case Tag::MemoryStore:
    return kMemoryRecordSize;
  case Tag::Print:
    return printRecordSize(decodePrintHeader(Record).Length);
  case Tag::Reserved:
    break;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// wgtrace extension 1: the ring trailer
//===----------------------------------------------------------------------===//

// wgtrace writes every ring chunk so that it does not wrap and no record
// spills into the padding; the padding's last bytes before the head then
// hold a RingTrailer saying which ring the chunk belongs to and what was
// lost before it. IREE's tools ignore the padding. Version 2: just below
// the trailer lie a ChecksumHeader and, below it, the array of the
// checksums of the chunk's blocks, and below that the lost-site entries
// (entry 0 nearest to the array). Version 1 (earlier writers) has no checksums:
// its lost-site entries lie immediately before the trailer.

/// "WGRT" read as a little-endian u32.
inline constexpr uint32_t kRingTrailerMagic = 0x54524757u;
/// The version every writer writes: with block checksums.
inline constexpr uint16_t kRingTrailerVersion = 2;
/// Written before checksums: read, unverified.
inline constexpr uint16_t kRingTrailerVersionUnchecked = 1;

// RingTrailer::Flags bits.
/// Records of this ring were overwritten before this chunk's first byte.
inline constexpr uint16_t kTrailerWrapped = 1u << 0;
/// The chunk is one buffer of a stream-mode ring.
inline constexpr uint16_t kTrailerStream = 1u << 1;
/// Written by the crash handler: the last workgroup may be cut short.
inline constexpr uint16_t kTrailerCrash = 1u << 2;
/// More sites lost workgroups than the lost-site entries hold.
inline constexpr uint16_t kTrailerLostSitesTruncated = 1u << 3;
/// The chunk is the run record (below), not a ring of records.
inline constexpr uint16_t kTrailerRunRecord = 1u << 4;

struct RingTrailer {
  uint32_t Magic;
  uint16_t Version;
  uint16_t Flags;
  /// Process-wide index of the ring (a ring outlives the threads that use
  /// it; chunks of one ring share it).
  uint32_t RingId;
  /// Lost-site entries just before the trailer.
  uint32_t LostSiteCount;
  /// 0, 1, 2, ... over the chunks of one ring, in the order written.
  uint64_t ChunkSequence;
  /// Ring-lifetime byte offset of this chunk's content offset 0 (the
  /// bytes the ring held before it, written or lost).
  uint64_t BaseVirtualOffset;
  /// WGTRACE_BUFFER_SIZE the ring ran with (the chunk may be smaller).
  uint64_t RingSize;
  /// Bytes, records and WORKGROUP records (invocations, not copies) of
  /// this ring overwritten before this chunk's first byte and written in
  /// no chunk.
  uint64_t BytesLost;
  uint64_t RecordsLost;
  uint64_t WorkgroupsLost;
};
static_assert(sizeof(RingTrailer) == 64);

/// How many invocations of one dispatch site a ring lost to wrapping.
struct LostSite {
  uint32_t DispatchId;
  uint32_t Workgroups;
};
static_assert(sizeof(LostSite) == 8);

/// Version 2: what lies just below the trailer. The ring [0, RingSize) is
/// cut into BlockCount blocks of BlockSize bytes, each with a 32-bit
/// checksum (blockChecksum, seeded with the block's index) in the u32
/// array that ends just below this header; the tail, every
/// content byte after the last block (the padding, or the whole chunk of
/// a run record), has TailChecksum, computed with this field taken as 0.
struct ChecksumHeader {
  uint64_t BlockSize;
  uint32_t BlockCount;
  uint32_t TailChecksum;
};
static_assert(sizeof(ChecksumHeader) == 16);

/// Blocks of a ring are at least this large (a smaller block would add
/// table entries, not detection)...
inline constexpr uint64_t kMinChecksumBlockSize = 4096;
/// ...and a ring has at most this many, so that the table (1 KiB) leaves
/// the padding room for kMaxLostSites entries.
inline constexpr uint32_t kMaxChecksumBlocks = 256;

/// The checksum block size of a ring chunk of \p RingSize bytes.
constexpr uint64_t checksumBlockSize(uint64_t RingSize) {
  return RingSize / kMaxChecksumBlocks > kMinChecksumBlockSize
             ? RingSize / kMaxChecksumBlocks
             : kMinChecksumBlockSize;
}
/// Its block count: 0 for a ring smaller than a block (the run record's),
/// which only the tail covers.
constexpr uint32_t checksumBlockCount(uint64_t RingSize) {
  return static_cast<uint32_t>(RingSize / checksumBlockSize(RingSize));
}
/// The seed of the tail's checksum: the index after the last block's.
constexpr uint64_t tailChecksumSeed(uint64_t RingSize) {
  return checksumBlockCount(RingSize);
}

/// Content offset of the trailer in a ring chunk of \p RingSize bytes.
constexpr uint64_t ringTrailerOffset(uint64_t RingSize) {
  return RingSize + kRingPadding - kRingHeadSize - sizeof(RingTrailer);
}
/// Version 2: content offsets of the ChecksumHeader and of the block table
/// (the u32 of block i at checksumTableOffset + 4 i).
constexpr uint64_t checksumHeaderOffset(uint64_t RingSize) {
  return ringTrailerOffset(RingSize) - sizeof(ChecksumHeader);
}
constexpr uint64_t checksumTableOffset(uint64_t RingSize) {
  return checksumHeaderOffset(RingSize) -
         uint64_t{4} * checksumBlockCount(RingSize);
}
/// Where lost-site entry 0 ends (entry I lies at lostSitesEnd - 8 (I + 1)),
/// for a trailer of \p Version.
constexpr uint64_t lostSitesEnd(uint64_t RingSize,
                                uint16_t Version = kRingTrailerVersion) {
  return Version == kRingTrailerVersionUnchecked
             ? ringTrailerOffset(RingSize)
             : checksumTableOffset(RingSize);
}
/// Bytes of a run record chunk of ring size \p RingSize that its record,
/// entries and strings may fill: all before the checksums (version 1:
/// before the trailer).
constexpr uint64_t runRecordRoom(uint64_t RingSize,
                                 uint16_t Version = kRingTrailerVersion) {
  return lostSitesEnd(RingSize, Version);
}
/// Most lost-site entries that fit between the ring's end and the block
/// table of the largest.
inline constexpr uint32_t kMaxLostSites =
    (kRingPadding - kRingHeadSize - sizeof(RingTrailer) -
     sizeof(ChecksumHeader) - uint64_t{4} * kMaxChecksumBlocks) /
    sizeof(LostSite);
/// Most lost-site entries a version-1 trailer may list.
inline constexpr uint32_t kMaxLostSitesUnchecked =
    (kRingPadding - kRingHeadSize - sizeof(RingTrailer)) / sizeof(LostSite);

//===----------------------------------------------------------------------===//
// wgtrace extension 1: the ring chunk's checksums
//===----------------------------------------------------------------------===//

// XXH64 (Yann Collet's xxHash, 64-bit; docs/FORMAT.md): four independent
// 64-bit multiply-rotate lanes over 32-byte stripes, so a writer hashes
// gigabytes at exit in a fraction of the time it takes to write them.
// Incremental: any split of the input gives the same hash, so a writer
// hashes bytes as it streams them. Pure computation, no allocation: the
// crash handler calls it.

namespace xxh {
inline constexpr uint64_t kXxPrime1 = 0x9E3779B185EBCA87ull;
inline constexpr uint64_t kXxPrime2 = 0xC2B2AE3D27D4EB4Full;
inline constexpr uint64_t kXxPrime3 = 0x165667B19E3779F9ull;
inline constexpr uint64_t kXxPrime4 = 0x85EBCA77C2B2AE63ull;
inline constexpr uint64_t kXxPrime5 = 0x27D4EB2F165667C5ull;

inline uint64_t rotl64(uint64_t X, unsigned R) {
  return (X << R) | (X >> (64 - R));
}
/// Little-endian loads, whatever the host's order (the file's is little).
inline uint64_t load64(const uint8_t *P) {
  uint64_t V;
  std::memcpy(&V, P, sizeof(V));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  V = __builtin_bswap64(V);
#endif
  return V;
}
inline uint32_t load32(const uint8_t *P) {
  uint32_t V;
  std::memcpy(&V, P, sizeof(V));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  V = __builtin_bswap32(V);
#endif
  return V;
}
inline uint64_t xxRound(uint64_t Acc, uint64_t Input) {
  return rotl64(Acc + Input * kXxPrime2, 31) * kXxPrime1;
}
inline uint64_t xxMerge(uint64_t Acc, uint64_t Lane) {
  return (Acc ^ xxRound(0, Lane)) * kXxPrime1 + kXxPrime4;
}
} // namespace xxh

/// XXH64 of a byte stream fed in pieces.
class Xxh64 {
public:
  explicit Xxh64(uint64_t Seed = 0)
      : Lane{Seed + xxh::kXxPrime1 + xxh::kXxPrime2, Seed + xxh::kXxPrime2,
             Seed, Seed - xxh::kXxPrime1},
        Seed(Seed) {}

  void update(const void *Data, uint64_t Length) {
    const auto *P = static_cast<const uint8_t *>(Data);
    Total += Length;
    if (Buffered) {
      uint64_t Take = Length < 32 - Buffered ? Length : 32 - Buffered;
      std::memcpy(Stripe + Buffered, P, Take);
      Buffered += static_cast<unsigned>(Take);
      P += Take;
      Length -= Take;
      if (Buffered < 32)
        return;
      consume(Stripe);
      Buffered = 0;
    }
    // Four lanes in locals: the compiler keeps them in registers.
    uint64_t V0 = Lane[0], V1 = Lane[1], V2 = Lane[2], V3 = Lane[3];
    for (; Length >= 32; P += 32, Length -= 32) {
      V0 = xxh::xxRound(V0, xxh::load64(P));
      V1 = xxh::xxRound(V1, xxh::load64(P + 8));
      V2 = xxh::xxRound(V2, xxh::load64(P + 16));
      V3 = xxh::xxRound(V3, xxh::load64(P + 24));
    }
    Lane[0] = V0, Lane[1] = V1, Lane[2] = V2, Lane[3] = V3;
    std::memcpy(Stripe, P, Length);
    Buffered = static_cast<unsigned>(Length);
  }

  uint64_t digest() const {
    using namespace xxh;
    uint64_t H;
    if (Total >= 32) {
      H = rotl64(Lane[0], 1) + rotl64(Lane[1], 7) + rotl64(Lane[2], 12) +
          rotl64(Lane[3], 18);
      for (uint64_t L : Lane)
        H = xxMerge(H, L);
    } else {
      H = Seed + kXxPrime5;
    }
    H += Total;
    const uint8_t *P = Stripe;
    unsigned Left = Buffered;
    for (; Left >= 8; P += 8, Left -= 8)
      H = rotl64(H ^ xxRound(0, load64(P)), 27) * kXxPrime1 + kXxPrime4;
    if (Left >= 4) {
      H = rotl64(H ^ (uint64_t{load32(P)} * kXxPrime1), 23) * kXxPrime2 +
          kXxPrime3;
      P += 4;
      Left -= 4;
    }
    for (; Left; ++P, --Left)
      H = rotl64(H ^ (*P * kXxPrime5), 11) * kXxPrime1;
    H ^= H >> 33;
    H *= kXxPrime2;
    H ^= H >> 29;
    H *= kXxPrime3;
    H ^= H >> 32;
    return H;
  }

  /// The 32-bit checksum the format stores: the digest's halves xored.
  uint32_t checksum() const {
    uint64_t H = digest();
    return static_cast<uint32_t>(H ^ (H >> 32));
  }

private:
  void consume(const uint8_t *P) {
    Lane[0] = xxh::xxRound(Lane[0], xxh::load64(P));
    Lane[1] = xxh::xxRound(Lane[1], xxh::load64(P + 8));
    Lane[2] = xxh::xxRound(Lane[2], xxh::load64(P + 16));
    Lane[3] = xxh::xxRound(Lane[3], xxh::load64(P + 24));
  }

  uint64_t Lane[4];
  uint64_t Seed;
  uint64_t Total = 0;
  uint8_t Stripe[32] = {};
  unsigned Buffered = 0;
};

/// The checksum of block \p Index of a ring chunk (its \p Length bytes at
/// \p Bytes), or with tailChecksumSeed() of its tail.
inline uint32_t blockChecksum(const uint8_t *Bytes, uint64_t Length,
                              uint64_t Index) {
  Xxh64 H(Index);
  H.update(Bytes, Length);
  return H.checksum();
}

/// Content offset of a ring chunk's tail (ring size \p RingSize): the
/// bytes after its last checksum block, which the tail checksum covers.
constexpr uint64_t checksumTailOffset(uint64_t RingSize) {
  return uint64_t{checksumBlockCount(RingSize)} * checksumBlockSize(RingSize);
}

/// The tail checksum of a ring chunk of \p Length content bytes (ring size
/// Length - kRingPadding, version-2 trailer) from its tail at \p Tail (the
/// bytes from checksumTailOffset on), TailChecksum taken as 0: a reader
/// that decompressed only the tail checks it (Codec::ZstdTail).
inline uint32_t tailChecksumOf(const uint8_t *Tail, uint64_t Length) {
  const uint64_t RingSize = Length - kRingPadding;
  const uint64_t Begin = checksumTailOffset(RingSize);
  const uint64_t Field =
      checksumHeaderOffset(RingSize) + offsetof(ChecksumHeader, TailChecksum);
  static const uint8_t Zero[4] = {};
  Xxh64 H(tailChecksumSeed(RingSize));
  H.update(Tail, Field - Begin);
  H.update(Zero, sizeof(Zero));
  H.update(Tail + (Field + 4 - Begin), Length - Field - 4);
  return H.checksum();
}

/// The tail checksum of a ring chunk's \p Length content bytes at
/// \p Content.
inline uint32_t tailChecksum(const uint8_t *Content, uint64_t Length) {
  return tailChecksumOf(Content + checksumTailOffset(Length - kRingPadding),
                        Length);
}

/// Writes the ChecksumHeader, block checksums and tail checksum of a ring
/// chunk laid out in memory (\p Length content bytes at \p Content, its
/// version-2 trailer and lost sites in place). For writers that hold a
/// whole chunk; the runtime hashes as it streams.
inline void sealRingChunk(uint8_t *Content, uint64_t Length) {
  const uint64_t RingSize = Length - kRingPadding;
  const uint64_t BlockSize = checksumBlockSize(RingSize);
  const uint32_t Count = checksumBlockCount(RingSize);
  const uint64_t Table = checksumTableOffset(RingSize);
  for (uint32_t I = 0; I < Count; ++I) {
    uint32_t Sum = blockChecksum(Content + I * BlockSize, BlockSize, I);
    std::memcpy(Content + Table + 4 * uint64_t(I), &Sum, 4);
  }
  ChecksumHeader Header = {BlockSize, Count, 0};
  const uint64_t At = checksumHeaderOffset(RingSize);
  std::memcpy(Content + At, &Header, sizeof(Header));
  Header.TailChecksum = tailChecksum(Content, Length);
  std::memcpy(Content + At, &Header, sizeof(Header));
}

//===----------------------------------------------------------------------===//
// wgtrace extension 1: the run record
//===----------------------------------------------------------------------===//

// The last chunk of every trace wgtrace writes says how the run ended and
// what happened that the records cannot say. It is a ring buffer chunk
// whose head is 0, so that every reader of rings (IREE's dump tool
// included) finds no record in it, and whose RingTrailer has the flag
// kTrailerRunRecord and the ring id kRunRecordRingId. Its ring is the
// smallest (kRunRecordRingSize), and from content offset 0 up to the
// trailer (the ring and the padding, which no reader of records looks at
// when the head is 0) it holds a RunRecord, then
// RunRecord::UninstrumentedSites UninstrumentedSite entries, then their
// strings. A file whose metadata has WgtraceDef.run_record and that does
// not end with one was cut short (or its process killed outright).

/// RingTrailer::RingId of the run record chunk.
inline constexpr uint32_t kRunRecordRingId = 0xFFFFFFFFu;
/// "WGRN" read as a little-endian u32.
inline constexpr uint32_t kRunRecordMagic = 0x4E524757u;
inline constexpr uint16_t kRunRecordVersion = 1;

/// How the run that wrote a trace ended (RunRecord::End).
enum class RunEnd : uint8_t {
  /// The trace was written while the program went on: flushTrace(),
  /// snapshotTrace().
  Running = 0,
  /// exit() or a return from main; RunRecord::ExitStatus is the status
  /// (-1: not known).
  Exit = 1,
  /// A termination signal (RunRecord::Signal): SIGINT, SIGTERM, SIGHUP,
  /// SIGQUIT, SIGXCPU.
  Signal = 2,
  /// A fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL) or abort(), std::terminate
  /// (SIGABRT): RunRecord::Signal. The workgroup running then is cut short.
  Crash = 3,
};

struct RunRecord {
  uint32_t Magic;
  uint16_t Version;
  /// RunEnd.
  uint16_t End;
  int32_t ExitStatus;
  uint32_t Signal;
  /// Workgroup invocations the process ran instrumented, in every ring
  /// (those a wrap overwrote included).
  uint64_t Workgroups;
  /// The largest processor id of a WORKGROUP record the process wrote (0
  /// when none): readers take a larger one for damage.
  uint32_t MaxProcessorId;
  /// UninstrumentedSite entries after the record.
  uint32_t UninstrumentedSites;
  /// Launches of kernels that are not instrumented, in all: more places
  /// launched them than the entries list when UninstrumentedSites holds
  /// fewer.
  uint64_t UninstrumentedLaunches;
  /// Bytes of the strings after the entries.
  uint32_t StringBytes;
  /// runRecordChecksum() of the record (this field 0), its entries and
  /// strings: a damaged run record is not read as another run's end.
  uint32_t Checksum;
};
static_assert(sizeof(RunRecord) == 48);

/// FNV-1a of \p Length bytes at \p Bytes, the run record's checksum.
constexpr uint32_t runRecordChecksum(const uint8_t *Bytes, uint64_t Length) {
  uint32_t Hash = 2166136261u;
  for (uint64_t I = 0; I < Length; ++I)
    Hash = (Hash ^ Bytes[I]) * 16777619u;
  return Hash;
}

/// A place in the program that launched, while the trace was recorded, a
/// kernel that is not instrumented (a lambda or template launched from a
/// source that was not rewritten): its workgroups are in no ring.
struct UninstrumentedSite {
  uint64_t Launches;
  uint64_t Workgroups;
  /// Offsets into the strings after the entries of the launch's file
  /// ("" when not known) and of the kernel's name, each terminated by a
  /// NUL byte.
  uint32_t File;
  uint32_t Kernel;
  uint32_t Line;
  /// The dispatch site of a rewritten launch (its WgtraceSiteDef says
  /// where it is), else kNoDispatchSite.
  uint32_t DispatchId;
};
static_assert(sizeof(UninstrumentedSite) == 32);

inline constexpr uint32_t kNoDispatchSite = 0xFFFFFFFFu;

/// The ring size of the run record chunk: the smallest a ring can be. Its
/// record, entries and strings fill at most runRecordRoom() bytes.
inline constexpr uint64_t kRunRecordRingSize = 16;

//===----------------------------------------------------------------------===//
// Workgroup timing chunk (wgtrace extension, type 0x8001)
//===----------------------------------------------------------------------===//

// Version 1 (wgtrace extension 1): all timing chunks follow all ring
// chunks of a file (IREE's dump tool stops at the first chunk type it does
// not know), one per ring chunk with timed workgroups, and each starts with
// a TimingChunkHeader naming its ring chunk. Version 0 chunks have no
// header and describe the ring chunk immediately before them.

inline constexpr uint16_t kTimingChunkVersion = 1;

struct TimingChunkHeader {
  /// The ring chunk is the RingsBack-th ring chunk before this chunk (1:
  /// the nearest). Counting backwards keeps concatenated files valid.
  uint32_t RingsBack;
  /// That ring chunk's RingTrailer::RingId and ChunkSequence, to check.
  uint32_t RingId;
  uint64_t ChunkSequence;
};
static_assert(sizeof(TimingChunkHeader) == 16);

/// One entry of a timing chunk's content, which is an array of them.
struct TimingRecord {
  /// Ring offset of the WORKGROUP record, in the chunk's ring buffer
  /// chunk, that the times belong to.
  uint64_t WorkgroupOffset;
  /// Steady clock, nanoseconds, same origin for every entry of a file.
  uint64_t StartNs;
  uint64_t EndNs;
  uint32_t ProcessorId;
  uint32_t Reserved;
};
static_assert(sizeof(TimingRecord) == 32);

//===----------------------------------------------------------------------===//
// Compressed chunk (wgtrace extension, type 0x8002)
//===----------------------------------------------------------------------===//

// The content of one chunk (its "inner" chunk: a ring buffer chunk, run
// records excepted), compressed as one zstd frame on its own, so that each
// chunk decodes without the others and damage to one loses only it. The
// content is a CompressedChunkHeader, then CompressedLength bytes of the
// frame; the chunk's content_length is their sum. Decompressed, the inner
// chunk is byte for byte the chunk an uncompressed file holds in its place
// (its header rebuilt from InnerType, InnerVersion and InnerLength), so
// decompressing every compressed chunk gives IREE's format back.

/// "WGCZ" read as a little-endian u32.
inline constexpr uint32_t kCompressedChunkMagic = 0x5A434757u;

enum class Codec : uint8_t {
  /// One zstd frame (RFC 8878) of the inner content; its decompressed size
  /// is InnerLength.
  Zstd = 1,
  /// One zstd frame of the inner content with each 8-byte word replaced by
  /// its difference from the word 16 bytes before it (WordDeltaEncoder):
  /// what WGTRACE_COMPRESS and `compress` write where a sample of the
  /// chunk compresses smaller this way. A record's address and its
  /// key differ little from the previous record's, so the differences
  /// repeat, and zstd finds long matches where it found few: the bench
  /// kernels' chunks shrink 70-4900x instead of 14-30x and decompress
  /// several times faster.
  ZstdWordDeltas = 2,
  /// As Zstd for the content before its tail (compressedTailLength), then
  /// a second zstd frame of the tail as it is. The tail is the ring's
  /// padding: its head, trailer, checksums and lost sites, which say what
  /// the records mean. A reader learns them by decompressing the tail
  /// alone (4 KiB), not the whole chunk, and may decode the records as
  /// the first frame gives them. What WGTRACE_COMPRESS and `compress`
  /// write where the content compresses smaller as it is.
  ZstdTail = 3,
  /// As ZstdWordDeltas for the content before its tail, then the tail's
  /// frame as for ZstdTail: what WGTRACE_COMPRESS and `compress` write
  /// where the content compresses smaller as deltas.
  ZstdWordDeltasTail = 4,
};

/// Whether \p C holds the content's tail in a frame of its own.
constexpr bool hasTailFrame(Codec C) {
  return C == Codec::ZstdTail || C == Codec::ZstdWordDeltasTail;
}
/// Whether \p C stores the content (before any tail frame) as word deltas.
constexpr bool storesWordDeltas(Codec C) {
  return C == Codec::ZstdWordDeltas || C == Codec::ZstdWordDeltasTail;
}

/// Bytes of a compressed chunk's inner content, of \p InnerLength bytes,
/// that codecs 3 and 4 put in the tail's frame: the ring's padding (the
/// last kRingPadding bytes), which the tail checksum covers, or the whole
/// content of a chunk of at most 8 KiB (a ring smaller than a checksum
/// block has its tail checksum over all of it).
constexpr uint64_t compressedTailLength(uint64_t InnerLength) {
  return InnerLength <= 2 * kRingPadding ? InnerLength : kRingPadding;
}

/// Codec::ZstdWordDeltas' transform of a chunk's content, and its inverse,
/// each given the content in pieces: the i-th little-endian u64 word w[i]
/// of the content is stored as w[i] - w[i-2] (mod 2^64; w[-2] = w[-1] =
/// 0), and the bytes after the last whole word as they are. A ring chunk's
/// records are 16 bytes at 16-byte offsets, so each word is taken from the
/// same field of the record before it. The writer encodes (Encode true),
/// the reader decodes what zstd gives it, still in the cache.
template <bool Encode> class WordDeltas {
public:
  /// Most bytes transform() writes for \p Length bytes given.
  static constexpr uint64_t bound(uint64_t Length) { return Length + 8; }
  /// Transforms the next \p Length bytes into \p Out (room for
  /// bound(Length)); returns how many it wrote: the whole words completed,
  /// a partial word waiting for the next piece.
  uint64_t transform(const uint8_t *In, uint64_t Length, uint8_t *Out) {
    uint64_t Written = 0;
    while (Length && Fill) {
      Partial[Fill++] = *In++;
      --Length;
      if (Fill == 8) {
        Fill = 0;
        put(Partial, Out);
        Written += 8;
      }
    }
    for (; Length >= 8; In += 8, Length -= 8, Written += 8)
      put(In, Out + Written);
    std::memcpy(Partial + Fill, In, Length);
    Fill += unsigned(Length);
    return Written;
  }
  /// The content's last bytes, after its last whole word, as they are
  /// (at most 7); returns how many it wrote.
  uint64_t finish(uint8_t *Out) {
    std::memcpy(Out, Partial, Fill);
    return Fill;
  }

private:
  void put(const uint8_t *Word, uint8_t *Out) {
    uint64_t W;
    std::memcpy(&W, Word, 8);
    const uint64_t Plain = Encode ? W : W + Older;
    const uint64_t Stored = Encode ? W - Older : Plain;
    Older = Newer;
    Newer = Plain;
    std::memcpy(Out, &Stored, 8);
  }
  uint64_t Older = 0, Newer = 0;
  uint8_t Partial[8] = {};
  unsigned Fill = 0;
};
using WordDeltaEncoder = WordDeltas<true>;
using WordDeltaDecoder = WordDeltas<false>;

struct CompressedChunkHeader {
  uint32_t Magic;
  /// The inner chunk's type and version (its ChunkHeader's).
  uint16_t InnerType;
  uint16_t InnerVersion;
  /// The inner chunk's content_length: the frame's decompressed size.
  uint64_t InnerLength;
  /// Bytes of the frame after this header.
  uint64_t CompressedLength;
  uint16_t Codec;
  uint16_t Reserved;
  /// compressedChunkChecksum() of this header and the frame.
  uint32_t Checksum;
};
static_assert(sizeof(CompressedChunkHeader) == 32);

/// The largest InnerLength a reader accepts: the largest ring chunk the
/// format's 40-bit offsets allow (kMaxWorkgroupOffset + 1 bytes of ring).
inline constexpr uint64_t kMaxInnerLength =
    ringChunkContentLength(kMaxWorkgroupOffset + 1);

/// XXH64 (seed 0), folded to 32 bits as the ring checksums are, of \p H
/// with its Checksum taken as 0 followed by the \p Length frame bytes at
/// \p Frame: damage to the header or the frame is found before the frame
/// is decompressed.
inline uint32_t compressedChunkChecksum(const CompressedChunkHeader &H,
                                        const uint8_t *Frame, uint64_t Length) {
  CompressedChunkHeader Copy = H;
  Copy.Checksum = 0;
  Xxh64 Hash(0);
  Hash.update(&Copy, sizeof(Copy));
  Hash.update(Frame, Length);
  return Hash.checksum();
}

} // namespace wgtrace::format

#endif // WGTRACE_FORMAT_H
