//===- RecompressThreadsTest.cc - compress/decompress on threads ----------===//
//
// `compress` and `decompress` make chunks on a pool of threads and write
// them in file order: the file, the counts and the error must be the one
// thread's, whole or damaged, and a damaged chunk must stop the writing
// where one thread stops it, not after the chunks the pool made past it.
//
//===----------------------------------------------------------------------===//

#include "CliRun.h"
#include "TraceBuilder.h"
#include "output/TraceRecompressor.h"
#include "reader/TraceFile.h"

#include "wgtrace/format.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;
using llvm::raw_string_ostream;

namespace {

constexpr uint32_t kRecompressRings = 12;
constexpr unsigned kManyThreads = 4;

/// Twelve rings of 16 KiB with contents of their own, their timing chunks
/// and a run record: more chunks than twice the threads (the pool's bound
/// on chunks waiting to be written).
std::vector<uint8_t> twelveRings() {
  TraceBuilder B;
  B.metadata({{"k", {}, {}, {"void k() {}"}}}, {0});
  for (uint32_t Ring = 0; Ring < kRecompressRings; ++Ring) {
    RingBuilder R(16384, 0);
    R.workgroup(0, {Ring, 0, 0}, {kRecompressRings, 1, 1}, Ring);
    for (uint64_t I = 0; I < 100 + 40 * Ring; ++I)
      R.load(0x10000 + 4 * ((I * (Ring + 3)) % 2048), 4);
    R.print("ring " + std::to_string(Ring));
    format::RingTrailer T{};
    T.RingId = Ring;
    T.RingSize = 16384;
    R.trailer(T);
    B.ring(R);
  }
  for (uint32_t Ring = 0; Ring < kRecompressRings; ++Ring)
    B.timing({Ring, 0, 0}, {{0, 10 + Ring, 20 + Ring, Ring, 0}});
  return B.bytes();
}

struct RecompressRun {
  std::string Bytes;
  std::string Error;
  RecompressCounts Counts;
};

RecompressRun recompressOn(bool Compress, const std::vector<uint8_t> &In,
                           unsigned Threads) {
  RecompressRun R;
  raw_string_ostream OS(R.Bytes);
  TraceFile File = TraceFile::fromBytes(In);
  llvm::Error E = Compress ? compressTrace(File, OS, 1, Threads, R.Counts)
                           : decompressTrace(File, OS, Threads, R.Counts);
  OS.flush();
  if (E)
    R.Error = toString(std::move(E));
  return R;
}

/// The file offsets of \p Bytes's compressed chunks.
std::vector<uint64_t> compressedChunks(const std::string &Bytes) {
  std::vector<uint64_t> At;
  for (uint64_t Offset = 0;
       Offset + format::kChunkHeaderSize <= Bytes.size();) {
    format::ChunkHeader H;
    std::memcpy(&H, Bytes.data() + Offset, sizeof(H));
    if (H.Type == uint16_t(format::ChunkType::Compressed))
      At.push_back(Offset);
    Offset = format::nextChunkOffset(Offset, H.ContentLength);
  }
  return At;
}

std::vector<uint8_t> asBytes(const std::string &S) {
  return std::vector<uint8_t>(S.begin(), S.end());
}

/// \p In recompressed on one thread and on several: the same bytes, counts
/// and error; the several threads did make the chunks.
RecompressRun expectSameOnThreads(bool Compress,
                                  const std::vector<uint8_t> &In) {
  RecompressRun One = recompressOn(Compress, In, 1);
  RecompressRun Many = recompressOn(Compress, In, kManyThreads);
  EXPECT_EQ(One.Counts.OnThreads, 0u);
  EXPECT_GT(Many.Counts.OnThreads, 2u * kManyThreads);
  // Not EXPECT_EQ: a failure would print both files.
  EXPECT_EQ(One.Bytes.size(), Many.Bytes.size());
  EXPECT_TRUE(One.Bytes == Many.Bytes);
  EXPECT_EQ(One.Error, Many.Error);
  EXPECT_EQ(One.Counts.Chunks, Many.Counts.Chunks);
  EXPECT_EQ(One.Counts.Changed, Many.Counts.Changed);
  EXPECT_EQ(One.Counts.BytesBefore, Many.Counts.BytesBefore);
  EXPECT_EQ(One.Counts.BytesAfter, Many.Counts.BytesAfter);
  return One;
}

TEST(RecompressThreads, WholeTraceIsTheSameBytes) {
  std::vector<uint8_t> Raw = twelveRings();
  RecompressRun Zst = expectSameOnThreads(/*Compress=*/true, Raw);
  ASSERT_EQ(Zst.Error, "");
  EXPECT_EQ(Zst.Counts.Changed, kRecompressRings);
  ASSERT_EQ(compressedChunks(Zst.Bytes).size(), kRecompressRings);
  RecompressRun Back =
      expectSameOnThreads(/*Compress=*/false, asBytes(Zst.Bytes));
  ASSERT_EQ(Back.Error, "");
  EXPECT_TRUE(asBytes(Back.Bytes) == Raw);
  // Compressing a compressed file copies its chunks (after checking them).
  RecompressRun Again =
      expectSameOnThreads(/*Compress=*/true, asBytes(Zst.Bytes));
  EXPECT_EQ(Again.Error, "");
  EXPECT_TRUE(Again.Bytes == Zst.Bytes);
}

// A damaged frame in the middle: one thread writes the chunks before it
// and stops with its error; the pool has made chunks past it by then.
TEST(RecompressThreads, DamagedChunkStopsWhereOneThreadStops) {
  std::string Zst = recompressOn(/*Compress=*/true, twelveRings(), 1).Bytes;
  std::vector<uint64_t> At = compressedChunks(Zst);
  ASSERT_EQ(At.size(), kRecompressRings);
  std::vector<uint8_t> Damaged = asBytes(Zst);
  Damaged[At[4] + 16 + 32 + 20] ^= 0x10;
  for (bool Compress : {false, true}) {
    RecompressRun R = expectSameOnThreads(Compress, Damaged);
    EXPECT_NE(R.Error.find("checksum mismatch in the compressed chunk"),
              std::string::npos)
        << R.Error;
    if (Compress)
      EXPECT_TRUE(R.Bytes == Zst.substr(0, At[4]));
    else
      EXPECT_FALSE(R.Bytes.empty());
  }
  // A content_length that swallows the next chunk: the reading cannot go
  // on past it either.
  std::vector<uint8_t> Swallow = asBytes(Zst);
  format::ChunkHeader H;
  std::memcpy(&H, Swallow.data() + At[6], sizeof(H));
  H.ContentLength += At[8] - At[7];
  std::memcpy(Swallow.data() + At[6], &H, sizeof(H));
  RecompressRun S = expectSameOnThreads(/*Compress=*/false, Swallow);
  EXPECT_NE(S.Error.find("its decompressed size is not known either"),
            std::string::npos)
      << S.Error;
}

// A file cut in a chunk: the chunks before the cut, then the cut's error.
TEST(RecompressThreads, CutFileGivesTheSamePrefix) {
  std::vector<uint8_t> Raw = twelveRings();
  std::string Zst = recompressOn(/*Compress=*/true, Raw, 1).Bytes;
  std::vector<uint64_t> At = compressedChunks(Zst);
  ASSERT_EQ(At.size(), kRecompressRings);
  std::vector<uint8_t> Cut(Zst.begin(), Zst.begin() + At[9] + 100);
  RecompressRun D = expectSameOnThreads(/*Compress=*/false, Cut);
  EXPECT_NE(D.Error.find("truncated"), std::string::npos) << D.Error;
  EXPECT_FALSE(D.Bytes.empty());
  std::vector<uint8_t> RawCut(Raw.begin(), Raw.begin() + Raw.size() * 2 / 3);
  RecompressRun C = expectSameOnThreads(/*Compress=*/true, RawCut);
  EXPECT_NE(C.Error.find("truncated"), std::string::npos) << C.Error;
}

TEST(RecompressThreads, CommandLineTakesThreads) {
  std::string Raw = writeTrace("threads.bin", twelveRings());
  std::string One = tempPath("one.zst"), Two = tempPath("two.zst");
  ViewRun A = view("compress --threads 1 --level 5 " + Raw + " " + One);
  ASSERT_EQ(A.Status, 0) << A.Err;
  ViewRun B = view("compress --threads 3 --level 5 " + Raw + " " + Two);
  ASSERT_EQ(B.Status, 0) << B.Err;
  EXPECT_TRUE(slurp(One) == slurp(Two));
  std::string Back = tempPath("back.bin");
  ViewRun D = view("decompress --threads 2 " + Two + " " + Back);
  ASSERT_EQ(D.Status, 0) << D.Err;
  EXPECT_TRUE(asBytes(slurp(Back)) == twelveRings());
  ViewRun Zero = view("decompress --threads 0 " + Two + " " + Back);
  EXPECT_EQ(Zero.Status, 1);
  EXPECT_NE(Zero.Err.find("--threads 0"), std::string::npos) << Zero.Err;
}

} // namespace
