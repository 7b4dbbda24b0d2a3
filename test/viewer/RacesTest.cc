//===- RacesTest.cc - `races` on traces with known answers ----------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/RacesTool.h"
#include "reader/TraceReader.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

struct RaceResult {
  std::string Text;
  std::vector<RacesTool::Race> Races;
  uint64_t Count = 0;
  size_t Launches = 0;
  std::vector<LaunchTracker::Workgroup> Workgroups;
};

RaceResult races(const std::vector<uint8_t> &Bytes, bool Json = false,
                 uint64_t Limit = 100) {
  RaceResult Out;
  llvm::raw_string_ostream OS(Out.Text);
  RacesTool Tool(OS, Json, Limit);
  decodeWith(Tool, Bytes);
  Out.Races = Tool.races();
  Out.Count = Tool.raceCount();
  Out.Launches = Tool.launches().launches().size();
  Out.Workgroups = Tool.launches().workgroups();
  return Out;
}

std::vector<uint8_t> oneRing(const RingBuilder &Ring, unsigned Sites = 1) {
  TraceBuilder B;
  addSimpleMetadata(B, Sites).ring(Ring);
  return B.bytes();
}

/// A reduction gone wrong: 4 workgroups each sum 16 floats of their own
/// slice of `in` (0x1000 + 64 * x) and then store their partial sum to
/// `out[x / 2]` (0x2000 + 4 * (x / 2)) instead of `out[x]`: workgroups 0
/// and 1 write 0x2000, 2 and 3 write 0x2004. The fixed kernel stores to
/// out[x].
std::vector<uint8_t> reduction(bool Fixed) {
  RingBuilder Ring(1 << 14);
  for (uint32_t X = 0; X < 4; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {4, 1, 1}, 0);
    for (int I = 0; I < 16; ++I)
      Ring.load(0x1000 + 64 * X + 4 * I, 4);
    Ring.store(0x2000 + 4 * (Fixed ? X : X / 2), 4);
  }
  return oneRing(Ring);
}

TEST(Races, DeliberateRaceIsFoundWithAddressesAndWorkgroups) {
  // Two racing pairs (0 and 1 on 0x2000, 2 and 3 on 0x2004), both between
  // the same store: one group over the bytes they share.
  RaceResult R = races(reduction(/*Fixed=*/false));
  ASSERT_EQ(R.Count, 2u) << R.Text;
  ASSERT_EQ(R.Races.size(), 1u);
  EXPECT_EQ(R.Launches, 1u);
  const RacesTool::Race &First = R.Races[0];
  EXPECT_EQ(First.K, RacesTool::Kind::WriteWrite);
  EXPECT_EQ(First.Overlap.Lo, 0x2000u);
  EXPECT_EQ(First.Overlap.Hi, 0x2008u);
  EXPECT_EQ(First.Bytes, 8u);
  EXPECT_EQ(First.Pairs, 2u);
  EXPECT_EQ(First.WriteWritePairs, 2u);
  EXPECT_EQ(First.ReadWritePairs, 0u);
  EXPECT_EQ(R.Workgroups[First.A].Id[0], 0u);
  EXPECT_EQ(R.Workgroups[First.B].Id[0], 1u);
}

TEST(Races, FixedVersionHasNone) {
  RaceResult R = races(reduction(/*Fixed=*/true));
  EXPECT_EQ(R.Count, 0u) << R.Text;
  EXPECT_NE(R.Text.find("0 racing workgroup pairs in 1 launch of 1 dispatch "
                        "site\n"),
            std::string::npos)
      << R.Text;
}

TEST(Races, ReadReadIsNotARace) {
  // Every workgroup reads the same 256-byte table and writes its own byte.
  RingBuilder Ring(1 << 14);
  for (uint32_t X = 0; X < 3; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {3, 1, 1}, 0);
    Ring.load(0x1000, 256);
    Ring.store(0x3000 + X, 1);
  }
  EXPECT_EQ(races(oneRing(Ring)).Count, 0u);
}

TEST(Races, SameWorkgroupIsNotARace) {
  // In-place update: each workgroup reads and writes its own 16 bytes, and
  // writes them twice.
  RingBuilder Ring(1 << 14);
  for (uint32_t X = 0; X < 2; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {2, 1, 1}, 0);
    Ring.load(0x1000 + 16 * X, 16);
    Ring.store(0x1000 + 16 * X, 16);
    Ring.store(0x1000 + 16 * X + 4, 4);
  }
  EXPECT_EQ(races(oneRing(Ring)).Count, 0u);
}

TEST(Races, ReadWriteAcrossWorkgroupsPartialOverlap) {
  // Workgroup 0 stores 8 bytes at 0x1004; workgroup 1 loads 16 bytes at
  // 0x1000: they share bytes [0x1004, 0x100C). A stencil reading its
  // neighbour's output.
  RingBuilder Ring(1 << 14);
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  Ring.store(0x1004, 8);
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 0);
  Ring.load(0x1000, 16);
  RaceResult R = races(oneRing(Ring));
  ASSERT_EQ(R.Count, 1u);
  const RacesTool::Race &Rc = R.Races[0];
  EXPECT_EQ(Rc.K, RacesTool::Kind::ReadWrite);
  EXPECT_EQ(Rc.Overlap.Lo, 0x1004u);
  EXPECT_EQ(Rc.Overlap.Hi, 0x100Cu);
  // A is the writer.
  EXPECT_EQ(R.Workgroups[Rc.A].Id[0], 0u);
  EXPECT_EQ(Rc.AccessA.Lo, 0x1004u);
  EXPECT_EQ(Rc.AccessB.Lo, 0x1000u);
  EXPECT_EQ(Rc.AccessB.Hi, 0x1010u);
}

TEST(Races, TwoLaunchesOfTheSameSiteDoNotRace) {
  // The same 2-workgroup launch twice (e.g. two iterations of a solver):
  // workgroup 1 of the second launch writes what workgroup 0 of the first
  // wrote, but the launches are ordered.
  RingBuilder Ring(1 << 14);
  for (int Launch = 0; Launch < 2; ++Launch)
    for (uint32_t X = 0; X < 2; ++X) {
      Ring.workgroup(0, {X, 0, 0}, {2, 1, 1}, 0);
      Ring.store(0x1000 + 4 * ((X + Launch) % 2), 4);
    }
  RaceResult R = races(oneRing(Ring));
  EXPECT_EQ(R.Launches, 2u);
  EXPECT_EQ(R.Count, 0u) << R.Text;
}

TEST(Races, DifferentSitesAreDifferentLaunches) {
  // Site 0 and site 1 both write 0x1000 with workgroup 0,0,0: one after
  // the other, not concurrent.
  RingBuilder Ring(1 << 14);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  Ring.store(0x1000, 4);
  Ring.workgroup(1, {0, 0, 0}, {1, 1, 1}, 0);
  Ring.store(0x1000, 4);
  RaceResult R = races(oneRing(Ring, 2));
  EXPECT_EQ(R.Launches, 2u);
  EXPECT_EQ(R.Count, 0u);
}

/// local-task: two workers, each with its own ring, split the workgroups of
/// two launches of one site. Launch 0: worker 0 runs 0 and 2, worker 1 runs
/// 1 and 3; launch 1: worker 0 runs 1, worker 1 runs 0, 2, 3. In launch 0,
/// workgroups 0 and 1 (different rings) write 0x2000. In launch 1 every
/// workgroup writes its own word; workgroup 1 of launch 1 writes the word
/// that workgroup 2 of launch 0 wrote (ordered, no race).
TEST(Races, LaunchesAreMatchedAcrossRings) {
  RingBuilder W0(1 << 14), W1(1 << 14);
  auto Run = [](RingBuilder &R, uint32_t X, uint32_t Pid, uint64_t Address) {
    R.workgroup(0, {X, 0, 0}, {4, 1, 1}, Pid);
    R.store(Address, 4);
  };
  Run(W0, 0, 0, 0x2000);
  Run(W0, 2, 0, 0x2008);
  Run(W1, 1, 1, 0x2000);
  Run(W1, 3, 1, 0x200C);
  Run(W0, 1, 0, 0x2008);
  Run(W1, 0, 1, 0x2000);
  Run(W1, 2, 1, 0x2010);
  Run(W1, 3, 1, 0x2014);
  TraceBuilder B;
  addSimpleMetadata(B).ring(W0).ring(W1);
  RaceResult R = races(B.bytes());
  EXPECT_EQ(R.Launches, 2u);
  ASSERT_EQ(R.Count, 1u) << R.Text;
  EXPECT_EQ(R.Workgroups[R.Races[0].A].Id[0], 0u);
  EXPECT_EQ(R.Workgroups[R.Races[0].B].Id[0], 1u);
  EXPECT_EQ(R.Workgroups[R.Races[0].B].ProcessorId, 1u);
}

/// A worker that ran no workgroup of launch 0: its first launch is launch
/// 1. Launch 0 (grid 1) ran on worker 0, launch 1 on worker 1; both write
/// 0x1000 with workgroup 0. Matching "the k-th launch of each ring" alone
/// would put both in launch 0 with the same id twice; the collision moves
/// worker 1's launch to launch 1.
TEST(Races, AWorkerThatSkippedALaunchIsMatchedToTheNextOne) {
  RingBuilder W0(1 << 14), W1(1 << 14);
  W0.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  W0.store(0x1000, 4);
  W1.workgroup(0, {0, 0, 0}, {1, 1, 1}, 1);
  W1.store(0x1000, 4);
  TraceBuilder B;
  addSimpleMetadata(B).ring(W0).ring(W1);
  RaceResult R = races(B.bytes());
  EXPECT_EQ(R.Launches, 2u);
  EXPECT_EQ(R.Count, 0u);
}

TEST(Races, LowerLinearIdStartsANewLaunch) {
  // One worker ran workgroup 3 of launch 0 and workgroup 1 of launch 1 (id
  // 1 not seen before in the ring, but lower: the launcher's order
  // restarted). Both store 0x1000: no race.
  RingBuilder Ring(1 << 14);
  Ring.workgroup(0, {3, 0, 0}, {4, 1, 1}, 0);
  Ring.store(0x1000, 4);
  Ring.workgroup(0, {1, 0, 0}, {4, 1, 1}, 0);
  Ring.store(0x1000, 4);
  RaceResult R = races(oneRing(Ring));
  EXPECT_EQ(R.Launches, 2u);
  EXPECT_EQ(R.Count, 0u);
}

TEST(Races, StreamModeCopyOfTheRunningWorkgroupIsTheSameWorkgroup) {
  // Workgroup 0 fills buffer 1 and goes on in buffer 2 (its record copied
  // at offset 0), then workgroup 1 writes what workgroup 0 wrote in
  // buffer 1: a race inside one launch spanning two chunks.
  RingBuilder First(4096), Second(4096);
  First.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  First.store(0x1000, 4);
  // Buffer 1 is handed over full (a file without ring trailers says no
  // more than that, WorkgroupJoiner.h).
  while (First.head() < First.size())
    First.load(0x8000, 4);
  Second.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  Second.store(0x1004, 4);
  Second.workgroup(0, {1, 0, 0}, {2, 1, 1}, 0);
  Second.store(0x1000, 8);
  TraceBuilder B;
  addSimpleMetadata(B).ring(First).ring(Second);
  RaceResult R = races(B.bytes());
  EXPECT_EQ(R.Launches, 1u);
  ASSERT_EQ(R.Count, 1u) << R.Text;
  // Workgroup 0's two stores coalesce to 0x1000+8.
  EXPECT_EQ(R.Races[0].Bytes, 8u);
  EXPECT_EQ(R.Races[0].AccessA.Hi, 0x1008u);
}

TEST(Races, ManyWriters) {
  // 50 workgroups all increment one counter: 50 * 49 / 2 write-write pairs
  // (and 50 * 49 read-write ones); --limit lists 10 of them.
  RingBuilder Ring(1 << 16);
  for (uint32_t X = 0; X < 50; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {50, 1, 1}, 0);
    Ring.load(0x1000, 4);
    Ring.store(0x1000, 4);
  }
  RaceResult R = races(oneRing(Ring), false, 10);
  // Each unordered pair once, though each races both write-write and
  // read-write; one group (one counter, one pair of sources).
  EXPECT_EQ(R.Count, 50u * 49 / 2);
  ASSERT_EQ(R.Races.size(), 1u);
  EXPECT_EQ(R.Races[0].Pairs, 50u * 49 / 2);
  EXPECT_EQ(R.Races[0].WriteWritePairs, 50u * 49 / 2);
  EXPECT_EQ(R.Races[0].ReadWritePairs, 50u * 49 / 2);
  // With --limit 0 the group is counted, not listed.
  RaceResult None = races(oneRing(Ring), false, 0);
  EXPECT_NE(None.Text.find("1 more groups of racing accesses not shown"),
            std::string::npos)
      << None.Text;
}

TEST(Races, SharedAccumulatorIsOneGroupOfUnorderedPairsWithItsSourceLine) {
  // sum(wg, const float *in, float *total): `*total += s` in 8 workgroups.
  ExtensionSpec X;
  X.FunctionParams = {{{"in", "const float *", 1, 0, 4, false},
                       {"total", "float *", 2, 0, 4, false}}};
  X.AccessSites = {{"sum.cc", 9, 5, 2, "sum", "*total += s"},
                   {"sum.cc", 7, 12, 0, "sum", "in[i]"}};
  TraceBuilder B;
  B.metadata({{"sum", {}, {}, {}}}, {0}, &X);
  RingBuilder Ring(1 << 14);
  for (uint32_t W = 0; W < 8; ++W) {
    Ring.workgroup(0, {W, 0, 0}, {8, 1, 1}, W % 2);
    Ring.value(format::ValueType::BufferBase, 0, 0x10000);
    Ring.value(format::ValueType::BufferBase, 1, 0x20000);
    for (uint32_t I = 0; I < 4; ++I)
      Ring.load((0x10000 + 16 * W + 4 * I) | format::accessSiteBits(2), 4);
    Ring.load(0x20000 | format::accessSiteBits(1), 4);
    Ring.store(0x20000 | format::accessSiteBits(1), 4);
  }
  B.ring(Ring);
  RaceResult R = races(B.bytes());
  EXPECT_EQ(R.Count, 28u) << R.Text;
  ASSERT_EQ(R.Races.size(), 1u) << R.Text;
  EXPECT_EQ(R.Races[0].Pairs, 28u);
  EXPECT_NE(R.Text.find("28 racing workgroup pairs in 1 launch"),
            std::string::npos)
      << R.Text;
  EXPECT_NE(R.Text.find("  write-write 0x20000+4 (4 bytes in total+0x0): 28 "
                        "workgroup pairs (28 write-write, 28 read-write)\n"
                        "    store sum.cc:9 `*total += s`  vs  load/store "
                        "sum.cc:9 `*total += s`\n"),
            std::string::npos)
      << R.Text;
}

TEST(Races, TextAndJson) {
  RaceResult T = races(reduction(false));
  EXPECT_NE(T.Text.find("dispatch site 0: simple_mul, launch 0 (grid 4x1x1)"),
            std::string::npos)
      << T.Text;
  EXPECT_NE(T.Text.find("  write-write 0x2000+8 (8 bytes): 2 workgroup pairs "
                        "(2 write-write, 0 read-write)\n"
                        "    store (no access site)  vs  store (no access "
                        "site)\n"
                        "    e.g. 0,0,0 (pid 0, store 0x2000+4) and 1,0,0 "
                        "(pid 0, store 0x2000+4)\n"),
            std::string::npos)
      << T.Text;
  RaceResult J = races(reduction(false), /*Json=*/true);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(J.Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  EXPECT_EQ(Root->getInteger("races"), 2);
  const llvm::json::Object *First =
      (*Root->getArray("listed"))[0].getAsObject();
  EXPECT_EQ(First->getString("kind"), "write-write");
  EXPECT_EQ(First->getInteger("address"), 0x2000);
  EXPECT_EQ(First->getInteger("size"), 8);
  EXPECT_EQ(First->getInteger("pairs"), 2);
  EXPECT_EQ(First->getString("function"), "simple_mul");
  EXPECT_EQ(First->getObject("b")->getObject("access")->getString("kind"),
            "store");
}

// Two workgroups store to the same heap bytes through a local
// std::vector each (one freed, the other allocated at its address): the
// access site says the storage is the workgroup's own, and races leaves
// it out; the same stores through a site that does not say so race.
TEST(Races, WorkgroupOwnedStorageNeverRaces) {
  auto Build = [](bool Owned) {
    ExtensionSpec X;
    X.AccessSites = {{"k.cc", 7, 5, 1, "omp for at k.cc:4 in f", "tmp[k]",
                      std::nullopt, Owned}};
    RingBuilder Ring(4096);
    for (uint32_t W = 0; W < 2; ++W) {
      Ring.workgroup(0, {W, 0, 0}, {2, 1, 1}, 0);
      for (uint64_t K = 0; K < 4; ++K)
        Ring.store((0x5000 + 8 * K) | format::accessSiteBits(1), 8);
    }
    TraceBuilder B;
    B.metadata({{"omp for at k.cc:4 in f", {}, {}, {}}}, {0}, &X);
    B.ring(Ring);
    return B.bytes();
  };
  RaceResult Owned = races(Build(true));
  EXPECT_EQ(Owned.Count, 0u) << Owned.Text;
  RaceResult Shared = races(Build(false));
  EXPECT_EQ(Shared.Count, 1u) << Shared.Text;
}

// A per-thread histogram (NPB IS: `work_buff = bucket_size[myid]`): each
// thread's iterations update the thread's own counters in turn. Accesses
// whose site says the address is the thread's own race only between
// threads: none while each thread keeps to its own, a pair for each
// iteration of the other thread once one strays into it; a site that does
// not say so races within a thread too.
TEST(Races, ThreadOwnedStorageRacesOnlyBetweenThreads) {
  auto Build = [](bool Owned, bool Stray) {
    ExtensionSpec X;
    X.AccessSites = {{"k.cc", 9, 7, 2, "omp for at k.cc:8 in f",
                      "work_buff[key >> shift]", std::nullopt, false, Owned}};
    TraceBuilder B;
    B.metadata({{"omp for at k.cc:8 in f", {}, {}, {}}}, {0}, &X);
    std::vector<RingBuilder> Rings(2, RingBuilder(4096));
    for (uint32_t W = 0; W < 4; ++W) {
      const uint32_t Thread = W / 2;
      const uint32_t Counters = Stray && W == 3 ? 0 : Thread;
      Rings[Thread].workgroup(0, {W, 0, 0}, {4, 1, 1}, Thread);
      const uint64_t Address = 0x5000 + 0x100 * Counters;
      Rings[Thread].load(Address | format::accessSiteBits(1), 4);
      Rings[Thread].store(Address | format::accessSiteBits(1), 4);
    }
    for (const RingBuilder &Ring : Rings)
      B.ring(Ring);
    return B.bytes();
  };
  RaceResult Apart = races(Build(true, false));
  EXPECT_EQ(Apart.Count, 0u) << Apart.Text;
  RaceResult Stray = races(Build(true, true));
  EXPECT_EQ(Stray.Count, 2u) << Stray.Text; // workgroup 3 with 0 and 1
  RaceResult Shared = races(Build(false, false));
  EXPECT_EQ(Shared.Count, 2u) << Shared.Text; // 0 with 1, 2 with 3
}

// NPB FT: each thread copies rows into arrays of its own stack (locals of
// a function its parallel region calls) and hands them to an orphaned
// `omp for`. Each iteration's ThreadStack VALUE gives the part of its
// thread's stack below the region's frame: accesses there race only
// between threads. Above the frame (a local of the function that started
// the region, shared by the team) they race within one thread too.
TEST(Races, ThreadsOwnStackRacesOnlyBetweenThreads) {
  const uint64_t StackLo = 0x7ff000000000, Frame = StackLo + 0x100000;
  auto Build = [&](uint64_t Address, uint32_t ThreadOfLast) {
    RingBuilder Ring(4096);
    for (uint32_t W = 0; W < 3; ++W) {
      Ring.workgroup(0, {W, 0, 0}, {3, 1, 1}, W == 2 ? ThreadOfLast : 0);
      Ring.value(format::ValueType::ThreadStack, 0,
                 format::threadStackBits(StackLo, Frame));
      Ring.store(Address, 8);
    }
    return oneRing(Ring);
  };
  RaceResult Own = races(Build(Frame - 0x40, 0));
  EXPECT_EQ(Own.Count, 0u) << Own.Text;
  RaceResult Shared = races(Build(Frame + 0x40, 0));
  EXPECT_EQ(Shared.Count, 3u) << Shared.Text;
  // Another thread in the same bytes: two threads' accesses race.
  RaceResult Across = races(Build(Frame - 0x40, 1));
  EXPECT_EQ(Across.Count, 2u) << Across.Text;
}

TEST(Races, ThreadStackBitsRoundTrip) {
  const uint64_t Low = 0x7ffd00000000, Frame = 0x7ffd00801234;
  const format::ThreadStackRange R =
      format::threadStackRange(format::threadStackBits(Low, Frame));
  EXPECT_EQ(R.Hi, Frame);
  EXPECT_EQ(R.Lo, Frame - 0x801 * format::kThreadStackPage);
  EXPECT_GE(R.Lo, Low);
  // A stack of more than 256 MiB counts as its top 256 MiB.
  EXPECT_EQ(format::threadStackRange(format::threadStackBits(0x1000, Frame)).Lo,
            Frame - 0xFFFFull * format::kThreadStackPage);
  // Not a user-space address, or damaged bits: nothing is the thread's own.
  const format::ThreadStackRange None =
      format::threadStackRange(format::threadStackBits(0, uint64_t(1) << 60));
  EXPECT_EQ(None.Lo, None.Hi);
  const format::ThreadStackRange Damaged =
      format::threadStackRange((uint64_t(0xFFFF) << 48) | 0x1000);
  EXPECT_EQ(Damaged.Lo, Damaged.Hi);
}

} // namespace
