//===- AnalysisTool.h - What every output and analysis implements -*- C++
//-*-===//
//
// The shape of DynamoRIO's drcachesim: one reader decodes the trace once and
// feeds the record stream to any number of independent tools; each tool
// keeps its own state and prints its own result. Adding an analysis is
// adding a class, never touching the decoder.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_ANALYSISTOOL_H
#define WGTRACE_VIEWER_ANALYSISTOOL_H

#include "reader/Metadata.h"
#include "reader/Record.h"
#include "reader/TraceCensus.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>

namespace wgtrace::viewer {

/// Measured times of one workgroup invocation (wgtrace's timing chunks).
struct WorkgroupTime {
  /// WorkgroupInfo::Invocation.
  uint64_t Invocation = 0;
  uint64_t StartNs = 0;
  uint64_t EndNs = 0;
  uint32_t ProcessorId = 0;
};

/// Where a shard's numbers go in the whole file: the reader decodes ring
/// chunks on several threads, each into a tool of its own, whose workgroup
/// invocations are numbered from 0 and whose buffers are indexed by the
/// shard (TraceReader::setThreads).
struct ShardPlace {
  /// Added to the shard's WorkgroupInfo::Invocation numbers.
  uint64_t FirstInvocation = 0;
  /// The file's buffer index (TraceCensus::Buffers) of each of the
  /// shard's.
  llvm::ArrayRef<uint32_t> Buffers;
  /// Where the shard's ring chunk is in the file.
  uint64_t FileOffset = 0;
};

class AnalysisTool {
public:
  virtual ~AnalysisTool();

  /// A metadata chunk was decoded; it applies to the rings that follow.
  virtual void metadata(const Metadata &M, const ChunkLocation &Where) {
    (void)M;
    (void)Where;
  }
  /// A ring chunk begins; \p Info says how it is decoded (wrap, bytes lost).
  virtual void beginRing(const RingInfo &Info) { (void)Info; }
  /// One record, in ring order.
  virtual void record(const Record &R) = 0;
  /// False for tools that only look at chunks (e.g. notes about wrapped
  /// rings): the reader then spares them a call per record.
  virtual bool wantsRecords() const { return true; }
  /// Whether the tool is fed the records of invocations the runtime's
  /// filter left out (WorkgroupInfo::Unselected: a WORKGROUP record and its
  /// Unselected VALUE). Tools that show records as the file holds them
  /// (dump, conversion) want them; analyses count what was selected, and
  /// the census says how many were not.
  virtual bool wantsUnselected() const { return false; }
  /// The ring ended, or decoding stopped at damage inside it.
  virtual void endRing(const RingInfo &Info) { (void)Info; }
  /// Workgroup invocations (WorkgroupInfo::Invocation) that no later record
  /// can continue, ascending: a tool may finish what it keeps for them.
  /// Called after endRing() and, for all that remain, at the end of each
  /// pass. Rarely (a nested kernel's return seen late) an invocation ends
  /// and then continues: a tool must then add to what it finished.
  virtual void endWorkgroups(llvm::ArrayRef<uint64_t> Invocations) {
    (void)Invocations;
  }
  /// Whether the tool uses timing(): the reader then keeps, per ring
  /// chunk, which invocation each WORKGROUP record belongs to.
  virtual bool wantsTiming() const { return false; }
  /// A workgroup timing chunk (wgtrace's type 0x8001): measured start and
  /// end of workgroup invocations (docs/FORMAT.md).
  virtual void timing(llvm::ArrayRef<WorkgroupTime> Times) { (void)Times; }
  /// What the reader learnt of the whole file: loss, sites, metadata notes
  /// (TraceCensus.h). Called once, after the last pass, before finish().
  virtual void census(const TraceCensus &C) { (void)C; }
  /// The end of a pass over the file (also after an error). A tool that
  /// needs what it learnt from the whole file before it can look at records
  /// again (footprint: buffers) returns true and is fed every chunk once
  /// more; the file is mapped, so a pass costs only decoding.
  virtual bool anotherPass() { return false; }
  /// A tool that watches the reading itself (progress) rather than the
  /// data is fed every pass that any other tool asked for.
  virtual bool observesAllPasses() const { return false; }
  /// All input has been seen (also after an error): print the result.
  virtual void finish() {}

  /// For reading ring chunks on several threads: a tool of the same
  /// configuration that prints nothing. It sees one ring chunk's
  /// beginRing(), records, endRing() and endWorkgroups() (every invocation
  /// of the chunk ends with it); mergeShard() then adds what it found, the
  /// shards in file order, so that the result is the one-thread result.
  /// Null (the default): the tool reads on one thread.
  virtual std::unique_ptr<AnalysisTool> newShard() const { return nullptr; }
  /// Adds \p Shard (made by newShard()) as if its records had been seen
  /// here, at \p Place.
  virtual void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
    (void)Shard;
    (void)Place;
  }
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ANALYSISTOOL_H
