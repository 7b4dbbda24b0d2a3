//===- AccessCounts.h - Counts of a workgroup, site or kernel ---*- C++ -*-===//

#ifndef WGTRACE_VIEWER_ACCESSCOUNTS_H
#define WGTRACE_VIEWER_ACCESSCOUNTS_H

#include "reader/Record.h"

#include <cstdint>

namespace wgtrace::viewer {

/// Counts of one workgroup, site or kernel.
struct AccessCounts {
  uint64_t Workgroups = 0;
  uint64_t Loads = 0;
  uint64_t Stores = 0;
  uint64_t LoadBytes = 0;
  uint64_t StoreBytes = 0;
  /// Loads and stores (counted in those too) made by atomic operations.
  uint64_t Atomics = 0;
  /// Distinct cache lines touched by loads or stores (set by the summary).
  uint64_t Lines = 0;
  uint64_t Values = 0;
  uint64_t Prints = 0;

  /// Counts a LOAD, STORE, VALUE or PRINT record; ignores the rest.
  void count(const Record &R) {
    switch (R.Tag) {
    case format::Tag::MemoryLoad:
    case format::Tag::MemoryStore:
      countAccess(R);
      break;
    case format::Tag::Value:
      // wgtrace's own VALUE types (buffers, continuations) are the
      // format's bookkeeping, not values the kernel reported.
      if (format::isIreeValueType(R.Value.Type))
        ++Values;
      break;
    case format::Tag::Print:
      ++Prints;
      break;
    default:
      break;
    }
  }

  /// count() of a LOAD or STORE.
  void countAccess(const Record &R) {
    if (R.Memory.IsStore) {
      ++Stores;
      StoreBytes += R.Memory.Length;
    } else {
      ++Loads;
      LoadBytes += R.Memory.Length;
    }
    Atomics += R.Atomic;
  }

  /// Adds \p Other's counts; Lines are not additive and stay as they are.
  void add(const AccessCounts &Other) {
    Workgroups += Other.Workgroups;
    Loads += Other.Loads;
    Stores += Other.Stores;
    LoadBytes += Other.LoadBytes;
    StoreBytes += Other.StoreBytes;
    Atomics += Other.Atomics;
    Values += Other.Values;
    Prints += Other.Prints;
  }
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ACCESSCOUNTS_H
