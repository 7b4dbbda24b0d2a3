//===- CompressTest.cc - Compressed traces: compress, decompress, read ----===//

#include "CliRun.h"
#include "TraceBuilder.h"

#include "wgtrace/format.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

/// Three rings of 16 KiB (two workgroups each, one nested call), their
/// timing chunks after them and a run record: every chunk kind a
/// compressed file holds.
std::vector<uint8_t> threeRings() {
  ExtensionSpec X;
  X.FunctionParams = {{{"a", "float *", 1, 0, 4, true}}, {}};
  X.SiteDirect = {false, true};
  X.AccessSites = {{"k.cc", 5, 3, 0, "outer", "a[i]"}};
  TraceBuilder B;
  B.metadata({{"outer", {}, {}, {"void outer() {}"}}, {"inner", {}, {}, {}}},
             {0, 1}, &X);
  for (uint32_t Ring = 0; Ring < 3; ++Ring) {
    RingBuilder R(16384, 0);
    for (uint32_t W = 0; W < 2; ++W) {
      R.workgroup(0, {W, Ring, 0}, {2, 3, 1}, Ring);
      R.value(format::ValueType::BufferBase, 0, 0x10000);
      R.value(format::ValueType::BufferExtent, 0, 4096);
      for (uint64_t I = 0; I < 200; ++I)
        R.load((0x10000 + 4 * ((I * 7 + W) % 1024)) | format::accessSiteBits(1),
               4);
      R.store(0x20000 + 8 * W, 8);
    }
    R.print("ring " + std::to_string(Ring));
    format::RingTrailer T{};
    T.RingId = Ring;
    T.RingSize = 16384;
    R.trailer(T);
    B.ring(R);
  }
  for (uint32_t Ring = 0; Ring < 3; ++Ring)
    B.timing({3 - Ring, Ring, 0}, {{0, 10 + Ring, 20 + Ring, Ring, 0}});
  return B.bytes();
}

std::vector<uint8_t> bytesOf(const std::string &Path) {
  std::string S = slurp(Path);
  return std::vector<uint8_t>(S.begin(), S.end());
}

/// The chunk types of a file, in order, as its headers say.
std::vector<uint16_t> chunkTypes(const std::vector<uint8_t> &Bytes) {
  std::vector<uint16_t> Types;
  for (uint64_t At = 0; At + format::kChunkHeaderSize <= Bytes.size();) {
    format::ChunkHeader H;
    std::memcpy(&H, Bytes.data() + At, sizeof(H));
    Types.push_back(H.Type);
    At = format::nextChunkOffset(At, H.ContentLength);
  }
  return Types;
}

constexpr uint16_t kCompressed = uint16_t(format::ChunkType::Compressed);

/// The file offsets of the compressed chunks of \p Bytes.
std::vector<uint64_t> compressedAt(const std::vector<uint8_t> &Bytes) {
  std::vector<uint64_t> Offsets;
  uint64_t At = 0;
  for (uint16_t Type : chunkTypes(Bytes)) {
    format::ChunkHeader H;
    std::memcpy(&H, Bytes.data() + At, sizeof(H));
    if (Type == kCompressed)
      Offsets.push_back(At);
    At = format::nextChunkOffset(At, H.ContentLength);
  }
  return Offsets;
}

/// Appends to \p Out a compressed chunk of header \p C (its lengths and
/// checksum set here) and frame bytes \p Frame, padded as chunks are.
void appendCompressedChunk(std::vector<uint8_t> &Out,
                           format::CompressedChunkHeader C,
                           const std::vector<uint8_t> &Frame) {
  C.CompressedLength = Frame.size();
  C.Checksum = format::compressedChunkChecksum(C, Frame.data(), Frame.size());
  const format::ChunkHeader Outer = {format::kChunkMagic, kCompressed, 0,
                                     sizeof(C) + Frame.size()};
  const uint64_t Begin = Out.size();
  Out.resize(Begin + sizeof(Outer) + sizeof(C));
  std::memcpy(Out.data() + Begin, &Outer, sizeof(Outer));
  std::memcpy(Out.data() + Begin + sizeof(Outer), &C, sizeof(C));
  Out.insert(Out.end(), Frame.begin(), Frame.end());
  Out.resize(format::nextChunkOffset(Begin, Outer.ContentLength), 0);
}

TEST(Compress, RoundTripIsByteIdentical) {
  std::string Raw = writeTrace("raw.bin", threeRings());
  std::string Zst = tempPath("raw.zst.bin"), Back = tempPath("back.bin");
  ViewRun C = view("compress " + Raw + " " + Zst);
  ASSERT_EQ(C.Status, 0) << C.Err;
  EXPECT_NE(C.Err.find("3 of 7 chunks compressed"), std::string::npos) << C.Err;
  std::vector<uint8_t> Compressed = bytesOf(Zst);
  EXPECT_EQ(chunkTypes(Compressed),
            (std::vector<uint16_t>{0, kCompressed, kCompressed, kCompressed,
                                   0x8001, 0x8001, 0x8001}));
  EXPECT_LT(Compressed.size(), threeRings().size() / 4);
  ViewRun D = view("decompress " + Zst + " " + Back);
  ASSERT_EQ(D.Status, 0) << D.Err;
  EXPECT_EQ(bytesOf(Back), threeRings());
}

TEST(Compress, EveryReportIsTheSame) {
  std::string Raw = writeTrace("rep.bin", threeRings());
  std::string Zst = tempPath("rep.zst.bin");
  ASSERT_EQ(view("compress --level 9 " + Raw + " " + Zst).Status, 0);
  for (const char *Report :
       {"dump", "summary", "summary --json", "races --json", "footprint --json",
        "cache --json", "export --format csv", "export", "dump --iree-compat",
        "summary --by line"}) {
    ViewRun A = view(std::string(Report) + " " + Raw);
    ViewRun B = view(std::string(Report) + " " + Zst);
    EXPECT_EQ(A.Status, B.Status) << Report;
    EXPECT_EQ(A.Out, B.Out) << Report;
    EXPECT_FALSE(A.Out.empty()) << Report;
  }
  // convert --iree reads it too, and writes the same IREE file.
  std::string IreeA = tempPath("a.iree"), IreeB = tempPath("b.iree");
  ASSERT_EQ(view("convert --iree " + Raw + " -o " + IreeA).Status, 0);
  ASSERT_EQ(view("convert --iree " + Zst + " -o " + IreeB).Status, 0);
  EXPECT_EQ(bytesOf(IreeA), bytesOf(IreeB));
}

TEST(Compress, DamagedChunkLosesOnlyItself) {
  std::string Raw = writeTrace("dmg.bin", threeRings());
  std::string Zst = tempPath("dmg.zst.bin");
  ASSERT_EQ(view("compress " + Raw + " " + Zst).Status, 0);
  std::vector<uint8_t> Bytes = bytesOf(Zst);
  // A byte in the middle of the second ring's frame.
  uint64_t At = 0, Second = 0;
  unsigned Index = 0;
  for (uint16_t Type : chunkTypes(Bytes)) {
    format::ChunkHeader H;
    std::memcpy(&H, Bytes.data() + At, sizeof(H));
    if (Type == kCompressed && ++Index == 2)
      Second = At;
    At = format::nextChunkOffset(At, H.ContentLength);
  }
  ASSERT_NE(Second, 0u);
  Bytes[Second + 16 + 32 + 20] ^= 0x10;
  std::string Damaged = writeTrace("dmg2.bin", Bytes);
  ViewRun R = view("dump " + Damaged);
  EXPECT_EQ(R.Status, 2);
  char Where[64];
  std::snprintf(Where, sizeof(Where), "offset %#llx: chunk 2 (compressed): ",
                static_cast<unsigned long long>(Second));
  EXPECT_NE(R.Err.find(std::string(Where) +
                       "checksum mismatch in the compressed chunk"),
            std::string::npos)
      << R.Err;
  // One line for it (the timing chunks after it still name their rings);
  // the other two rings are read in full.
  EXPECT_EQ(std::count(R.Err.begin(), R.Err.end(), '\n'), 1) << R.Err;
  EXPECT_NE(R.Out.find("ring 0"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("ring 1"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("ring 2"), std::string::npos) << R.Out;
  // decompress refuses it and leaves nothing behind.
  std::string Out = tempPath("dmg-out.bin");
  ViewRun D = view("decompress " + Damaged + " " + Out);
  EXPECT_EQ(D.Status, 2);
  EXPECT_NE(D.Err.find("checksum mismatch"), std::string::npos) << D.Err;
  EXPECT_EQ(access(Out.c_str(), F_OK), -1);
}

/// One stream-mode ring written as three chunks (sequence 0, 1, 2), one
/// workgroup each, then a second ring's one chunk.
std::vector<uint8_t> streamRing() {
  TraceBuilder B;
  B.metadata({{"k", {}, {}, {"void k() {}"}}}, {0});
  auto Chunk = [&](uint32_t RingId, uint64_t Sequence, uint32_t X) {
    RingBuilder R(16384, 0);
    R.workgroup(0, {X, 0, 0}, {4, 1, 1}, RingId);
    for (uint64_t I = 0; I < 300; ++I)
      R.load(0x10000 + 0x1000 * X + 4 * I, 4);
    R.print("chunk " + std::to_string(RingId) + "." + std::to_string(Sequence));
    format::RingTrailer T{};
    T.Flags = format::kTrailerStream;
    T.RingId = RingId;
    T.ChunkSequence = Sequence;
    T.BaseVirtualOffset = Sequence * 16384;
    T.RingSize = 16384;
    R.trailer(T);
    B.ring(R);
  };
  Chunk(0, 0, 0);
  Chunk(0, 1, 1);
  Chunk(0, 2, 2);
  Chunk(1, 0, 3);
  return B.bytes();
}

/// Where the \p N th (from 1) compressed chunk of \p Bytes starts.
uint64_t compressedChunkAt(const std::vector<uint8_t> &Bytes, unsigned N) {
  uint64_t At = 0;
  unsigned Index = 0;
  for (uint16_t Type : chunkTypes(Bytes)) {
    if (Type == kCompressed && ++Index == N)
      return At;
    format::ChunkHeader H;
    std::memcpy(&H, Bytes.data() + At, sizeof(H));
    At = format::nextChunkOffset(At, H.ContentLength);
  }
  return 0;
}

// A stream-mode ring's chunk lost to a damaged frame is the gap in that
// ring's chunk sequence: the chunks after it are still read.
TEST(Compress, DamagedStreamChunkLosesOnlyItself) {
  std::string Raw = writeTrace("sdmg.bin", streamRing());
  std::string Zst = tempPath("sdmg.zst.bin");
  ASSERT_EQ(view("compress " + Raw + " " + Zst).Status, 0);
  ViewRun Whole = view("dump " + Zst);
  ASSERT_EQ(Whole.Status, 0) << Whole.Err;
  std::vector<uint8_t> Bytes = bytesOf(Zst);
  uint64_t Second = compressedChunkAt(Bytes, 2);
  ASSERT_NE(Second, 0u);
  Bytes[Second + 16 + 32 + 20] ^= 0x10;
  ViewRun R = view("dump " + writeTrace("sdmg2.bin", Bytes));
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("checksum mismatch in the compressed chunk"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(std::count(R.Err.begin(), R.Err.end(), '\n'), 1) << R.Err;
  for (const char *Read : {"chunk 0.0", "chunk 0.2", "chunk 1.0"})
    EXPECT_NE(R.Out.find(Read), std::string::npos) << Read << R.Out;
  EXPECT_EQ(R.Out.find("chunk 0.1"), std::string::npos) << R.Out;
}

// Two chunks of one ring missing where one compressed chunk was skipped:
// the skipped chunk excuses one of them, not both.
TEST(Compress, SkippedChunkExcusesOneGapOnly) {
  std::vector<uint8_t> Plain = streamRing();
  std::string Raw = writeTrace("sgap.bin", Plain);
  std::string Zst = tempPath("sgap.zst.bin");
  ASSERT_EQ(view("compress " + Raw + " " + Zst).Status, 0);
  std::vector<uint8_t> Bytes = bytesOf(Zst);
  uint64_t First = compressedChunkAt(Bytes, 1),
           Second = compressedChunkAt(Bytes, 2);
  uint64_t Third = compressedChunkAt(Bytes, 3);
  ASSERT_NE(First, 0u);
  // The first chunk's frame damaged; the second chunk cut out whole.
  Bytes[First + 16 + 32 + 20] ^= 0x10;
  Bytes.erase(Bytes.begin() + Second, Bytes.begin() + Third);
  ViewRun R = view("dump " + writeTrace("sgap2.bin", Bytes));
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("checksum mismatch in the compressed chunk"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("chunk 2 of stream-mode ring 0 where its chunk 0 was "
                       "due"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Out.find("chunk 0.2"), std::string::npos) << R.Out;
}

// A content_length damaged into one that swallows the next chunk whole
// (its header and content are then in the first chunk's frame): the
// frame still declares its size, but the chunk is not as long as that
// frame, so where the next chunk starts, and the plain offsets of every
// record after it, are not known. The reading stops; nothing of a later
// ring is delivered at another ring's offsets.
TEST(Compress, ContentLengthSwallowingTheNextChunkStopsTheReading) {
  std::string Raw = writeTrace("swallow.bin", threeRings());
  std::string Zst = tempPath("swallow.zst.bin");
  ASSERT_EQ(view("compress " + Raw + " " + Zst).Status, 0);
  std::vector<uint8_t> Bytes = bytesOf(Zst);
  std::vector<uint64_t> Compressed = compressedAt(Bytes);
  ASSERT_EQ(Compressed.size(), 3u);
  format::ChunkHeader First;
  std::memcpy(&First, Bytes.data() + Compressed[0], sizeof(First));
  First.ContentLength += Compressed[2] - Compressed[1];
  std::memcpy(Bytes.data() + Compressed[0], &First, sizeof(First));
  ASSERT_EQ(format::nextChunkOffset(Compressed[0], First.ContentLength),
            Compressed[2]);
  ViewRun R = view("dump " + writeTrace("swallow2.bin", Bytes));
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("its decompressed size is not known either"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Out.find("ring 2"), std::string::npos) << R.Out;
}

/// \p Raw with each ring chunk written as codec 1 (one zstd frame of the
/// plain content), as WGTRACE_COMPRESS and `compress` wrote them before
/// codec 2; and with \p Codec in the header instead, when given.
std::vector<uint8_t> plainZstdFrames(const std::vector<uint8_t> &Raw,
                                     uint16_t Codec = 1) {
  std::vector<uint8_t> Out;
  for (uint64_t At = 0; At + format::kChunkHeaderSize <= Raw.size();) {
    format::ChunkHeader H;
    std::memcpy(&H, Raw.data() + At, sizeof(H));
    const uint64_t Next = format::nextChunkOffset(At, H.ContentLength);
    if (H.Type != uint16_t(format::ChunkType::DispatchRingBuffer)) {
      Out.insert(Out.end(), Raw.begin() + At, Raw.begin() + Next);
      At = Next;
      continue;
    }
    const uint8_t *Content = Raw.data() + At + format::kChunkHeaderSize;
    std::vector<uint8_t> Frame(ZSTD_compressBound(H.ContentLength));
    ZSTD_CCtx *Z = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(Z, ZSTD_c_checksumFlag, 1);
    const size_t FrameSize =
        ZSTD_compress2(Z, Frame.data(), Frame.size(), Content, H.ContentLength);
    ZSTD_freeCCtx(Z);
    EXPECT_FALSE(ZSTD_isError(FrameSize));
    Frame.resize(FrameSize);
    format::CompressedChunkHeader C = {};
    C.Magic = format::kCompressedChunkMagic;
    C.InnerType = H.Type;
    C.InnerVersion = H.Version;
    C.InnerLength = H.ContentLength;
    C.Codec = Codec;
    appendCompressedChunk(Out, C, Frame);
    At = Next;
  }
  return Out;
}

/// Two rings of 64 KiB: one loop over one array (each load 4 bytes after
/// the one before), and PRK stencil's pattern (four loads of locals around
/// each load of the array, which steps by 8).
std::vector<uint8_t> strideAndPeriod() {
  TraceBuilder B;
  B.metadata({{"k", {}, {}, {}}}, {0});
  for (uint32_t Ring = 0; Ring < 2; ++Ring) {
    RingBuilder R(65536, 0);
    R.workgroup(0, {0, Ring, 0}, {1, 2, 1}, Ring);
    for (uint64_t I = 0; I < 3000; ++I) {
      if (Ring == 0) {
        R.load(0x10000 + 4 * I, 4);
        continue;
      }
      const uint64_t Locals[4] = {0x7ffd5664, 0x7ffd5650, 0x7ffd56b8,
                                  0x7ffd5664};
      R.load(Locals[I % 4], 4);
      if (I % 4 == 3)
        R.load(0x7f1785000000 + 2 * I, 8);
    }
    format::RingTrailer T{};
    T.RingId = Ring;
    T.RingSize = 65536;
    R.trailer(T);
    B.ring(R);
  }
  return B.bytes();
}

/// The codec of the compressed chunk at file offset \p At of \p File.
uint16_t codecAt(const std::vector<uint8_t> &File, uint64_t At) {
  format::CompressedChunkHeader C;
  std::memcpy(&C, File.data() + At + format::kChunkHeaderSize, sizeof(C));
  return C.Codec;
}

TEST(Compress, EachChunkTakesTheCodecThatCompressesItSmaller) {
  std::string Raw = writeTrace("codec.bin", strideAndPeriod());
  std::string Zst = tempPath("codec.zst.bin");
  ASSERT_EQ(view("compress " + Raw + " " + Zst).Status, 0);
  std::vector<uint8_t> Written = bytesOf(Zst);
  std::vector<uint16_t> Codecs;
  for (uint64_t At : compressedAt(Written))
    Codecs.push_back(codecAt(Written, At));
  EXPECT_EQ(Codecs, (std::vector<uint16_t>{2, 1}));
  for (const char *Report : {"dump", "summary --json"}) {
    ViewRun A = view(std::string(Report) + " " + Raw);
    ViewRun B = view(std::string(Report) + " " + Zst);
    EXPECT_EQ(A.Out, B.Out) << Report;
  }
  std::string Back = tempPath("codec.back.bin");
  ASSERT_EQ(view("decompress " + Zst + " " + Back).Status, 0);
  EXPECT_EQ(bytesOf(Back), strideAndPeriod());
}

// Bytes after a codec-2 frame that the header's checksum covers (a
// writer's bug, not damage): the chunk is skipped with its line, as codec
// 1's decompression refuses them, not read as if they were not there.
TEST(Compress, BytesAfterTheFrameAreRefused) {
  std::string Raw = writeTrace("after.bin", strideAndPeriod());
  std::string Zst = tempPath("after.zst.bin");
  ASSERT_EQ(view("compress " + Raw + " " + Zst).Status, 0);
  std::vector<uint8_t> Bytes = bytesOf(Zst);
  const uint64_t At = compressedAt(Bytes).at(0);
  ASSERT_EQ(codecAt(Bytes, At), 2);
  format::CompressedChunkHeader C;
  std::memcpy(&C, Bytes.data() + At + format::kChunkHeaderSize, sizeof(C));
  const uint64_t FrameAt = At + format::kChunkHeaderSize + sizeof(C);
  std::vector<uint8_t> Frame(Bytes.begin() + FrameAt,
                             Bytes.begin() + FrameAt + C.CompressedLength);
  Frame.insert(Frame.end(), 16, 0xab);
  std::vector<uint8_t> File(Bytes.begin(), Bytes.begin() + At);
  appendCompressedChunk(File, C, Frame);
  format::ChunkHeader Old;
  std::memcpy(&Old, Bytes.data() + At, sizeof(Old));
  File.insert(File.end(),
              Bytes.begin() + format::nextChunkOffset(At, Old.ContentLength),
              Bytes.end());
  ViewRun R = view("summary " + writeTrace("after.bad.bin", File));
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("16 bytes follow the zstd frame"), std::string::npos)
      << R.Err;
  // The other ring is read.
  EXPECT_NE(R.Out.find("workgroup"), std::string::npos) << R.Out;
}

TEST(Compress, ReadsPlainFramesAndRefusesUnknownCodecs) {
  std::string Raw = writeTrace("codec1.raw.bin", threeRings());
  // Plain frames (codec 1: the files compressed before codec 2, and the
  // chunks whose deltas would not compress smaller) read as they did.
  std::string Old = writeTrace("codec1.bin", plainZstdFrames(threeRings()));
  for (const char *Report : {"dump", "summary --json", "races --json"}) {
    ViewRun A = view(std::string(Report) + " " + Raw);
    ViewRun B = view(std::string(Report) + " " + Old);
    EXPECT_EQ(B.Status, A.Status) << Report << B.Err;
    EXPECT_EQ(A.Out, B.Out) << Report;
  }
  std::string Back = tempPath("codec1.back.bin");
  ASSERT_EQ(view("decompress " + Old + " " + Back).Status, 0);
  EXPECT_EQ(bytesOf(Back), threeRings());
  // Codec 2 decoded as codec 1 would give other records: the reader tells
  // them apart by the header alone.
  std::string Unknown =
      writeTrace("codec7.bin", plainZstdFrames(threeRings(), 7));
  ViewRun U = view("summary " + Unknown);
  EXPECT_EQ(U.Status, 2);
  EXPECT_NE(U.Err.find("unknown codec 7 (1 is zstd, 2 zstd of word deltas)"),
            std::string::npos)
      << U.Err;
}

TEST(Compress, RefusesItsInputAsOutputAndBadLevels) {
  std::string Raw = writeTrace("same.bin", threeRings());
  ViewRun Same = view("compress " + Raw + " " + Raw);
  EXPECT_EQ(Same.Status, 1);
  EXPECT_NE(Same.Err.find("is the input"), std::string::npos) << Same.Err;
  EXPECT_EQ(bytesOf(Raw), threeRings());
  ViewRun Level = view("compress --level 0 " + Raw + " " + tempPath("l.bin"));
  EXPECT_EQ(Level.Status, 1);
  EXPECT_NE(Level.Err.find("--level '0' is not a zstd level"),
            std::string::npos)
      << Level.Err;
  ViewRun Args = view("decompress " + Raw);
  EXPECT_EQ(Args.Status, 1);
}

} // namespace
