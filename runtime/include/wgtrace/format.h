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
};
inline constexpr unsigned kValueTypeCount = 13;

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
// Workgroup timing chunk (wgtrace extension, type 0x8001)
//===----------------------------------------------------------------------===//

/// One entry of a timing chunk's content, which is an array of them.
struct TimingRecord {
  /// Ring offset of the WORKGROUP record, in the ring buffer chunk
  /// immediately before this chunk, that the times belong to.
  uint64_t WorkgroupOffset;
  /// Steady clock, nanoseconds, same origin for every entry of a file.
  uint64_t StartNs;
  uint64_t EndNs;
  uint32_t ProcessorId;
  uint32_t Reserved;
};
static_assert(sizeof(TimingRecord) == 32);

} // namespace wgtrace::format

#endif // WGTRACE_FORMAT_H
