//===- ReuseDistance.cc ---------------------------------------------------===//

#include "simulator/ReuseDistance.h"

#include <algorithm>

namespace wgtrace::viewer {

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
  // Keep the order of last uses, drop the gaps between them. Every time is
  // below the tree's size, so the times index a table: no sort. The map
  // does not change meanwhile, so pointers to its values stay valid.
  std::vector<uint64_t *> ByTime(Tree.size(), nullptr);
  for (auto &Entry : LastUse)
    ByTime[Entry.second] = &Entry.second;
  uint64_t Lines = 0;
  for (uint64_t *Time : ByTime)
    if (Time)
      *Time = Lines++;
  // Room for three times as many accesses as there are lines before the
  // next renumbering (and never fewer than MinTimes): the cost of a
  // renumbering, linear in the lines, is spread over that many accesses.
  Tree.assign(std::max<uint64_t>(MinTimes, 4 * Lines + 2), 0);
  // Marks at times [0, Lines), built bottom-up in linear time: each node
  // adds itself to its parent.
  for (uint64_t I = 1; I <= Tree.size(); ++I) {
    if (I <= Lines)
      Tree[I - 1] += 1;
    const uint64_t Parent = I + (I & (~I + 1));
    if (Parent <= Tree.size())
      Tree[Parent - 1] += Tree[I - 1];
  }
  Now = Lines;
}

uint64_t ReuseDistance::accessOther(uint64_t Line) {
  MostRecent = Line;
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
  MostRecent = 0;
  Tree.clear();
  Now = 0;
}

} // namespace wgtrace::viewer
