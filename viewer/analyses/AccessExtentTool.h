//===- AccessExtentTool.h - Records per processor, bytes accessed -*- C++
//-*-===//
//
// What the HTML report's access map must know before it places its first
// point: each processor's record count (the length of its lane), the
// accesses (whether they fit as points), and the bytes accessed, per kernel
// parameter buffer and, for accesses in none, in clusters (ranges at most
// Gap bytes apart are one). Counts and ranges add up in any order, so the
// tool reads ring chunks on several threads (newShard()).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_ACCESSEXTENTTOOL_H
#define WGTRACE_VIEWER_ACCESSEXTENTTOOL_H

#include "analyses/AnalysisTool.h"
#include "analyses/Intervals.h"

#include <map>

namespace wgtrace::viewer {

class AccessExtentTool final : public AnalysisTool {
public:
  explicit AccessExtentTool(uint64_t Gap) : Gap(Gap), Touched(Gap) {}

  void record(const Record &R) override;
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;

  /// Records of known workgroups per processor id, in processor order.
  const std::map<uint32_t, uint64_t> &processorRecords() const {
    return Records;
  }
  /// LOAD and STORE records of known workgroups.
  uint64_t accesses() const { return Accesses; }
  /// Per parameter buffer (TraceCensus::Buffers), its bytes accessed.
  const std::map<uint32_t, Interval> &bufferRanges() const {
    return BufferRanges;
  }
  /// Bytes accessed in no parameter buffer, clustered, sorted.
  const std::vector<Interval> &otherRanges() { return Touched.ranges(); }

private:
  uint64_t Gap;
  std::map<uint32_t, uint64_t> Records;
  /// A ring's records come from one processor: the map is asked once a
  /// run (a map's values stay where they are).
  uint32_t LastProcessor = 0;
  uint64_t *LastRecords = nullptr;
  uint64_t Accesses = 0;
  IntervalAccumulator Touched;
  std::map<uint32_t, Interval> BufferRanges;
  /// The range of the buffer accessed last, and that buffer.
  Interval *LastRange = nullptr;
  uint32_t LastRangeBuffer = kNoBuffer;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ACCESSEXTENTTOOL_H
