//===- ChecksumTest.cc - A ring chunk's block checksums
//--------------------===//
//
// Version-2 ring trailers carry a checksum per block of the ring and one of
// the tail (docs/FORMAT.md, "The ring trailer"): a flipped bit in any block
// is reported with the block's range, after the records of the blocks
// before it; a flipped bit in the trailer, lost sites, table or head is
// reported before any record of the chunk. Version-1 trailers are read as
// before, unverified.
//
//===----------------------------------------------------------------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstring>
#include <numeric>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

/// The file offsets of the records a decoder delivered, and its error.
struct Offsets : viewer::AnalysisTool {
  std::vector<uint64_t> Delivered;
  void record(const viewer::Record &R) override {
    Delivered.push_back(R.FileOffset);
  }
};

struct Decoded {
  std::vector<uint64_t> Delivered;
  std::string Error;
};

Decoded decode(const std::vector<uint8_t> &Bytes) {
  viewer::TraceFile File = viewer::TraceFile::fromBytes(Bytes);
  viewer::TraceReader Reader(File, viewer::RingMode::WrapAware);
  Offsets Tool;
  viewer::AnalysisTool *Tools[] = {&Tool};
  Decoded D;
  if (llvm::Error E = Reader.run(Tools))
    D.Error = llvm::toString(std::move(E));
  D.Delivered = std::move(Tool.Delivered);
  return D;
}

/// A 64 KiB ring (16 blocks of 4 KiB) of one workgroup and 3000 loads, in
/// a file of a writer with run records, trailer version \p Version.
struct Trace {
  static constexpr uint64_t RingSize = 65536;
  static constexpr uint64_t Loads = 3000;
  TraceBuilder B;
  explicit Trace(uint16_t Version = format::kRingTrailerVersion) {
    ExtensionSpec X;
    X.WithAccessSites = false;
    X.RunRecord = true;
    B.metadata({{"simple_mul", "t", "l", "src"}}, {0}, &X);
    RingBuilder Ring(RingSize, /*Fill=*/0);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    for (uint64_t I = 0; I < Loads; ++I)
      Ring.load(0x1000 + 4 * I, 4);
    format::RingTrailer T = {};
    T.Version = Version;
    T.RingSize = RingSize;
    T.Flags = format::kTrailerWrapped;
    T.BytesLost = 4096;
    T.RecordsLost = 256;
    T.WorkgroupsLost = 3;
    Ring.trailer(T, {{0, 3}});
    B.ring(Ring);
    format::RunRecord Run = {};
    Run.End = uint16_t(format::RunEnd::Exit);
    Run.Workgroups = 4;
    B.runRecord(Run);
  }
  std::vector<uint8_t> bytes() const { return B.bytes(); }
  /// File offset of content offset \p At of the ring chunk.
  uint64_t ring(uint64_t At) const { return B.chunkOffset(1) + 16 + At; }
};

std::string hex(uint64_t V) { return fmt::format("{:#x}", V); }

} // namespace

TEST(Checksum, IsXxh64AndAnySplitGivesTheSameHash) {
  // XXH64's published values, and libxxhash's for these inputs.
  format::Xxh64 Empty;
  EXPECT_EQ(Empty.digest(), 0xEF46DB3751D8E999ull);
  format::Xxh64 Abc;
  Abc.update("abc", 3);
  EXPECT_EQ(Abc.digest(), 0x44BC2CF5AD770999ull);
  std::vector<uint8_t> V(200);
  for (size_t I = 0; I < V.size(); ++I)
    V[I] = uint8_t(I * 7 + 1);
  const std::pair<size_t, uint64_t> Known[] = {
      {0, 0x3a20f67fd6abb44eull},  {5, 0x6a59ac28f6c39424ull},
      {31, 0x31873cda37b0ebadull}, {32, 0xa2acb9a6ba42aa33ull},
      {77, 0x082fdb3a1c1df767ull}, {200, 0xd8d26c38f4a7f0b9ull}};
  for (auto [Length, Digest] : Known) {
    format::Xxh64 H(3);
    H.update(V.data(), Length);
    EXPECT_EQ(H.digest(), Digest) << Length;
    EXPECT_EQ(format::blockChecksum(V.data(), Length, 3),
              uint32_t(Digest ^ (Digest >> 32)));
  }
  // Streamed in two and three pieces at every split.
  const uint64_t Whole = [&] {
    format::Xxh64 H(9);
    H.update(V.data(), V.size());
    return H.digest();
  }();
  for (size_t A = 0; A <= V.size(); ++A)
    for (size_t B = A; B <= V.size(); B += 13) {
      format::Xxh64 H(9);
      H.update(V.data(), A);
      H.update(V.data() + A, B - A);
      H.update(V.data() + B, V.size() - B);
      ASSERT_EQ(H.digest(), Whole) << A << " " << B;
    }
}

TEST(Checksum, LayoutLeavesRoomForTheLostSites) {
  EXPECT_EQ(format::checksumBlockSize(4096), 4096u);
  EXPECT_EQ(format::checksumBlockCount(4096), 1u);
  EXPECT_EQ(format::checksumBlockSize(1 << 20), 4096u);
  EXPECT_EQ(format::checksumBlockCount(1 << 20), 256u);
  EXPECT_EQ(format::checksumBlockSize(uint64_t{1} << 32), 16u << 20);
  EXPECT_EQ(format::checksumBlockCount(uint64_t{1} << 32), 256u);
  EXPECT_EQ(format::checksumBlockCount(format::kRunRecordRingSize), 0u);
  EXPECT_EQ(format::kMaxLostSites, 373u);
  // The largest table and every lost site stay in the padding.
  const uint64_t R = 1 << 20;
  EXPECT_GE(format::lostSitesEnd(R) -
                format::kMaxLostSites * sizeof(format::LostSite),
            R);
}

TEST(Checksum, AFlippedBitInEachBlockIsReportedAfterTheRecordsBeforeIt) {
  Trace T;
  const std::vector<uint8_t> Good = T.bytes();
  const Decoded Clean = decode(Good);
  ASSERT_EQ(Clean.Error, "");
  ASSERT_EQ(Clean.Delivered.size(), 1 + Trace::Loads);
  const uint64_t Block = format::checksumBlockSize(Trace::RingSize);
  ASSERT_EQ(Block, 4096u);
  for (uint64_t I = 0; I < Trace::RingSize / Block; ++I) {
    // A bit in the middle of the block: in a record's address, or in the
    // writer's zeroes after the head.
    std::vector<uint8_t> Bytes = Good;
    const uint64_t At = T.ring(I * Block + 1024 + 9);
    Bytes[At] ^= 0x10;
    const Decoded D = decode(Bytes);
    const std::string Line = fmt::format(
        "offset {}: chunk 1 (ring): checksum mismatch in block {} [{}, {}) "
        "of the ring: 0x",
        hex(T.ring(I * Block)), I, hex(I * Block), hex((I + 1) * Block));
    EXPECT_EQ(D.Error.substr(0, Line.size()), Line) << I;
    // Every record that lies wholly in the blocks before.
    size_t Before = 0;
    for (uint64_t Offset : Clean.Delivered)
      Before += Offset + 16 <= T.ring(I * Block);
    EXPECT_EQ(D.Delivered,
              std::vector<uint64_t>(Clean.Delivered.begin(),
                                    Clean.Delivered.begin() + Before))
        << I;
  }
}

TEST(Checksum, AFlippedBitInTheTailIsReportedBeforeAnyRecord) {
  Trace T;
  const std::vector<uint8_t> Good = T.bytes();
  const uint64_t R = Trace::RingSize;
  const uint64_t Trailer = format::ringTrailerOffset(R);
  const uint64_t Content = R + format::kRingPadding;
  struct Place {
    const char *Name;
    uint64_t At;
  } Places[] = {
      {"padding", R + 100},
      {"lost site", format::lostSitesEnd(R) - 4},
      {"block table", format::checksumTableOffset(R) + 5},
      {"block size", format::checksumHeaderOffset(R) + 1},
      {"tail checksum", format::checksumHeaderOffset(R) + 13},
      {"trailer flags", Trailer + 6},
      {"trailer ring id", Trailer + 8},
      {"bytes lost", Trailer + 40},
      {"records lost", Trailer + 48},
      {"workgroups lost", Trailer + 56},
      {"head", Content - 8 + 5},
  };
  for (const Place &P : Places) {
    std::vector<uint8_t> Bytes = Good;
    Bytes[T.ring(P.At)] ^= 0x02;
    const Decoded D = decode(Bytes);
    EXPECT_EQ(D.Error.substr(0, D.Error.find(": 0x", 40)),
              fmt::format("offset {}: chunk 1 (ring): checksum mismatch in "
                          "the tail [{}, {}) (ring trailer, lost sites, block "
                          "checksums, head)",
                          hex(T.ring(R)), hex(R), hex(Content)))
        << P.Name;
    EXPECT_TRUE(D.Delivered.empty()) << P.Name;
  }
}

TEST(Checksum, ADamagedRunRecordChunkIsReported) {
  Trace T;
  std::vector<uint8_t> Bytes = T.bytes();
  // The run record's ring trailer: its ring size.
  const uint64_t Run = T.B.chunkOffset(2) + 16;
  Bytes[Run + format::ringTrailerOffset(format::kRunRecordRingSize) + 32] ^= 1;
  const Decoded D = decode(Bytes);
  EXPECT_NE(D.Error.find("run record: checksum mismatch in the chunk"),
            std::string::npos)
      << D.Error;
}

TEST(Checksum, VersionOneTrailersAreReadUnverified) {
  Trace T(format::kRingTrailerVersionUnchecked);
  std::vector<uint8_t> Bytes = T.bytes();
  viewer::TraceFile File = viewer::TraceFile::fromBytes(Bytes);
  viewer::TraceReader Reader(File, viewer::RingMode::WrapAware);
  struct Lost : Offsets {
    std::vector<format::LostSite> Sites;
    std::optional<format::RingTrailer> Trailer;
    void beginRing(const viewer::RingInfo &Info) override {
      Sites = Info.LostSites;
      Trailer = Info.Trailer;
    }
  } Tool;
  viewer::AnalysisTool *Tools[] = {&Tool};
  llvm::Error E = Reader.run(Tools);
  ASSERT_FALSE(E) << llvm::toString(std::move(E));
  EXPECT_EQ(Tool.Delivered.size(), 1 + Trace::Loads);
  ASSERT_TRUE(Tool.Trailer);
  EXPECT_EQ(Tool.Trailer->Version, 1);
  EXPECT_EQ(Tool.Trailer->WorkgroupsLost, 3u);
  ASSERT_EQ(Tool.Sites.size(), 1u);
  EXPECT_EQ(Tool.Sites[0].DispatchId, 0u);
  EXPECT_EQ(Tool.Sites[0].Workgroups, 3u);
  // Without checksums, an address that changed is another address.
  Bytes[T.ring(16 * 500 + 9)] ^= 0x10;
  const Decoded D = decode(Bytes);
  EXPECT_EQ(D.Error, "");
  EXPECT_EQ(D.Delivered.size(), 1 + Trace::Loads);
}
