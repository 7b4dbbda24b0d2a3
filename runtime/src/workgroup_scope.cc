//===- workgroup_scope.cc - Kernel prologue and the slow record paths -----===//

#include "config.h"
#include "stream_writer.h"
#include "thread_ring.h"

#include "wgtrace/instrument.h"

#include <algorithm>
#include <cstring>

namespace wgtrace::detail {

using runtime::ThreadRing;

/// Reserves and writes a copy of the thread's current workgroup record and
/// makes it the key of what follows.
static void emitCurrentWorkgroup(ThreadRing &TR) {
  uint64_t Virtual = TR.Hot.Head;
  uint8_t *Record = reserve(TR.Hot, format::kWorkgroupRecordSize);
  std::memcpy(Record, TR.CurrentWorkgroup, format::kWorkgroupRecordSize);
  TR.Hot.WorkgroupKey = Virtual & TR.Hot.Mask;
  if (runtime::config().TraceMode == runtime::Mode::Ring)
    TR.noteWorkgroup(Virtual);
}

WorkgroupScope::WorkgroupScope(const Module &M, uint32_t Function,
                               const Workgroup &WG) {
  ThreadState &State = ThreadStateTLS;
  SavedRecording = State.Recording;
  SavedCurrent = State.Current;
  uint32_t Site =
      State.PendingSite != kNoSite ? State.PendingSite : M.directSite(Function);
  State.PendingSite = kNoSite;

  ThreadRing &TR = runtime::threadRing();
  SavedKey = TR.Hot.WorkgroupKey;
  std::memcpy(SavedWorkgroup, TR.CurrentWorkgroup, sizeof(SavedWorkgroup));
  format::encodeWorkgroup(TR.CurrentWorkgroup,
                          {Site & format::kMaxDispatchId,
                           {WG.id[0], WG.id[1], WG.id[2]},
                           {WG.count[0], WG.count[1], WG.count[2]},
                           WG.processor_id});
  StartVirtual = TR.Hot.Head;
  emitCurrentWorkgroup(TR);
  Generation = TR.Generation;
  Processor = WG.processor_id;
  StartNs = runtime::config().Timing ? runtime::steadyNanoseconds() : 0;
  State.Current = &TR.Hot;
  State.Recording = runtime::config().RecordMemory ? &TR.Hot : nullptr;
}

WorkgroupScope::~WorkgroupScope() {
  ThreadState &State = ThreadStateTLS;
  ThreadRing &TR = runtime::threadRing();
  if (runtime::config().Timing)
    TR.Timing.push_back({StartVirtual, TR.Hot.WorkgroupKey, StartNs,
                         runtime::steadyNanoseconds(), Processor});
  std::memcpy(TR.CurrentWorkgroup, SavedWorkgroup, sizeof(SavedWorkgroup));
  State.Recording = SavedRecording;
  State.Current = SavedCurrent;
  if (!SavedCurrent)
    return;
  // Back in an enclosing kernel: its record is elsewhere if stream mode
  // changed buffers meanwhile.
  if (TR.Generation != Generation)
    emitCurrentWorkgroup(TR);
  else
    TR.Hot.WorkgroupKey = SavedKey;
}

uint8_t *reserveSlow(Ring &R, uint64_t Size) {
  ThreadRing &TR = ThreadRing::from(R);
  runtime::streamWriter().exchange(TR);
  if (ThreadStateTLS.Current == &R)
    emitCurrentWorkgroup(TR);
  return reserve(R, Size);
}

void recordLongAccess(Ring &R, bool IsStore, const volatile void *Address,
                      uint64_t Length) {
  // One record per piece the 16-bit length field can hold.
  uintptr_t Start = reinterpret_cast<uintptr_t>(Address);
  for (uint64_t Done = 0; Done < Length;) {
    uint64_t Piece =
        std::min<uint64_t>(Length - Done, format::kMaxAccessLength);
    uint8_t *Record = reserve(R, format::kMemoryRecordSize);
    format::encodeMemory(Record, IsStore, Piece, R.WorkgroupKey, Start + Done);
    Done += Piece;
  }
}

void recordPrint(const char *Text, uint32_t Length) {
  Ring *R = ThreadStateTLS.Current;
  if (!R)
    return;
  Length = std::min(Length, format::kMaxPrintLength);
  uint64_t Size = format::printRecordSize(Length);
  uint8_t *Record = reserve(*R, Size);
  format::encodePrintHeader(Record, Length, R->WorkgroupKey);
  std::memcpy(Record + format::kPrintHeaderSize, Text, Length);
  std::memset(Record + format::kPrintHeaderSize + Length, 0,
              Size - format::kPrintHeaderSize - Length);
}

} // namespace wgtrace::detail
