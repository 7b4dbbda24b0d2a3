//===- thread_ring.cc - A thread's trace buffer ---------------------------===//

#include "thread_ring.h"

#include "config.h"

#include <chrono>
#include <cstdlib>
#include <mutex>

namespace wgtrace::detail {
WGTRACE_TLS ThreadState ThreadStateTLS = {nullptr, nullptr, kNoSite};
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
  TR->Hot.Data = allocateBuffer(C.BufferSize);
  TR->Hot.Mask = C.BufferSize - 1;
  TR->Hot.Head = 0;
  TR->Hot.WorkgroupKey = 0;
  // Ring mode wraps inside reserve(); stream mode changes buffers before a
  // record would pass the ring's end.
  TR->Hot.Limit = C.TraceMode == Mode::Stream ? C.BufferSize : ~uint64_t{0};
  TR->SegmentShift = log2(C.BufferSize) - log2(ThreadRing::kSegments);
  if (C.TraceMode == Mode::Stream)
    TR->Spare = allocateBuffer(C.BufferSize);
  RingList &List = ringList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  TR->Ordinal = static_cast<uint32_t>(List.Rings.size());
  List.Rings.push_back(TR);
  return TR;
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
    uint64_t Slot = SegmentFirst[Segment % kSegments];
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
