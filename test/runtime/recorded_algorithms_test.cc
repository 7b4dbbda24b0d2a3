//===- recorded_algorithms_test.cc - What recorded algorithms return ------===//
//
// The rewriter replaces `std::accumulate(a, a + n, 0.0f)` in a kernel by
// `recorded::accumulate<'M', 'M', '-'>(...)`: the caller must get what the
// standard algorithm returns, of the same type. A value returned as a
// reference to the temporary that held it inside the wrapper reads freed
// stack (found by AddressSanitizer in a user's kernel).
//
//===----------------------------------------------------------------------===//

#include "wgtrace/algorithms.h"

#include <gtest/gtest.h>

#include <array>
#include <type_traits>

using namespace wgtrace::detail;

namespace {

float DataArray[4] = {1, 2, 3, 4};
float OtherArray[4] = {4, 3, 2, 1};
// Kernels pass pointers (an array decays before the rewriter's call).
float *const Data = DataArray;
float *const Other = OtherArray;

// Values come back as values.
static_assert(std::is_same_v<decltype(recorded::accumulate<'M', 'M', '-'>(
                                 Data, Data + 4, 0.0f)),
                             float>);
static_assert(
    std::is_same_v<decltype(recorded::inner_product<'M', 'M', 'M', '-'>(
                       Data, Data + 4, Other, 0.0)),
                   double>);
static_assert(std::is_same_v<
              decltype(recorded::reduce<'M', 'M'>(Data, Data + 4)), float>);
static_assert(std::is_same_v<
              decltype(recorded::count<'M', 'M', '-'>(Data, Data + 4, 2.0f)),
              std::ptrdiff_t>);
// Iterators come back as the caller's iterators, by value.
static_assert(
    std::is_same_v<decltype(recorded::min_element<'M', 'M'>(Data, Data + 4)),
                   float *>);
static_assert(std::is_same_v<
              decltype(recorded::copy<'M', 'M', 'M'>(Data, Data + 4, Other)),
              float *>);

} // namespace

TEST(RecordedAlgorithms, ReturnWhatTheStandardOnesReturn) {
  // Outside a workgroup nothing is recorded; the results are the same.
  EXPECT_EQ((recorded::accumulate<'M', 'M', '-'>(Data, Data + 4, 0.0f)), 10.0f);
  EXPECT_EQ(
      (recorded::inner_product<'M', 'M', 'M', '-'>(Data, Data + 4, Other, 0.0)),
      20.0);
  EXPECT_EQ((recorded::reduce<'M', 'M'>(Data, Data + 4)), 10.0f);
  EXPECT_EQ((recorded::count<'M', 'M', '-'>(Data, Data + 4, 2.0f)), 1);
  EXPECT_EQ((recorded::min_element<'M', 'M'>(Data, Data + 4)), Data);
  std::array<float, 4> Out{};
  EXPECT_EQ((recorded::copy<'M', 'M', 'M'>(Data, Data + 4, Out.begin())),
            Out.end());
  EXPECT_EQ(Out[3], 4.0f);
}
