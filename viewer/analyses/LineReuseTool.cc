//===- LineReuseTool.cc ---------------------------------------------------===//

#include "analyses/LineReuseTool.h"

namespace wgtrace::viewer {

std::unique_ptr<AnalysisTool> LineReuseTool::newShard() const {
  auto Shard = std::make_unique<LineReuseTool>();
  Shard->IsShard = true;
  Shard->KeptPool = KeptPool;
  Shard->Keeper = AccessKeeper(LineShift, KeptPool);
  return Shard;
}

void LineReuseTool::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  (void)Place; // lines are addresses: nothing to renumber
  LineReuseTool &From = static_cast<LineReuseTool &>(Shard);
  if (!Lane)
    Lane = std::make_unique<ReuseLane>(Reuse, LineShift);
  Lane->count(From.Keeper.take());
}

} // namespace wgtrace::viewer
