//===- TraceIndex.h - The pass of wgtrace.open() over one file --*- C++ -*-===//
//
// An AnalysisTool that fills TraceTables from one file, with what the
// shared reader tells every tool: its functions, access sites and untraced
// accesses (metadata), its workgroup invocations (joined by the reader, so
// a stream-mode or wrapped workgroup is one row), their launches
// (LaunchTracker), counts, values, prints and times, and the census of
// what the file lost.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_PYTHON_TRACEINDEX_H
#define WGTRACE_PYTHON_TRACEINDEX_H

#include "TraceTables.h"

#include "analyses/AnalysisTool.h"
#include "reader/LaunchTracker.h"

#include <map>
#include <string>
#include <utility>

namespace wgtrace::python {

class TraceIndex : public viewer::AnalysisTool {
public:
  TraceIndex(TraceTables &Tables, uint32_t File)
      : Tables(Tables), File(File),
        FirstWorkgroup(uint32_t(Tables.Workgroups.size())) {
    Tables.Census.resize(File + 1);
  }

  void metadata(const viewer::Metadata &M,
                const viewer::ChunkLocation &Where) override;
  void beginRing(const viewer::RingInfo &Info) override;
  void record(const viewer::Record &R) override;
  bool wantsTiming() const override { return true; }
  /// Every workgroup that ran is a row: those the runtime's filter left
  /// out are marked (WorkgroupEntry::Selected).
  bool wantsUnselected() const override { return true; }
  void timing(llvm::ArrayRef<viewer::WorkgroupTime> Times) override;
  void census(const viewer::TraceCensus &C) override;
  void finish() override;

private:
  void workgroupRecord(const viewer::Record &R, uint32_t W);

  TraceTables &Tables;
  uint32_t File;
  /// Index in Tables.Workgroups of invocation 0 of this file.
  uint32_t FirstWorkgroup;
  viewer::LaunchTracker Tracker;
  const viewer::Metadata *Meta = nullptr;
  /// Index in Tables.Rings of the ring being decoded.
  size_t Ring = 0;
  /// The chunk of the last metadata chunk.
  std::optional<uint32_t> MetadataChunk;
  /// Tables.Runs' last entry is still growing.
  bool RunOpen = false;
  /// This file's access sites by id (index in Tables.AccessSites).
  std::map<uint32_t, size_t> AccessSiteIndex;
};

} // namespace wgtrace::python

#endif // WGTRACE_PYTHON_TRACEINDEX_H
