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

#include "Metadata.h"
#include "Record.h"

#include "llvm/ADT/ArrayRef.h"

namespace wgtrace::viewer {

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
  /// The ring ended, or decoding stopped at damage inside it.
  virtual void endRing(const RingInfo &Info) { (void)Info; }
  /// A workgroup timing chunk (wgtrace's type 0x8001) followed the ring
  /// \p Ring: start and end times of its workgroups, keyed by the ring
  /// offset of their WORKGROUP records (docs/FORMAT.md). Not called for a
  /// timing chunk that follows no ring.
  virtual void timing(const RingInfo &Ring,
                      llvm::ArrayRef<format::TimingRecord> Entries) {
    (void)Ring;
    (void)Entries;
  }
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
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ANALYSISTOOL_H
