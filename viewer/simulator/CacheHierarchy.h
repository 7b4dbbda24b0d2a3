//===- CacheHierarchy.h - Levels of caches, misses passing down -*- C++ -*-===//
//
// Cachegrind's model (cg_sim.c), with up to three data levels instead of its
// two (D1 and LL): each level a set-associative LRU CacheModel, every access
// looked up in the first level, and only the accesses that miss a level looked
// up in the next one. Writes are write-allocate, like reads. An access is one
// reference whatever lines it covers: it misses a level when any of its lines
// does (all of them are looked up, so all become most recently used), and the
// next level then sees the whole access, as cachegrind's
// cachesim_ref_is_miss() does for an access that straddles two lines.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_CACHEHIERARCHY_H
#define WGTRACE_VIEWER_CACHEHIERARCHY_H

#include "simulator/CacheModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wgtrace::viewer {

struct CacheLevel {
  /// "D1", "L2" or "LL": the prefix of its columns (D1mr, L2mw, ...).
  std::string Name;
  CacheGeometry Geometry;
};

class CacheHierarchy {
public:
  static constexpr unsigned MaxLevels = 3;

  /// One to MaxLevels levels, first level first; each geometry valid
  /// (power-of-two line size and set count, checked by the caller).
  explicit CacheHierarchy(std::vector<CacheLevel> Levels);

  /// Looks up the bytes [Address, Address + Length) (Length 0: one byte).
  /// Returns how many levels, from the first, it missed: 0 is a hit in the
  /// first level, levels().size() a miss everywhere.
  unsigned access(uint64_t Address, uint64_t Length) {
    // The line the previous access ended in is the most recently used of
    // its set in the first level: another access within it hits there and
    // changes the order of no level, so most accesses (consecutive ones in
    // one line) skip the lookup.
    const uint64_t First = Address >> FirstShift;
    if (First == MostRecentLine && HaveMostRecent &&
        (Length <= 1 || ((Address + (Length - 1)) >> FirstShift) == First))
      return 0;
    return accessLevels(Address, Length);
  }
  /// Empties every level.
  void clear();

  const std::vector<CacheLevel> &levels() const { return Levels; }

private:
  unsigned accessLevels(uint64_t Address, uint64_t Length);
  bool missesLevel(unsigned L, uint64_t Address, uint64_t Length);

  std::vector<CacheLevel> Levels;
  std::vector<CacheModel> Models;
  std::vector<unsigned> LineShifts;
  unsigned FirstShift = 0;
  /// The first level's line that the last access ended in.
  uint64_t MostRecentLine = 0;
  bool HaveMostRecent = false;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_CACHEHIERARCHY_H
