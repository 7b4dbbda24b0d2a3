//===- openmp_ids_test.cc - An OpenMP iteration's workgroup id ------------===//
//
// Each iteration of a traced OpenMP loop is a workgroup whose id is its
// position in the loop and whose count is the trip count. The ids are
// computed per iteration, with shortcuts for unit steps and 64-bit values:
// every form must give the position an enumeration of the loop gives.
//
//===----------------------------------------------------------------------===//

#include "wgtrace/detail/openmp.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace wgtrace::detail;

namespace {

/// Runs `for (I = Lower; I <Compare> Bound; I += Step)` (`-=` when Down),
/// noting the bounds as the rewritten loop does, and returns each
/// iteration's (id, count).
template <class T, bool Down, OmpCompare Compare>
std::vector<std::pair<uint32_t, uint32_t>> idsOf(T Lower, T Bound, T Step) {
  OmpBounds<OmpDim<T, T, T, Down, Compare>> Bounds;
  ompLower<0>(Bounds, Lower);
  ompBound<0>(Bounds, Bound);
  ompStep<0>(Bounds, Step);
  auto Continues = [&](T I) {
    switch (Compare) {
    case OmpCompare::Less:
      return I < Bound;
    case OmpCompare::LessEqual:
      return I <= Bound;
    case OmpCompare::Greater:
      return I > Bound;
    case OmpCompare::GreaterEqual:
      return I >= Bound;
    case OmpCompare::NotEqual:
      return I != Bound;
    }
    return false;
  };
  std::vector<std::pair<uint32_t, uint32_t>> Ids;
  for (T I = Lower; Continues(I) && Ids.size() < 100;
       I = Down ? T(I - Step) : T(I + Step)) {
    wgtrace::Workgroup WG = Bounds.workgroup(0, I);
    Ids.emplace_back(WG.id[0], WG.count[0]);
  }
  return Ids;
}

void expectPositions(const std::vector<std::pair<uint32_t, uint32_t>> &Ids,
                     uint32_t Count) {
  ASSERT_EQ(Ids.size(), Count);
  for (uint32_t K = 0; K < Ids.size(); ++K) {
    EXPECT_EQ(Ids[K].first, K);
    EXPECT_EQ(Ids[K].second, Count);
  }
}

TEST(OpenMPIds, UnitStepsUp) {
  expectPositions(idsOf<int, false, OmpCompare::Less>(3, 10, 1), 7);
  expectPositions(idsOf<int, false, OmpCompare::LessEqual>(-4, 4, 1), 9);
}

TEST(OpenMPIds, UnitStepsDown) {
  expectPositions(idsOf<int, true, OmpCompare::Greater>(10, 3, 1), 7);
  expectPositions(idsOf<long, true, OmpCompare::GreaterEqual>(4, -4, 1), 9);
}

TEST(OpenMPIds, OtherSteps) {
  expectPositions(idsOf<int, false, OmpCompare::Less>(0, 20, 3), 7);
  expectPositions(idsOf<int, true, OmpCompare::Greater>(20, 0, 3), 7);
  expectPositions(idsOf<int, false, OmpCompare::NotEqual>(1, 13, 4), 3);
  // A negative step written as `i += -2`.
  expectPositions(idsOf<int, false, OmpCompare::Greater>(9, 0, -2), 5);
}

TEST(OpenMPIds, DistancesBeyondSixtyFourSignedBits) {
  // Unsigned loops whose later iterations lie more than 2^63 from the
  // first: their ids take the 128-bit division.
  const uint64_t Step = uint64_t(1) << 60;
  expectPositions(idsOf<uint64_t, false, OmpCompare::Less>(0, 12 * Step, Step),
                  12);
  expectPositions(idsOf<uint64_t, true, OmpCompare::Greater>(UINT64_MAX - 1,
                                                             Step - 2, Step),
                  15);
}

} // namespace
