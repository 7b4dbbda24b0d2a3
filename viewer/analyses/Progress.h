//===- Progress.h - Progress of a long run on stderr ------------*- C++ -*-===//
//
// A tool like any other: it sees records go by and, at most twice a
// second, rewrites one status line ("45% of 2.6 GiB") on stderr. Only when
// stderr is a terminal: a script or a pipe gets none of it, so that logs and
// expected-output tests stay clean.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_PROGRESS_H
#define WGTRACE_VIEWER_PROGRESS_H

#include "analyses/AnalysisTool.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace wgtrace::viewer {

class Progress : public AnalysisTool {
public:
  /// \p Enabled: normally isatty(2) (see enabledForStderr()).
  Progress(llvm::raw_ostream &OS, uint64_t FileSize, bool Enabled);

  /// Whether stderr is a terminal.
  static bool enabledForStderr();

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override {
    // Looking at the clock costs more than a record: only every 64Ki.
    if (Enabled && (++Count & 0xFFFF) == 0)
      tick(R.FileOffset);
  }
  bool anotherPass() override;
  /// A shard counts records; merged, it moves the line to its chunk.
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;
  bool observesAllPasses() const override { return true; }
  void finish() override;

private:
  void tick(uint64_t FileOffset);

  llvm::raw_ostream &OS;
  uint64_t FileSize;
  bool Enabled;
  uint64_t Count = 0;
  unsigned Pass = 1;
  bool Shown = false;
  std::chrono::steady_clock::time_point Start, Last;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_PROGRESS_H
