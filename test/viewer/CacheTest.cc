//===- CacheTest.cc - `cache`: cases worked out by hand -------------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/CacheTool.h"
#include "reader/TraceReader.h"
#include "simulator/MachineCaches.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
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
/// The load at 0x03C straddles lines 0 and 1: one access, one miss (as
/// cachegrind counts it). wg 0: 5 loads, 1 store, 4 read misses (D1mr), 1
/// write miss (D1mw); wg 1: 2 loads, 1 store, 0 and 1.
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
  EXPECT_EQ(W0.accesses(), 6u);
  EXPECT_EQ(W0.Reads, 5u);
  EXPECT_EQ(W0.Writes, 1u);
  EXPECT_EQ(W1.accesses(), 3u);
  // cachegrind's D1mr / D1mw. Set 0 (2 ways) sees lines 0, 4, 0, 8 (the
  // store: a miss), 4, 0 from wg 0, then 4 (a hit) and 8 (the store
  // again: 4 and 0 took its ways) from wg 1; wg 1's 0x040 hits in set 1.
  EXPECT_EQ(W0.Misses[0].Read, 4u);
  EXPECT_EQ(W0.Misses[0].Write, 1u);
  EXPECT_EQ(W1.Misses[0].Read, 0u);
  EXPECT_EQ(W1.Misses[0].Write, 1u);
  EXPECT_EQ(R.Totals.Misses[0].Read, 4u);
  EXPECT_EQ(R.Totals.Misses[0].Write, 2u);
  EXPECT_EQ(R.Histogram[0], 1u);
  EXPECT_EQ(R.Histogram[1], 1u);
  EXPECT_EQ(R.Histogram[2], 4u);
  EXPECT_EQ(R.Histogram[3], 0u);
  EXPECT_EQ(R.Cold, 4u);
}

TEST(Cache, HandWorkedColdPerWorkgroup) {
  // wg 1 starts empty: three misses; its lines are all first uses.
  CacheRun R = run(handTrace(), true);
  EXPECT_EQ(R.Workgroups[0].C.Misses[0].Read, 4u);
  EXPECT_EQ(R.Workgroups[1].C.Misses[0].Read, 2u);
  EXPECT_EQ(R.Workgroups[1].C.Misses[0].Write, 1u);
  EXPECT_EQ(R.Histogram[0], 0u);
  EXPECT_EQ(R.Histogram[1], 1u);
  EXPECT_EQ(R.Histogram[2], 2u);
  EXPECT_EQ(R.Cold, 7u);
}

TEST(Cache, TextAndJson) {
  CacheRun T = run(handTrace(), false);
  EXPECT_NE(T.Text.find("caches: D1 512 bytes, 2 ways, 64-byte lines (4 sets)"),
            std::string::npos)
      << T.Text;
  EXPECT_NE(T.Text.find("D1mr       D1mw\n"), std::string::npos) << T.Text;
  // 6 misses of 9 accesses; 4 of 7 loads, 2 of 2 stores.
  EXPECT_NE(T.Text.find("  D1     66.67%   57.14%  100.00%\n"),
            std::string::npos)
      << T.Text;
  EXPECT_NE(T.Text.find("  2-3                                 4\n"),
            std::string::npos)
      << T.Text;
  CacheRun J = run(handTrace(), false, true);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(J.Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  EXPECT_EQ(Root->getString("schema"), "wgtrace-cache/2");
  const llvm::json::Object *Level =
      (*Root->getArray("levels"))[0].getAsObject();
  EXPECT_EQ(Level->getString("name"), "D1");
  EXPECT_EQ(Level->getInteger("sets"), 4);
  EXPECT_EQ(Root->getObject("totals")->getInteger("reads"), 7);
  EXPECT_EQ(Root->getObject("totals")->getInteger("writes"), 2);
  EXPECT_EQ(Root->getObject("totals")->getInteger("D1mr"), 4);
  EXPECT_EQ(Root->getObject("totals")->getInteger("D1mw"), 2);
  EXPECT_EQ(Root->getInteger("first_use"), 4);
  const llvm::json::Object *Bucket =
      (*Root->getArray("reuse_distance"))[2].getAsObject();
  EXPECT_EQ(Bucket->getInteger("min"), 2);
  EXPECT_EQ(Bucket->getInteger("max"), 3);
  EXPECT_EQ(Bucket->getInteger("count"), 4);
}

/// Three tiny levels, 64-byte lines: D1 direct-mapped, 2 sets (set = line
/// % 2); L2 2 ways, 2 sets; LL 4 ways, 4 sets (set = line % 4).
const std::vector<CacheLevel> kTinyHierarchy = {
    {"D1", {128, 64, 1}}, {"L2", {256, 64, 2}}, {"LL", {1024, 64, 4}}};

/// Worked out by hand (sets shown most recently used first):
///
///        access              D1           L2              LL       missed
///   wg 0 load  line 0       miss         miss [0]        miss      3
///        load  line 2       miss (0 out) miss [2 0]      miss      3
///        load  line 0       miss (2 out) hit  [0 2]                1
///        load  line 2       miss (0 out) hit  [2 0]                1
///            (conflict misses in D1 that hit L2)
///        load  line 4       miss (2 out) miss [4 2]      miss s0 [4 0]  3
///        load  line 0       miss (4 out) miss [0 4]      hit  s0 [0 4]  2
///            (capacity misses in L2's set 0, passed to LL, which hits)
///   wg 1 store line 1       miss         miss s1 [1]     miss      3
///        store line 1       hit                                    0
///        load  0x3C, 8      lines 0, 1 both hit                    0
///        load  0x7C, 8      line 1 hit, line 2 miss: one miss;
///                           L2: 1 hit, 2 miss [2 0]; LL: 1, 2 hit  2
struct HierarchyStep {
  bool Store;
  uint64_t Address, Length;
  unsigned Missed;
};
const HierarchyStep kHierarchySteps[] = {
    {false, 0 * 64, 4, 3}, {false, 2 * 64, 4, 3}, {false, 0 * 64, 4, 1},
    {false, 2 * 64, 4, 1}, {false, 4 * 64, 4, 3}, {false, 0 * 64, 4, 2},
    {true, 1 * 64, 4, 3},  {true, 1 * 64, 4, 0},  {false, 0x3C, 8, 0},
    {false, 0x7C, 8, 2}};

TEST(CacheHierarchy, MissesPassToTheNextLevel) {
  CacheHierarchy Caches(kTinyHierarchy);
  for (const HierarchyStep &S : kHierarchySteps)
    EXPECT_EQ(Caches.access(S.Address, S.Length), S.Missed)
        << "at 0x" << std::hex << S.Address;
  Caches.clear();
  EXPECT_EQ(Caches.access(0, 4), 3u);
}

TEST(CacheHierarchy, RepeatedLinesCountAsEveryLineLookedUp) {
  // access() skips the lookup of an access within the line the previous
  // one ended in; the counts must be those of looking up every line of
  // every level each time, as cachegrind does (the reference below),
  // across accesses that span lines, wrap the address space and clear().
  const std::vector<CacheLevel> Levels = {
      {"D1", {256, 32, 2}}, {"L2", {1024, 64, 4}}, {"LL", {4096, 64, 4}}};
  CacheHierarchy Caches(Levels);
  std::vector<CacheModel> Reference;
  for (const CacheLevel &L : Levels)
    Reference.emplace_back(L.Geometry);
  auto ReferenceAccess = [&](uint64_t Address, uint64_t Length) {
    unsigned Missed = 0;
    for (size_t L = 0; L < Levels.size(); ++L) {
      const unsigned Shift =
          unsigned(__builtin_ctzll(Levels[L].Geometry.LineSize));
      const uint64_t First = Address >> Shift;
      uint64_t Last = Length ? (Address + (Length - 1)) >> Shift : First;
      if (Last < First)
        Last = First;
      bool Miss = false;
      for (uint64_t Line = First;; ++Line) {
        Miss |= !Reference[L].access(Line);
        if (Line == Last)
          break;
      }
      if (!Miss)
        break;
      ++Missed;
    }
    return Missed;
  };
  std::mt19937_64 Random(7);
  uint64_t Address = 0, Hits = 0;
  for (int I = 0; I < 20000; ++I) {
    const uint64_t Pick = Random() % 100;
    if (Pick < 60)
      Address += Random() % 8; // mostly the same line again
    else if (Pick < 98)
      Address = Random() % 8192;
    else
      Address = UINT64_MAX - Random() % 64; // wraps with a long access
    const uint64_t Length = Random() % 4 == 0 ? Random() % 130 : 4;
    if (I == 10000) {
      Caches.clear();
      for (CacheModel &M : Reference)
        M.clear();
    }
    const unsigned Want = ReferenceAccess(Address, Length);
    ASSERT_EQ(Caches.access(Address, Length), Want)
        << "access " << I << " at 0x" << std::hex << Address << " length "
        << std::dec << Length;
    Hits += Want == 0;
  }
  EXPECT_GT(Hits, 5000u); // the fast path was taken
}

TEST(CacheHierarchy, LevelsWithTheirOwnLineSizes) {
  // D1 32-byte lines, one set of 1 way; LL 64-byte lines. 0x00 then 0x20:
  // two D1 lines, one LL line: the second access misses D1 and hits LL.
  CacheHierarchy Caches({{"D1", {32, 32, 1}}, {"LL", {256, 64, 4}}});
  EXPECT_EQ(Caches.access(0x00, 4), 2u);
  EXPECT_EQ(Caches.access(0x20, 4), 1u);
  EXPECT_EQ(Caches.access(0x20, 4), 0u);
}

TEST(CacheHierarchy, PerWorkgroupCountsThroughTheTool) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  for (unsigned I = 0; I < 6; ++I)
    Ring.load(kHierarchySteps[I].Address, uint32_t(kHierarchySteps[I].Length));
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 0);
  for (unsigned I = 6; I < 10; ++I) {
    const HierarchyStep &S = kHierarchySteps[I];
    if (S.Store)
      Ring.store(S.Address, uint32_t(S.Length));
    else
      Ring.load(S.Address, uint32_t(S.Length));
  }
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::string Json;
  llvm::raw_string_ostream OS(Json);
  CacheTool Tool(OS, /*Json=*/true, kTinyHierarchy, /*Cold=*/false);
  decodeWith(Tool, B.bytes());
  ASSERT_EQ(Tool.workgroups().size(), 2u);
  const CacheTool::Counts &W0 = Tool.workgroups()[0].C;
  const CacheTool::Counts &W1 = Tool.workgroups()[1].C;
  EXPECT_EQ(W0.Reads, 6u);
  EXPECT_EQ(W0.Misses[0].Read, 6u); // D1mr
  EXPECT_EQ(W0.Misses[1].Read, 4u); // L2mr
  EXPECT_EQ(W0.Misses[2].Read, 3u); // LLmr
  EXPECT_EQ(W1.Reads, 2u);
  EXPECT_EQ(W1.Writes, 2u);
  EXPECT_EQ(W1.Misses[0].Read, 1u);
  EXPECT_EQ(W1.Misses[0].Write, 1u);
  EXPECT_EQ(W1.Misses[1].Read, 1u);
  EXPECT_EQ(W1.Misses[1].Write, 1u);
  EXPECT_EQ(W1.Misses[2].Read, 0u);
  EXPECT_EQ(W1.Misses[2].Write, 1u);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Totals = V->getAsObject()->getObject("totals");
  EXPECT_EQ(Totals->getInteger("L2mr"), 5);
  EXPECT_EQ(Totals->getInteger("LLmr"), 3);
  EXPECT_EQ(Totals->getInteger("LLmw"), 1);
  EXPECT_EQ(V->getAsObject()->getArray("levels")->size(), 3u);
  EXPECT_EQ(CacheTool::columns(kTinyHierarchy),
            (std::vector<std::string>{"accesses", "reads", "writes", "D1mr",
                                      "D1mw", "L2mr", "L2mw", "LLmr", "LLmw"}));
}

/// A sysfs cache directory: index<N>/{level,type,size,ways,line}.
struct FakeSysfs {
  llvm::SmallString<128> Dir;
  FakeSysfs() { llvm::sys::fs::createUniqueDirectory("wgtrace-sysfs", Dir); }
  ~FakeSysfs() { llvm::sys::fs::remove_directories(Dir); }
  void add(int Index, const char *Level, const char *Type, const char *Size,
           const char *Ways, const char *Line) {
    llvm::SmallString<128> Sub(Dir);
    llvm::sys::path::append(Sub, "index" + std::to_string(Index));
    llvm::sys::fs::create_directory(Sub);
    auto Write = [&](const char *Name, const char *Text) {
      llvm::SmallString<128> Path(Sub);
      llvm::sys::path::append(Path, Name);
      std::error_code EC;
      llvm::raw_fd_ostream(Path, EC) << Text << "\n";
    };
    Write("level", Level);
    Write("type", Type);
    Write("size", Size);
    Write("ways_of_associativity", Ways);
    Write("coherency_line_size", Line);
  }
};

TEST(MachineCaches, ThreeLevelsAndCachegrindsLastLevelAdjustment) {
  // The build machine's: a 105 MiB 15-way L3 has 114688 sets; cachegrind
  // simulates it as 26 ways of 65536 sets, 104 MiB (its own warning says
  // "simulated LL cache: line_size 64 assoc 26 total_size 109,051,904").
  FakeSysfs S;
  S.add(0, "1", "Data", "48K", "12", "64");
  S.add(1, "1", "Instruction", "32K", "8", "64");
  S.add(2, "2", "Unified", "2048K", "16", "64");
  S.add(3, "3", "Unified", "107520K", "15", "64");
  MachineCaches M = readMachineCaches(S.Dir);
  ASSERT_TRUE(M.D1 && M.L2 && M.LL);
  EXPECT_EQ(M.D1->Size, 48u << 10);
  EXPECT_EQ(M.D1->Ways, 12u);
  EXPECT_EQ(M.L2->Size, 2u << 20);
  EXPECT_EQ(M.LL->Ways, 26u);
  EXPECT_EQ(M.LL->Size, 109051904u);
  EXPECT_NE(M.Note.find("LL 105m,15,64 simulated as 104m,26,64"),
            std::string::npos)
      << M.Note;
}

TEST(MachineCaches, TwoLevelsAndNone) {
  FakeSysfs Two;
  Two.add(0, "1", "Data", "32K", "8", "64");
  Two.add(1, "2", "Unified", "1024K", "16", "64");
  MachineCaches M = readMachineCaches(Two.Dir);
  EXPECT_FALSE(M.L2);
  ASSERT_TRUE(M.LL);
  EXPECT_EQ(M.LL->Size, 1u << 20);
  FakeSysfs None;
  M = readMachineCaches(None.Dir);
  ASSERT_TRUE(M.D1 && M.LL);
  EXPECT_FALSE(M.L2);
  EXPECT_EQ(M.D1->Size, 65536u);
  EXPECT_EQ(M.D1->Ways, 2u);
  EXPECT_EQ(M.LL->Size, 262144u);
  EXPECT_EQ(M.LL->Ways, 8u);
  EXPECT_NE(M.Note.find("cachegrind's defaults"), std::string::npos);
}

TEST(MachineCaches, Specs) {
  llvm::Expected<CacheGeometry> G = parseCacheSpec("32k,8,64");
  ASSERT_TRUE(bool(G));
  EXPECT_EQ(G->Size, 32768u);
  EXPECT_EQ(G->Ways, 8u);
  EXPECT_EQ(G->LineSize, 64u);
  EXPECT_EQ(cacheSpecText(*G), "32k,8,64");
  EXPECT_EQ(llvm::toString(parseCacheSpec("32k,8").takeError()),
            "'32k,8': expected SIZE,WAYS,LINE (e.g. 32k,8,64)");
  EXPECT_EQ(llvm::toString(parseCacheSpec("3000,8,64").takeError()),
            "'3000,8,64': the number of sets (size / (ways * line size)) is "
            "not a whole power of two");
  EXPECT_EQ(llvm::toString(parseCacheSpec("32k,8,48").takeError()),
            "'32k,8,48': the line size is not a power of two");
  EXPECT_NE(llvm::toString(parseCacheSpec("32kb,8,64").takeError())
                .find("the size is not a size"),
            std::string::npos);
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

TEST(ReuseDistance, IsTheLruStackDepthOfNeighboursAndStrangers) {
  // Runs over neighbouring lines (one block of last-use times), jumps to
  // lines far away, lines alike in their low bits but not above, across
  // renumberings (70000 accesses) and a clear(): every distance is the
  // line's depth in an LRU stack, counted naively.
  std::mt19937_64 Rng(22);
  std::vector<uint64_t> Bases = {0, 16, 1u << 20, 1ull << 40,
                                 (1ull << 58) - 64};
  std::vector<uint64_t> Stack; // most recent first
  ReuseDistance RD;
  uint64_t Line = 0;
  for (int I = 0; I < 70000; ++I) {
    const uint64_t Pick = Rng() % 8;
    if (I == 50000) {
      // The line of the access before again: forgotten too.
      RD.clear();
      Stack.clear();
    } else if (Pick < 4)
      Line += Rng() % 3; // the same line or a neighbour
    else if (Pick < 7)
      Line = Bases[Rng() % Bases.size()] + Rng() % 96;
    else
      Line = Line ^ (uint64_t(1) << (4 + Rng() % 8)); // same low bits
    auto It = std::find(Stack.begin(), Stack.end(), Line);
    const uint64_t Expected = It == Stack.end() ? ReuseDistance::ColdDistance
                                                : uint64_t(It - Stack.begin());
    if (It != Stack.end())
      Stack.erase(It);
    Stack.insert(Stack.begin(), Line);
    ASSERT_EQ(RD.access(Line), Expected) << I << " line " << Line;
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
