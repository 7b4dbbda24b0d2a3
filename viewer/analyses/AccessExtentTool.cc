//===- AccessExtentTool.cc ------------------------------------------------===//

#include "analyses/AccessExtentTool.h"

#include <algorithm>

namespace wgtrace::viewer {

void AccessExtentTool::record(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  // Kept short: a record costs here about what decoding it does.
  const uint32_t Processor = R.Workgroup->Record.ProcessorId;
  if (!LastRecords || Processor != LastProcessor) {
    LastRecords = &Records[Processor];
    LastProcessor = Processor;
  }
  ++*LastRecords;
  if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
    return;
  ++Accesses;
  const Interval I =
      accessRange(R.Memory.Address, std::max(R.Memory.Length, 1u));
  if (R.Buffer == kNoBuffer) {
    Touched.add(I.Lo, I.Hi);
    return;
  }
  // Accesses come in runs within one buffer: its range is looked up once a
  // run. LastRangeBuffer starts as kNoBuffer, which never gets here.
  if (R.Buffer != LastRangeBuffer) {
    auto [It, New] = BufferRanges.try_emplace(R.Buffer, I);
    LastRangeBuffer = R.Buffer;
    LastRange = &It->second;
  }
  LastRange->Lo = std::min(LastRange->Lo, I.Lo);
  LastRange->Hi = std::max(LastRange->Hi, I.Hi);
}

std::unique_ptr<AnalysisTool> AccessExtentTool::newShard() const {
  return std::make_unique<AccessExtentTool>(Gap);
}

void AccessExtentTool::mergeShard(AnalysisTool &Shard,
                                  const ShardPlace &Place) {
  AccessExtentTool &From = static_cast<AccessExtentTool &>(Shard);
  for (auto [Processor, N] : From.Records)
    Records[Processor] += N;
  Accesses += From.Accesses;
  // Clusters of clusters are the clusters of the ranges they hold.
  for (const Interval &I : From.Touched.ranges())
    Touched.add(I.Lo, I.Hi);
  for (const auto &[ShardBuffer, Range] : From.BufferRanges) {
    const uint32_t Buffer = ShardBuffer < Place.Buffers.size()
                                ? Place.Buffers[ShardBuffer]
                                : ShardBuffer;
    auto [It, New] = BufferRanges.try_emplace(Buffer, Range);
    It->second.Lo = std::min(It->second.Lo, Range.Lo);
    It->second.Hi = std::max(It->second.Hi, Range.Hi);
  }
}

} // namespace wgtrace::viewer
