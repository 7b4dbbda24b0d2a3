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
#include <optional>
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

  /// Decode ring chunks on \p N threads (0: the cores available), each
  /// into tools of its own (AnalysisTool::newShard()) merged in file order:
  /// the result is the one-thread result. Only where the file and the
  /// tools allow it (runShards()); otherwise, and with 1, on this thread.
  void setThreads(unsigned N) { Threads = N; }

  /// After run(): whether its first pass read ring chunks on several
  /// threads.
  bool readOnThreads() const { return OnThreads; }
  /// After run(): how many of its passes read ring chunks on several
  /// threads.
  unsigned passesOnThreads() const { return PassesOnThreads; }

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
  /// A pass on several threads, when every tool that reads records has
  /// shards and no state of the reader crosses ring chunks: each ring
  /// chunk is read by a joiner of its own (a compressed one decompressed
  /// by the thread that reads it), its invocations renumbered after the
  /// chunks before it. Nothing (and nothing done) when the file does not
  /// allow it: stream-mode rings, a ring id in two chunks, timing, damaged
  /// metadata or ring geometry, a ring chunk cut by the end of the file
  /// that one thread reads up to the cut. Only \p FirstPass counts the
  /// census; a later pass is tried only after a first pass that read on
  /// threads (footprint's second pass).
  std::optional<llvm::Error> runShards(llvm::ArrayRef<AnalysisTool *> Tools,
                                       bool FirstPass);
  /// What the records of ring chunk \p C are checked against.
  RecordLimits limitsOf(const Chunk &C) const;
  /// Lets \p D release the pages of \p C it has decoded; releases all of
  /// \p C once it has been read.
  void releaseAsDecoded(RingDecoder &D, const Chunk &C) const;
  void releaseChunk(const Chunk &C) const;
  void countRing(const RingInfo &Info);
  void countUninstrumentedCalls(const Metadata *Meta,
                                const std::map<uint64_t, uint64_t> &Counts);
  void finishCensus(const WorkgroupJoiner &Joiner,
                    const BufferResolver &Buffers);

  const TraceFile &File;
  RingMode Mode;
  WorkgroupFilter Filter;
  unsigned Threads = 1;
  bool OnThreads = false;
  unsigned PassesOnThreads = 0;
  /// Metadata stays alive as long as the reader: rings point at it.
  std::deque<Metadata> AllMetadata;
  TraceCensus Census;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_TRACEREADER_H
