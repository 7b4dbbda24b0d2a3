//===- FootprintTest.cc - `footprint` and stride patterns, known answers --===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/FootprintTool.h"
#include "analyses/StridePattern.h"
#include "reader/TraceReader.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

using Kind = StridePattern::Kind;

struct Footprint {
  std::string Text;
  std::vector<Interval> Buffers;
  std::vector<FootprintTool::Workgroup> Workgroups;
};

Footprint footprint(const std::vector<uint8_t> &Bytes, bool Json = false) {
  Footprint F;
  llvm::raw_string_ostream OS(F.Text);
  FootprintTool Tool(OS, Json);
  decodeWith(Tool, Bytes);
  F.Buffers = Tool.buffers();
  F.Workgroups = Tool.workgroups();
  return F;
}

std::vector<uint8_t> oneRing(const RingBuilder &Ring) {
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  return B.bytes();
}

bool sameRanges(const std::vector<Interval> &Got,
                const std::vector<std::pair<uint64_t, uint64_t>> &Want) {
  if (Got.size() != Want.size())
    return false;
  for (size_t I = 0; I < Got.size(); ++I)
    if (Got[I].Lo != Want[I].first || Got[I].Hi - Got[I].Lo != Want[I].second)
      return false;
  return true;
}

StridePattern pattern(std::vector<uint64_t> Addresses, uint32_t Length = 4) {
  StridePattern P(Addresses[0], Length);
  for (size_t I = 1; I < Addresses.size(); ++I)
    P.add(Addresses[I]);
  return P;
}

TEST(StridePattern, Kinds) {
  EXPECT_EQ(pattern({0x100}).kind(), Kind::Single);
  EXPECT_EQ(pattern({0x100, 0x100, 0x100}).kind(), Kind::Broadcast);
  EXPECT_EQ(pattern({0x100, 0x104, 0x108}).kind(), Kind::Contiguous);
  EXPECT_EQ(pattern({0x100, 0x108, 0x110}, 8).kind(), Kind::Contiguous);
  StridePattern S = pattern({0x100, 0x140, 0x180});
  EXPECT_EQ(S.kind(), Kind::Strided);
  EXPECT_EQ(S.step(), 64);
  EXPECT_EQ(S.describe(), "strided by 64 B");
  StridePattern Down = pattern({0x180, 0x140, 0x100});
  EXPECT_EQ(Down.step(), -64);
  EXPECT_EQ(pattern({0x100, 0x104, 0x200, 0x104}).kind(), Kind::Irregular);
  // Two rows of three 4-byte elements, rows 0x40 apart, then a third row.
  StridePattern T = pattern({0x100, 0x104, 0x108, 0x140, 0x144, 0x148, 0x180});
  EXPECT_EQ(T.kind(), Kind::TwoD);
  EXPECT_EQ(T.rowLength(), 3u);
  EXPECT_EQ(T.rowPitch(), 0x40);
  EXPECT_EQ(T.describe(), "2d: rows of 3 x 4 B step 4 B, pitch 64 B");
  // One row change only: not yet a confirmed pattern.
  EXPECT_EQ(pattern({0x100, 0x104, 0x108, 0x140, 0x144}).kind(),
            Kind::Irregular);
  // A row of a different length breaks it.
  EXPECT_EQ(pattern({0x100, 0x104, 0x140, 0x144, 0x148, 0x180}).kind(),
            Kind::Irregular);
}

/// out = transpose(in), 16 x 16 floats (64-byte rows), one workgroup per
/// row: workgroup i loads row i of `in` (contiguous) and stores column i of
/// `out` (strided by one row, 64 bytes).
TEST(Footprint, TransposeStoresAreStrided) {
  const uint64_t In = 0x100000, Out = 0x200000;
  RingBuilder Ring(1 << 16);
  for (uint32_t I = 0; I < 16; ++I) {
    Ring.workgroup(0, {I, 0, 0}, {16, 1, 1}, 0);
    for (uint32_t J = 0; J < 16; ++J) {
      Ring.load(In + 64 * I + 4 * J, 4);
      Ring.store(Out + 64 * J + 4 * I, 4);
    }
  }
  Footprint F = footprint(oneRing(Ring));
  // Two buffers: all of `in` and all of `out` (1 KiB each).
  ASSERT_EQ(F.Buffers.size(), 2u);
  EXPECT_EQ(F.Buffers[0].Lo, In);
  EXPECT_EQ(F.Buffers[0].Hi, In + 1024);
  EXPECT_EQ(F.Buffers[1].Lo, Out);
  EXPECT_EQ(F.Buffers[1].Hi, Out + 1024);
  ASSERT_EQ(F.Workgroups.size(), 16u);
  const FootprintTool::Workgroup &W3 = F.Workgroups[3];
  ASSERT_EQ(W3.Buffers.size(), 2u);
  EXPECT_TRUE(sameRanges(W3.Buffers[0].Loads, {{In + 192, 64}}));
  EXPECT_TRUE(W3.Buffers[0].Stores.empty());
  // Sixteen 4-byte pieces of column 3, 60 bytes apart: not coalesced.
  ASSERT_EQ(W3.Buffers[1].Stores.size(), 16u);
  EXPECT_EQ(W3.Buffers[1].Stores[1].Lo, Out + 64 + 12);
  ASSERT_EQ(W3.Streams.size(), 2u);
  EXPECT_FALSE(W3.Streams[0].Store);
  EXPECT_EQ(W3.Streams[0].Pattern.kind(), Kind::Contiguous);
  EXPECT_EQ(W3.Streams[0].Pattern.count(), 16u);
  EXPECT_TRUE(W3.Streams[1].Store);
  EXPECT_EQ(W3.Streams[1].Pattern.kind(), Kind::Strided);
  EXPECT_EQ(W3.Streams[1].Pattern.step(), 64);
  EXPECT_EQ(W3.Streams[1].Pattern.first(), Out + 12);
  EXPECT_NE(F.Text.find("  stream store 4 B cluster 1: 16 accesses from "
                        "0x20000c, strided by 64 B\n"),
            std::string::npos)
      << F.Text;
}

/// C = A x B with 8 x 8 floats (32-byte rows), 4 x 4 tiles, grid 2 x 2.
/// Workgroup (tx, ty) copies its panel of A (rows 4ty..4ty+3, all
/// columns) and of B (all rows, columns 4tx..4tx+3) to local memory row by
/// row, then stores its 4 x 4 tile of C.
std::vector<uint8_t> tiledMatmul(uint64_t A, uint64_t B, uint64_t C) {
  RingBuilder Ring(1 << 16);
  for (uint32_t Ty = 0; Ty < 2; ++Ty)
    for (uint32_t Tx = 0; Tx < 2; ++Tx) {
      Ring.workgroup(0, {Tx, Ty, 0}, {2, 2, 1}, 0);
      for (uint32_t I = 0; I < 4; ++I)
        for (uint32_t K = 0; K < 8; ++K)
          Ring.load(A + 32 * (4 * Ty + I) + 4 * K, 4);
      for (uint32_t K = 0; K < 8; ++K)
        for (uint32_t J = 0; J < 4; ++J)
          Ring.load(B + 32 * K + 4 * (4 * Tx + J), 4);
      for (uint32_t I = 0; I < 4; ++I)
        for (uint32_t J = 0; J < 4; ++J)
          Ring.store(C + 32 * (4 * Ty + I) + 4 * (4 * Tx + J), 4);
    }
  return oneRing(Ring);
}

TEST(Footprint, TiledMatmul) {
  const uint64_t A = 0x10000, B = 0x20000, C = 0x30000;
  Footprint F = footprint(tiledMatmul(A, B, C));
  ASSERT_EQ(F.Buffers.size(), 3u);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(F.Buffers[I].Hi - F.Buffers[I].Lo, 256u);
  ASSERT_EQ(F.Workgroups.size(), 4u);
  // Workgroup (1, 1), the last one.
  const FootprintTool::Workgroup &W = F.Workgroups[3];
  EXPECT_EQ(W.Id, (std::array<uint32_t, 3>{1, 1, 0}));
  ASSERT_EQ(W.Buffers.size(), 3u);
  // A: rows 4..7, one contiguous 128-byte range.
  EXPECT_TRUE(sameRanges(W.Buffers[0].Loads, {{A + 128, 128}}));
  // B: columns 4..7 of every row: 8 pieces of 16 bytes, 32 bytes apart.
  std::vector<std::pair<uint64_t, uint64_t>> BWant, CWant;
  for (uint64_t K = 0; K < 8; ++K)
    BWant.push_back({B + 32 * K + 16, 16});
  EXPECT_TRUE(sameRanges(W.Buffers[1].Loads, BWant));
  // C: rows 4..7, columns 4..7.
  for (uint64_t I = 4; I < 8; ++I)
    CWant.push_back({C + 32 * I + 16, 16});
  EXPECT_TRUE(sameRanges(W.Buffers[2].Stores, CWant));
  EXPECT_TRUE(W.Buffers[2].Loads.empty());
  // Workgroup (0, 0): the other corner.
  EXPECT_TRUE(sameRanges(F.Workgroups[0].Buffers[0].Loads, {{A, 128}}));
  EXPECT_EQ(F.Workgroups[0].Buffers[1].Loads[0].Lo, B);

  ASSERT_EQ(W.Streams.size(), 3u);
  // The A panel spans whole rows: one contiguous run.
  EXPECT_EQ(W.Streams[0].Pattern.kind(), Kind::Contiguous);
  EXPECT_EQ(W.Streams[0].Pattern.count(), 32u);
  // The B panel: 8 rows of 4 elements, 32 bytes apart.
  EXPECT_EQ(W.Streams[1].Pattern.kind(), Kind::TwoD);
  EXPECT_EQ(W.Streams[1].Pattern.rowLength(), 4u);
  EXPECT_EQ(W.Streams[1].Pattern.rowPitch(), 32);
  EXPECT_EQ(W.Streams[1].Buffer, 1u);
  EXPECT_EQ(W.Streams[2].Pattern.kind(), Kind::TwoD);
  EXPECT_TRUE(W.Streams[2].Store);
  EXPECT_EQ(W.Streams[2].Pattern.count(), 16u);
}

TEST(Footprint, BufferGapRule) {
  // Accesses 4096 bytes apart (end to start) share a buffer; 4097 apart
  // do not.
  RingBuilder Ring(1 << 14);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  Ring.load(0x10000, 16);
  Ring.load(0x10010 + 4096, 16);
  Ring.load(0x10020 + 4096 + 4097, 16);
  Footprint F = footprint(oneRing(Ring));
  ASSERT_EQ(F.Buffers.size(), 2u);
  EXPECT_EQ(F.Buffers[0].Hi, 0x10020u + 4096);
  // Different buffers are different streams even with the same length.
  EXPECT_EQ(F.Workgroups[0].Streams.size(), 2u);
}

TEST(Footprint, StreamsSeparateKindLengthAndBuffer) {
  // A broadcast scalar (a 4-byte load of one address, 4 times) and
  // 8-byte loads walking the same buffer: separate streams.
  RingBuilder Ring(1 << 14);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  for (int I = 0; I < 4; ++I) {
    Ring.load(0x1000, 4);
    Ring.load(0x1100 + 8 * I, 8);
  }
  Footprint F = footprint(oneRing(Ring));
  const auto &S = F.Workgroups[0].Streams;
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Pattern.kind(), Kind::Broadcast);
  EXPECT_EQ(S[1].Pattern.kind(), Kind::Contiguous);
  EXPECT_EQ(S[1].Pattern.length(), 8u);
  EXPECT_TRUE(sameRanges(F.Workgroups[0].Buffers[0].Loads,
                         {{0x1000, 4}, {0x1100, 32}}));
}

TEST(Footprint, Json) {
  Footprint F = footprint(tiledMatmul(0x10000, 0x20000, 0x30000), true);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(F.Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  EXPECT_EQ(Root->getInteger("buffer_gap"), 4096);
  EXPECT_EQ(Root->getArray("buffers")->size(), 3u);
  const llvm::json::Object *W =
      (*Root->getArray("workgroups"))[3].getAsObject();
  const llvm::json::Object *S1 = (*W->getArray("streams"))[1].getAsObject();
  EXPECT_EQ(S1->getString("pattern"), "2d");
  EXPECT_EQ(S1->getInteger("row_pitch"), 32);
  const llvm::json::Array *ALoads =
      (*W->getArray("buffers"))[0].getAsObject()->getArray("loads");
  EXPECT_EQ((*(*ALoads)[0].getAsArray())[1].getAsInteger(), 128);
}

} // namespace
