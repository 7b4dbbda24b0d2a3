//===- ReuseDistance.cc ---------------------------------------------------===//

#include "ReuseDistance.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace wgtrace::viewer {

unsigned ReuseDistance::bucket(uint64_t Distance) {
  return Distance == 0 ? 0 : llvm::Log2_64(Distance) + 1;
}

void ReuseDistance::mark(uint64_t Time, int Delta) {
  for (uint64_t I = Time + 1; I <= Tree.size(); I += I & (~I + 1))
    Tree[I - 1] += Delta;
}

uint64_t ReuseDistance::prefix(uint64_t Time) const {
  uint64_t Sum = 0;
  for (uint64_t I = Time; I > 0; I -= I & (~I + 1))
    Sum += Tree[I - 1];
  return Sum;
}

void ReuseDistance::renumber() {
  // Keep the order of last uses, drop the gaps between them.
  std::vector<std::pair<uint64_t, uint64_t>> ByTime;
  ByTime.reserve(LastUse.size());
  for (const auto &[Line, Time] : LastUse)
    ByTime.push_back({Time, Line});
  std::sort(ByTime.begin(), ByTime.end());
  Tree.assign(std::max<uint64_t>(1024, 2 * ByTime.size() + 2), 0);
  for (uint64_t I = 0; I < ByTime.size(); ++I) {
    LastUse[ByTime[I].second] = I;
    mark(I, 1);
  }
  Now = ByTime.size();
}

uint64_t ReuseDistance::access(uint64_t Line) {
  if (Now == Tree.size())
    renumber();
  uint64_t Distance = ColdDistance;
  auto [It, New] = LastUse.try_emplace(Line, Now);
  if (!New) {
    uint64_t Previous = It->second;
    Distance = prefix(Now) - prefix(Previous + 1);
    mark(Previous, -1);
    It->second = Now;
  }
  mark(Now, 1);
  ++Now;
  return Distance;
}

void ReuseDistance::clear() {
  LastUse.clear();
  Tree.clear();
  Now = 0;
}

} // namespace wgtrace::viewer
