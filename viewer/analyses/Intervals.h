//===- Intervals.h - Byte ranges and their coalescing -----------*- C++ -*-===//
//
// Analyses that reason about memory (races, footprint) keep accesses as
// half-open byte ranges and merge them early: a kernel touches memory in
// runs, so merged ranges are orders of magnitude fewer than records and
// bound the memory an analysis needs.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_INTERVALS_H
#define WGTRACE_VIEWER_INTERVALS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wgtrace::viewer {

/// The bytes [Lo, Hi).
struct Interval {
  uint64_t Lo = 0;
  uint64_t Hi = 0;
};

/// Sorts \p Ranges and merges ranges that overlap, touch, or are at most
/// \p Gap bytes apart.
void coalesce(std::vector<Interval> &Ranges, uint64_t Gap = 0);

/// Ranges appended in any order, merged with the previous range when they
/// extend it (the common, contiguous case costs nothing) and compacted
/// whenever they have doubled since the last compaction, so memory follows
/// the number of distinct runs, not the number of accesses.
class IntervalAccumulator {
public:
  /// Ranges at most \p Gap bytes apart are merged too.
  explicit IntervalAccumulator(uint64_t Gap = 0) : Gap(Gap) {}
  void add(uint64_t Lo, uint64_t Hi) {
    if (!Ranges.empty()) {
      Interval &Last = Ranges.back();
      if (Lo >= Last.Lo && (Lo <= Last.Hi || Lo - Last.Hi <= Gap)) {
        Last.Hi = std::max(Last.Hi, Hi);
        return;
      }
    }
    append(Lo, Hi);
  }
  /// The merged, sorted ranges.
  const std::vector<Interval> &ranges();
  bool empty() const { return Ranges.empty(); }

private:
  /// A range that does not extend the last one.
  void append(uint64_t Lo, uint64_t Hi);

  std::vector<Interval> Ranges;
  size_t Compacted = 0;
  uint64_t Gap;
};

/// The byte range of an access of \p Length bytes at \p Address, clamped at
/// the top of the address space (the address comes from an untrusted file).
inline Interval accessRange(uint64_t Address, uint32_t Length) {
  uint64_t Hi = Address + Length;
  if (Hi < Address)
    Hi = UINT64_MAX;
  return {Address, Hi};
}

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_INTERVALS_H
