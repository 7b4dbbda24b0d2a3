//===- MalformedTest.cc - One test per decoding error ---------------------===//
//
// Each test damages a well-formed trace in one way and checks the exact
// error line and that everything before the damage was still printed.
//
//===----------------------------------------------------------------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

/// A trace with simple_mul's metadata and one ring holding one workgroup
/// with a load and a store.
struct Good {
  RingBuilder Ring{4096};
  TraceBuilder B;
  Good() {
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.load(0x100, 4);
    Ring.store(0x200, 4);
    addSimpleMetadata(B).ring(Ring);
  }
  std::vector<uint8_t> bytes() const { return B.bytes(); }
  /// File offset of ring offset \p Phys of the ring chunk.
  uint64_t ring(uint64_t Phys) const { return B.chunkOffset(1) + 16 + Phys; }
  uint64_t headOffset() const { return ring(Ring.size() + 4096 - 8); }
};

std::string hex(uint64_t V) { return fmt::format("{:#x}", V); }

void put64(std::vector<uint8_t> &Bytes, uint64_t Offset, uint64_t V) {
  std::memcpy(Bytes.data() + Offset, &V, sizeof(V));
}

/// The text of a dump of the good trace up to (and excluding) record
/// line \p Lines of the ring.
std::string goodPrefix(size_t Lines) {
  Good G;
  std::string Text = dump(G.bytes()).Text;
  size_t Pos = Text.find("0000000000000000 | WORKGROUP");
  for (size_t I = 0; I < Lines; ++I)
    Pos = Text.find('\n', Pos) + 1;
  return Text.substr(0, Pos);
}

TEST(Malformed, TruncatedChunkHeader) {
  Good G;
  std::vector<uint8_t> Bytes = G.bytes();
  size_t End = Bytes.size();
  Bytes.resize(End + 8, 0);
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(End) +
                         ": chunk 2 (unknown): truncated chunk header: 8 of "
                         "16 bytes before the end of the file");
  EXPECT_EQ(R.Text, goodPrefix(3));
}

TEST(Malformed, BadMagic) {
  Good G;
  std::vector<uint8_t> Bytes = G.bytes();
  Bytes[G.B.chunkOffset(1)] ^= 0xFF;
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(G.B.chunkOffset(1)) +
                         ": chunk 1 (unknown): bad magic 0x424449cf, expected "
                         "0x42444930 (\"IDB0\")");
  EXPECT_EQ(R.Text, goodPrefix(0));
}

TEST(Malformed, UnknownChunkType) {
  Good G;
  TraceBuilder B = G.B;
  B.chunk(7, std::vector<uint8_t>(5, 1));
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "offset " + hex(B.chunkOffset(2)) +
                         ": chunk 2 (type 7): unknown chunk type 7");
  EXPECT_EQ(R.Text, goodPrefix(3));
}

TEST(Malformed, UnsupportedVersion) {
  TraceBuilder B;
  B.chunk(0, std::vector<uint8_t>(16, 0), /*Version=*/3);
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error,
            "offset 0x6: chunk 0 (metadata): unsupported chunk version 3");
  EXPECT_EQ(R.Text, "");
}

TEST(Malformed, TruncatedContent) {
  Good G;
  std::vector<uint8_t> Bytes = G.bytes();
  Bytes.resize(G.ring(100));
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(G.B.chunkOffset(1) + 8) +
                         ": chunk 1 (ring): truncated: content_length 8192 "
                         "but only 100 bytes left in the file (8092 bytes "
                         "missing)");
  EXPECT_EQ(R.Text, goodPrefix(0));
}

TEST(Malformed, MetadataWithoutIdentifier) {
  TraceBuilder B;
  B.chunk(0, std::vector<uint8_t>(32, 0));
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "offset 0x10: chunk 0 (metadata): metadata is not a "
                     "FlatBuffer with file identifier \"IDBD\"");
}

TEST(Malformed, MetadataFailsVerification) {
  TraceBuilder B;
  addSimpleMetadata(B);
  std::vector<uint8_t> Bytes = B.bytes();
  // The root table offset now points far outside the buffer.
  uint32_t Root = 0x7FFFFFF0;
  std::memcpy(Bytes.data() + 16, &Root, sizeof(Root));
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset 0x10: chunk 0 (metadata): metadata FlatBuffer "
                     "fails verification");
}

TEST(Malformed, MetadataVtableOutsideChunk) {
  // The root table's vtable offset points far past the chunk: neither the
  // full verification nor the one with IREE's tables alone reads there.
  Good G;
  std::vector<uint8_t> Bytes = G.bytes();
  const uint64_t Content = G.B.chunkOffset(0) + 16;
  uint32_t Root;
  std::memcpy(&Root, Bytes.data() + Content, sizeof(Root));
  const int32_t Far = -0x40000000; // the vtable is at table - offset
  std::memcpy(Bytes.data() + Content + Root, &Far, sizeof(Far));
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(Content) +
                         ": chunk 0 (metadata): metadata FlatBuffer fails "
                         "verification");
}

TEST(Malformed, SiteNamesMissingFunction) {
  TraceBuilder B;
  B.metadata({{"f", {}, {}, {}}}, {0, 3});
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "offset 0x10: chunk 0 (metadata): dispatch site 1 refers "
                     "to function 3 but there are 1 functions");
}

TEST(Malformed, RingTooShort) {
  TraceBuilder B;
  addSimpleMetadata(B).chunk(1, std::vector<uint8_t>(100, 0));
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "offset " + hex(B.chunkOffset(1) + 8) +
                         ": chunk 1 (ring): ring content of 100 bytes has no "
                         "room for a ring and its 4096-byte padding");
}

TEST(Malformed, RingSizeNotPowerOfTwo) {
  TraceBuilder B;
  addSimpleMetadata(B).chunk(1, std::vector<uint8_t>(4096 + 48, 0));
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "offset " + hex(B.chunkOffset(1) + 8) +
                         ": chunk 1 (ring): ring size 48 is not a power of "
                         "two");
}

TEST(Malformed, HeadNotAligned) {
  Good G;
  std::vector<uint8_t> Bytes = G.bytes();
  put64(Bytes, G.headOffset(), 40);
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(G.headOffset()) +
                         ": chunk 1 (ring): head 40 is not a multiple of the "
                         "16-byte record alignment");
}

TEST(Malformed, UnknownRecordTag) {
  Good G;
  std::vector<uint8_t> Bytes = G.bytes();
  Bytes[G.ring(48)] = 3; // the store
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(G.ring(48)) +
                         ": chunk 1 (ring): record at ring offset 0x30: "
                         "unknown record tag 3");
  // The record right before the damage is held back: a flip in its own tag
  // or length would make the bytes after it look the same (RingDecoder).
  EXPECT_EQ(R.Text, goodPrefix(1));
}

TEST(Malformed, WorkgroupOffsetPointsAtNoWorkgroup) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.load(0x100, 4);
  Ring.setKey(0x20); // the load, not a workgroup record
  Ring.store(0x200, 4);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  DumpResult R = dump(B.bytes());
  uint64_t At = B.chunkOffset(1) + 16 + 48;
  EXPECT_EQ(R.Error, "offset " + hex(At) +
                         ": chunk 1 (ring): record at ring offset 0x30: "
                         "workgroup offset 0x20 points at no workgroup record");
  EXPECT_EQ(R.Text, goodPrefix(1));
}

TEST(Malformed, DispatchIdBeyondSites) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.workgroup(5, {0, 0, 0}, {1, 1, 1});
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "offset " + hex(B.chunkOffset(1) + 16 + 32) +
                         ": chunk 1 (ring): record at ring offset 0x20: "
                         "dispatch id 5 is beyond the 1 dispatch sites of the "
                         "preceding metadata chunk");
  EXPECT_EQ(R.Text, goodPrefix(0));
}

TEST(Malformed, RingWithoutMetadata) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  TraceBuilder B;
  B.ring(Ring);
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "offset 0x10: chunk 0 (ring): record at ring offset 0x0: "
                     "dispatch id 0 is beyond the 0 dispatch sites of the "
                     "(missing) metadata");
}

TEST(Malformed, RecordCrossesHead) {
  Good G;
  std::vector<uint8_t> Bytes = G.bytes();
  put64(Bytes, G.headOffset(), 16); // inside the workgroup record
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(G.ring(0)) +
                         ": chunk 1 (ring): record at ring offset 0x0: 32-byte "
                         "record crosses the head (16)");
  EXPECT_EQ(R.Text, goodPrefix(0));
}

TEST(Malformed, RecordCrossesEndOfChunk) {
  RingBuilder Ring(64);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.load(1, 1);
  Ring.print("x");
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::vector<uint8_t> Bytes = B.bytes();
  uint64_t At = B.chunkOffset(1) + 16 + 48;
  format::encodePrintHeader(Bytes.data() + At, 0xFFFF, 0);
  // The head still says 64: the print now claims 65552 bytes.
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(At) +
                         ": chunk 1 (ring): record at ring offset 0x30: "
                         "65552-byte record crosses the end of the ring "
                         "chunk's storage");
}

TEST(Malformed, WrappedRingWithoutRecordBoundary) {
  RingBuilder Ring(256);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::vector<uint8_t> Bytes = B.bytes();
  uint64_t Ring0 = B.chunkOffset(1) + 16;
  std::memset(Bytes.data() + Ring0, 3, 256); // tag 3 everywhere
  put64(Bytes, Ring0 + 256 + 4096 - 8, 512 + 64);
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "offset " + hex(Ring0 + 64) +
                         ": chunk 1 (ring): ring wrapped (head 576) but no "
                         "record boundary in the first 4096 bytes of the "
                         "surviving lap chains up to the head");
}

} // namespace
