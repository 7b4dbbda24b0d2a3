//===- TraceReader.h - Decode a trace once, feed every tool -----*- C++ -*-===//
//
// The shared decoding pipeline: chunks in file order, rings through the
// RingDecoder, every WORKGROUP record numbered by the WorkgroupJoiner (one
// invocation is one workgroup in every tool), the filter applied, timing
// chunks resolved to invocations, and the file's census (loss, sites,
// notes) handed to every tool before it prints. The command line and the
// Python module both read traces through it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_TRACEREADER_H
#define WGTRACE_VIEWER_TRACEREADER_H

#include "analyses/AnalysisTool.h"
#include "reader/BufferResolver.h"
#include "reader/RingDecoder.h"
#include "reader/TraceCensus.h"
#include "reader/TraceFile.h"
#include "reader/WorkgroupJoiner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <deque>
#include <vector>

namespace wgtrace::viewer {

class TraceReader {
public:
  TraceReader(const TraceFile &File, RingMode Mode, WorkgroupFilter Filter = {})
      : File(File), Mode(Mode), Filter(std::move(Filter)) {}

  /// Streams every chunk to \p Tools. Stops at the first damage and returns
  /// it (located per ChunkError.h); everything before it has been delivered
  /// and every tool's census() and finish() have run either way.
  llvm::Error run(llvm::ArrayRef<AnalysisTool *> Tools);

  /// After run(): the file's census (as far as it was read).
  const TraceCensus &census() const { return Census; }

private:
  /// Reads the chunk headers and the run records before any record: the
  /// census's runs, and whether a promised run record is missing.
  void scanRuns();
  /// After the first pass over a whole file of one run: whether its run
  /// record's workgroups are all in the file or counted lost.
  llvm::Error checkWorkgroupCount() const;
  llvm::Error runChunks(llvm::ArrayRef<AnalysisTool *> Tools, bool FirstPass);
  void countRing(const RingInfo &Info);
  void countUninstrumentedCalls(const Metadata *Meta,
                                const std::map<uint64_t, uint64_t> &Counts);
  void finishCensus(const WorkgroupJoiner &Joiner,
                    const BufferResolver &Buffers);

  const TraceFile &File;
  RingMode Mode;
  WorkgroupFilter Filter;
  /// Metadata stays alive as long as the reader: rings point at it.
  std::deque<Metadata> AllMetadata;
  TraceCensus Census;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_TRACEREADER_H
