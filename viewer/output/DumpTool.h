//===- DumpTool.h - The text dump of DESIGN.md ------------------*- C++ -*-===//

#ifndef WGTRACE_VIEWER_DUMPTOOL_H
#define WGTRACE_VIEWER_DUMPTOOL_H

#include "analyses/AnalysisTool.h"
#include "output/OrderedBatches.h"

#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <array>
#include <optional>

namespace wgtrace::viewer {

struct DumpOptions {
  /// Print 8/16-bit values exactly as IREE's iree-dump-instruments does.
  bool IreeCompat = false;
  /// Show only workgroups of this dispatch site (and their records).
  std::optional<uint32_t> Dispatch;
  /// Show only the workgroup with this id (and its records).
  std::optional<std::array<uint32_t, 3>> WorkgroupId;
};

/// Prints metadata and records line by line, as IREE's tool does; without
/// --iree-compat, what IREE's tool cannot know (wgtrace's VALUE types, a
/// dispatch site's place) in words.
///
/// On several threads (setThreads()) the records are decoded as on one,
/// in file order, but the lines are written on the pool's threads: the
/// decoding thread keeps batches of LOAD and STORE records (what almost
/// every line is; the few other lines, metadata included, it formats
/// itself, in their place in the batch), a pool thread turns each batch
/// into text, and the text is written in batch order. Formatting, not
/// decoding, is most of a dump's time; a ring chunk's text (about three
/// times its records) is never held whole, only the batches in flight.
class DumpTool : public AnalysisTool {
public:
  DumpTool(llvm::raw_ostream &OS, DumpOptions Options);
  ~DumpTool() override;

  /// Formats on \p Threads threads (0: the cores available; 1: on the
  /// decoding thread, as before), \p BatchLines LOAD and STORE lines
  /// each (tests make them small).
  void setThreads(unsigned Threads, size_t BatchLines = 1 << 15);
  /// Batches formatted on the pool's threads so far.
  uint64_t batchesOnThreads() const { return Batches.submitted(); }

  void metadata(const Metadata &M, const ChunkLocation &Where) override;
  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  /// Every record the file holds, those of unselected workgroups too.
  bool wantsUnselected() const override { return true; }
  void finish() override;

private:
  bool selected(const Record &R) const;
  /// Writes wgtrace's own VALUE types (buffers, continuations,
  /// uninstrumented calls) in words; false for the others.
  bool describeOwnValue(const Record &R);
  void flushIfFull();

  /// A batch of lines for a pool thread, and its text.
  struct Batch;
  /// Moves what Buffer holds into the open batch, as lines of text.
  void keepText();

  llvm::raw_ostream &OS;
  DumpOptions Options;
  OrderedBatches<Batch> Batches;
  size_t BatchLines = 0;
  const Metadata *Meta = nullptr;
  /// Lines are formatted here and written in large blocks.
  fmt::memory_buffer Buffer;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_DUMPTOOL_H
