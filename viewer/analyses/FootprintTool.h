//===- FootprintTool.h - What each workgroup touched, and how ----*- C++
//-*-===//
//
// Per workgroup: the byte ranges it loaded and stored, coalesced, grouped
// by buffer; and per access stream the stride pattern (StridePattern.h).
//
// A buffer is a maximal cluster of accessed bytes (over all workgroups)
// whose gaps are at most BufferGap bytes: the trace knows addresses, not
// allocations. A stream is the accesses of one workgroup with the same kind
// (load/store), the same length and the same buffer, in record order: the
// format has no source-site ids, and this key separates the usual streams
// of a kernel (one per array it walks).
//
// Two passes: the first finds the buffers (its memory is one range per run
// of touched bytes, merged across gaps up to BufferGap), the second keeps,
// per workgroup, its coalesced ranges and one small state per stream until
// the end of the file.
//
// Both passes read on several threads (newShard()): a first-pass shard
// keeps the bytes its ring chunk touched, which the merge adds to the
// file's (clusters of clusters are the clusters of what they hold); a
// second-pass shard finds its chunk's workgroups against the file's
// clusters, and the merge appends them in file order, their parameter
// buffers renumbered as the file's. A chunk's invocations all end with it
// and are in no other chunk (TraceReader::runShards()), so appending them
// is what one thread does.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_FOOTPRINTTOOL_H
#define WGTRACE_VIEWER_FOOTPRINTTOOL_H

#include "analyses/AnalysisTool.h"
#include "analyses/Intervals.h"
#include "analyses/StridePattern.h"
#include "output/RowOrder.h"
#include "reader/WorkgroupIdentity.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class FootprintTool : public AnalysisTool {
public:
  /// Accessed bytes further apart than this belong to different buffers.
  static constexpr uint64_t BufferGap = 4096;

  FootprintTool(llvm::raw_ostream &OS, bool Json)
      : OS(OS), Json(Json), Touched(BufferGap) {}
  /// Clusters points at the Buffers of this tool or of the one it is a
  /// shard of.
  FootprintTool(const FootprintTool &) = delete;
  FootprintTool &operator=(const FootprintTool &) = delete;

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void endWorkgroups(llvm::ArrayRef<uint64_t> Invocations) override;
  void census(const TraceCensus &C) override { Census = &C; }
  bool anotherPass() override;
  void finish() override;
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;

  /// Buffer ids: a kernel parameter's buffer (Record::Buffer) is
  /// ParamBuffer | its index in TraceCensus::Buffers; an address cluster of
  /// accesses in no parameter is its index in buffers().
  static constexpr uint32_t ParamBuffer = 0x80000000u;

  struct Stream {
    bool Store = false;
    /// Its accesses are atomic operations' (an access site's are all or
    /// none; without sites, atomic and plain accesses are apart).
    bool Atomic = false;
    uint32_t Buffer = 0;
    /// The access site (source expression) of its accesses, 0 if none, and
    /// where it is ("k.cc:12 a[i]").
    uint32_t Site = 0;
    std::string Source;
    StridePattern Pattern;
  };
  struct BufferUse {
    uint32_t Buffer = 0;
    std::vector<Interval> Loads, Stores;
  };
  struct Workgroup : WorkgroupIdentity {
    /// By buffer, in address order (after finish()).
    std::vector<BufferUse> Buffers;
    std::vector<Stream> Streams;
    /// After finish(): the distinct bytes it loaded and stored (over all
    /// buffers) and its accesses (over all streams), what --sort orders by.
    uint64_t LoadBytes = 0, StoreBytes = 0, Accesses = 0;
  };

  /// --sort and --top: the workgroups with the most of the column
  /// (columns()) first, at most Top of them; buffers stay all.
  void setOrder(RowOrder O) { Order = std::move(O); }
  /// The columns --sort takes, by their JSON names.
  static llvm::ArrayRef<const char *> columns();

  /// After finish(): the address clusters of accesses in no parameter.
  const std::vector<Interval> &buffers() const { return Buffers; }
  /// How reports name buffer id \p Buffer ("a", "cluster 2").
  std::string bufferName(uint32_t Buffer) const;
  const std::vector<Workgroup> &workgroups() const { return Workgroups; }

private:
  struct OpenBuffer {
    uint32_t Buffer;
    IntervalAccumulator Loads, Stores;
  };
  /// A workgroup of the current ring; its records never leave the ring.
  struct Open {
    uint32_t Workgroup = 0;
    /// Few per workgroup: searched linearly, the last one used first.
    std::vector<OpenBuffer> Buffers;
    size_t LastBuffer = 0;
    size_t LastStream = 0;
  };
  uint32_t bufferOf(uint64_t Address) const;
  /// Where access site \p Site is ("k.cc:12 a[i]"), or "".
  std::string siteName(uint32_t Site) const;
  void printText();
  void printJson();

  llvm::raw_ostream &OS;
  bool Json;
  RowOrder Order;
  OmittedRows Omitted{"workgroups"};
  unsigned Pass = 0;
  const Metadata *Meta = nullptr;
  /// Pass 1: every accessed byte in no parameter, merged across gaps up to
  /// BufferGap.
  IntervalAccumulator Touched;
  std::vector<Interval> Buffers;
  /// What pass 2 finds buffers in: Buffers, or in a shard its tool's
  /// (which outlives it and does not change during the pass).
  const std::vector<Interval> *Clusters = &Buffers;
  const TraceCensus *Census = nullptr;
  /// Pass 2: the open workgroups, by WorkgroupInfo::Invocation.
  llvm::DenseMap<uint64_t, Open> Opens;
  /// Index in Workgroups of every invocation seen.
  llvm::DenseMap<uint64_t, uint32_t> ByInvocation;
  std::vector<Workgroup> Workgroups;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_FOOTPRINTTOOL_H
