//===- ChromeTraceTool.h - Workgroups as Chrome trace events ----*- C++ -*-===//
//
// Writes the Chrome trace event format (JSON object form) that Perfetto's
// UI and chrome://tracing open: one complete event ("ph": "X") per
// workgroup on the track of its processor id. With wgtrace's timing chunks
// the events carry the measured start and duration; without them, the time
// axis is record order (each processor's records counted from 0, one
// microsecond per record), which still shows who ran what and how much
// each workgroup recorded.
//
// Memory: one small entry per workgroup, because whether times exist is
// known only at the end of the file.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_CHROMETRACETOOL_H
#define WGTRACE_VIEWER_CHROMETRACETOOL_H

#include "analyses/AccessCounts.h"
#include "analyses/AnalysisTool.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class ChromeTraceTool : public AnalysisTool {
public:
  explicit ChromeTraceTool(llvm::raw_ostream &OS) : OS(OS) {}

  /// For several files in one trace (one process track each): the reader
  /// of each file calls finish(), and the events are written after the
  /// \p Files-th. Call beginFile() before each file is read.
  void setFileCount(unsigned Files) { FileCount = Files; }
  void beginFile(llvm::StringRef Name);

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  bool wantsTiming() const override { return true; }
  void timing(llvm::ArrayRef<WorkgroupTime> Times) override;
  void census(const TraceCensus &C) override;
  void finish() override;

  struct Slice {
    /// Which input file (0 unless beginFile() was called).
    uint32_t File = 0;
    uint32_t Site = 0;
    llvm::StringRef Function;
    std::array<uint32_t, 3> Id{};
    uint32_t ProcessorId = 0;
    /// Record order on the processor's track: first and last record.
    uint64_t FirstRecord = 0, LastRecord = 0;
    AccessCounts Counts;
    bool Timed = false;
    uint64_t StartNs = 0, EndNs = 0;
    unsigned Chunk = 0;
    uint64_t Offset = 0;
    /// A ring wrap overwrote its first records (WorkgroupInfo).
    bool BeginningLost = false;
  };
  const std::vector<Slice> &slices() const { return Slices; }

private:
  void write();

  llvm::raw_ostream &OS;
  unsigned FileCount = 1;
  unsigned Finished = 0;
  std::vector<std::string> FileNames;
  const Metadata *Meta = nullptr;
  unsigned Chunk = 0;
  std::vector<Slice> Slices;
  /// lossJson() and runJson() of each file, taken when its census arrives.
  std::vector<llvm::json::Value> Losses;
  std::vector<llvm::json::Value> Runs;
  /// Slice of each workgroup invocation (WorkgroupInfo::Invocation).
  llvm::DenseMap<uint64_t, uint32_t> ByInvocation;
  /// Next record number of each processor's track.
  std::map<uint32_t, uint64_t> NextRecord;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_CHROMETRACETOOL_H
