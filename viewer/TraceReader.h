//===- TraceReader.h - Decode a trace once, feed every tool -----*- C++ -*-===//

#ifndef WGTRACE_VIEWER_TRACEREADER_H
#define WGTRACE_VIEWER_TRACEREADER_H

#include "AnalysisTool.h"
#include "RingDecoder.h"
#include "TraceFile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <deque>

namespace wgtrace::viewer {

class TraceReader {
public:
  TraceReader(const TraceFile &File, RingMode Mode) : File(File), Mode(Mode) {}

  /// Streams every chunk to \p Tools. Stops at the first damage and returns
  /// it (located per ChunkError.h); everything before it has been delivered
  /// and every tool's finish() has run either way.
  llvm::Error run(llvm::ArrayRef<AnalysisTool *> Tools);

private:
  llvm::Error runChunks(llvm::ArrayRef<AnalysisTool *> Tools);

  const TraceFile &File;
  RingMode Mode;
  /// Metadata stays alive as long as the reader: rings point at it.
  std::deque<Metadata> AllMetadata;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_TRACEREADER_H
