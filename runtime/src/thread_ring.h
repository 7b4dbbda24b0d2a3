//===- thread_ring.h - A thread's trace buffer and what the writer needs --===//

#ifndef WGTRACE_RUNTIME_THREAD_RING_H
#define WGTRACE_RUNTIME_THREAD_RING_H

#include "wgtrace/detail/thread_state.h"
#include "wgtrace/format.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace wgtrace::runtime {

/// Start and end of one workgroup, for the timing chunk.
struct TimingEntry {
  /// Bytes reserved in the ring before the workgroup record (ring mode: to
  /// tell whether it survived a wrap).
  uint64_t Virtual;
  /// Ring offset of the workgroup record its records are keyed to when it
  /// ended (stream mode: in the buffer it ended in).
  uint64_t Key;
  uint64_t StartNs;
  uint64_t EndNs;
  uint32_t Processor;
};

/// Everything a thread records into. Hot is what the inline record path
/// touches; the rest serves the workgroup prologue and the writer.
struct ThreadRing {
  detail::Ring Hot;
  /// Order in which threads first recorded.
  uint32_t Ordinal = 0;
  /// Bumped each time stream mode hands a full buffer to the writer.
  uint64_t Generation = 0;
  /// The current workgroup's record, re-emitted at the top of a new buffer
  /// so that records in it stay keyed to their workgroup.
  uint8_t CurrentWorkgroup[format::kWorkgroupRecordSize] = {};

  /// Ring mode: the ring is cut into kSegments parts; for each, one more
  /// than the virtual offset of the first workgroup record that started in
  /// it (0: none yet). At exit this finds the oldest workgroup record that
  /// survived a wrap without any per-record bookkeeping.
  static constexpr unsigned kSegments = 64;
  uint64_t SegmentFirst[kSegments] = {};
  unsigned SegmentShift = 0;

  /// Finished workgroups' times, when WGTRACE_TIMING=1.
  std::vector<TimingEntry> Timing;

  /// Stream mode: a free buffer for the next exchange; null while the
  /// writer still holds it.
  uint8_t *Spare = nullptr;

  uint64_t size() const { return Hot.Mask + 1; }
  uint64_t head() const { return __atomic_load_n(&Hot.Head, __ATOMIC_RELAXED); }

  static ThreadRing &from(detail::Ring &R) {
    return *reinterpret_cast<ThreadRing *>(&R);
  }

  /// Ring mode: notes a workgroup record reserved at virtual offset V.
  void noteWorkgroup(uint64_t V) {
    uint64_t Segment = V >> SegmentShift;
    uint64_t &Slot = SegmentFirst[Segment % kSegments];
    if (Slot == 0 || ((Slot - 1) >> SegmentShift) != Segment)
      Slot = V + 1;
  }

  /// Ring mode: the virtual offset of the oldest workgroup record still
  /// intact at \p Head, or Head when none is.
  uint64_t oldestIntactWorkgroup(uint64_t Head) const;
};

/// Allocates a buffer of one ring chunk's content for \p Size bytes of
/// ring. Fresh zero pages: only what the trace touches becomes resident.
uint8_t *allocateBuffer(uint64_t Size);

/// The calling thread's ring, allocated on first use with the configured
/// size. Rings outlive their threads: the trace is written at exit.
ThreadRing &threadRing();

/// Calls \p Visit on every ring ever allocated, in allocation order.
void forEachRing(const std::function<void(ThreadRing &)> &Visit);

/// The same without taking the list's lock, for the crash handler: the
/// faulting thread may hold it.
void forEachRingUnlocked(const std::function<void(ThreadRing &)> &Visit);

/// Nanoseconds of the steady clock.
uint64_t steadyNanoseconds();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_THREAD_RING_H
