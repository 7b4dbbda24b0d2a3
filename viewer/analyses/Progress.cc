//===- Progress.cc --------------------------------------------------------===//

#include "analyses/Progress.h"

#include <fmt/format.h>

#include <unistd.h>

namespace wgtrace::viewer {

Progress::Progress(llvm::raw_ostream &OS, uint64_t FileSize, bool Enabled)
    : OS(OS), FileSize(FileSize), Enabled(Enabled),
      Start(std::chrono::steady_clock::now()), Last(Start) {}

bool Progress::enabledForStderr() { return isatty(STDERR_FILENO) == 1; }

void Progress::beginRing(const RingInfo &Info) {
  if (Enabled)
    tick(Info.Where.FileOffset); // the file's, not the plain offset
}

void Progress::tick(uint64_t FileOffset) {
  auto Now = std::chrono::steady_clock::now();
  // Quiet for the first second: short runs print nothing at all.
  if (Now - Start < std::chrono::seconds(1) ||
      Now - Last < std::chrono::milliseconds(500))
    return;
  Last = Now;
  double Fraction = FileSize ? double(FileOffset) / double(FileSize) : 0;
  OS << fmt::format("\rwgtrace-view: {}{:5.1f}% of {:.1f} MiB, {} records",
                    Pass > 1 ? fmt::format("pass {}: ", Pass) : "",
                    100.0 * Fraction, double(FileSize) / (1 << 20), Count);
  OS.flush();
  Shown = true;
}

std::unique_ptr<AnalysisTool> Progress::newShard() const {
  return std::make_unique<Progress>(llvm::nulls(), 0, Enabled);
}

void Progress::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  Count += static_cast<Progress &>(Shard).Count;
  if (Enabled)
    tick(Place.FileOffset);
}

bool Progress::anotherPass() {
  // Never asks for a pass itself; is fed the passes others ask for.
  ++Pass;
  return false;
}

void Progress::finish() {
  if (Shown) {
    // Erase the status line so that the result starts clean.
    OS << "\r\x1b[K";
    OS.flush();
  }
}

} // namespace wgtrace::viewer
