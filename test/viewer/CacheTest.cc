//===- CacheTest.cc - `cache`: a case worked out by hand ------------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/CacheTool.h"
#include "reader/TraceReader.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <random>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

/// 512 bytes, 64-byte lines, 2 ways: 4 sets, set = line % 4.
const CacheGeometry kTiny{512, 64, 2};

/// Worked out by hand (line = address / 64; set 0 holds lines 0, 4, 8):
///
///   wg 0  load  0x000 4  line 0  miss          set0 [0]      first use
///         load  0x100 4  line 4  miss          set0 [4 0]    first use
///         load  0x000 4  line 0  hit           set0 [0 4]    distance 1
///         store 0x200 4  line 8  miss, evict 4 set0 [8 0]    first use
///         load  0x100 4  line 4  miss, evict 0 set0 [4 8]    distance 2
///         load  0x03C 8  line 0  miss, evict 8 set0 [0 4]    distance 2
///                        line 1  miss          set1 [1]      first use
///   wg 1  load  0x040 4  line 1  hit           set1 [1]      distance 0
///         load  0x100 4  line 4  hit           set0 [4 0]    distance 2
///         store 0x200 4  line 8  miss, evict 0 set0 [8 4]    distance 3
///
/// wg 0: 6 accesses, 7 line accesses, 1 hit, 6 misses; wg 1: 3, 3, 2, 1.
/// Reuse histogram: [0] 1, [1] 1, [2, 3] 4; first use 4.
std::vector<uint8_t> handTrace() {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  Ring.load(0x000, 4);
  Ring.load(0x100, 4);
  Ring.load(0x000, 4);
  Ring.store(0x200, 4);
  Ring.load(0x100, 4);
  Ring.load(0x03C, 8);
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 0);
  Ring.load(0x040, 4);
  Ring.load(0x100, 4);
  Ring.store(0x200, 4);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  return B.bytes();
}

struct CacheRun {
  std::string Text;
  std::vector<CacheTool::Workgroup> Workgroups;
  CacheTool::Counts Totals;
  std::vector<uint64_t> Histogram;
  uint64_t Cold = 0;
};

CacheRun run(const std::vector<uint8_t> &Bytes, bool ColdPerWorkgroup,
             bool Json = false) {
  CacheRun Out;
  llvm::raw_string_ostream OS(Out.Text);
  CacheTool Tool(OS, Json, kTiny, ColdPerWorkgroup);
  decodeWith(Tool, Bytes);
  Out.Workgroups = Tool.workgroups();
  Out.Totals = Tool.totals();
  Out.Histogram = Tool.histogram();
  Out.Cold = Tool.coldAccesses();
  return Out;
}

TEST(Cache, HandWorkedSharedCache) {
  CacheRun R = run(handTrace(), false);
  ASSERT_EQ(R.Workgroups.size(), 2u);
  const CacheTool::Counts &W0 = R.Workgroups[0].C, &W1 = R.Workgroups[1].C;
  EXPECT_EQ(W0.Accesses, 6u);
  EXPECT_EQ(W0.LineAccesses, 7u);
  EXPECT_EQ(W0.Hits, 1u);
  EXPECT_EQ(W0.Misses, 6u);
  EXPECT_EQ(W1.Accesses, 3u);
  EXPECT_EQ(W1.LineAccesses, 3u);
  EXPECT_EQ(W1.Hits, 2u);
  EXPECT_EQ(W1.Misses, 1u);
  EXPECT_EQ(R.Totals.Hits, 3u);
  EXPECT_EQ(R.Totals.Misses, 7u);
  // cachegrind's D1mr / D1mw. Set 0 (2 ways) sees lines 0, 4, 0, 8 (the
  // store: a miss), 4, 0 from wg 0, then 4 (a hit) and 8 (the store
  // again: 4 and 0 took its ways) from wg 1; wg 1's 0x040 hits in set 1.
  EXPECT_EQ(W0.ReadMisses, 5u);
  EXPECT_EQ(W0.WriteMisses, 1u);
  EXPECT_EQ(W1.ReadMisses, 0u);
  EXPECT_EQ(W1.WriteMisses, 1u);
  EXPECT_EQ(R.Totals.ReadMisses, 5u);
  EXPECT_EQ(R.Totals.WriteMisses, 2u);
  EXPECT_EQ(R.Histogram[0], 1u);
  EXPECT_EQ(R.Histogram[1], 1u);
  EXPECT_EQ(R.Histogram[2], 4u);
  EXPECT_EQ(R.Histogram[3], 0u);
  EXPECT_EQ(R.Cold, 4u);
}

TEST(Cache, HandWorkedColdPerWorkgroup) {
  // wg 1 starts empty: three misses; its lines are all first uses.
  CacheRun R = run(handTrace(), true);
  EXPECT_EQ(R.Workgroups[0].C.Hits, 1u);
  EXPECT_EQ(R.Workgroups[1].C.Hits, 0u);
  EXPECT_EQ(R.Workgroups[1].C.Misses, 3u);
  EXPECT_EQ(R.Histogram[0], 0u);
  EXPECT_EQ(R.Histogram[1], 1u);
  EXPECT_EQ(R.Histogram[2], 2u);
  EXPECT_EQ(R.Cold, 7u);
}

TEST(Cache, TextAndJson) {
  CacheRun T = run(handTrace(), false);
  EXPECT_NE(T.Text.find("cache: 512 bytes, 64-byte lines, 2 ways, 4 sets"),
            std::string::npos)
      << T.Text;
  EXPECT_NE(T.Text.find("  2-3                                 4\n"),
            std::string::npos)
      << T.Text;
  CacheRun J = run(handTrace(), false, true);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(J.Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  EXPECT_EQ(Root->getObject("cache")->getInteger("sets"), 4);
  EXPECT_EQ(Root->getObject("totals")->getInteger("misses"), 7);
  EXPECT_EQ(Root->getObject("totals")->getInteger("read_misses"), 5);
  EXPECT_EQ(Root->getObject("totals")->getInteger("write_misses"), 2);
  EXPECT_EQ(Root->getInteger("first_use"), 4);
  const llvm::json::Object *Bucket =
      (*Root->getArray("reuse_distance"))[2].getAsObject();
  EXPECT_EQ(Bucket->getInteger("min"), 2);
  EXPECT_EQ(Bucket->getInteger("max"), 3);
  EXPECT_EQ(Bucket->getInteger("count"), 4);
}

TEST(ReuseDistance, CyclesAcrossRenumbering) {
  // Ten lines in a loop, 200000 times over the 65536-slot initial tree:
  // every access after the first lap has distance 9.
  ReuseDistance RD;
  for (int I = 0; I < 200000; ++I) {
    uint64_t D = RD.access(I % 10);
    if (I < 10)
      EXPECT_EQ(D, ReuseDistance::ColdDistance);
    else
      ASSERT_EQ(D, 9u) << I;
  }
  EXPECT_EQ(ReuseDistance::bucket(0), 0u);
  EXPECT_EQ(ReuseDistance::bucket(1), 1u);
  EXPECT_EQ(ReuseDistance::bucket(9), 4u);
}

TEST(ReuseDistance, ManyLinesAcrossRenumbering) {
  // 20000 lines in a loop: renumbering keeps them all, and the tree then
  // outgrows its initial size.
  ReuseDistance RD;
  for (int I = 0; I < 200000; ++I) {
    uint64_t D = RD.access(uint64_t(I % 20000) * 977);
    if (I < 20000)
      EXPECT_EQ(D, ReuseDistance::ColdDistance);
    else
      ASSERT_EQ(D, 19999u) << I;
  }
}

TEST(CacheModel, FullyAssociativeHitsExactlyBelowItsCapacity) {
  // One set of 4 ways is a fully associative LRU cache of 4 lines: an
  // access hits if and only if its reuse distance is below 4.
  CacheModel Cache(CacheGeometry{256, 64, 4});
  ReuseDistance RD;
  std::mt19937 Rng(7);
  for (int I = 0; I < 200000; ++I) {
    uint64_t Line = Rng() % 12;
    uint64_t D = RD.access(Line);
    ASSERT_EQ(Cache.access(Line), D != ReuseDistance::ColdDistance && D < 4)
        << I;
  }
}

} // namespace
