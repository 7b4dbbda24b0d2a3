//===- workgroup_scope.cc - Kernel prologue and the slow record paths -----===//

#include "config.h"
#include "ring_registry.h"

#include "wgtrace/instrument.h"

#include <algorithm>
#include <cstring>

namespace wgtrace::detail {

WorkgroupScope::WorkgroupScope(const Module &M, uint32_t Function,
                               const Workgroup &WG) {
  ThreadState &State = ThreadStateTLS;
  SavedRecording = State.Recording;
  SavedCurrent = State.Current;
  uint32_t Site = State.PendingSite != kNoSite ? State.PendingSite
                                               : M.directSite(Function);
  State.PendingSite = kNoSite;

  Ring &R = runtime::threadRing();
  SavedKey = R.WorkgroupKey;
  uint64_t Offset = R.Head & R.Mask;
  format::encodeWorkgroup(
      reserve(R, format::kWorkgroupRecordSize),
      {Site & format::kMaxDispatchId,
       {WG.id[0], WG.id[1], WG.id[2]},
       {WG.count[0], WG.count[1], WG.count[2]},
       WG.processor_id});
  R.WorkgroupKey = Offset;
  State.Current = &R;
  State.Recording = runtime::config().RecordMemory ? &R : nullptr;
}

WorkgroupScope::~WorkgroupScope() {
  ThreadState &State = ThreadStateTLS;
  if (State.Current)
    State.Current->WorkgroupKey = SavedKey;
  State.Recording = SavedRecording;
  State.Current = SavedCurrent;
}

void recordLongAccess(Ring &R, bool IsStore, const volatile void *Address,
                      uint64_t Length) {
  // One record per piece the 16-bit length field can hold.
  uintptr_t Start = reinterpret_cast<uintptr_t>(Address);
  for (uint64_t Done = 0; Done < Length;) {
    uint64_t Piece = std::min<uint64_t>(Length - Done, format::kMaxAccessLength);
    format::encodeMemory(reserve(R, format::kMemoryRecordSize), IsStore, Piece,
                         R.WorkgroupKey, Start + Done);
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
