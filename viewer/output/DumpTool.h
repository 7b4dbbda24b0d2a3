//===- DumpTool.h - The text dump of DESIGN.md ------------------*- C++ -*-===//

#ifndef WGTRACE_VIEWER_DUMPTOOL_H
#define WGTRACE_VIEWER_DUMPTOOL_H

#include "analyses/AnalysisTool.h"

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
class DumpTool : public AnalysisTool {
public:
  DumpTool(llvm::raw_ostream &OS, DumpOptions Options)
      : OS(OS), Options(Options) {}

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

  llvm::raw_ostream &OS;
  DumpOptions Options;
  const Metadata *Meta = nullptr;
  /// Lines are formatted here and written in large blocks.
  fmt::memory_buffer Buffer;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_DUMPTOOL_H
