//===- reserved_records_test.cc - Room reserved once per statement -------===//
//
// WGTRACE_RESERVE(n) and the reserved access forms (wgtrace/detail/
// reserve.h) write the records the checked forms write, cross a part
// boundary without splitting a statement's records, and in the checking
// build abort on an undercount instead of writing past the room.
//
//===----------------------------------------------------------------------===//

// Before any header: the reserved forms check their reservations.
#define WGTRACE_CHECK_RESERVATIONS 1

#include "scoped_ring.h"

#include "wgtrace/instrument.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::detail;
using wgtrace::test::ScopedRing;

namespace {

/// One statement with three records, as the rewriter writes it checked or
/// reserved: `x[i] = x[i] + y[i]`.
void checkedStatement(float *X, const float *Y, int I) {
  WGTRACE_STORE(X[I]) = WGTRACE_LOAD(X[I]) + WGTRACE_LOAD(Y[I]);
}
void reservedStatement(float *X, const float *Y, int I) {
  WGTRACE_RESERVE(3);
  WGTRACE_STORE_RESERVED(X[I]) =
      WGTRACE_LOAD_RESERVED(X[I]) + WGTRACE_LOAD_RESERVED(Y[I]);
}

} // namespace

TEST(ReservedRecords, AreTheRecordsTheCheckedFormsWrite) {
  float X[40] = {}, Y[40] = {};
  ScopedRing Checked(4096), Reserved(4096);
  Checked.TR.Hot.KeyBits = Reserved.TR.Hot.KeyBits = format::keyBits(32);
  ThreadStateTLS.Recording = &Checked.TR.Hot;
  for (int I = 0; I < 40; ++I)
    checkedStatement(X, Y, I);
  ThreadStateTLS.Recording = &Reserved.TR.Hot;
  for (int I = 0; I < 40; ++I)
    reservedStatement(X, Y, I);
  ASSERT_EQ(Checked.TR.head(), 40u * 3 * 16);
  ASSERT_EQ(Reserved.TR.head(), Checked.TR.head());
  EXPECT_EQ(std::memcmp(Checked.data(), Reserved.data(), Checked.TR.head()), 0);
  EXPECT_EQ(X[39], 0.0f);
}

TEST(ReservedRecords, AStatementsRecordsAreNeverSplitAtAPartBoundary) {
  // Two slots left before the ring's end: the statement's three records do
  // not fit; marks of no operation fill the two, and the statement's
  // records begin the next lap whole. Without the reservation the third
  // record would go past the end.
  ScopedRing S(4096);
  S.TR.Hot.Cursor = S.TR.Data + 4096 - 32;
  float X[1] = {1}, Y[1] = {2};
  reservedStatement(X, Y, 0);
  EXPECT_EQ(X[0], 3.0f);
  EXPECT_EQ(S.TR.head(), 4096u + 48);
  for (uint64_t At : {4096 - 32, 4096 - 16}) {
    format::ValueRecord Filler = format::decodeValue(S.data() + At);
    EXPECT_EQ(Filler.Type, format::ValueType::Atomic);
    EXPECT_EQ(Filler.Bits, uint64_t(format::AtomicOp::None));
  }
  std::vector<ScopedRing::Access> A = S.accesses();
  ASSERT_GE(A.size(), 3u);
  EXPECT_FALSE(A[0].IsStore);
  EXPECT_EQ(A[0].Address, reinterpret_cast<uintptr_t>(&X[0]));
  EXPECT_FALSE(A[1].IsStore);
  EXPECT_EQ(A[1].Address, reinterpret_cast<uintptr_t>(&Y[0]));
  EXPECT_TRUE(A[2].IsStore);
  EXPECT_EQ(A[2].Address, reinterpret_cast<uintptr_t>(&X[0]));

  // Three slots left: they fit exactly, no filler, and the next statement
  // starts the next lap.
  ScopedRing T(4096);
  T.TR.Hot.Cursor = T.TR.Data + 4096 - 48;
  reservedStatement(X, Y, 0);
  EXPECT_EQ(T.TR.head(), 4096u);
  EXPECT_EQ(format::recordTag(T.data() + 4096 - 48),
            uint8_t(format::Tag::MemoryLoad));
  reservedStatement(X, Y, 0);
  EXPECT_EQ(T.TR.head(), 4096u + 48);
}

TEST(ReservedRecords, GoToTheIdleRingOutsideWorkgroups) {
  ASSERT_EQ(ThreadStateTLS.Recording, nullptr);
  float X[1] = {0}, Y[1] = {1};
  // More than the idle ring holds: it starts over as often as it fills.
  for (int I = 0; I < 200000; ++I)
    reservedStatement(X, Y, 0);
  EXPECT_EQ(X[0], 200000.0f);
}

using ReservedRecordsDeathTest = ::testing::Test;

TEST_F(ReservedRecordsDeathTest, ACheckingBuildStopsAnUndercount) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  float X[1] = {0};
  EXPECT_DEATH(
      {
        ScopedRing S(4096);
        WGTRACE_RESERVE(1);
        WGTRACE_STORE_RESERVED(X[0]) = WGTRACE_LOAD_RESERVED(X[0]) + 1;
      },
      "beyond its statement's reservation");
  // A reserved record at the very end of a part, with no reservation made
  // for it.
  EXPECT_DEATH(
      {
        ScopedRing S(4096);
        WGTRACE_RESERVE(1);
        (void)WGTRACE_LOAD_RESERVED(X[0]);
        S.TR.Hot.Cursor = S.TR.Hot.End;
        WGTRACE_RESERVE(0);
        ReservedRecordsLeft = 1;
        (void)WGTRACE_LOAD_RESERVED(X[0]);
      },
      "past the end of the ring's part");
}
