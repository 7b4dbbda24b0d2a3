//===- recorded_algorithms_test.cc - What recorded algorithms return ------===//
//
// The rewriter replaces `std::accumulate(a, a + n, 0.0f)` in a kernel by
// `recorded::accumulate<'M', 'M', '-'>(site)(...)`: the caller must get what
// the standard algorithm returns, of the same type. A value returned as a
// reference to the temporary that held it inside the wrapper reads freed
// stack (found by AddressSanitizer in a user's kernel). Every record the
// algorithm makes carries the call's access site (`site`), whether it comes
// from an element the algorithm reads or writes, one handed over to a
// callable, or one a projection returns.
//
//===----------------------------------------------------------------------===//

#include "scoped_ring.h"

#include "wgtrace/algorithms.h"

#include <gtest/gtest.h>

#include <array>
#include <type_traits>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::detail;
using wgtrace::test::ScopedRing;

namespace {

float DataArray[4] = {1, 2, 3, 4};
float OtherArray[4] = {4, 3, 2, 1};
// Kernels pass pointers (an array decays before the rewriter's call).
float *const Data = DataArray;
float *const Other = OtherArray;
// What WGTRACE_ACCESS_SITE(n) gives the call in a build without sites.
constexpr uint64_t NoSite = 0;

// Values come back as values.
static_assert(std::is_same_v<decltype(recorded::accumulate<'M', 'M', '-'>(
                                 NoSite)(Data, Data + 4, 0.0f)),
                             float>);
static_assert(
    std::is_same_v<decltype(recorded::inner_product<'M', 'M', 'M', '-'>(NoSite)(
                       Data, Data + 4, Other, 0.0)),
                   double>);
static_assert(
    std::is_same_v<decltype(recorded::reduce<'M', 'M'>(NoSite)(Data, Data + 4)),
                   float>);
static_assert(std::is_same_v<decltype(recorded::count<'M', 'M', '-'>(NoSite)(
                                 Data, Data + 4, 2.0f)),
                             std::ptrdiff_t>);
// Iterators come back as the caller's iterators, by value.
static_assert(std::is_same_v<
              decltype(recorded::min_element<'M', 'M'>(NoSite)(Data, Data + 4)),
              float *>);
static_assert(std::is_same_v<decltype(recorded::copy<'M', 'M', 'M'>(NoSite)(
                                 Data, Data + 4, Other)),
                             float *>);

} // namespace

TEST(RecordedAlgorithms, AnElementIsAnAddressAndASite) {
  // Whatever assigns it: the callable adds nothing (an Element passed by
  // value, as swap takes two, travels in two registers).
  auto CopyByHand = [](float &To, const float &From) { To = From; };
  static_assert(sizeof(recorded::Element<float>) == 16);
  static_assert(sizeof(recorded::Element<float, recorded::OwnAssignment>) ==
                16);
  static_assert(sizeof(recorded::Element<float, decltype(CopyByHand)>) == 16);
  float X = 1;
  recorded::Element<float, decltype(CopyByHand)> E(&X, 0, CopyByHand);
  E = 2.0f;
  EXPECT_EQ(X, 2.0f);
}

TEST(RecordedAlgorithms, ReturnWhatTheStandardOnesReturn) {
  // Outside a workgroup nothing is recorded; the results are the same.
  EXPECT_EQ((recorded::accumulate<'M', 'M', '-'>(NoSite)(Data, Data + 4, 0.0f)),
            10.0f);
  EXPECT_EQ((recorded::inner_product<'M', 'M', 'M', '-'>(NoSite)(Data, Data + 4,
                                                                 Other, 0.0)),
            20.0);
  EXPECT_EQ((recorded::reduce<'M', 'M'>(NoSite)(Data, Data + 4)), 10.0f);
  EXPECT_EQ((recorded::count<'M', 'M', '-'>(NoSite)(Data, Data + 4, 2.0f)), 1);
  EXPECT_EQ((recorded::min_element<'M', 'M'>(NoSite)(Data, Data + 4)), Data);
  std::array<float, 4> Out{};
  EXPECT_EQ(
      (recorded::copy<'M', 'M', 'M'>(NoSite)(Data, Data + 4, Out.begin())),
      Out.end());
  EXPECT_EQ(Out[3], 4.0f);
}

TEST(RecordedAlgorithms, EveryRecordCarriesTheCallsSite) {
  const uint64_t Bits = format::accessSiteBits(0x1234);
  float InArray[3] = {3, 1, 2};
  float OutArray[3] = {};
  // As kernels pass them: pointers.
  float *In = InArray;
  float *Out = OutArray;
  {
    ScopedRing S(4096);
    // Elements read and written through Recorded iterators: load, store.
    recorded::copy<'M', 'M', 'M'>(Bits)(In, In + 3, Out);
    std::vector<ScopedRing::Access> A = S.accesses();
    ASSERT_EQ(A.size(), 6u);
    for (size_t I = 0; I < A.size(); ++I) {
      EXPECT_EQ(A[I].IsStore, I % 2 == 1) << "record " << I;
      EXPECT_EQ(A[I].Address,
                reinterpret_cast<uintptr_t>(I % 2 ? &Out[I / 2] : &In[I / 2]))
          << "record " << I;
      EXPECT_EQ(A[I].Site, 0x1234u) << "record " << I;
    }
  }
  {
    ScopedRing S(4096);
    // A callable that needs the element itself: one load at the hand-over.
    recorded::for_each<'M', 'M', 'L'>(Bits)(Out, Out + 3,
                                            [](float &E) { E += 1; });
    std::vector<ScopedRing::Access> A = S.accesses();
    ASSERT_EQ(A.size(), 3u);
    for (size_t I = 0; I < A.size(); ++I) {
      EXPECT_FALSE(A[I].IsStore) << "record " << I;
      EXPECT_EQ(A[I].Address, reinterpret_cast<uintptr_t>(&Out[I]))
          << "record " << I;
      EXPECT_EQ(A[I].Site, 0x1234u) << "record " << I;
    }
    EXPECT_EQ(Out[0], 4.0f);
  }
  {
    ScopedRing S(4096);
    // A library-style comparison is handed Elements: it reads them
    // through them, at the call's site.
    struct Pair {
      float Key, Value;
    };
    Pair PairArray[2] = {{2, 0}, {1, 0}};
    Pair *Pairs = PairArray;
    const Pair *Smallest = recorded::min_element<'M', 'M', 'L'>(Bits)(
        Pairs, Pairs + 2,
        [](const Pair &P, const Pair &Q) { return P.Key < Q.Key; });
    EXPECT_EQ(Smallest, &Pairs[1]);
    std::vector<ScopedRing::Access> A = S.accesses();
    ASSERT_FALSE(A.empty());
    for (size_t I = 0; I < A.size(); ++I) {
      EXPECT_FALSE(A[I].IsStore) << "record " << I;
      EXPECT_EQ(A[I].Site, 0x1234u) << "record " << I;
    }
  }
}
