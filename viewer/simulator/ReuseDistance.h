//===- ReuseDistance.h - Distinct lines between two uses of a line -*- C++
//-*-===//
//
// The reuse (stack) distance of an access is the number of distinct other
// lines accessed since the previous access to the same line; a fully
// associative LRU cache of C lines hits exactly the accesses with distance
// below C, which makes the histogram a cache-size-independent picture of
// locality.
//
// Computed exactly, as in Bennett and Kruskal (1975): each line's last
// access time is marked in a Fenwick tree, and the distance is the number of
// marks after the previous access. Times are renumbered whenever they reach
// four times the number of distinct lines (at least 64 Ki), so memory is
// proportional to the distinct lines, not to the length of the trace.
//
// Last-use times are kept in blocks of 16 neighbouring lines, found through
// a map of the blocks, not of the lines: accesses go through memory in runs,
// so most lines are in the block the access before found (no lookup), the
// map is a sixteenth of a map of lines (it stays in the processor's caches,
// where a map of every line missed them on each lookup), and lines used
// together share the cache lines of their block. A block is 128 bytes even
// for one line used in it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_REUSEDISTANCE_H
#define WGTRACE_VIEWER_REUSEDISTANCE_H

#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cstdint>
#include <vector>

namespace wgtrace::viewer {

class ReuseDistance {
public:
  static constexpr uint64_t ColdDistance = UINT64_MAX;

  /// Accesses \p Line; returns its reuse distance, or ColdDistance for its
  /// first access.
  uint64_t access(uint64_t Line) {
    // The most recent line again: distance 0, and the order of last uses,
    // all that later distances depend on, stays as it is.
    if (Line == MostRecent && Now > 0)
      return 0;
    return accessOther(Line);
  }
  void clear();

  /// Histogram bucket of a distance: 0 for 0, k for [2^(k-1), 2^k).
  static unsigned bucket(uint64_t Distance) {
    return Distance == 0 ? 0 : unsigned(64 - __builtin_clzll(Distance));
  }

private:
  /// access() of a line other than the most recent.
  uint64_t accessOther(uint64_t Line);
  /// The smallest time span between renumberings.
  static constexpr uint64_t MinTimes = uint64_t(1) << 16;

  void mark(uint64_t Time, int Delta);
  /// Marks at times [From, To), From <= To.
  uint64_t between(uint64_t From, uint64_t To) const;
  void renumber();

  /// Lines per block of last-use times.
  static constexpr unsigned BlockShift = 4;
  static constexpr uint64_t NoTime = UINT64_MAX;
  struct Block {
    Block() { Time.fill(NoTime); }
    /// The last-use time of each line of the block, or NoTime.
    std::array<uint64_t, size_t(1) << BlockShift> Time;
  };
  /// The last-use time of \p Line (NoTime before its first use), to be
  /// written.
  uint64_t &lastUse(uint64_t Line);

  /// Line >> BlockShift -> index in Blocks; the block found last.
  llvm::DenseMap<uint64_t, uint32_t> BlockOf;
  std::vector<Block> Blocks;
  uint64_t LastBlockKey = UINT64_MAX;
  uint32_t LastBlock = 0;
  /// renumber()'s table of the times in use.
  std::vector<uint64_t *> ByTime;
  std::vector<int32_t> Tree;
  uint64_t Now = 0;
  /// The line accessed last (meaningful once Now > 0).
  uint64_t MostRecent = 0;
};

/// Line accesses counted by reuse distance (ReuseDistance::bucket), first
/// uses apart: what `cache` prints and the HTML report draws, counted one
/// way for both.
class ReuseHistogram {
public:
  void access(uint64_t Line) {
    uint64_t D = Distances.access(Line);
    if (D == ReuseDistance::ColdDistance)
      ++FirstUses;
    else
      ++Buckets[ReuseDistance::bucket(D)];
  }
  /// Accesses each line of \p Length bytes at \p Address (one line when
  /// \p Length is 0 or the bytes wrap past the top of the address space),
  /// lines being 2^\p LineShift bytes.
  void accessBytes(uint64_t Address, uint32_t Length, unsigned LineShift) {
    const uint64_t First = Address >> LineShift;
    uint64_t Last = Length ? (Address + (Length - 1)) >> LineShift : First;
    if (Last < First)
      Last = First;
    for (uint64_t Line = First;; ++Line) {
      ++Lines;
      access(Line);
      if (Line == Last)
        break;
    }
  }
  /// \p N accesses, each within the one line the last access ended in:
  /// distance 0, what accessBytes() would count for each, and no change to
  /// the order of last uses.
  void repeatLast(uint64_t N) {
    Lines += N;
    Buckets[0] += N;
  }
  /// Forgets the lines seen (every next access is a first use); the counts
  /// stay.
  void forgetLines() { Distances.clear(); }
  const std::vector<uint64_t> &buckets() const { return Buckets; }
  uint64_t firstUses() const { return FirstUses; }
  /// Line accesses counted by accessBytes().
  uint64_t lineAccesses() const { return Lines; }

private:
  ReuseDistance Distances;
  std::vector<uint64_t> Buckets = std::vector<uint64_t>(65, 0);
  uint64_t FirstUses = 0;
  uint64_t Lines = 0;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_REUSEDISTANCE_H
