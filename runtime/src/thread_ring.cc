//===- thread_ring.cc - A thread's trace buffer ---------------------------===//

#include "thread_ring.h"

#include "config.h"
#include "stream_writer.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

namespace wgtrace::detail {
WGTRACE_TLS ThreadState ThreadStateTLS = {nullptr, nullptr, kNoSite, {}};

namespace {

/// Storage of the thread's idle ring: large enough that its (non-temporal)
/// records stream past without touching a line twice in a row, and apart
/// from anything the thread reads.
constexpr size_t kIdleRingSize = size_t{64} * 1024;

struct IdleStorage {
  std::unique_ptr<uint8_t[]> Bytes;
  ~IdleStorage() {
    // Code that runs later in the thread's exit starts over with new
    // storage instead of writing into freed memory.
    ThreadStateTLS.Idle = {};
  }
};
thread_local IdleStorage IdleStorageTLS;

} // namespace

RingSpace advance(Ring *R, uint8_t *Cursor) noexcept {
  if (R == &ThreadStateTLS.Idle) {
    // Nobody reads these records: start over at the front.
    std::unique_ptr<uint8_t[]> &Bytes = IdleStorageTLS.Bytes;
    // Out of memory here is std::terminate (advance() is noexcept), which
    // the crash handler turns into a trace like any other fatal error.
    if (!Bytes)
      // NOLINTNEXTLINE(bugprone-unhandled-exception-at-new)
      Bytes.reset(new uint8_t[kIdleRingSize]);
    R->Cursor = Bytes.get();
    R->End = Bytes.get() + kIdleRingSize;
    return {R->Cursor, R->End};
  }
  return runtime::ThreadRing::from(*R).advanceFrom(Cursor);
}

} // namespace wgtrace::detail

namespace wgtrace::runtime {
namespace {

struct RingList {
  std::mutex Lock;
  std::vector<ThreadRing *> Rings;
};

// Leaked on purpose: the trace is written by an exit handler that may run
// after static destructors.
RingList &ringList() {
  static RingList *List = new RingList;
  return *List;
}

WGTRACE_TLS ThreadRing *OwnRing = nullptr;

unsigned log2(uint64_t PowerOfTwo) {
  unsigned Shift = 0;
  while ((uint64_t{1} << Shift) < PowerOfTwo)
    ++Shift;
  return Shift;
}

ThreadRing *createRing() {
  const Config &C = config();
  auto *TR = new ThreadRing;
  TR->Size = C.BufferSize;
  TR->reset(allocateBuffer(C.BufferSize));
  TR->Hot.KeyBits = 0;
  TR->SegmentShift = log2(C.BufferSize) - log2(ThreadRing::SegmentCount);
  if (C.TraceMode == Mode::Stream)
    TR->Spare = allocateBuffer(C.BufferSize);
  RingList &List = ringList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  TR->Ordinal = static_cast<uint32_t>(List.Rings.size());
  List.Rings.push_back(TR);
  return TR;
}

bool streamMode() { return config().TraceMode == Mode::Stream; }

/// Whether \p Slot holds a record the inline path writes (LOAD, STORE,
/// VALUE) keyed to \p Key.
bool isInlineRecordOf(const uint8_t *Slot, uint64_t Key) {
  uint64_t Word;
  std::memcpy(&Word, Slot, sizeof(Word));
  auto Tag = static_cast<format::Tag>(Word & 0xFF);
  return (Tag == format::Tag::MemoryLoad || Tag == format::Tag::MemoryStore ||
          Tag == format::Tag::Value) &&
         format::wordWorkgroupOffset(Word) == Key;
}

} // namespace

static_assert(offsetof(ThreadRing, Hot) == 0,
              "ThreadRing::from relies on Hot being first");

uint8_t *allocateBuffer(uint64_t Size) {
  auto *Data = static_cast<uint8_t *>(
      std::calloc(1, format::ringChunkContentLength(Size)));
  if (!Data)
    fatal("cannot allocate a trace buffer of " + std::to_string(Size) +
          " bytes (WGTRACE_BUFFER_SIZE)");
  return Data;
}

void ThreadRing::reset(uint8_t *Buffer) {
  Data = Buffer;
  Base = 0;
  Start = 0;
  Hot.Cursor = Data;
  Hot.End = Data + Size;
}

bool ThreadRing::wrappedInBuffer() const { return Hot.End == Data + Start; }

void ThreadRing::wrap(uint64_t Overhang) {
  Base += Size;
  Hot.Cursor = Data + Overhang;
  // In stream mode the records from Start on are this buffer's first ones.
  if (streamMode())
    Hot.End = Data + Start;
}

bool ThreadRing::mayWrapHere() const {
  // Ring mode always wraps; a stream buffer only when its records started
  // past offset 0 and have not wrapped yet.
  return !streamMode() || (Start != 0 && !wrappedInBuffer());
}

void ThreadRing::handOver(bool KeepKey) {
  publishRecords();
  streamWriter().exchange(*this);
  if (Depth == 0)
    return;
  // The running workgroup's record goes first in the new buffer. Called
  // from advance(), whose caller may hold the key in a register, it goes
  // where it was in the previous buffer, so that the key stays right; the
  // writer rotates such a buffer to start there. The runtime's own callers
  // take the new key from the ring.
  uint64_t Key = KeepKey ? key() : 0;
  Start = Key;
  Base = 0 - Key;
  std::memcpy(Data + Key, CurrentWorkgroup, format::kWorkgroupRecordSize);
  scrubStaleRecords(Key);
  Hot.KeyBits = format::keyBits(Key);
  Hot.Cursor = Data + Key + format::kWorkgroupRecordSize;
  if (Hot.Cursor > Data + Size)
    wrap(uint64_t(Hot.Cursor - (Data + Size)));
}

uint8_t *ThreadRing::reserve(uint64_t Length) {
  for (;;) {
    uint8_t *At = Hot.Cursor;
    uint8_t *RingEnd = Data + Size;
    if (At == RingEnd && mayWrapHere()) {
      wrap(0);
      continue;
    }
    uint8_t *Next = At + Length;
    if (!streamMode()) {
      // IREE's ring: a record may spill into the padding; the next one
      // starts where the spill ends.
      if (Next >= RingEnd)
        wrap(uint64_t(Next - RingEnd));
      else
        Hot.Cursor = Next;
      return At;
    }
    if (Next <= Hot.End) {
      Hot.Cursor = Next;
      return At;
    }
    // Stream mode, at the end of the buffer but not of its records: spill
    // and continue at the front, up to where this buffer's records start.
    if (mayWrapHere() && At < RingEnd && uint64_t(Next - RingEnd) <= Start) {
      wrap(uint64_t(Next - RingEnd));
      return At;
    }
    // A fresh buffer holds any record after the re-emitted workgroup record
    // (recordPrint sees to that).
    handOver(/*KeepKey=*/false);
  }
}

detail::RingSpace ThreadRing::advanceFrom(uint8_t *At) {
  Hot.Cursor = At;
  // A 16-byte record never spills: every part of a buffer ends on a record
  // boundary.
  while (Hot.Cursor + format::kMemoryRecordSize > Hot.End) {
    if (Hot.Cursor == Data + Size && mayWrapHere())
      wrap(0);
    else
      handOver(/*KeepKey=*/true);
  }
  return {Hot.Cursor, Hot.End};
}

void ThreadRing::scrubStaleRecords(uint64_t Key) {
  uint64_t Offset = (Key + format::kWorkgroupRecordSize) & mask();
  for (uint64_t Seen = 0; Seen < Size; Seen += format::kMemoryRecordSize) {
    if (!isInlineRecordOf(Data + Offset, Key))
      return;
    std::memset(Data + Offset, 0xFF, format::kMemoryRecordSize);
    Offset = (Offset + format::kMemoryRecordSize) & mask();
  }
}

void ThreadRing::recoverRecords() {
  if (Depth == 0)
    return;
  uint8_t *At = cursor();
  uint64_t Key = key();
  while (At + format::kMemoryRecordSize <= Hot.End) {
    if (!isInlineRecordOf(At, Key))
      break;
    At += format::kMemoryRecordSize;
  }
  Hot.Cursor = At;
}

void publishRecords() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_sfence();
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

uint64_t ThreadRing::oldestIntactWorkgroup(uint64_t Head) const {
  uint64_t Size = size();
  if (Head <= Size)
    return 0; // never wrapped: everything from the start is intact
  // Records that start at or after Head - Size were not overwritten. The
  // first workgroup noted in a segment at or after that point is the oldest
  // one the segment table can vouch for.
  uint64_t Oldest = Head - Size;
  for (uint64_t Segment = Oldest >> SegmentShift;
       Segment <= (Head >> SegmentShift); ++Segment) {
    uint64_t Slot = SegmentFirst[Segment % SegmentCount];
    if (Slot == 0)
      continue;
    uint64_t V = Slot - 1;
    if ((V >> SegmentShift) == Segment && V >= Oldest && V < Head)
      return V;
  }
  return Head;
}

ThreadRing &threadRing() {
  if (!OwnRing)
    OwnRing = createRing();
  return *OwnRing;
}

void forEachRing(const std::function<void(ThreadRing &)> &Visit) {
  RingList &List = ringList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  for (ThreadRing *R : List.Rings)
    Visit(*R);
}

void forEachRingUnlocked(const std::function<void(ThreadRing &)> &Visit) {
  for (ThreadRing *R : ringList().Rings)
    Visit(*R);
}

uint64_t steadyNanoseconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

} // namespace wgtrace::runtime
