//===- thread_ring.cc - A ring of trace records ---------------------------===//

#include "thread_ring.h"

#include "config.h"
#include "stream_writer.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sys/mman.h>

namespace wgtrace::detail {
WGTRACE_TLS ThreadState ThreadStateTLS = {nullptr,     nullptr, kNoSite,
                                          kNoDispatch, {},      {}};

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
    return {R->Cursor, R->KeyBits | (kIdleRingSize >> 4)};
  }
  return runtime::ThreadRing::from(*R).advanceFrom(Cursor);
}

RingSpace advanceGroup(Ring *R, uint8_t *Cursor, uint64_t Bytes) noexcept {
  if (R == &ThreadStateTLS.Idle)
    return advance(R, Cursor); // a fresh start with room for any group
  return runtime::ThreadRing::from(*R).advanceGroupFrom(Cursor, Bytes);
}

RingSpace advanceReserved(Ring *R, uint8_t *Cursor, uint64_t Bytes,
                          uint64_t /*SiteBase*/) noexcept {
  return advanceGroup(R, Cursor, Bytes);
}

} // namespace wgtrace::detail

namespace wgtrace::runtime {
namespace {

struct RingList {
  std::mutex Lock;
  std::vector<ThreadRing *> Rings;
  /// Rings of finished threads, for the next thread that records.
  std::vector<ThreadRing *> Free;
};

// Leaked on purpose: the trace is written by an exit handler that may run
// after static destructors.
RingList &ringList() {
  static RingList *List = new RingList;
  return *List;
}

/// Hands the thread's ring back when the thread ends. A thread that ends
/// inside a kernel (pthread_exit) keeps it: its invocation never finished.
struct RingReturn {
  bool Armed = false;
  ~RingReturn() {
    ThreadRing *TR = OwnRingTLS;
    if (!Armed || !TR || TR->Depth != 0)
      return;
    publishRecords();
    OwnRingTLS = nullptr;
    RingList &List = ringList();
    std::lock_guard<std::mutex> Guard(List.Lock);
    List.Free.push_back(TR);
  }
};
thread_local RingReturn RingReturnTLS;

unsigned log2(uint64_t PowerOfTwo) {
  unsigned Shift = 0;
  while ((uint64_t{1} << Shift) < PowerOfTwo)
    ++Shift;
  return Shift;
}

ThreadRing *acquireRing() {
  RingList &List = ringList();
  {
    std::lock_guard<std::mutex> Guard(List.Lock);
    if (!List.Free.empty()) {
      // The most recently returned: its pages are the likeliest resident.
      ThreadRing *TR = List.Free.back();
      List.Free.pop_back();
      return TR;
    }
  }
  const Config &C = config();
  auto *TR = new ThreadRing;
  TR->setSize(C.BufferSize);
  TR->reset(allocateBuffer(C.BufferSize));
  TR->Hot.KeyBits = 0;
  if (C.TraceMode == Mode::Stream) {
    TR->Spare = allocateBuffer(C.BufferSize);
    streamWriter().begin();
  }
  std::lock_guard<std::mutex> Guard(List.Lock);
  TR->Ordinal = static_cast<uint32_t>(List.Rings.size());
  List.Rings.push_back(TR);
  return TR;
}

/// Most buffer VALUEs a continuation repeats (a kernel's first 32 buffer
/// parameters with their extents).
constexpr size_t kMaxRepeatedBufferValues = 64;

/// Writes at \p At a mark of no operation (an Atomic VALUE of operation
/// 0) keyed \p Key: a 16-byte record readers take as marking nothing,
/// which fills a slot where no other record may go.
void writeNoOpMark(uint8_t *At, uint64_t Key) {
  format::encodeValue(At, format::ValueType::Atomic, 0, Key,
                      uint64_t(format::AtomicOp::None));
}

} // namespace

static_assert(offsetof(ThreadRing, Hot) == 0,
              "ThreadRing::from relies on Hot being first");

uint8_t *allocateBuffer(uint64_t Size) {
  // Fresh zero pages, from mmap: only the pages the trace touches become
  // resident. Rings of 2 MiB and more are aligned to 2 MiB and asked for
  // transparent huge pages, so that filling one takes one page fault per 2
  // MiB instead of 512 (a workgroup that writes its first records into a
  // fresh part of the ring would otherwise wait for a fault every 4 KiB),
  // and the stores reach further without missing the TLB.
  constexpr uint64_t HugePage = uint64_t{2} << 20;
  uint64_t Length = format::ringChunkContentLength(Size);
  uint64_t Slack = Size >= HugePage ? HugePage : 0;
  void *Mapped = ::mmap(nullptr, Length + Slack, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Mapped == MAP_FAILED)
    fatal("cannot allocate a trace buffer of " + std::to_string(Size) +
          " bytes (WGTRACE_BUFFER_SIZE): " + std::strerror(errno));
  // Aligned by an offset from the mapping, not by casting an integer back
  // to a pointer.
  auto *Aligned = static_cast<uint8_t *>(Mapped);
  if (Slack) {
    Aligned += (Slack - reinterpret_cast<uintptr_t>(Mapped) % Slack) % Slack;
#ifdef MADV_HUGEPAGE
    ::madvise(Aligned, Size, MADV_HUGEPAGE);
#endif
  }
  return Aligned;
}

void ThreadRing::setSize(uint64_t RingSize) {
  const Config &C = config();
  Stream = C.TraceMode == Mode::Stream;
  TimesWorkgroups = C.Timing;
  RecordsMemory = C.RecordMemory;
  Size = RingSize;
  SegmentShift = log2(Size) - log2(SegmentCount);
  Interval = std::min<uint64_t>(Size, std::max<uint64_t>(Size / 8, 4096));
}

uint64_t ThreadRing::nextBoundary(uint64_t Offset) const {
  return std::min(Size, (Offset & ~(Interval - 1)) + Interval);
}

void ThreadRing::reset(uint8_t *Buffer, uint64_t Lifetime) {
  Data = Buffer;
  Base = Lifetime;
  BufferBase = Lifetime;
  Hot.Cursor = Data;
  setEnd(Data + (Stream ? Size : nextBoundary(0)));
}

uint64_t ThreadRing::continuationSize() const {
  size_t Values = BufferValues.size() - Current.BufferValuesBegin;
  return format::kWorkgroupRecordSize + format::kValueRecordSize +
         std::min(Values, kMaxRepeatedBufferValues) * format::kValueRecordSize;
}

uint8_t *ThreadRing::placeAtEnd(uint64_t Length, uint64_t *Lifetime) {
  uint8_t *RingEnd = Data + Size;
  if (Stream) {
    // A record never spills into a stream buffer's padding (the trailer
    // lives there): it goes to the next buffer.
    if (Hot.Cursor + Length > RingEnd)
      handOver();
    uint8_t *At = Hot.Cursor;
    if (Lifetime)
      *Lifetime = Base + uint64_t(At - Data);
    Hot.Cursor = At + Length;
    return At;
  }
  if (Hot.Cursor == RingEnd) {
    // The previous record ended the lap: this one begins the next, whose
    // first record is a continuation (or this record, see
    // partBegunByWorkgroup()).
    Base += Size;
    Hot.Cursor = Data;
    setEnd(Data);
  }
  uint8_t *At = Hot.Cursor;
  if (Lifetime)
    *Lifetime = Base + uint64_t(At - Data);
  uint8_t *Next = At + Length;
  if (Next < RingEnd) {
    Hot.Cursor = Next;
    return At;
  }
  // IREE's ring: the record may spill into the padding; the next one starts
  // where the spill ends, in a new lap, which starts with a continuation
  // (at the next record: this one may be the workgroup record itself).
  Base += Size;
  Hot.Cursor = Data + (Next - RingEnd);
  setEnd(Hot.Cursor);
  return At;
}

void ThreadRing::setEnd(uint8_t *NewLimit) {
  Limit = NewLimit;
  // advance() hands the room back in 24 bits of 16-byte records.
  constexpr uint64_t MaxRoom = detail::kWordLowBits << 4;
  Hot.End =
      uint64_t(Limit - Hot.Cursor) > MaxRoom ? Hot.Cursor + MaxRoom : Limit;
}

void ThreadRing::reachEnd() {
  if (Hot.Cursor < Limit)
    setEnd(Limit); // only as far as advance() can say: no boundary yet
  else
    crossBoundary();
}

uint8_t *ThreadRing::reserve(uint64_t Length) {
  if (Hot.Cursor >= Hot.End)
    reachEnd();
  return place(Length);
}

void ThreadRing::crossBoundary() {
  if (Stream) {
    handOver();
    return;
  }
  if (Hot.Cursor == Data + Size) {
    Base += Size;
    Hot.Cursor = Data;
  }
  // Until the ring first wraps, every record is intact: a continuation
  // would only repeat what the file holds anyway.
  if (Depth > 0 && Current.Selected && Base > Floor) {
    // A continuation is keyed to its own offset. Had it the offset of the
    // previous lap's continuation at this boundary, the records that one
    // left after it would carry its key, and scrubStaleRecords() would
    // turn them into filler: half a workgroup's records per boundary on
    // average. On odd laps a mark of no operation, keyed to the record
    // before it, moves the continuation one slot on, so that consecutive
    // laps' keys differ here and there is nothing to scrub.
    if (Base & Size)
      writeNoOpMark(place(format::kValueRecordSize), key());
    emitContinuation();
  }
  setEnd(Data + nextBoundary(uint64_t(Hot.Cursor - Data)));
}

void ThreadRing::handOver() {
  publishRecords();
  streamWriter().exchange(*this);
  ++Epoch;
  if (Depth > 0 && Current.Selected)
    emitContinuation();
}

void ThreadRing::emitContinuation() {
  // Stream mode: all of it in one buffer (a fresh one starts with it).
  if (Stream && Hot.Cursor + continuationSize() > Data + Size) {
    handOver();
    return;
  }
  uint64_t Lifetime;
  uint8_t *At = place(format::kWorkgroupRecordSize, &Lifetime);
  std::memcpy(At, Current.Record, format::kWorkgroupRecordSize);
  uint64_t Key = uint64_t(At - Data);
  Hot.KeyBits = format::keyBits(Key);
  ++Counts.WorkgroupRecords;
  format::encodeValue(place(format::kValueRecordSize),
                      format::ValueType::Continuation, 0, Key, Current.First);
  size_t End = std::min(BufferValues.size(),
                        Current.BufferValuesBegin + kMaxRepeatedBufferValues);
  for (size_t I = Current.BufferValuesBegin; I < End; ++I)
    format::encodeValue(place(format::kValueRecordSize), BufferValues[I].Type,
                        BufferValues[I].Ordinal, Key, BufferValues[I].Bits);
  if (!Stream)
    noteChunkStart(Lifetime);
  ++Epoch;
  scrubStaleRecords(Key);
}

detail::RingSpace ThreadRing::advanceFrom(uint8_t *At) {
  Hot.Cursor = At;
  // A 16-byte record never spills: every part of a ring ends on a record
  // boundary, and a continuation leaves room for one.
  reachEnd();
  return {Hot.Cursor, Hot.KeyBits | (uint64_t(Hot.End - Hot.Cursor) >> 4)};
}

detail::RingSpace ThreadRing::advanceGroupFrom(uint8_t *At, uint64_t Bytes) {
  Hot.Cursor = At;
  while (uint64_t(Hot.End - Hot.Cursor) < Bytes) {
    if (Hot.End < Limit) {
      setEnd(Limit); // only as far as advance() can say: no boundary yet
      continue;
    }
    // A part (ring mode) or buffer (stream mode) ends here, and crossing
    // it may write a continuation or start a new chunk: an atomic mark and
    // its records must not be split by either. Records that mark nothing
    // fill what is left (one or two 16-byte slots).
    const uint64_t Key = key();
    for (; Hot.Cursor < Limit; Hot.Cursor += format::kValueRecordSize)
      writeNoOpMark(Hot.Cursor, Key);
    reachEnd();
  }
  return {Hot.Cursor, Hot.KeyBits | (uint64_t(Hot.End - Hot.Cursor) >> 4)};
}

void ThreadRing::scrubStaleRun(uint64_t Offset, uint64_t Key) {
  // Where the laps align (every workgroup writes as many bytes, which
  // divide the ring), every prologue finds a whole workgroup's records
  // here: they are found with one load and compare each, up to the ring's
  // end, and turned into filler with one memset, which costs about half of
  // a compare and a 16-byte memset per record.
  for (uint64_t Seen = 0; Seen < Size;) {
    const uint64_t RunBegin = Offset;
    while (Offset < Size && Seen < Size &&
           isInlineRecordOf(Data + Offset, Key)) {
      Offset += format::kMemoryRecordSize;
      Seen += format::kMemoryRecordSize;
    }
    std::memset(Data + RunBegin, 0xFF, Offset - RunBegin);
    if (Offset < Size || Seen >= Size)
      return;
    Offset = 0; // the run goes on at the ring's front
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

void ThreadRing::countSite(uint32_t Site) {
  // Both grow together, here and never in the writer (which may run in a
  // signal handler).
  Counts.SiteInvocations.resize(Site + 1);
  Plan.SiteSurvivors.resize(Site + 1);
}

void ThreadRing::forget() {
  uint64_t Head = head();
  uint64_t Next = (Head + Size - 1) & ~mask();
  Floor = Next;
  reset(Data, Next);
  std::memset(SegmentFirst, 0, sizeof(SegmentFirst));
  std::fill(Counts.SiteInvocations.begin(), Counts.SiteInvocations.end(), 0);
  Counts.WorkgroupRecords = Counts.Invocations = Counts.Prints = 0;
  Counts.PrintBytes = Counts.Workgroups = Counts.Selected = 0;
  Counts.MaxProcessorId = 0;
  Timing.clear();
}

uint64_t ThreadRing::oldestChunkStart(uint64_t Head) const {
  if (Head - Floor <= Size)
    return Floor; // never wrapped: everything kept is intact
  // Records that start at or after Head - Size were not overwritten. The
  // first chunk start noted in a segment at or after that point is the
  // oldest one the segment table can vouch for.
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

WGTRACE_TLS ThreadRing *OwnRingTLS = nullptr;

ThreadRing &firstThreadRing() {
  OwnRingTLS = acquireRing();
  RingReturnTLS.Armed = true;
  return *OwnRingTLS;
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

size_t ringCount() {
  RingList &List = ringList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  return List.Rings.size();
}

uint64_t steadyNanoseconds() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

} // namespace wgtrace::runtime
