//===- TraceRecompressor.h - A trace file compressed or plain ---*- C++ -*-===//
//
// `wgtrace-view compress IN OUT` and `decompress IN OUT` rewrite a trace
// chunk by chunk, as the runtime would have written it with and without
// WGTRACE_COMPRESS: compress turns every ring chunk holding records into a
// compressed chunk (docs/FORMAT.md; the run record, metadata and timing
// chunks stay as they are), decompress turns every compressed chunk back
// into the chunk it holds. Every other byte is copied, so decompressing a
// compressed copy gives the original file byte for byte. The chunks are
// not decoded (records, checksums): a damaged ring chunk is copied as it
// is, for the reader to report; a damaged compressed chunk is an error
// (decompress would lose it).
//
// Chunks are compressed or decompressed on a pool of threads and written
// in file order, the output byte for byte the one thread's; at most twice
// as many chunks as threads wait (OrderedBatches), and the input's pages
// leave the resident set once written: memory is a few chunks whatever
// the file.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_TRACERECOMPRESSOR_H
#define WGTRACE_VIEWER_TRACERECOMPRESSOR_H

#include "reader/TraceFile.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace wgtrace::viewer {

struct RecompressCounts {
  /// Chunks written, those compressed or decompressed, and the bytes of
  /// the chunks changed before and after.
  uint64_t Chunks = 0;
  uint64_t Changed = 0;
  uint64_t BytesBefore = 0;
  uint64_t BytesAfter = 0;
  /// Chunks handed to the pool's threads: none on one thread.
  uint64_t OnThreads = 0;
};

/// Writes \p In to \p OS with its ring chunks compressed at zstd level
/// \p Level (compressed chunks are copied as they are), on \p Threads
/// threads (0: the cores available).
llvm::Error compressTrace(const TraceFile &In, llvm::raw_ostream &OS, int Level,
                          unsigned Threads, RecompressCounts &Counts);

/// Writes \p In to \p OS with every compressed chunk decompressed: a file
/// in IREE's chunk types only (unless it has timing chunks). On \p Threads
/// threads (0: the cores available).
llvm::Error decompressTrace(const TraceFile &In, llvm::raw_ostream &OS,
                            unsigned Threads, RecompressCounts &Counts);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_TRACERECOMPRESSOR_H
