//===- CacheModel.cc ------------------------------------------------------===//

#include "simulator/CacheModel.h"

#include <algorithm>

namespace wgtrace::viewer {

static constexpr uint64_t kEmpty = UINT64_MAX;

CacheModel::CacheModel(const CacheGeometry &G)
    : Ways(G.Ways), SetMask(G.sets() - 1), Slots(G.sets() * G.Ways, kEmpty) {}

bool CacheModel::access(uint64_t Line) {
  uint64_t *Set = Slots.data() + (Line & SetMask) * Ways;
  for (uint64_t W = 0; W < Ways; ++W) {
    if (Set[W] == Line) {
      // Move to the front: slots before it age by one.
      std::move_backward(Set, Set + W, Set + W + 1);
      Set[0] = Line;
      return true;
    }
  }
  // Miss: the last slot (least recently used, or empty) is evicted.
  std::move_backward(Set, Set + Ways - 1, Set + Ways);
  Set[0] = Line;
  return false;
}

void CacheModel::clear() { std::fill(Slots.begin(), Slots.end(), kEmpty); }

} // namespace wgtrace::viewer
