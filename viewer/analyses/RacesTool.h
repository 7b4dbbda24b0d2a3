//===- RacesTool.h - Workgroups of one launch touching the same bytes -*- C++
//-*-===//
//
// Like CUDA compute-sanitizer's racecheck, for CPU workgroups: within one
// launch, workgroups may run in any order or at the same time, so two of
// them touching the same bytes where at least one writes is a race, unless
// both accesses are atomic (an atomic operation is synchronised with every
// other atomic operation on the same bytes; against a plain access it
// still races). Launches
// of one site one after another are ordered and never race (LaunchTracker.h
// says how launches are recovered).
//
// Races are reported as groups: per launch, the racing accesses of one
// pair of access sites (source expressions), with the byte ranges they
// share and the number of unordered workgroup pairs that race there, of
// which how many write-write and read-write. `*total += s` in eight
// workgroups is one group of 28 pairs, not 84 ordered rows.
//
// Memory: each workgroup's loads and stores are kept as coalesced byte
// ranges per access site and buffer until the end of the file, because a
// launch's workgroups may be spread over the ring chunks of several
// threads. Detection sorts a launch's ranges by address and sweeps them
// once: O(n log n) in the ranges, plus the racing pairs found.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_RACESTOOL_H
#define WGTRACE_VIEWER_RACESTOOL_H

#include "analyses/AnalysisTool.h"
#include "analyses/Intervals.h"
#include "output/RowOrder.h"
#include "reader/LaunchTracker.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::viewer {

/// A range of a launch's sweep (RacesTool.cc).
struct SweptRange;

class RacesTool : public AnalysisTool {
public:
  /// At most \p Limit groups are listed; all pairs are counted.
  RacesTool(llvm::raw_ostream &OS, bool Json, uint64_t Limit = 100)
      : OS(OS), Json(Json), Limit(Limit) {}

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void census(const TraceCensus &C) override { Census = &C; }
  void finish() override;
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;

  /// --sort and --top: the groups listed are those with the most of the
  /// column (columns()), at most Top and Limit of them; the counts stay
  /// those of all groups.
  void setOrder(RowOrder O) { Order = std::move(O); }
  /// Sweep launches for races on \p N threads (0: the cores available);
  /// the report is the one-thread report.
  void setThreads(unsigned N) { Threads = N; }
  /// The columns --sort takes, by their JSON names.
  static llvm::ArrayRef<const char *> columns();

  enum class Kind : uint8_t { WriteWrite, ReadWrite };
  /// The races of one launch between the accesses of two access sites.
  struct Race {
    /// WriteWrite when any of its pairs both write.
    Kind K = Kind::WriteWrite;
    uint32_t Launch = 0;
    /// The two sides, as indices in sources() (0: no access site); side A
    /// writes. At most one side of a pair is atomic.
    uint32_t SourceA = 0, SourceB = 0;
    bool WriteB = false;
    bool AtomicA = false, AtomicB = false;
    /// The OpenMP critical section each side's accesses were made in (its
    /// name, "" for the unnamed one), if any, the innermost when nested;
    /// and the sections around it, outermost first. The two sides are
    /// never inside a section of the same name.
    std::optional<std::string> CriticalA, CriticalB;
    std::vector<std::string> EnclosingA, EnclosingB;
    /// The buffer of the first overlap (TraceCensus::Buffers), or kNoBuffer.
    uint32_t Buffer = kNoBuffer;
    /// The bytes both sides touched, coalesced, and their total.
    std::vector<Interval> Ranges;
    Interval Overlap;
    uint64_t Bytes = 0;
    /// Unordered workgroup pairs racing here, and of those how many
    /// write-write and read-write (a pair may be both).
    uint64_t Pairs = 0, WriteWritePairs = 0, ReadWritePairs = 0;
    /// An example pair (LaunchTracker workgroups) and their coalesced
    /// accesses that overlap first.
    uint32_t A = 0, B = 0;
    Interval AccessA, AccessB;
  };

  /// After finish(): the groups listed (at most Limit), by launch and
  /// address, and how many unordered workgroup pairs race in all.
  const std::vector<Race> &races() const { return Races; }
  uint64_t raceCount() const { return RaceCount; }
  uint64_t groupCount() const { return GroupCount; }
  const LaunchTracker &launches() const { return Tracker; }
  /// "k.cc:12 `*total += s`", "" for accesses without an access site.
  const std::vector<std::string> &sources() const { return Sources; }
  /// The line alone of each source ("k.cc:12"), "" when unknown.
  const std::vector<std::string> &sourceLines() const { return SourceLines; }

private:
  /// How an access is synchronised with others: SyncPlain (not at all),
  /// SyncAtomic (an atomic operation, with every other), or SyncCritical + k
  /// (inside the nested OpenMP critical sections CriticalLists[k], with
  /// the accesses inside a section of one of their names): see
  /// synchronised().
  static constexpr uint32_t SyncPlain = 0, SyncAtomic = 1, SyncCritical = 2;
  struct AccessRun {
    bool Write = false;
    uint32_t Sync = SyncPlain;
    uint32_t Source = 0;
    uint32_t Buffer = kNoBuffer;
    IntervalAccumulator Ranges;
  };
  struct Accesses {
    std::vector<AccessRun> Runs;
    size_t Last = 0;
    /// The part of its thread's stack that is the thread's own in the
    /// parallel region the workgroup (an OpenMP iteration) ran in: its
    /// ThreadStack VALUE; empty when none.
    format::ThreadStackRange OwnStack;
  };
  /// The run that the last access went to (in the ring being read) and
  /// the range it is extending, not yet added: consecutive accesses (the
  /// common case) touch only this. Within one ring an access site id means
  /// one source. The order in which ranges reach an accumulator does not
  /// change its merged ranges.
  struct OpenRun {
    IntervalAccumulator *Ranges = nullptr;
    uint64_t Lo = 0, Hi = 0;
    uint64_t Invocation = 0;
    uint32_t Site = 0;
    uint32_t Buffer = 0;
    bool Write = false;
    uint32_t Sync = SyncPlain;
  };
  OpenRun Open;
  /// Adds the open range to its run and forgets the run.
  void closeRun();
  /// record() of anything but the next access of the open run.
  LLVM_ATTRIBUTE_NOINLINE void recordOther(const Record &R);
  uint32_t source(uint32_t Site) {
    if (Site == format::kNoAccessSite)
      return 0;
    if (Site == LastSite && Meta == LastSourceMeta)
      return LastSource;
    return newSource(Site);
  }
  uint32_t newSource(uint32_t Site);
  /// The field of Race that column \p Column (one of columns()) names.
  static uint64_t Race::*columnField(llvm::StringRef Column);
  /// The synchronisation class of the access R (AccessRun::Sync).
  uint32_t syncOf(const Record &R);
  /// Whether accesses of classes \p X and \p Y never race: both atomic,
  /// or inside critical sections that share a name.
  bool synchronised(uint32_t X, uint32_t Y) const;
  /// The names of the critical sections of class \p Sync (SyncCritical +
  /// k), outermost first.
  std::vector<std::string> criticalNames(uint32_t Sync) const;
  /// The races of one launch, before the listing keeps some.
  struct LaunchRaces {
    std::vector<Race> Found;
    /// Its unordered workgroup pairs that race.
    uint64_t Pairs = 0;
  };
  /// Sweeps launch \p Launch, its ranges gathered in \p All (emptied
  /// first; a buffer grown by the launches before, see finish()). Touches
  /// only its workgroups' ranges, so launches may be swept at the same
  /// time.
  LaunchRaces detect(uint32_t Launch, std::vector<SweptRange> &All);
  /// Counts \p Launch's races and lists those --limit, --sort and --top
  /// keep; launch after launch.
  void keep(LaunchRaces Launch);
  void printText();
  void printJson();
  std::string bufferText(const Race &Rc) const;

  llvm::raw_ostream &OS;
  bool Json;
  uint64_t Limit;
  RowOrder Order;
  unsigned Threads = 1;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  LaunchTracker Tracker;
  uint64_t LastInvocation = UINT64_MAX;
  uint32_t LastWorkgroup = 0;
  /// By tracker workgroup.
  std::vector<Accesses> PerWorkgroup;
  std::vector<std::string> Sources = {""};
  std::vector<std::string> SourceLines = {""};
  /// Whether each source's address is the running thread's own
  /// (AccessSite::ThreadOwned): two such accesses of one thread never race.
  std::vector<bool> SourceThreadOwned = {false};
  llvm::DenseMap<std::pair<const Metadata *, uint32_t>, uint32_t> SourceOf;
  /// The last lookup of source(): runs of accesses share their site.
  const Metadata *LastSourceMeta = nullptr;
  uint32_t LastSite = UINT32_MAX, LastSource = 0;
  /// The lists of nested critical sections seen (the bits of their marks,
  /// outermost first), and the names of the sections from the metadata.
  std::vector<std::vector<uint64_t>> CriticalLists;
  std::map<std::vector<uint64_t>, uint32_t, CriticalListLess> CriticalIndex;
  /// The list of the last critical access syncOf() looked up (the
  /// decoder's copy, valid while its ring is read) and its class.
  llvm::ArrayRef<uint64_t> LastCritical;
  uint32_t LastSync = 0;
  std::map<uint64_t, std::string> CriticalNames;
  std::vector<Race> Races;
  uint64_t RaceCount = 0;
  uint64_t GroupCount = 0;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_RACESTOOL_H
