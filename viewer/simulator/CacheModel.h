//===- CacheModel.h - A set-associative LRU cache ---------------*- C++ -*-===//
//
// The classic textbook model (cachegrind's, drcachesim's default): lines of
// a fixed size, set = line number modulo the number of sets, least recently
// used line of a set evicted on a miss. No prefetching, no write policy:
// a store is an access like a load (write-allocate).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_CACHEMODEL_H
#define WGTRACE_VIEWER_CACHEMODEL_H

#include <cstdint>
#include <vector>

namespace wgtrace::viewer {

struct CacheGeometry {
  uint64_t Size = 32 << 10;
  uint64_t LineSize = 64;
  uint64_t Ways = 8;

  uint64_t sets() const { return Size / (LineSize * Ways); }
};

class CacheModel {
public:
  /// Line size and set count must be powers of two (checked by the caller).
  explicit CacheModel(const CacheGeometry &G);

  /// Accesses line number \p Line (address / line size); true on a hit.
  bool access(uint64_t Line);
  /// Empties the cache.
  void clear();

private:
  uint64_t Ways;
  uint64_t SetMask;
  /// Per set, Ways slots in most-recently-used-first order; kEmpty when
  /// unused. Ways are few (8, 16), so a linear scan and shift beats any
  /// linked structure.
  std::vector<uint64_t> Slots;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_CACHEMODEL_H
