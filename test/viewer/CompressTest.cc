//===- CompressTest.cc - Compressed traces: compress, decompress, read ----===//

#include "CliRun.h"
#include "TraceBuilder.h"

#include "wgtrace/format.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <optional>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

/// Three rings of 16 KiB (two workgroups each, one nested call), their
/// timing chunks after them and a run record: every chunk kind a
/// compressed file holds.
/// A trace of \p Rings rings of two workgroups each, with a timing chunk
/// per ring when \p Timings (which makes a reader read it on one thread).
std::vector<uint8_t> ringsTrace(uint32_t Rings, bool Timings) {
  ExtensionSpec X;
  X.FunctionParams = {{{"a", "float *", 1, 0, 4, true}}, {}};
  X.SiteDirect = {false, true};
  X.AccessSites = {{"k.cc", 5, 3, 0, "outer", "a[i]"}};
  TraceBuilder B;
  B.metadata({{"outer", {}, {}, {"void outer() {}"}}, {"inner", {}, {}, {}}},
             {0, 1}, &X);
  for (uint32_t Ring = 0; Ring < Rings; ++Ring) {
    RingBuilder R(16384, 0);
    for (uint32_t W = 0; W < 2; ++W) {
      R.workgroup(0, {W, Ring, 0}, {2, Rings, 1}, Ring);
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
  for (uint32_t Ring = 0; Timings && Ring < Rings; ++Ring)
    B.timing({Rings - Ring, Ring, 0}, {{0, 10 + Ring, 20 + Ring, Ring, 0}});
  return B.bytes();
}

std::vector<uint8_t> threeRings() { return ringsTrace(3, true); }

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

/// \p Raw with each ring chunk written in one zstd frame, as
/// WGTRACE_COMPRESS and `compress` wrote them before the tail's frame:
/// codec 1 (the plain content), or codec 2 (its word deltas) with
/// \p Deltas; and with \p Codec in the header instead, when given.
std::vector<uint8_t> oneFrameChunks(const std::vector<uint8_t> &Raw,
                                    bool Deltas = false,
                                    std::optional<uint16_t> Codec = {}) {
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
    std::vector<uint8_t> Content(Raw.begin() + At + format::kChunkHeaderSize,
                                 Raw.begin() + At + format::kChunkHeaderSize +
                                     H.ContentLength);
    if (Deltas) {
      std::vector<uint8_t> Encoded(
          format::WordDeltaEncoder::bound(Content.size()));
      format::WordDeltaEncoder E;
      uint64_t Length =
          E.transform(Content.data(), Content.size(), Encoded.data());
      Length += E.finish(Encoded.data() + Length);
      Encoded.resize(Length);
      Content = std::move(Encoded);
    }
    std::vector<uint8_t> Frame(ZSTD_compressBound(Content.size()));
    ZSTD_CCtx *Z = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(Z, ZSTD_c_checksumFlag, 1);
    const size_t FrameSize = ZSTD_compress2(Z, Frame.data(), Frame.size(),
                                            Content.data(), Content.size());
    ZSTD_freeCCtx(Z);
    EXPECT_FALSE(ZSTD_isError(FrameSize));
    Frame.resize(FrameSize);
    format::CompressedChunkHeader C = {};
    C.Magic = format::kCompressedChunkMagic;
    C.InnerType = H.Type;
    C.InnerVersion = H.Version;
    C.InnerLength = H.ContentLength;
    C.Codec = Codec.value_or(Deltas ? 2 : 1);
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
  EXPECT_EQ(Codecs, (std::vector<uint16_t>{4, 3}));
  for (const char *Report : {"dump", "summary --json"}) {
    ViewRun A = view(std::string(Report) + " " + Raw);
    ViewRun B = view(std::string(Report) + " " + Zst);
    EXPECT_EQ(A.Out, B.Out) << Report;
  }
  std::string Back = tempPath("codec.back.bin");
  ASSERT_EQ(view("decompress " + Zst + " " + Back).Status, 0);
  EXPECT_EQ(bytesOf(Back), strideAndPeriod());
}

/// \p Bytes with 16 bytes after the frames of its first compressed chunk,
/// resealed by the header's checksum.
std::vector<uint8_t>
withBytesAfterTheFrames(const std::vector<uint8_t> &Bytes) {
  const uint64_t At = compressedAt(Bytes).at(0);
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
  return File;
}

// Bytes after the last frame that the header's checksum covers (a
// writer's bug, not damage): the chunk is skipped with its line, as codec
// 1's decompression refuses them, not read as if they were not there;
// after the tail's frame (codec 4, what `compress` writes) and after the
// one frame of codec 2.
TEST(Compress, BytesAfterTheFrameAreRefused) {
  std::string Raw = writeTrace("after.bin", strideAndPeriod());
  std::string Zst = tempPath("after.zst.bin");
  ASSERT_EQ(view("compress " + Raw + " " + Zst).Status, 0);
  const std::vector<uint8_t> Written = bytesOf(Zst);
  ASSERT_EQ(codecAt(Written, compressedAt(Written).at(0)), 4);
  const std::vector<uint8_t> OneFrame = oneFrameChunks(strideAndPeriod(), true);
  ASSERT_EQ(codecAt(OneFrame, compressedAt(OneFrame).at(0)), 2);
  const std::pair<const std::vector<uint8_t> *, const char *> Cases[] = {
      {&Written, "16 bytes follow the zstd frame of the tail"},
      {&OneFrame, "16 bytes follow the zstd frame"}};
  for (const auto &[File, Line] : Cases) {
    ViewRun R = view("summary " + writeTrace("after.bad.bin",
                                             withBytesAfterTheFrames(*File)));
    EXPECT_EQ(R.Status, 2);
    EXPECT_NE(R.Err.find(Line), std::string::npos) << R.Err;
    // The other ring is read.
    EXPECT_NE(R.Out.find("workgroup"), std::string::npos) << R.Out;
  }
}

TEST(Compress, ReadsPlainFramesAndRefusesUnknownCodecs) {
  std::string Raw = writeTrace("codec1.raw.bin", threeRings());
  // One frame (codec 1, the files compressed before codec 2, and codec 2,
  // before the tail's frame) read as they did; on two threads too, where
  // the survey decompresses the chunks after the window whole.
  const std::vector<uint8_t> Six = ringsTrace(6, false);
  std::string SixRaw = writeTrace("six.raw.bin", Six);
  for (bool Deltas : {false, true}) {
    SCOPED_TRACE(Deltas ? "codec 2" : "codec 1");
    std::string Old =
        writeTrace("codec1.bin", oneFrameChunks(threeRings(), Deltas));
    for (const char *Report : {"dump", "summary --json", "races --json"}) {
      ViewRun A = view(std::string(Report) + " " + Raw);
      ViewRun B = view(std::string(Report) + " " + Old);
      EXPECT_EQ(B.Status, A.Status) << Report << B.Err;
      EXPECT_EQ(A.Out, B.Out) << Report;
    }
    std::string Back = tempPath("codec1.back.bin");
    ASSERT_EQ(view("decompress " + Old + " " + Back).Status, 0);
    EXPECT_EQ(bytesOf(Back), threeRings());
    std::string SixOld = writeTrace("six.bin", oneFrameChunks(Six, Deltas));
    for (const char *Report : {"summary --threads 2", "races --threads 2"}) {
      ViewRun A = view(std::string(Report) + " " + SixRaw);
      ViewRun B = view(std::string(Report) + " " + SixOld);
      EXPECT_EQ(B.Status, A.Status) << Report << B.Err;
      EXPECT_EQ(B.Err, "") << Report;
      EXPECT_NE(A.Out, "") << Report;
      EXPECT_EQ(A.Out, B.Out) << Report;
    }
  }
  // Codec 2 decoded as codec 1 would give other records: the reader tells
  // them apart by the header alone.
  std::string Unknown =
      writeTrace("codec7.bin", oneFrameChunks(threeRings(), false, 7));
  ViewRun U = view("summary " + Unknown);
  EXPECT_EQ(U.Status, 2);
  EXPECT_NE(U.Err.find("unknown codec 7 (1 is zstd, 2 zstd of word deltas, "
                       "3 and 4 the same with the tail's frame)"),
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
