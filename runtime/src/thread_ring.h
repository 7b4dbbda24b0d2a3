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
/// touches; the rest serves the workgroup prologue and the writers.
///
/// Positions: a record's ring offset is where it starts in Data; its
/// virtual offset counts the bytes reserved in this buffer before it
/// (ring mode: since the start or the last reset, across wraps).
struct ThreadRing {
  detail::Ring Hot;
  uint8_t *Data = nullptr;
  uint64_t Size = 0;
  /// Virtual offset of Data[0] in the current lap: a record at Cursor has
  /// virtual offset Base + (Cursor - Data).
  uint64_t Base = 0;
  /// Stream mode: ring offset where this buffer's records start (the key of
  /// the workgroup continued from the previous buffer, whose record is
  /// re-emitted there so that keys need not change).
  uint64_t Start = 0;
  /// Order in which threads first recorded.
  uint32_t Ordinal = 0;
  /// Instrumented workgroups running on the thread (nested kernel calls).
  uint32_t Depth = 0;
  /// Bumped each time stream mode hands a full buffer to the writer.
  uint64_t Generation = 0;
  /// The current workgroup's record, re-emitted at the top of a new buffer
  /// so that records in it stay keyed to their workgroup.
  uint8_t CurrentWorkgroup[format::kWorkgroupRecordSize] = {};

  /// Ring mode: the ring is cut into SegmentCount parts; for each, one more
  /// than the virtual offset of the first workgroup record that started in
  /// it (0: none yet). At exit this finds the oldest workgroup record that
  /// survived a wrap without any per-record bookkeeping.
  static constexpr unsigned SegmentCount = 64;
  uint64_t SegmentFirst[SegmentCount] = {};
  unsigned SegmentShift = 0;

  /// Finished workgroups' times, when WGTRACE_TIMING=1.
  std::vector<TimingEntry> Timing;

  /// Stream mode: a free buffer for the next exchange; null while the
  /// writer still holds it.
  uint8_t *Spare = nullptr;

  uint64_t size() const { return Size; }
  uint64_t mask() const { return Size - 1; }
  uint8_t *cursor() const {
    return __atomic_load_n(&Hot.Cursor, __ATOMIC_RELAXED);
  }
  /// Bytes reserved so far (the ring chunk's head).
  uint64_t head() const { return Base + uint64_t(cursor() - Data); }
  uint64_t key() const { return Hot.KeyBits >> 24; }

  static ThreadRing &from(detail::Ring &R) {
    return *reinterpret_cast<ThreadRing *>(&R);
  }

  /// Starts recording into the empty buffer \p Buffer.
  void reset(uint8_t *Buffer);

  /// Reserves \p Length bytes for a record written by the runtime and
  /// returns where it goes; it may spill past Size into the padding, as the
  /// format allows. May hand the buffer to the stream writer first.
  uint8_t *reserve(uint64_t Length);

  /// advance() for this ring: room for a 16-byte record at \p At, which
  /// has reached Hot.End.
  detail::RingSpace advanceFrom(uint8_t *At);

  /// Ring mode: notes a workgroup record reserved at virtual offset V.
  void noteWorkgroup(uint64_t V) {
    uint64_t Segment = V >> SegmentShift;
    uint64_t &Slot = SegmentFirst[Segment % SegmentCount];
    if (Slot == 0 || ((Slot - 1) >> SegmentShift) != Segment)
      Slot = V + 1;
  }

  /// Ring mode: the virtual offset of the oldest workgroup record still
  /// intact at \p Head, or Head when none is.
  uint64_t oldestIntactWorkgroup(uint64_t Head) const;

  /// A wrapped ring (or a reused stream buffer) may still hold, after a
  /// workgroup record just written at ring offset \p Key, records of an
  /// older workgroup whose record was at the same offset. They carry this
  /// workgroup's key; turning them into filler keeps recoverRecords() from
  /// taking them for this workgroup's.
  void scrubStaleRecords(uint64_t Key);

  /// For the crash handler: the cursor is published when a loop that
  /// records ends, not per record, so a signal can arrive with the records
  /// of the running loop written but not counted. They follow the cursor
  /// and carry the current workgroup's key; this takes them in.
  void recoverRecords();

private:
  /// Stream mode: whether the records have wrapped around this buffer's end
  /// and now run up to Start.
  bool wrappedInBuffer() const;
  /// Continues at the front of the buffer, \p Overhang bytes in (what the
  /// record at the end spilled into the padding).
  void wrap(uint64_t Overhang);
  /// Whether records at the buffer's end go on at its front.
  bool mayWrapHere() const;
  /// Stream mode: hands the buffer to the writer and continues in a fresh
  /// one, after a copy of the running workgroup's record: at its old offset
  /// when \p KeepKey (the inline path's callers hold the key), else at 0.
  void handOver(bool KeepKey);
};

/// Makes this thread's records visible to the others: the inline path
/// writes them with non-temporal stores, which even a lock does not order
/// on every processor. Called where a ring changes hands.
void publishRecords();

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
