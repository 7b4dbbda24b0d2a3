//===- RecordTableTool.h - One row per record, CSV or JSON Lines -*- C++
//-*-===//
//
// For pandas, DuckDB, spreadsheets: every record becomes one row with the
// same columns, numbers as plain decimals (addresses too: a query wants to
// subtract them), so that `read_csv` needs no type hints:
//
//   chunk, offset, kind, wg_x, wg_y, wg_z, pid, site, function, address,
//   length, value_type, value, workgroup, file, atomic, beginning_lost,
//   source, buffer, atomic_op
//
// kind is workgroup/load/store/value/print; address and length are empty
// except for loads and stores; value holds a VALUE's number (integers
// exact, floats shortest round-trip, 16-bit floats converted) or a PRINT's
// text. A load or store names its source line (file:line of its access
// site) and the kernel parameter it falls in, when the file says, and its
// atomic mark's operation (load, store, update; none when plain). Streams:
// nothing is kept after a row is written.
//
// On several threads (setThreads()) the records are decoded as on one, in
// file order, and the rows of loads and stores (nearly every row) are
// written on a pool's threads: the decoding thread keeps their numbers and
// names in batches (the other rows it writes itself, in their place in
// the batch), a pool thread writes each batch's text, and the text goes
// out in batch order; only the batches in flight are held.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_RECORDTABLETOOL_H
#define WGTRACE_VIEWER_RECORDTABLETOOL_H

#include "analyses/AnalysisTool.h"
#include "output/OrderedBatches.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class RecordTableTool : public AnalysisTool {
public:
  enum class Format : uint8_t { Csv, JsonLines };
  RecordTableTool(llvm::raw_ostream &OS, Format F);
  ~RecordTableTool() override;

  /// Writes rows on \p Threads threads (0: the cores available; 1: on the
  /// decoding thread, as before), \p BatchRows load and store rows each
  /// (tests make them small).
  void setThreads(unsigned Threads, size_t BatchRows = 1 << 14);
  /// Batches written on the pool's threads so far.
  uint64_t batchesOnThreads() const { return Batches.submitted(); }

  /// The name in the file column of the rows that follow (several files
  /// go to one table).
  void setFile(llvm::StringRef Name);
  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void finish() override;

private:
  void flushIfFull();
  /// The function name of site \p Site of the current metadata, already
  /// quoted for CSV or JSON.
  llvm::StringRef functionField(uint32_t Site);
  /// The source line of a LOAD / STORE record's access site, and the name
  /// of the buffer it falls in, quoted; empty when unknown.
  llvm::StringRef sourceField(const Record &R);
  llvm::StringRef bufferField(const Record &R);
  /// \p Text quoted for CSV or as a JSON string.
  std::string quoted(llvm::StringRef Text) const;

  /// A batch of rows for a pool thread, and its text.
  struct Batch;
  /// The open batch, naming this file.
  Batch &openBatch();
  /// Moves what Buffer holds into the open batch, as rows of text.
  void keepText();
  /// Writes every batch (before another file, and at the end).
  void drainBatches();

  llvm::raw_ostream &OS;
  Format F;
  const Metadata *Meta = nullptr;
  unsigned Chunk = 0;
  fmt::memory_buffer Buffer;
  const Metadata *CachedMeta = nullptr;
  uint32_t CachedSite = UINT32_MAX;
  std::string CachedFunction;
  /// The file column, already quoted for CSV or JSON.
  std::string FileField;
  /// sourceField per access site id of Meta, bufferField per buffer index
  /// of Buffers (quoted once: rows repeat them).
  std::vector<std::string> SourceFields, BufferFields;
  const Metadata *SourceMeta = nullptr;
  const std::vector<BufferInfo> *Buffers = nullptr;

  OrderedBatches<Batch> Batches;
  size_t BatchRows = 0;
};

/// A VALUE's number as text: integers in decimal, floats in the shortest
/// form that reads back exactly ("nan", "inf" as such).
std::string valueNumber(format::ValueType Type, uint64_t Bits);
/// The name of a value type ("f32", "u8", ...).
const char *valueTypeName(format::ValueType Type);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_RECORDTABLETOOL_H
