//===- AccessTable.cc -----------------------------------------------------===//

#include "AccessTable.h"

using namespace wgtrace::viewer;

namespace wgtrace::python {

void AccessTable::selectWorkgroup(uint32_t W) {
  Current = W;
  CurrentWanted = Wanted[W] != 0;
  const WorkgroupEntry &G = Tables.Workgroups[W];
  Template.Workgroup = W;
  Template.Site = G.Site;
  Template.Launch = G.Launch;
  Template.WgX = G.Id[0];
  Template.WgY = G.Id[1];
  Template.WgZ = G.Id[2];
  Template.Processor = G.Processor;
}

void AccessTable::record(const Record &R) {
  if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
    return;
  const uint64_t W = FirstWorkgroup + R.Workgroup->Invocation;
  if (W != Current) {
    // The index was built from the same records, unless the file changed.
    if (W >= EndWorkgroup) {
      Consistent = false;
      return;
    }
    selectWorkgroup(uint32_t(W));
  }
  if (!CurrentWanted)
    return;
  if (Size == Capacity) {
    Consistent = false;
    return;
  }
  AccessRow &Row = Out[Size++];
  Row = Template;
  Row.Address = R.Memory.Address;
  Row.Length = uint16_t(R.Memory.Length);
  Row.AccessSite = uint16_t(R.AccessSite);
  Row.Buffer = R.Buffer == kNoBuffer ? -1 : int32_t(FirstBuffer + R.Buffer);
  Row.Kind = R.Memory.IsStore ? 1 : 0;
  Row.Atomic = R.Atomic ? 1 : 0;
}

} // namespace wgtrace::python
