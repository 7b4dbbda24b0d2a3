//===- recording_test.cc - The hot path writes the records it promises ----===//

#include "scoped_ring.h"

#include "wgtrace/instrument.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::detail;
using wgtrace::test::ScopedRing;

namespace {

const FunctionInfo TestFunctions[] = {{"kernel", "test", "(wg, p)", "src"}};
const SiteInfo TestSites[] = {{"kernel", "recording_test.cc:1"}};
Module TestModule(TestFunctions, 1, TestSites, 1);

} // namespace

TEST(Recording, NothingOutsideAWorkgroup) {
  ASSERT_EQ(ThreadStateTLS.Recording, nullptr);
  float X = 1;
  // Must not crash or record: no workgroup is running.
  EXPECT_EQ(*load(&X), 1.0f);
  EXPECT_EQ(WGTRACE_VALUE(3, 42), 42);
}

TEST(Recording, AccessRecordsCarryLengthAddressAndKey) {
  ScopedRing S(4096);
  S.TR.Hot.KeyBits = format::keyBits(0x40);
  double D = 0;
  *store(&D) = 2.0;
  EXPECT_EQ(*load(&D), 2.0);
  ASSERT_EQ(S.TR.head(), 32u);
  format::MemoryRecord First = format::decodeMemory(S.data());
  EXPECT_TRUE(First.IsStore);
  EXPECT_EQ(First.Length, sizeof(double));
  EXPECT_EQ(First.Address, reinterpret_cast<uintptr_t>(&D));
  EXPECT_EQ(First.WorkgroupOffset, 0x40u);
  EXPECT_FALSE(format::decodeMemory(S.data() + 16).IsStore);
}

TEST(Recording, UpdateIsALoadThenAStore) {
  ScopedRing S(4096);
  int V = 1;
  *update(&V) += 2;
  EXPECT_EQ(V, 3);
  ASSERT_EQ(S.TR.head(), 32u);
  EXPECT_FALSE(format::decodeMemory(S.data()).IsStore);
  EXPECT_TRUE(format::decodeMemory(S.data() + 16).IsStore);
}

TEST(Recording, LongAccessesAreSplit) {
  ScopedRing S(4096);
  struct Big {
    char Bytes[70000];
  };
  static Big B;
  (void)*load(&B);
  ASSERT_EQ(S.TR.head(), 32u);
  format::MemoryRecord First = format::decodeMemory(S.data());
  format::MemoryRecord Second = format::decodeMemory(S.data() + 16);
  EXPECT_EQ(First.Length, 0xFFFFu);
  EXPECT_EQ(Second.Length, 70000u - 0xFFFF);
  EXPECT_EQ(Second.Address, First.Address + 0xFFFF);
}

TEST(Recording, AccessSiteBitsGoAboveTheAddress) {
  ScopedRing S(4096);
  int V = 0;
  // What WGTRACE_LOAD_AT(site, v) passes: the module's bits of the site.
  const uint64_t Bits = format::accessSiteBits(0xBEEF);
  (void)*load(&V, Bits);
  *store(&V, Bits) = 1;
  struct Big {
    char Bytes[70000];
  };
  static Big B;
  (void)*load(&B, Bits);
  ASSERT_EQ(S.TR.head(), 4u * 16);
  for (int I = 0; I < 4; ++I) {
    uint64_t Word;
    std::memcpy(&Word, S.data() + 16 * I + 8, sizeof(Word));
    EXPECT_EQ(format::accessSiteOfWord(Word), 0xBEEFu) << "record " << I;
    EXPECT_EQ(format::addressOfWord(Word),
              I < 2 ? reinterpret_cast<uintptr_t>(&V)
                    : reinterpret_cast<uintptr_t>(&B) + (I - 2) * 0xFFFF);
  }
  // Without a site (written by hand), the word is the address alone.
  (void)*load(&V);
  uint64_t Word;
  std::memcpy(&Word, S.data() + 4 * 16 + 8, sizeof(Word));
  EXPECT_EQ(Word, reinterpret_cast<uintptr_t>(&V));
}

// What wgtrace-rewrite writes into a file with access sites: the base word
// and its reader, and a module whose registration fills the word.
namespace {
WGTRACE_ACCESS_SITE_TABLE(2)
const AccessSiteInfo SitedSites[] = {{"f.cc", 1, 2, 0, "k", "a[i]"},
                                     {"f.cc", 3, 4, 1, "k", "b[i]"}};
Module SitedModule(nullptr, 0, nullptr, 0,
                   WGTRACE_MODULE_EXTRAS(SitedSites, 2, nullptr, 0,
                                         wgtrace_access_site_bits_));
} // namespace

TEST(Recording, ModulesNumberTheirAccessSitesInTurn) {
  // Modules stay registered until the process ends: static, like the
  // ones instrumented files define.
  static uint64_t FirstBits[3], SecondBits[3];
  static Module First(nullptr, 0, nullptr, 0,
                      ModuleExtras{SitedSites, 2, nullptr, 0, FirstBits});
  static Module Second(nullptr, 0, nullptr, 0,
                       ModuleExtras{SitedSites, 2, nullptr, 0, SecondBits});
  EXPECT_NE(First.accessSite(1), format::kNoAccessSite);
  EXPECT_EQ(First.accessSite(2), First.accessSite(1) + 1);
  EXPECT_EQ(Second.accessSite(1), First.accessSite(2) + 1);
  EXPECT_EQ(Second.accessSiteBase(), First.accessSiteBase() + 2);
  // Registration filled the words the access macros read: the base, then
  // each site's bits, which are the base plus the index in place.
  EXPECT_EQ(FirstBits[0], First.accessSiteBaseBits());
  EXPECT_EQ(SecondBits[0], Second.accessSiteBaseBits());
  for (uint32_t I = 1; I <= 2; ++I) {
    EXPECT_EQ(FirstBits[I], format::accessSiteBits(First.accessSite(I)));
    EXPECT_EQ(SecondBits[I], format::accessSiteBits(Second.accessSite(I)));
    EXPECT_EQ(FirstBits[0] + format::accessSiteBits(I), FirstBits[I]);
  }
}

TEST(Recording, AccessMacrosRecordTheirModulesSiteIds) {
  ScopedRing S(4096);
  float V[2] = {1, 2};
  float Sum = WGTRACE_LOAD_AT(1, V[0]) + WGTRACE_LOAD_AT(2, V[1]);
  WGTRACE_STORE_AT(2, V[1]) = Sum;
  EXPECT_EQ(V[1], 3.0f);
  ASSERT_EQ(S.TR.head(), 3u * 16);
  const uint32_t Expected[] = {SitedModule.accessSite(1),
                               SitedModule.accessSite(2),
                               SitedModule.accessSite(2)};
  const float *Addresses[] = {&V[0], &V[1], &V[1]};
  for (int I = 0; I < 3; ++I) {
    format::MemoryRecord R = format::decodeMemory(S.data() + 16 * I);
    EXPECT_EQ(format::accessSiteOfWord(R.Address), Expected[I])
        << "record " << I;
    EXPECT_EQ(format::addressOfWord(R.Address),
              reinterpret_cast<uintptr_t>(Addresses[I]))
        << "record " << I;
  }
  EXPECT_NE(Expected[0], format::kNoAccessSite);
}

TEST(Recording, RingWrapsAtItsPowerOfTwoSize) {
  ScopedRing S(4096);
  int X = 0;
  for (int I = 0; I < 300; ++I)
    (void)*load(&X);
  // 300 records of 16 bytes: the head keeps growing, the offset wraps.
  EXPECT_EQ(S.TR.head(), 300u * 16);
  EXPECT_EQ(S.TR.head() & S.TR.mask(), (300u * 16) % 4096);
  // Records past the wrap overwrote the start of the ring.
  EXPECT_EQ(format::recordTag(S.data()), uint8_t(format::Tag::MemoryLoad));
}

// advance() hands back the room before the new end in 24 bits of 16-byte
// records: a part of a ring larger than that is reached in steps, with no
// boundary (no wrap, no continuation) before its real end.
TEST(Recording, PartsLargerThanAdvanceCanSayAreReachedInSteps) {
  runtime::ThreadRing TR;
  TR.setSize(uint64_t{8} << 30); // parts of 1 GiB
  TR.reset(runtime::allocateBuffer(TR.size()));
  constexpr uint64_t MaxRoom = kWordLowBits << 4;
  EXPECT_EQ(uint64_t(TR.Hot.End - TR.Hot.Cursor), MaxRoom);
  EXPECT_EQ(TR.Limit, TR.Data + (uint64_t{1} << 30));
  uint8_t *At = TR.Hot.End;
  RingSpace Space = advance(&TR.Hot, At);
  EXPECT_EQ(Space.Cursor, At);
  EXPECT_EQ((Space.KeyBitsAndRoom & kWordLowBits) << 4, MaxRoom);
  EXPECT_EQ(TR.head(), uint64_t(At - TR.Data)) << "no record was written";
  // The last step stops at the part's end.
  At = TR.Limit - 64;
  Space = advance(&TR.Hot, At);
  EXPECT_EQ((Space.KeyBitsAndRoom & kWordLowBits) << 4, 64u);
}

TEST(Recording, PrintSpillsIntoThePaddingNotPastIt) {
  ScopedRing S(4096);
  S.TR.Hot.Cursor = S.TR.Data + 4096 - 16; // the last slot of the ring
  std::string Long(5000, 'x');
  WGTRACE_PRINTF("{}", Long);
  format::PrintRecord P = format::decodePrintHeader(S.data() + 4096 - 16);
  EXPECT_EQ(P.Length, format::kMaxPrintLength);
  EXPECT_EQ(S.TR.head(), 4096 - 16 + format::kMaxRecordSize);
  // The head word at the end of the padding is untouched.
  uint64_t Tail;
  std::memcpy(&Tail, S.Storage.data() + S.Storage.size() - 8, 8);
  EXPECT_EQ(Tail, 0u);
}

TEST(Recording, ValuesOfEveryWidth) {
  ScopedRing S(4096);
  EXPECT_EQ(WGTRACE_VALUE(1, int8_t(-1)), -1);
  EXPECT_EQ(WGTRACE_VALUE(2, uint16_t(65535)), 65535);
  EXPECT_EQ(WGTRACE_VALUE(3, 1.5f), 1.5f);
  EXPECT_EQ(WGTRACE_VALUE(4, 2.5), 2.5);
  int Local = 7;
  int *Ptr = &Local;
  EXPECT_EQ(WGTRACE_VALUE(5, Ptr), Ptr);
  format::ValueRecord V0 = format::decodeValue(S.data());
  EXPECT_EQ(V0.Type, format::ValueType::SInt8);
  EXPECT_EQ(V0.Ordinal, 1);
  EXPECT_EQ(uint8_t(V0.Bits), 0xFF);
  EXPECT_EQ(format::decodeValue(S.data() + 16).Type, format::ValueType::UInt16);
  format::ValueRecord V2 = format::decodeValue(S.data() + 32);
  EXPECT_EQ(V2.Type, format::ValueType::Float32);
  EXPECT_EQ(V2.Bits, 0x3FC00000u);
  EXPECT_EQ(format::decodeValue(S.data() + 48).Bits, 0x4004000000000000u);
  format::ValueRecord V4 = format::decodeValue(S.data() + 64);
  EXPECT_EQ(V4.Type, format::ValueType::Pointer);
  EXPECT_EQ(V4.Bits, reinterpret_cast<uintptr_t>(Ptr));
}

// A kernel's buffer parameters, one call for all of them: each one's
// BufferBase and, where it has one, its BufferExtent, in the order of the
// list, kept for the continuations. The same records whether they all fit
// before the end of the ring's part (written at once) or not (one by one,
// across the end).
TEST(Recording, BufferParametersAreNamedInTheirOrder) {
  float A[4] = {};
  double B = 0;
  int C[2] = {};
  const uint64_t Bases[] = {reinterpret_cast<uintptr_t>(A),
                            reinterpret_cast<uintptr_t>(&B),
                            reinterpret_cast<uintptr_t>(C)};
  for (uint64_t Start : {uint64_t{0}, uint64_t{4096 - 32}}) {
    ScopedRing S(4096);
    S.TR.Hot.Cursor = S.TR.Data + Start;
    recordBuffers(A, objectBuffer(B), C);
    ASSERT_EQ(S.TR.head(), Start + 4 * 16) << "from " << Start;
    format::ValueType Types[] = {
        format::ValueType::BufferBase, format::ValueType::BufferBase,
        format::ValueType::BufferExtent, format::ValueType::BufferBase};
    uint8_t Ordinals[] = {0, 1, 1, 2};
    uint64_t Bits[] = {Bases[0], Bases[1], sizeof(B), Bases[2]};
    ASSERT_EQ(S.TR.BufferValues.size(), 4u);
    for (unsigned K = 0; K < 4; ++K) {
      format::ValueRecord V =
          format::decodeValue(S.data() + ((Start + 16 * K) & S.TR.mask()));
      EXPECT_EQ(V.Type, Types[K]) << "record " << K << " from " << Start;
      EXPECT_EQ(V.Ordinal, Ordinals[K]) << "record " << K;
      EXPECT_EQ(V.Bits, Bits[K]) << "record " << K;
      EXPECT_EQ(S.TR.BufferValues[K].Type, Types[K]);
      EXPECT_EQ(S.TR.BufferValues[K].Ordinal, Ordinals[K]);
      EXPECT_EQ(S.TR.BufferValues[K].Bits, Bits[K]);
    }
  }
}

// The records a workgroup left a lap before after the slot where a new
// record with its key goes are turned into filler, up to the first record
// that is not one of them, across the ring's end.
TEST(Recording, StaleRecordsAreScrubbedAcrossTheRingsEnd) {
  ScopedRing S(4096);
  const uint64_t Key = 4096 - 48; // a WORKGROUP record's 32 bytes
  auto Load = [&](uint64_t At, uint64_t KeyOf) {
    uint64_t Words[2] = {format::packWord(format::Tag::MemoryLoad, 4, KeyOf),
                         0x1000 + At};
    std::memcpy(S.TR.Data + At, Words, sizeof(Words));
  };
  Load(4096 - 16, Key);
  Load(0, Key);
  Load(16, Key);
  Load(32, Key - 256); // another workgroup's
  S.TR.Hot.Cursor = S.TR.Data + 4096 - 16;
  S.TR.scrubStaleRecords(Key);
  for (uint64_t At : {uint64_t{4096 - 16}, uint64_t{0}, uint64_t{16}})
    for (unsigned Byte = 0; Byte < 16; ++Byte)
      EXPECT_EQ(S.TR.Data[At + Byte], 0xFF) << "slot " << At;
  format::MemoryRecord Other = format::decodeMemory(S.TR.Data + 32);
  EXPECT_EQ(Other.WorkgroupOffset, Key - 256) << "another key is kept";
}

// Once the ring has wrapped, a workgroup that runs on across a part
// boundary gets a continuation there, keyed to its own offset. Had the
// previous lap's continuation at that boundary the same offset, the records
// it left would carry the same key, and each continuation would first turn
// them into filler (so that crash recovery does not take them for its
// own). Odd laps begin theirs one slot later, after a mark of no operation
// keyed to the record before.
[[gnu::noinline]] static void loadOnce(int *X) { (void)*load(X); }

TEST(Recording, ConsecutiveLapsKeyTheirContinuationsApart) {
  ScopedRing S(8192); // two parts of 4 KiB
  S.TR.Depth = 1;     // a workgroup runs throughout
  S.TR.Current.Selected = true;
  format::encodeWorkgroup(S.TR.Current.Record, {0, {0, 0, 0}, {1, 1, 1}, 0});
  int X = 0;
  auto RecordUntil = [&](uint64_t Head) {
    while (S.TR.head() < Head)
      loadOnce(&X); // a loop of inline loads publishes its cursor at its end
  };
  auto ExpectMarkOfNothing = [&](uint64_t At, uint64_t Key) {
    format::ValueRecord Mark = format::decodeValue(S.data() + At);
    EXPECT_EQ(Mark.Type, format::ValueType::Atomic) << "slot " << At;
    EXPECT_EQ(Mark.Bits, uint64_t(format::AtomicOp::None)) << "slot " << At;
    EXPECT_EQ(Mark.WorkgroupOffset, Key) << "slot " << At;
  };
  auto ExpectContinuation = [&](uint64_t At) {
    EXPECT_EQ(format::recordTag(S.data() + At), uint8_t(format::Tag::Workgroup))
        << "slot " << At;
    format::ValueRecord Copy = format::decodeValue(S.data() + At + 32);
    EXPECT_EQ(Copy.Type, format::ValueType::Continuation) << "slot " << At;
    EXPECT_EQ(Copy.WorkgroupOffset, At);
  };

  // Lap 0 has no continuations: every record of it is intact. Lap 1 (odd).
  RecordUntil(8192 + 4096 + 64 + 160);
  ExpectMarkOfNothing(0, 0);
  ExpectContinuation(16);
  ExpectMarkOfNothing(4096, 16);
  ExpectContinuation(4096 + 16);
  EXPECT_EQ(S.TR.key(), 4096u + 16);

  // Lap 2 (even): at the boundaries themselves.
  RecordUntil(2 * 8192 + 4096 + 48 + 160);
  ExpectContinuation(0);
  ExpectContinuation(4096);
  EXPECT_EQ(S.TR.key(), 4096u);
  // Past the cursor, lap 1's records are left as they were: keyed to its
  // continuation, not to this one, so nothing was turned into filler.
  format::MemoryRecord Next =
      format::decodeMemory(S.data() + (S.TR.head() & S.TR.mask()));
  EXPECT_EQ(Next.WorkgroupOffset, 4096u + 16);
  for (uint64_t At = 0; At < 8192; At += 16)
    ASSERT_NE(S.data()[At], 0xFF) << "filler at slot " << At;
  S.TR.Depth = 0;
}

TEST(Recording, WorkgroupScopeKeysItsRecordsAndRestores) {
  Workgroup WG{};
  WG.id[0] = 3;
  WG.count[0] = 4;
  int X = 0;
  runtime::ThreadRing &R = runtime::threadRing();
  uint64_t Start = R.head();
  {
    WorkgroupScope Scope(TestModule, 0, WG);
    (void)*load(&X);
  }
  EXPECT_EQ(ThreadStateTLS.Recording, nullptr);
  ASSERT_EQ(R.head(), Start + 32 + 16);
  format::WorkgroupRecord W =
      format::decodeWorkgroup(R.Data + (Start & R.mask()));
  // Called directly (no dispatch): the function's direct-call site.
  EXPECT_EQ(W.DispatchId, TestModule.directSite(0));
  EXPECT_EQ(W.Id[0], 3u);
  EXPECT_EQ(W.Count[0], 4u);
  format::MemoryRecord M =
      format::decodeMemory(R.Data + ((Start + 32) & R.mask()));
  EXPECT_EQ(M.WorkgroupOffset, Start & R.mask());
}

namespace {
// The name the macros expect; the test stands in for a rewritten file.
Module &wgtrace_module_ = TestModule;

void testKernel(const Workgroup &WG, int *Data) {
  WGTRACE_WORKGROUP(WG, 0);
  *store(&Data[WG.id[0]]) = 1;
}
} // namespace

TEST(Recording, DispatchPassesItsSiteToTheKernel) {
  int Data[2] = {0, 0};
  runtime::ThreadRing &R = runtime::threadRing();
  uint64_t Start = R.head();
  dispatch(SiteRef{TestModule.siteBase() + 0}, testKernel, Grid{2, 1, 1}, Data);
  EXPECT_EQ(Data[0] + Data[1], 2);
  format::WorkgroupRecord W =
      format::decodeWorkgroup(R.Data + (Start & R.mask()));
  EXPECT_EQ(W.DispatchId, TestModule.siteBase());
  EXPECT_EQ(W.Count[0], 2u);
  EXPECT_EQ(ThreadStateTLS.PendingSite, kNoSite);
}

namespace {

/// The records of one atomic operation at \p At, decoded: its mark, then
/// whether each following record is a store, with its address and length.
struct AtomicGroup {
  format::ValueRecord Mark;
  std::vector<format::MemoryRecord> Records;
};
AtomicGroup atomicGroupAt(const uint8_t *At) {
  AtomicGroup G;
  G.Mark = format::decodeValue(At);
  for (unsigned I = 1; I <= G.Mark.Ordinal; ++I)
    G.Records.push_back(format::decodeMemory(At + 16 * I));
  return G;
}

} // namespace

TEST(Recording, AtomicOperationsAreMarkedAndStillRun) {
  ScopedRing S(4096);
  S.TR.Hot.KeyBits = format::keyBits(0x40);
  std::atomic<int> Counter{5};
  int Plain[2] = {1, 2};
  const uint64_t Bits = format::accessSiteBits(7);
  // What WGTRACE_ATOMIC_*_AT expand to: the object (or a pointer to it, or
  // an atomic_ref), recorded and yielded for the operation.
  EXPECT_EQ(atomicAccess<format::AtomicOp::Update>(Bits, Counter).fetch_add(2),
            5);
  EXPECT_EQ(atomicAccess<format::AtomicOp::Load>(Bits, &Counter)->load(), 7);
  atomicAccess<format::AtomicOp::Update>(Bits, std::atomic_ref<int>(Plain[1]))
      .fetch_add(40);
  __atomic_store_n(atomicAccess<format::AtomicOp::Store>(Bits, &Plain[0]), 9,
                   __ATOMIC_RELEASE);
  EXPECT_EQ(Counter.load(), 7);
  EXPECT_EQ(Plain[1], 42);
  EXPECT_EQ(Plain[0], 9);
  ASSERT_EQ(S.TR.head(), 48u + 32 + 48 + 32);

  const struct {
    uint64_t Offset;
    format::AtomicOp Op;
    const void *Address;
  } Expected[] = {{0, format::AtomicOp::Update, &Counter},
                  {48, format::AtomicOp::Load, &Counter},
                  {80, format::AtomicOp::Update, &Plain[1]},
                  {128, format::AtomicOp::Store, &Plain[0]}};
  for (const auto &E : Expected) {
    AtomicGroup G = atomicGroupAt(S.data() + E.Offset);
    EXPECT_EQ(G.Mark.Type, format::ValueType::Atomic) << E.Offset;
    EXPECT_EQ(G.Mark.Bits, uint64_t(E.Op)) << E.Offset;
    EXPECT_EQ(G.Mark.Ordinal, format::atomicRecords(E.Op)) << E.Offset;
    EXPECT_EQ(G.Mark.WorkgroupOffset, 0x40u);
    ASSERT_EQ(G.Records.size(), format::atomicRecords(E.Op));
    for (size_t I = 0; I < G.Records.size(); ++I) {
      // An update is a load, then a store.
      EXPECT_EQ(G.Records[I].IsStore,
                E.Op == format::AtomicOp::Store || I == 1);
      EXPECT_EQ(G.Records[I].Length, 4u);
      EXPECT_EQ(G.Records[I].WorkgroupOffset, 0x40u);
      EXPECT_EQ(format::addressOfWord(G.Records[I].Address),
                reinterpret_cast<uintptr_t>(E.Address));
      EXPECT_EQ(format::accessSiteOfWord(G.Records[I].Address), 7u);
    }
  }
}

TEST(Recording, AnAtomicOperationsRecordsAreNeverSplit) {
  // Two slots left before the ring's end: an update's three records do not
  // fit; marks of no operation fill the two, and the update begins the next
  // lap whole. A load's two records fit exactly: no filler.
  ScopedRing S(4096);
  S.TR.Hot.Cursor = S.TR.Data + 4096 - 32;
  int X = 0;
  recordAtomic(format::AtomicOp::Load, &X, sizeof(X));
  EXPECT_EQ(S.TR.head(), 4096u);
  EXPECT_EQ(atomicGroupAt(S.data() + 4096 - 32).Mark.Bits,
            uint64_t(format::AtomicOp::Load));
  recordAtomic(format::AtomicOp::Update, &X, sizeof(X));
  EXPECT_EQ(S.TR.head(), 4096u + 48);
  AtomicGroup G = atomicGroupAt(S.data());
  EXPECT_EQ(G.Mark.Bits, uint64_t(format::AtomicOp::Update));
  ASSERT_EQ(G.Records.size(), 2u);

  ScopedRing T(4096);
  T.TR.Hot.Cursor = T.TR.Data + 4096 - 32;
  recordAtomic(format::AtomicOp::Update, &X, sizeof(X));
  EXPECT_EQ(T.TR.head(), 4096u + 48);
  for (uint64_t At : {4096 - 32, 4096 - 16}) {
    format::ValueRecord Filler = format::decodeValue(T.data() + At);
    EXPECT_EQ(Filler.Type, format::ValueType::Atomic);
    EXPECT_EQ(Filler.Ordinal, 0u);
    EXPECT_EQ(Filler.Bits, uint64_t(format::AtomicOp::None));
  }
  EXPECT_EQ(atomicGroupAt(T.data()).Mark.Bits,
            uint64_t(format::AtomicOp::Update));
}

TEST(Recording, LongAtomicObjectsAreMarkedPieceByPiece) {
  ScopedRing S(4096);
  static char Big[70000];
  recordAtomic(format::AtomicOp::Update, Big, sizeof(Big));
  ASSERT_EQ(S.TR.head(), 2u * 48);
  AtomicGroup First = atomicGroupAt(S.data());
  AtomicGroup Second = atomicGroupAt(S.data() + 48);
  ASSERT_EQ(First.Records.size(), 2u);
  ASSERT_EQ(Second.Records.size(), 2u);
  EXPECT_EQ(First.Records[1].Length, 0xFFFFu);
  EXPECT_EQ(Second.Records[0].Length, 70000u - 0xFFFF);
  EXPECT_EQ(Second.Records[0].Address, First.Records[0].Address + 0xFFFF);
}

TEST(Recording, AtomicsOfTheKernelsOwnStackAreNotRecorded) {
  ScopedRing S(4096);
  std::atomic<int> Own{0};
  static std::atomic<int> Shared{0};
  ThreadStateTLS.KernelStack = {reinterpret_cast<uintptr_t>(&Own), sizeof(Own)};
  atomicAccess<format::AtomicOp::Update, true>(0, Own).fetch_add(1);
  EXPECT_EQ(S.TR.head(), 0u);
  atomicAccess<format::AtomicOp::Update, true>(0, Shared).fetch_add(1);
  EXPECT_EQ(S.TR.head(), 48u);
  ThreadStateTLS.KernelStack = {};
  EXPECT_EQ(Own.load() + Shared.load(), 2);
}
