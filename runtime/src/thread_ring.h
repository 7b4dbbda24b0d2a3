//===- thread_ring.h - A ring of trace records and what the writer needs --===//
//
// Rings are per thread while a thread runs workgroups, not per thread
// lifetime: a thread that ends hands its ring back and a later thread goes
// on in it, so memory is bounded by the threads alive at once.
//
// Positions: a record's ring offset is where it starts in Data; its
// lifetime offset counts the bytes reserved in the ring before it, over
// every thread, lap and (stream mode) buffer it had. Ring mode maps
// lifetime offset V to ring offset V & mask().
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_THREAD_RING_H
#define WGTRACE_RUNTIME_THREAD_RING_H

#include "buffer_value_list.h"

#include "wgtrace/detail/thread_state.h"
#include "wgtrace/format.h"
#include "wgtrace/instrument.h"

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace wgtrace::runtime {

/// Start and end of one workgroup invocation, for the timing chunks.
struct TimingEntry {
  /// Lifetime offset of the invocation's first WORKGROUP record.
  uint64_t First;
  /// Stream mode: ring offset (= chunk offset) of the copy of its record
  /// that its last records were keyed to, in the buffer it ended in.
  uint64_t Key;
  uint64_t StartNs;
  uint64_t EndNs;
  uint32_t Processor;
};

/// Counts kept in the slow paths, from which the writer derives exactly
/// what a wrap lost without a per-record counter: the 16-byte records are
/// the bytes that are neither workgroup records nor prints.
struct RingCounts {
  /// WORKGROUP records, copies included.
  uint64_t WorkgroupRecords = 0;
  /// Invocations (first WORKGROUP records), per dispatch id.
  std::vector<uint64_t> SiteInvocations;
  uint64_t Invocations = 0;
  uint64_t Prints = 0;
  uint64_t PrintBytes = 0;
  /// Workgroups that ran and those the filter selected.
  uint64_t Workgroups = 0;
  uint64_t Selected = 0;
  /// The largest processor id of the workgroups that ran (the run record
  /// gives readers the process's largest).
  uint32_t MaxProcessorId = 0;
};

/// An invocation that began before the chunk being written but has a copy
/// of its record in it, and that copy's chunk offset (for timing).
struct CarriedInvocation {
  uint64_t First;
  uint64_t ChunkOffset;
};

/// What the writer decided for a ring's chunk (ring mode), kept for the
/// timing chunk written after all ring chunks.
struct ChunkPlan {
  /// Lifetime offsets of the chunk's first byte and of the end of its last
  /// record.
  uint64_t Begin = 0;
  uint64_t End = 0;
  /// Records and invocations in the chunk.
  uint64_t Records = 0;
  uint64_t Invocations = 0;
  static constexpr unsigned MaxCarried = 256;
  CarriedInvocation Carried[MaxCarried];
  unsigned CarriedCount = 0;
  /// Surviving invocations per dispatch id (parallel to
  /// RingCounts::SiteInvocations).
  std::vector<uint64_t> SiteSurvivors;
};

/// Everything a thread records into. Hot is what the inline record path
/// touches; the rest serves the workgroup prologue and the writers.
struct ThreadRing {
  detail::Ring Hot = {};
  uint8_t *Data = nullptr;
  uint64_t Size = 0;
  /// Lifetime offset of Data[0] in the current lap (ring mode) or buffer
  /// (stream mode): a record at Cursor has lifetime offset
  /// Base + (Cursor - Data).
  uint64_t Base = 0;
  /// Ring mode: lifetime offset where the records kept begin (0, or where
  /// resetTrace() left off); a multiple of Size.
  uint64_t Floor = 0;
  /// Stream mode: lifetime offset of this buffer's first byte.
  uint64_t BufferBase = 0;
  /// Where the current part (ring mode) or buffer (stream mode) ends; the
  /// inline path's Hot.End is at most 2^28 bytes past the cursor before it
  /// (what advance() can hand back), so it may come first.
  uint8_t *Limit = nullptr;
  /// Process-wide ring id (RingTrailer::RingId): order of creation.
  uint32_t Ordinal = 0;
  /// What the settings (config()) say of every record, copied by setSize()
  /// so that a workgroup's prologue and the records the runtime writes read
  /// them from the ring they touch anyway, not through config()'s guard:
  /// stream mode, WGTRACE_TIMING and WGTRACE_MEMORY.
  bool Stream = false;
  bool TimesWorkgroups = false;
  bool RecordsMemory = true;
  /// Instrumented workgroups running on the thread (nested kernel calls).
  uint32_t Depth = 0;
  /// Bumped by every continuation that starts a part of the ring (ring
  /// mode) and every buffer change (stream mode).
  uint64_t Epoch = 0;
  /// Stream mode: chunks handed to the writer (the next one's sequence).
  uint64_t ChunkSequence = 0;
  /// The running invocation (valid while Depth > 0).
  detail::Invocation Current = {};
  /// Buffer VALUEs of the running invocations, innermost last.
  BufferValueList BufferValues;
  /// Ring mode: the ring is cut into parts of Interval bytes (at most 8 per
  /// lap, at least 4 KiB); once the ring has wrapped, each part a running
  /// workgroup reaches starts with a copy of its record (on odd laps after
  /// a mark of no operation: see crossBoundary()), so a workgroup larger
  /// than the ring still shows its latest records under their workgroup.
  uint64_t Interval = 0;

  /// Ring mode: the ring is cut into SegmentCount parts; for each, one more
  /// than the lifetime offset of the first record from which every later
  /// record is keyed to a record at or after it (a workgroup record of an
  /// outermost invocation, or a copy) that started in it (0: none yet). The
  /// writer finds the first such record of the last lap from this, without
  /// any per-record bookkeeping.
  static constexpr unsigned SegmentCount = 64;
  uint64_t SegmentFirst[SegmentCount] = {};
  unsigned SegmentShift = 0;

  RingCounts Counts;
  ChunkPlan Plan;

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
  /// Lifetime offset of the next record: bytes reserved so far.
  uint64_t head() const { return Base + uint64_t(cursor() - Data); }
  uint64_t key() const { return Hot.KeyBits >> 24; }

  static ThreadRing &from(detail::Ring &R) {
    return *reinterpret_cast<ThreadRing *>(&R);
  }

  /// Sets the ring's size (ring mode: and its parts) before first use, and
  /// takes what the settings say of its records (Stream,
  /// TimesWorkgroups, RecordsMemory).
  void setSize(uint64_t RingSize);

  /// Starts recording at the front of \p Buffer, at lifetime offset
  /// \p Lifetime (ring mode: a multiple of Size).
  void reset(uint8_t *Buffer, uint64_t Lifetime = 0);

  /// Reserves \p Length bytes for a record written by the runtime and
  /// returns where it goes. A part boundary reached first is crossed (a
  /// continuation may be written before the record). Ring mode: the record
  /// may spill past Size into the padding, as the format allows; stream
  /// mode: never.
  uint8_t *reserve(uint64_t Length);

  /// reserve() without crossing part boundaries; \p Lifetime receives the
  /// record's lifetime offset. Inline where the record ends before the
  /// buffer does (every workgroup's record but one a lap).
  uint8_t *place(uint64_t Length, uint64_t *Lifetime = nullptr) {
    uint8_t *At = Hot.Cursor;
    if (WGTRACE_UNLIKELY(At + Length >= Data + Size))
      return placeAtEnd(Length, Lifetime);
    if (Lifetime)
      *Lifetime = Base + uint64_t(At - Data);
    Hot.Cursor = At + Length;
    return At;
  }

  /// place() of a WORKGROUP record and the Unselected VALUE that follows
  /// it (returned in \p Mark), so that nothing comes between them: in one
  /// buffer in stream mode; in ring mode one after the other, as the record
  /// may spill into the padding and the VALUE then begins the next lap.
  uint8_t *placeUnselected(uint64_t *Lifetime, uint8_t **Mark) {
    if (Stream) {
      uint8_t *At = place(
          format::kWorkgroupRecordSize + format::kValueRecordSize, Lifetime);
      *Mark = At + format::kWorkgroupRecordSize;
      return At;
    }
    uint8_t *At = place(format::kWorkgroupRecordSize, Lifetime);
    *Mark = place(format::kValueRecordSize);
    return At;
  }

  /// reserve() of one 16-byte record, as the inline path appends one: a
  /// compare with Hot.End, and advance()'s work when it is reached (a
  /// 16-byte record never spills: parts end on record boundaries, and
  /// crossing one leaves room for a record). The VALUEs a workgroup's
  /// prologue writes take it.
  uint8_t *reserveRecord() {
    if (WGTRACE_UNLIKELY(Hot.Cursor >= Hot.End))
      reachEnd();
    uint8_t *At = Hot.Cursor;
    Hot.Cursor = At + format::kValueRecordSize;
    return At;
  }

  /// advance() for this ring: room for a 16-byte record at \p At, which
  /// has reached Hot.End.
  detail::RingSpace advanceFrom(uint8_t *At);

  /// advanceGroup() for this ring: room for \p Bytes of records of one
  /// atomic operation at \p At, which do not fit before Hot.End. What is
  /// left of a part or buffer they do not fit in is filled with Atomic
  /// VALUEs that mark nothing.
  detail::RingSpace advanceGroupFrom(uint8_t *At, uint64_t Bytes);

  /// Writes a copy of the running invocation's WORKGROUP record followed by
  /// its Continuation VALUE and buffer VALUEs, and makes it the key.
  void emitContinuation();

  /// Ring mode: an outermost invocation's record that wrapped the ring
  /// begins the new part itself; no continuation of it is needed there.
  void partBegunByWorkgroup() {
    if (Hot.Cursor >= Limit)
      setEnd(Data + nextBoundary(uint64_t(Hot.Cursor - Data)));
  }

  /// Ring mode: notes a record at lifetime offset V from which a chunk may
  /// start (see SegmentFirst).
  void noteChunkStart(uint64_t V) {
    uint64_t Segment = V >> SegmentShift;
    uint64_t &Slot = SegmentFirst[Segment % SegmentCount];
    if (Slot == 0 || ((Slot - 1) >> SegmentShift) != Segment)
      Slot = V + 1;
  }

  /// Ring mode: the lifetime offset of the oldest record still intact at
  /// \p Head from which a chunk may start, or Head when there is none.
  uint64_t oldestChunkStart(uint64_t Head) const;

  /// Most bytes a continuation takes: the copy, its Continuation VALUE and
  /// the buffer VALUEs repeated after it.
  uint64_t continuationSize() const;

  /// A wrapped ring (or a reused stream buffer) may still hold, after
  /// records just written for the workgroup keyed \p Key, records of an
  /// older one whose record was at the same offset. They carry this key;
  /// turning them into filler keeps recoverRecords() from taking them for
  /// this workgroup's.
  void scrubStaleRecords(uint64_t Key) {
    uint64_t Offset = uint64_t(Hot.Cursor - Data) & mask();
    if (WGTRACE_UNLIKELY(isInlineRecordOf(Data + Offset, Key)))
      scrubStaleRun(Offset, Key);
  }
  /// The scrub of the stale records from ring offset \p Offset on, the
  /// first of which is keyed \p Key.
  void scrubStaleRun(uint64_t Offset, uint64_t Key);

  /// Whether \p Slot holds a record the inline path writes (LOAD, STORE,
  /// VALUE) keyed to \p Key.
  static bool isInlineRecordOf(const uint8_t *Slot, uint64_t Key) {
    uint64_t Word;
    std::memcpy(&Word, Slot, sizeof(Word));
    auto Tag = static_cast<format::Tag>(Word & 0xFF);
    return (Tag == format::Tag::MemoryLoad || Tag == format::Tag::MemoryStore ||
            Tag == format::Tag::Value) &&
           format::wordWorkgroupOffset(Word) == Key;
  }

  /// For the crash handler: the cursor is published when a loop that
  /// records ends, not per record, so a signal can arrive with the records
  /// of the running loop written but not counted. They follow the cursor
  /// and carry the current workgroup's key; this takes them in.
  void recoverRecords();

  /// Notes a first WORKGROUP record of dispatch id \p Site. Inline: every
  /// workgroup's prologue counts one.
  void countInvocation(uint32_t Site) {
    ++Counts.WorkgroupRecords;
    ++Counts.Invocations;
    if (WGTRACE_UNLIKELY(Site >= Counts.SiteInvocations.size()))
      countSite(Site);
    ++Counts.SiteInvocations[Site];
  }

  /// Forgets every record and count (resetTrace()).
  void forget();

private:
  /// place() of a record that reaches the end of the ring or buffer.
  uint8_t *placeAtEnd(uint64_t Length, uint64_t *Lifetime);
  /// Makes room in the counts for dispatch id \p Site.
  void countSite(uint32_t Site);
  /// Sets Limit, and Hot.End as far towards it as advance() can say.
  void setEnd(uint8_t *NewLimit);
  /// The cursor reached Hot.End: moves it on towards Limit, or crosses the
  /// boundary there.
  void reachEnd();
  /// Crosses the part boundary the cursor reached: wraps the ring (ring
  /// mode) or changes buffers (stream mode), and continues the running
  /// invocation there.
  void crossBoundary();
  /// Stream mode: hands the buffer to the writer and continues in a fresh
  /// one, which starts with a continuation of the running invocation.
  void handOver();
  /// Ring mode: ring offset of the first part boundary after \p Offset.
  uint64_t nextBoundary(uint64_t Offset) const;
};

/// Makes this thread's records visible to the others: the inline path
/// writes them with non-temporal stores, which even a lock does not order
/// on every processor. Called where a ring changes hands.
inline void publishRecords() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_sfence();
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

/// Allocates a buffer of one ring chunk's content for \p Size bytes of
/// ring. Fresh zero pages: only what the trace touches becomes resident.
uint8_t *allocateBuffer(uint64_t Size);

/// The calling thread's ring once it has one (threadRing()), else null.
extern WGTRACE_TLS ThreadRing *OwnRingTLS;

/// threadRing()'s first call on a thread: takes a ring. Out of line, so
/// that the usual call (every workgroup's prologue and epilogue) is a
/// thread-local load and a test, inline.
ThreadRing &firstThreadRing();

/// The calling thread's ring: the one it had, else one a finished thread
/// handed back, else a new one of the configured size. Rings outlive their
/// threads: the trace is written at exit.
inline ThreadRing &threadRing() {
  if (WGTRACE_UNLIKELY(!OwnRingTLS))
    return firstThreadRing();
  return *OwnRingTLS;
}

/// Calls \p Visit on every ring ever allocated, in allocation order.
void forEachRing(const std::function<void(ThreadRing &)> &Visit);

/// The same without taking the list's lock, for the crash handler: the
/// faulting thread may hold it.
void forEachRingUnlocked(const std::function<void(ThreadRing &)> &Visit);

/// Rings allocated so far: the most threads that ran workgroups at once.
size_t ringCount();

/// Nanoseconds of the steady clock.
uint64_t steadyNanoseconds();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_THREAD_RING_H
