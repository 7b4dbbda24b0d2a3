//===- Trace.h - The trace files behind one wgtrace.Trace -------*- C++ -*-===//
//
// wgtrace.open(paths) maps every file and indexes it once (TraceIndex):
// damage does not stop the other files, and is kept, located, for Python to
// raise as TraceError (or to report next to what was decoded before it).
// The mappings stay open for later passes (accesses, analyses), each of
// which first checks that the file is still the one that was indexed.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_PYTHON_TRACE_H
#define WGTRACE_PYTHON_TRACE_H

#include "AccessTable.h"
#include "Analyses.h"
#include "TraceTables.h"

#include "reader/TraceFile.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::python {

/// Where and why decoding stopped, as the viewer reports it.
struct DecodeError {
  /// The viewer's message: "offset 0x..: chunk N (type): problem".
  std::string Message;
  /// False for an error without a chunk (none today, but the decoder may
  /// grow some): the fields below are then unset.
  bool Located = false;
  uint64_t Offset = 0;
  unsigned Chunk = 0;
  std::string ChunkType;
  std::string Problem;
};

struct TraceSource {
  std::string Path;
  viewer::TraceFile File;
  /// Size, time and identity when it was indexed.
  llvm::sys::fs::file_status Status;
  std::optional<DecodeError> Error;
  /// Its workgroups: Tables.Workgroups[FirstWorkgroup, + WorkgroupCount).
  uint32_t FirstWorkgroup = 0;
  uint32_t WorkgroupCount = 0;
};

class Trace {
public:
  /// Opens and indexes \p Paths. Only a file that cannot be read is an
  /// error here (its error_code is the errno; \p Unreadable is set to its
  /// path); damage is in sources().
  static llvm::Expected<std::unique_ptr<Trace>>
  open(const std::vector<std::string> &Paths, std::string &Unreadable);

  const TraceTables &tables() const { return Tables; }
  const std::vector<TraceSource> &sources() const { return Sources; }

  /// Loads and stores of the workgroups selected by \p Wanted (one byte
  /// per workgroup, non-zero: selected).
  size_t countAccesses(const uint8_t *Wanted) const;
  /// Writes the rows of those accesses, in file order, to \p Out, which has
  /// room for countAccesses(Wanted) rows.
  llvm::Error fillAccesses(const uint8_t *Wanted, AccessRow *Out,
                           size_t Capacity) const;
  /// An analysis of file \p File.
  llvm::Expected<AnalysisResult> analysis(uint32_t File,
                                          const AnalysisRequest &Request) const;

private:
  Trace() = default;
  /// An error when the file at S.Path is not the one indexed.
  llvm::Error unchanged(const TraceSource &S) const;

  std::vector<TraceSource> Sources;
  TraceTables Tables;
};

} // namespace wgtrace::python

#endif // WGTRACE_PYTHON_TRACE_H
