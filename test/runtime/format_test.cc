//===- format_test.cc - Record encoding and ring arithmetic ---------------===//

#include "wgtrace/format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace wgtrace::format;

TEST(Format, ChunkOffsetsAreSixteenByteAligned) {
  EXPECT_EQ(nextChunkOffset(0, 0), 16u);
  EXPECT_EQ(nextChunkOffset(0, 1), 32u);
  EXPECT_EQ(nextChunkOffset(0, 16), 32u);
  EXPECT_EQ(nextChunkOffset(32, 17), 32u + 16 + 32);
}

TEST(Format, RingChunkHoldsRingAndPadding) {
  EXPECT_EQ(ringChunkContentLength(1 << 20), (1u << 20) + 4096u);
  EXPECT_TRUE(isPowerOfTwo(4096));
  EXPECT_FALSE(isPowerOfTwo(0));
  EXPECT_FALSE(isPowerOfTwo(3 << 20));
}

TEST(Format, LargestRecordNeverReachesTheHead) {
  // A record starts at most at R - 16 and must end before R + 4096 - 8.
  EXPECT_LE(16 - 16 + kMaxRecordSize, kRingPadding - kRingHeadSize + 16);
  EXPECT_EQ(printRecordSize(kMaxPrintLength), kMaxRecordSize);
  EXPECT_EQ(printRecordSize(0), 16u);
  EXPECT_EQ(printRecordSize(8), 16u);
  EXPECT_EQ(printRecordSize(9), 32u);
}

TEST(Format, WorkgroupRecordLayout) {
  uint8_t Bytes[kWorkgroupRecordSize];
  encodeWorkgroup(Bytes, {0x123456, {1, 2, 3}, {4, 5, 6}, 7});
  uint32_t Words[8];
  std::memcpy(Words, Bytes, sizeof(Words));
  EXPECT_EQ(Words[0], 0x12345600u); // tag 0 in the low byte
  EXPECT_EQ(Words[1], 1u);
  EXPECT_EQ(Words[3], 3u);
  EXPECT_EQ(Words[4], 4u);
  EXPECT_EQ(Words[6], 6u);
  EXPECT_EQ(Words[7], 7u);
  EXPECT_EQ(recordTag(Bytes), uint8_t(Tag::Workgroup));
  WorkgroupRecord R = decodeWorkgroup(Bytes);
  EXPECT_EQ(R.DispatchId, 0x123456u);
  EXPECT_EQ(R.Id[1], 2u);
  EXPECT_EQ(R.Count[2], 6u);
  EXPECT_EQ(R.ProcessorId, 7u);
}

TEST(Format, MemoryRecordLayout) {
  uint8_t Bytes[kMemoryRecordSize];
  encodeMemory(Bytes, /*IsStore=*/true, 4, 0xABCDEF0123, 0x7F0011223344);
  uint64_t Words[2];
  std::memcpy(Words, Bytes, sizeof(Words));
  EXPECT_EQ(Words[0] & 0xFF, 5u);
  EXPECT_EQ((Words[0] >> 8) & 0xFFFF, 4u);
  EXPECT_EQ(Words[0] >> 24, 0xABCDEF0123u);
  EXPECT_EQ(Words[1], 0x7F0011223344u);
  MemoryRecord R = decodeMemory(Bytes);
  EXPECT_TRUE(R.IsStore);
  EXPECT_EQ(R.Length, 4u);
  EXPECT_EQ(R.WorkgroupOffset, 0xABCDEF0123u);
  encodeMemory(Bytes, false, 0xFFFF, 0, 1);
  EXPECT_EQ(recordTag(Bytes), uint8_t(Tag::MemoryLoad));
  EXPECT_EQ(decodeMemory(Bytes).Length, 0xFFFFu);
}

TEST(Format, ValueRecordLayout) {
  uint8_t Bytes[kValueRecordSize];
  encodeValue(Bytes, ValueType::Float32, 200, 0x40, 0x3F800000);
  uint64_t Words[2];
  std::memcpy(Words, Bytes, sizeof(Words));
  EXPECT_EQ(Words[0] & 0xFF, 2u);
  EXPECT_EQ((Words[0] >> 8) & 0xFF, uint64_t(ValueType::Float32));
  EXPECT_EQ((Words[0] >> 16) & 0xFF, 200u);
  EXPECT_EQ(Words[0] >> 24, 0x40u);
  ValueRecord R = decodeValue(Bytes);
  EXPECT_EQ(R.Type, ValueType::Float32);
  EXPECT_EQ(R.Ordinal, 200);
  EXPECT_EQ(R.Bits, 0x3F800000u);
}

TEST(Format, PrintHeaderLayout) {
  uint8_t Bytes[8];
  encodePrintHeader(Bytes, 11, 0x20);
  uint64_t Word;
  std::memcpy(&Word, Bytes, 8);
  EXPECT_EQ(Word & 0xFF, 1u);
  EXPECT_EQ((Word >> 8) & 0xFFFF, 11u);
  EXPECT_EQ(Word >> 24, 0x20u);
  EXPECT_EQ(decodePrintHeader(Bytes).Length, 11u);
}

TEST(Format, WordDeltasGivenInPiecesDecodeToTheContent) {
  // Records whose words step by a few bytes, then a tail that is not a
  // whole word: the encoding depends on neither how the content is cut
  // into pieces nor where a piece cuts a word.
  std::vector<uint8_t> Content(16 * 1000 + 5);
  for (size_t I = 0; I + 16 <= Content.size(); I += 16) {
    const uint64_t Words[2] = {0x7f0000001000u + 4 * (I / 16),
                               0x0123000000000004u + (I % 48)};
    std::memcpy(Content.data() + I, Words, 16);
  }
  for (size_t I = 16000; I < Content.size(); ++I)
    Content[I] = uint8_t(0xa0 + I);
  std::vector<uint8_t> Whole(WordDeltaEncoder::bound(Content.size()));
  WordDeltaEncoder One;
  uint64_t Size = One.transform(Content.data(), Content.size(), Whole.data());
  EXPECT_EQ(Size, 16000u);
  Size += One.finish(Whole.data() + Size);
  ASSERT_EQ(Size, Content.size());
  Whole.resize(Size);
  // After the first record every word is the same step.
  uint64_t Step[2];
  std::memcpy(Step, Whole.data() + 16 * 500, 16);
  EXPECT_EQ(Step[0], 4u);
  for (size_t Cut : {1, 3, 7, 8, 9, 16, 4097}) {
    std::vector<uint8_t> Pieces;
    WordDeltaEncoder E;
    for (size_t At = 0; At < Content.size(); At += Cut) {
      const size_t Length = std::min(Cut, Content.size() - At);
      std::vector<uint8_t> Out(WordDeltaEncoder::bound(Length));
      Out.resize(E.transform(Content.data() + At, Length, Out.data()));
      Pieces.insert(Pieces.end(), Out.begin(), Out.end());
    }
    uint8_t Tail[8];
    Pieces.insert(Pieces.end(), Tail, Tail + E.finish(Tail));
    EXPECT_EQ(Pieces, Whole) << "pieces of " << Cut;
  }
  // Decoded in pieces too, as the reader decodes what zstd gives it.
  for (size_t Cut : {1, 5, 8, 4096, 16005}) {
    std::vector<uint8_t> Back(Whole.size());
    WordDeltaDecoder D;
    uint64_t Written = 0;
    for (size_t At = 0; At < Whole.size(); At += Cut)
      Written +=
          D.transform(Whole.data() + At, std::min(Cut, Whole.size() - At),
                      Back.data() + Written);
    Written += D.finish(Back.data() + Written);
    EXPECT_EQ(Written, Content.size());
    EXPECT_EQ(Back, Content) << "pieces of " << Cut;
  }
  // A content of one word and a half: the word as it is, then the bytes.
  std::vector<uint8_t> Short = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::vector<uint8_t> Encoded(WordDeltaEncoder::bound(Short.size()));
  WordDeltaEncoder S;
  uint64_t N = S.transform(Short.data(), Short.size(), Encoded.data());
  N += S.finish(Encoded.data() + N);
  Encoded.resize(N);
  EXPECT_EQ(Encoded, Short);
}
