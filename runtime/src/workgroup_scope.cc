//===- workgroup_scope.cc - Kernel prologue and the slow record paths -----===//

#include "config.h"
#include "stream_writer.h"
#include "thread_ring.h"

#include "wgtrace/instrument.h"

#include <algorithm>
#include <cstring>

namespace wgtrace::detail {

using runtime::ThreadRing;

/// Reserves and writes a workgroup record and makes it the key of what
/// follows. Returns its virtual offset. A buffer change while reserving
/// re-emits the record in TR.CurrentWorkgroup, so that is still the
/// enclosing workgroup's when a new one starts.
static uint64_t emitWorkgroup(ThreadRing &TR, const uint8_t *Record) {
  uint8_t *At = TR.reserve(format::kWorkgroupRecordSize);
  uint64_t Virtual = TR.head() - format::kWorkgroupRecordSize;
  std::memcpy(At, Record, format::kWorkgroupRecordSize);
  uint64_t Key = uint64_t(At - TR.Data);
  TR.Hot.KeyBits = format::keyBits(Key);
  if (runtime::config().TraceMode == runtime::Mode::Ring)
    TR.noteWorkgroup(Virtual);
  TR.scrubStaleRecords(Key);
  return Virtual;
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
  SavedKeyBits = TR.Hot.KeyBits;
  std::memcpy(SavedWorkgroup, TR.CurrentWorkgroup, sizeof(SavedWorkgroup));
  uint8_t Record[format::kWorkgroupRecordSize];
  format::encodeWorkgroup(Record, {Site & format::kMaxDispatchId,
                                   {WG.id[0], WG.id[1], WG.id[2]},
                                   {WG.count[0], WG.count[1], WG.count[2]},
                                   WG.processor_id});
  StartVirtual = emitWorkgroup(TR, Record);
  std::memcpy(TR.CurrentWorkgroup, Record, sizeof(Record));
  ++TR.Depth;
  Generation = TR.Generation;
  Processor = WG.processor_id;
  StartNs = runtime::config().Timing ? runtime::steadyNanoseconds() : 0;
  State.Current = &TR.Hot;
  State.Recording = runtime::config().RecordMemory ? &TR.Hot : nullptr;
}

WorkgroupScope::~WorkgroupScope() {
  ThreadState &State = ThreadStateTLS;
  ThreadRing &TR = runtime::threadRing();
  // The exit writer, a snapshot or the crash handler may read this ring
  // from another thread once the workgroup is done.
  runtime::publishRecords();
  if (runtime::config().Timing)
    TR.Timing.push_back({StartVirtual, TR.key(), StartNs,
                         runtime::steadyNanoseconds(), Processor});
  std::memcpy(TR.CurrentWorkgroup, SavedWorkgroup, sizeof(SavedWorkgroup));
  --TR.Depth;
  State.Recording = SavedRecording;
  State.Current = SavedCurrent;
  if (TR.Depth == 0)
    return;
  // Back in an enclosing kernel: its record is elsewhere if stream mode
  // changed buffers meanwhile.
  if (TR.Generation != Generation)
    emitWorkgroup(TR, TR.CurrentWorkgroup);
  else
    TR.Hot.KeyBits = SavedKeyBits;
}

void recordLongAccess(Ring &R, bool IsStore, const volatile void *Address,
                      uint64_t Length) {
  if (&R == &ThreadStateTLS.Idle)
    return;
  // One record per piece the 16-bit length field can hold.
  uintptr_t Start = reinterpret_cast<uintptr_t>(Address);
  for (uint64_t Done = 0; Done < Length;) {
    uint64_t Piece =
        std::min<uint64_t>(Length - Done, format::kMaxAccessLength);
    appendRecord(R, memoryWord(R, IsStore, Piece), Start + Done);
    Done += Piece;
  }
}

void recordPrint(const char *Text, uint32_t Length) {
  Ring *R = ThreadStateTLS.Current;
  if (!R)
    return;
  ThreadRing &TR = ThreadRing::from(*R);
  Length = std::min(Length, format::kMaxPrintLength);
  // A stream buffer must hold the record after a workgroup record.
  if (runtime::config().TraceMode == runtime::Mode::Stream)
    Length =
        std::min<uint64_t>(Length, TR.size() - format::kWorkgroupRecordSize -
                                       format::kPrintHeaderSize);
  uint64_t Size = format::printRecordSize(Length);
  uint8_t *Record = TR.reserve(Size);
  format::encodePrintHeader(Record, Length, TR.key());
  std::memcpy(Record + format::kPrintHeaderSize, Text, Length);
  std::memset(Record + format::kPrintHeaderSize + Length, 0,
              Size - format::kPrintHeaderSize - Length);
}

} // namespace wgtrace::detail
