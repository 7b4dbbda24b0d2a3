//===- CacheHierarchy.cc --------------------------------------------------===//

#include "simulator/CacheHierarchy.h"

#include <cassert>

namespace wgtrace::viewer {

CacheHierarchy::CacheHierarchy(std::vector<CacheLevel> Levels)
    : Levels(std::move(Levels)) {
  assert(!this->Levels.empty() && this->Levels.size() <= MaxLevels);
  for (const CacheLevel &L : this->Levels) {
    Models.emplace_back(L.Geometry);
    LineShifts.push_back(unsigned(__builtin_ctzll(L.Geometry.LineSize)));
  }
  FirstShift = LineShifts.front();
}

bool CacheHierarchy::missesLevel(unsigned L, uint64_t Address,
                                 uint64_t Length) {
  unsigned Shift = LineShifts[L];
  uint64_t First = Address >> Shift;
  uint64_t Last = Length ? (Address + (Length - 1)) >> Shift : First;
  if (Last < First)
    Last = First; // wraps past the top of the address space
  CacheModel &Model = Models[L];
  bool Miss = false;
  // Every line is looked up, hit or not: each lookup updates the LRU order
  // (cachegrind: "always do both, as state is updated as side effect").
  for (uint64_t Line = First;; ++Line) {
    Miss |= !Model.access(Line);
    if (Line == Last)
      break;
  }
  return Miss;
}

unsigned CacheHierarchy::accessLevels(uint64_t Address, uint64_t Length) {
  unsigned Missed = 0;
  while (Missed < Models.size() && missesLevel(Missed, Address, Length))
    ++Missed;
  // Its last line (First when the bytes wrap past the top of the address
  // space, as missesLevel() counts them) went to the front of its set.
  const uint64_t First = Address >> FirstShift;
  const uint64_t Last = Length ? (Address + (Length - 1)) >> FirstShift : First;
  MostRecentLine = Last < First ? First : Last;
  HaveMostRecent = true;
  return Missed;
}

void CacheHierarchy::clear() {
  for (CacheModel &M : Models)
    M.clear();
  HaveMostRecent = false;
}

} // namespace wgtrace::viewer
