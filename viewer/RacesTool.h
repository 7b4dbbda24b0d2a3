//===- RacesTool.h - Workgroups of one launch touching the same bytes -*- C++
//-*-===//
//
// Like CUDA compute-sanitizer's racecheck, for CPU workgroups: within one
// launch, workgroups may run in any order or at the same time, so two of
// them touching the same bytes where at least one writes is a race. Launches
// of one site one after another are ordered and never race (LaunchTracker.h
// says how launches are recovered).
//
// Memory: each workgroup's loads and stores are kept as coalesced byte
// ranges until the end of the file, because a launch's workgroups may be
// spread over the ring chunks of several threads. Detection sorts a launch's
// ranges by address and sweeps them once: O(n log n) in the ranges, plus the
// racing pairs found.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_RACESTOOL_H
#define WGTRACE_VIEWER_RACESTOOL_H

#include "AnalysisTool.h"
#include "Intervals.h"
#include "LaunchTracker.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace wgtrace::viewer {

class RacesTool : public AnalysisTool {
public:
  /// At most \p Limit racing pairs are listed; all are counted.
  RacesTool(llvm::raw_ostream &OS, bool Json, uint64_t Limit = 100)
      : OS(OS), Json(Json), Limit(Limit) {}

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void census(const TraceCensus &C) override { Census = &C; }
  void finish() override;

  enum class Kind : uint8_t { WriteWrite, ReadWrite };
  /// Two workgroups of one launch whose accesses overlap. For read-write,
  /// A is the writer.
  struct Race {
    Kind K = Kind::WriteWrite;
    uint32_t Launch = 0;
    uint32_t A = 0, B = 0;
    /// The first overlap found (lowest address): bytes [Lo, Hi).
    Interval Overlap;
    /// The coalesced accesses of A and B that overlap there.
    Interval AccessA, AccessB;
    /// All overlapping bytes of the pair (summed over overlaps).
    uint64_t Bytes = 0;
  };

  /// After finish(): the pairs listed (at most Limit), sorted by launch and
  /// address, and how many pairs there are in all.
  const std::vector<Race> &races() const { return Races; }
  uint64_t raceCount() const { return RaceCount; }
  const LaunchTracker &launches() const { return Tracker; }

private:
  struct Accesses {
    IntervalAccumulator Loads, Stores;
  };
  void detect(uint32_t Launch);
  void printText();
  void printJson();

  llvm::raw_ostream &OS;
  bool Json;
  uint64_t Limit;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  LaunchTracker Tracker;
  uint64_t LastInvocation = UINT64_MAX;
  uint32_t LastWorkgroup = 0;
  /// By tracker workgroup.
  std::vector<Accesses> PerWorkgroup;
  std::vector<Race> Races;
  uint64_t RaceCount = 0;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_RACESTOOL_H
