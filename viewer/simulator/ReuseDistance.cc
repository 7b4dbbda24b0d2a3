//===- ReuseDistance.cc ---------------------------------------------------===//

#include "simulator/ReuseDistance.h"

#include <algorithm>

namespace wgtrace::viewer {

void ReuseDistance::mark(uint64_t Time, int Delta) {
  for (uint64_t I = Time + 1; I <= Tree.size(); I += I & (~I + 1))
    Tree[I - 1] += Delta;
}

uint64_t ReuseDistance::between(uint64_t From, uint64_t To) const {
  // The marks before To less those before From: the two prefix sums'
  // paths down the tree walked together until they meet, so that the nodes
  // they share (most of them when the line was used recently) cancel
  // without being read.
  int64_t Sum = 0;
  while (To != From) {
    if (To > From) {
      Sum += Tree[To - 1];
      To &= To - 1;
    } else {
      Sum -= Tree[From - 1];
      From &= From - 1;
    }
  }
  return uint64_t(Sum);
}

void ReuseDistance::renumber() {
  // Keep the order of last uses, drop the gaps between them. Every time is
  // below the tree's size, so the times index a table: no sort. The blocks
  // do not change meanwhile, so pointers to their times stay valid. The
  // table is kept for the next renumbering: allocated afresh, its pages
  // were faulted in each time, which cost more than filling it.
  if (Tree.size() > ByTime.capacity())
    ByTime.reserve(Tree.capacity());
  ByTime.assign(Tree.size(), nullptr);
  for (Block &B : Blocks)
    for (uint64_t &Time : B.Time)
      if (Time != NoTime)
        ByTime[Time] = &Time;
  uint64_t Lines = 0;
  for (uint64_t *Time : ByTime)
    if (Time)
      *Time = Lines++;
  // Room for three times as many accesses as there are lines before the
  // next renumbering (and never fewer than MinTimes): the cost of a
  // renumbering, linear in the lines, is spread over that many accesses.
  // The tree grows with the lines seen, by half its size at least, so that
  // the next renumberings fill it in place.
  const uint64_t Size = std::max<uint64_t>(MinTimes, 4 * Lines + 2);
  if (Size > Tree.capacity())
    Tree.reserve(std::max<uint64_t>(Size, Tree.capacity() * 3 / 2));
  Tree.assign(Size, 0);
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

uint64_t &ReuseDistance::lastUse(uint64_t Line) {
  const uint64_t Key = Line >> BlockShift;
  if (Key != LastBlockKey) {
    auto [It, New] = BlockOf.try_emplace(Key, uint32_t(Blocks.size()));
    if (New)
      Blocks.emplace_back();
    LastBlockKey = Key;
    LastBlock = It->second;
  }
  return Blocks[LastBlock].Time[Line & ((uint64_t(1) << BlockShift) - 1)];
}

uint64_t ReuseDistance::accessOther(uint64_t Line) {
  MostRecent = Line;
  if (Now == Tree.size())
    renumber();
  uint64_t Distance = ColdDistance;
  uint64_t &Previous = lastUse(Line);
  if (Previous != NoTime) {
    Distance = between(Previous + 1, Now);
    mark(Previous, -1);
  }
  Previous = Now;
  mark(Now, 1);
  ++Now;
  return Distance;
}

void ReuseDistance::clear() {
  BlockOf.clear();
  Blocks.clear();
  LastBlockKey = UINT64_MAX;
  MostRecent = 0;
  Tree.clear();
  Now = 0;
}

} // namespace wgtrace::viewer
