//===- workgroup_scope.cc - Kernel prologue and the slow record paths -----===//

#include "config.h"
#include "thread_ring.h"
#include "thread_stack.h"
#include "workgroup_filter.h"

#include "wgtrace/detail/openmp.h"
#include "wgtrace/instrument.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>

namespace wgtrace::detail {

using runtime::ThreadRing;

namespace {
/// recordBufferValue() on \p TR.
void keepBufferValue(ThreadRing &TR, format::ValueType Type, uint8_t Ordinal,
                     uint64_t Bits) {
  // Reserved first: crossing a part boundary writes a continuation, which
  // repeats the values kept so far, and this one goes after it.
  uint8_t *Record = TR.reserveRecord();
  format::encodeValue(Record, Type, Ordinal, TR.key(), Bits);
  TR.BufferValues.append({Type, Ordinal, Bits});
}
} // namespace

WorkgroupScope::WorkgroupScope(const Module &M, uint32_t Function,
                               const Workgroup &WG)
    : WorkgroupScope(M, Function, WG, &WG, false) {}

WorkgroupScope::WorkgroupScope(const Module &M, uint32_t Function,
                               const Workgroup &WG, const void *StackTop,
                               bool RecordsLaunch) {
  ThreadState &State = ThreadStateTLS;
  SavedRecording = State.Recording;
  SavedCurrent = State.Current;
  uint32_t Site =
      State.PendingSite != kNoSite ? State.PendingSite : M.directSite(Function);
  State.PendingSite = kNoSite;
  uint64_t Dispatch = State.PendingDispatch;
  State.PendingDispatch = kNoDispatch;

  ThreadRing &TR = runtime::threadRing();
  const bool IsSelected = runtime::selectWorkgroup(M, Function, Dispatch, WG);
  Selected = IsSelected;
  // The workgroup record goes where the cursor is, even at a part boundary
  // (the next record crosses it, with a continuation of this invocation).
  // In stream mode a full buffer is handed over first, with a continuation
  // of the enclosing invocation: its key and the epoch are taken after.
  // An unselected one's is followed by its Unselected VALUE: a reader
  // tells it from a selected invocation that made no access.
  uint64_t First;
  uint8_t *Mark = nullptr;
  uint8_t *At = IsSelected ? TR.place(format::kWorkgroupRecordSize, &First)
                           : TR.placeUnselected(&First, &Mark);
  SavedKeyBits = TR.Hot.KeyBits;
  SavedEpoch = TR.Epoch;
  // The enclosing invocation's, restored when this one returns; none at
  // depth 0, where TR.Current is read by nothing.
  if (TR.Depth > 0)
    Saved = TR.Current;
  // Made in place: a copy of 48 bytes less per workgroup.
  Invocation &Now = TR.Current;
  format::encodeWorkgroup(Now.Record, {Site & format::kMaxDispatchId,
                                       {WG.id[0], WG.id[1], WG.id[2]},
                                       {WG.count[0], WG.count[1], WG.count[2]},
                                       WG.processor_id});
  Now.First = First;
  Now.BufferValuesBegin = static_cast<uint32_t>(TR.BufferValues.size());
  Now.Selected = IsSelected;
  std::memcpy(At, Now.Record, format::kWorkgroupRecordSize);
  uint64_t Key = uint64_t(At - TR.Data);
  TR.Hot.KeyBits = format::keyBits(Key);
  if (Mark)
    format::encodeValue(Mark, format::ValueType::Unselected, 0, Key,
                        runtime::activeFilterIndex());
  TR.countInvocation(Site & format::kMaxDispatchId);
  ++TR.Counts.Workgroups;
  TR.Counts.Selected += IsSelected;
  TR.Counts.MaxProcessorId =
      std::max(TR.Counts.MaxProcessorId, WG.processor_id);
  // An outermost invocation's record is where a ring-mode chunk may start:
  // nothing after it is keyed to a record before it. An inner one's is not:
  // the enclosing invocation goes on after it returns, keyed to its own.
  if (TR.Depth == 0 && !TR.Stream) {
    TR.noteChunkStart(First);
    TR.partBegunByWorkgroup();
  }
  TR.scrubStaleRecords(Key);
  ++TR.Depth;
  Processor = WG.processor_id;
  StartNs = TR.TimesWorkgroups ? runtime::steadyNanoseconds() : 0;
  State.Current = IsSelected ? &TR.Hot : nullptr;
  State.Recording = IsSelected && TR.RecordsMemory ? &TR.Hot : nullptr;
  // The kernel's own stack ends at its caller's frame, which holds the
  // Workgroup it was given (the launcher's, or the user's loop's): above
  // this scope, which is a local of the kernel. A Workgroup kept elsewhere
  // bounds nothing, and every access is recorded. An OpenMP iteration's
  // ends at the top of its own frame (StackTop).
  SavedKernelStack = State.KernelStack;
  const runtime::StackRange &Stack = runtime::threadStack();
  const uintptr_t Caller = reinterpret_cast<uintptr_t>(StackTop);
  if (Caller > reinterpret_cast<uintptr_t>(this) && Caller < Stack.High &&
      reinterpret_cast<uintptr_t>(this) >= Stack.Low)
    State.KernelStack = {Stack.Low, Caller - Stack.Low};
  else
    State.KernelStack = {0, 0};
  // Which execution of the loop this is: the viewer groups iterations by
  // it. Kept with the buffers, so that every copy of the record repeats it.
  if (RecordsLaunch && IsSelected)
    keepBufferValue(TR, format::ValueType::Launch, 0, Dispatch);
}

WorkgroupScope::~WorkgroupScope() {
  ThreadState &State = ThreadStateTLS;
  ThreadRing &TR = runtime::threadRing();
  // The exit writer, a snapshot or the crash handler may read this ring
  // from another thread once the workgroup is done.
  runtime::publishRecords();
  if (TR.TimesWorkgroups)
    TR.Timing.push_back({TR.Current.First, TR.key(), StartNs,
                         runtime::steadyNanoseconds(), Processor});
  TR.BufferValues.truncate(TR.Current.BufferValuesBegin);
  if (--TR.Depth > 0)
    TR.Current = Saved;
  State.Recording = SavedRecording;
  State.Current = SavedCurrent;
  State.KernelStack = SavedKernelStack;
  // Back in an enclosing invocation (or none): its records are keyed to its
  // record again, unless a continuation started a new part of the ring or
  // a new buffer meanwhile. Then that record may be overwritten (ring mode)
  // or in another chunk (stream mode), and a copy of it goes here.
  if (TR.Depth > 0 && TR.Epoch != SavedEpoch && TR.Current.Selected)
    TR.emitContinuation();
  else
    TR.Hot.KeyBits = SavedKeyBits;
}

void recordLongAccess(Ring &R, bool IsStore, const volatile void *Address,
                      uint64_t Length, uint64_t SiteBits) noexcept {
  if (&R == &ThreadStateTLS.Idle)
    return;
  // One record per piece the 16-bit length field can hold.
  uintptr_t Start = reinterpret_cast<uintptr_t>(Address);
  for (uint64_t Done = 0; Done < Length;) {
    uint64_t Piece =
        std::min<uint64_t>(Length - Done, format::kMaxAccessLength);
    appendRecord(R, memoryWord(R, IsStore, Piece), (Start + Done) | SiteBits);
    Done += Piece;
  }
}

void recordLongMarked(Ring &R, format::ValueType Type, uint64_t Bits,
                      format::AtomicOp Op, const volatile void *Address,
                      uint64_t Length, uint64_t SiteBits) noexcept {
  if (&R == &ThreadStateTLS.Idle)
    return;
  // One mark and its records per piece the 16-bit length field can hold.
  uintptr_t Start = reinterpret_cast<uintptr_t>(Address);
  for (uint64_t Done = 0; Done < Length;) {
    uint64_t Piece =
        std::min<uint64_t>(Length - Done, format::kMaxAccessLength);
    appendMarked(R, Type, Bits, Op, Piece, (Start + Done) + SiteBits);
    Done += Piece;
  }
}

void recordBufferValue(format::ValueType Type, uint8_t Ordinal,
                       uint64_t Bits) noexcept {
  keepBufferValue(ThreadRing::from(*ThreadStateTLS.Current), Type, Ordinal,
                  Bits);
}

WGTRACE_TLS OmpRegionFrame OmpRegionTLS;

void noteOmpThreadStack(int Level) noexcept {
  // Only the region the loop runs in bounds the thread's own stack: an
  // enclosing region's frame does not (an inner team shares what its
  // master keeps between the two), nor any frame of a region the rewriter
  // did not see.
  const OmpRegionFrame Region = OmpRegionTLS;
  if (!Region.Frame || Level == 0 || Region.Level != Level)
    return;
  const runtime::StackRange &Stack = runtime::threadStack();
  const auto Frame = reinterpret_cast<uintptr_t>(Region.Frame);
  if (Frame <= Stack.Low || Frame > Stack.High)
    return;
  keepBufferValue(ThreadRing::from(*ThreadStateTLS.Current),
                  format::ValueType::ThreadStack, 0,
                  format::threadStackBits(Stack.Low, Frame));
}

void leaveOmpCriticalSection(uint64_t Name) noexcept {
  recordValueBits(format::ValueType::CriticalSection, 0, Name);
  ThreadRing &TR = ThreadRing::from(*ThreadStateTLS.Current);
  // The section is no longer entered by the copies of the record: its
  // enter is the last one of that name among the workgroup's values.
  for (size_t I = TR.BufferValues.size(); I > TR.Current.BufferValuesBegin;
       --I) {
    const runtime::BufferValue &V = TR.BufferValues[I - 1];
    if (V.Type == format::ValueType::CriticalSection && V.Bits == Name) {
      TR.BufferValues.erase(I - 1);
      return;
    }
  }
}

void recordBufferParameters(const BufferArgument *Arguments,
                            uint32_t Count) noexcept {
  Ring *Current = ThreadStateTLS.Current;
  if (!Current)
    return;
  ThreadRing &TR = ThreadRing::from(*Current);
  // At most two records a parameter.
  const uint64_t Records = 2 * uint64_t(Count);
  if (uint64_t(TR.Hot.End - TR.Hot.Cursor) >=
      Records * format::kValueRecordSize) {
    // No part boundary before them (so no continuation between them): all
    // at once, with one check of the room in the ring and in the list.
    uint8_t *Record = TR.Hot.Cursor;
    const uint64_t Key = TR.key();
    runtime::BufferValue *Value = TR.BufferValues.room(Records);
    auto Keep = [&](format::ValueType Type, uint8_t Ordinal, uint64_t Bits) {
      format::encodeValue(Record, Type, Ordinal, Key, Bits);
      Record += format::kValueRecordSize;
      *Value++ = {Type, Ordinal, Bits};
    };
    for (uint32_t Ordinal = 0; Ordinal < Count; ++Ordinal) {
      const BufferArgument &A = Arguments[Ordinal];
      Keep(format::ValueType::BufferBase, uint8_t(Ordinal),
           reinterpret_cast<uintptr_t>(A.Base));
      if (A.HasExtent)
        Keep(format::ValueType::BufferExtent, uint8_t(Ordinal), A.Bytes);
    }
    TR.Hot.Cursor = Record;
    TR.BufferValues.end(Value);
    return;
  }
  for (uint32_t Ordinal = 0; Ordinal < Count; ++Ordinal) {
    const BufferArgument &A = Arguments[Ordinal];
    keepBufferValue(TR, format::ValueType::BufferBase, uint8_t(Ordinal),
                    reinterpret_cast<uintptr_t>(A.Base));
    if (A.HasExtent)
      keepBufferValue(TR, format::ValueType::BufferExtent, uint8_t(Ordinal),
                      A.Bytes);
  }
}

void recordPrint(const char *Text, uint32_t Length) noexcept {
  Ring *R = ThreadStateTLS.Current;
  if (!R)
    return;
  ThreadRing &TR = ThreadRing::from(*R);
  Length = std::min(Length, format::kMaxPrintLength);
  // A stream buffer must hold the record after a continuation.
  if (runtime::config().TraceMode == runtime::Mode::Stream)
    Length = static_cast<uint32_t>(std::min<uint64_t>(
        Length, TR.size() - TR.continuationSize() - format::kPrintHeaderSize));
  uint64_t Size = format::printRecordSize(Length);
  uint8_t *Record = TR.reserve(Size);
  format::encodePrintHeader(Record, Length, TR.key());
  std::memcpy(Record + format::kPrintHeaderSize, Text, Length);
  std::memset(Record + format::kPrintHeaderSize + Length, 0,
              Size - format::kPrintHeaderSize - Length);
  ++TR.Counts.Prints;
  TR.Counts.PrintBytes += Size;
}

} // namespace wgtrace::detail
