//===- AnnotateTool.h - Kernels' source annotated with counts ---*- C++ -*-===//
//
// cg_annotate's listing for wgtrace traces: for each kernel, the source
// lines that made accesses with their loads, stores, bytes, distinct cache
// lines and modelled misses (read and write apart, per cache level), amid
// a few lines of context, hottest lines first or in file order. An access
// belongs to the kernel of its workgroup and to the line of its access
// site, so a helper's lines appear under each kernel that called it.
//
// The misses are those of `cache`: every load and store goes through the
// same CacheHierarchy (the same levels, options and defaults) in record
// order (or emptied caches per workgroup), so a line's misses of each level
// sum to the cache report's totals.
//
// On several threads (newShard()) a shard counts its chunk's loads, stores,
// bytes and distinct cache lines per kernel and line, and keeps its
// accesses (AccessKeeper.h, each owned by its kernel's line) for the merge,
// which adds the counts, joins the line sets and replays the accesses
// through the one hierarchy in file order, as `cache` does.
//
// Memory: per (kernel, source line) its counts and its distinct cache
// lines; the source files listed, once each; on threads, the kept accesses
// and line sets of the chunks decoded ahead of the merge.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_ANNOTATETOOL_H
#define WGTRACE_VIEWER_ANNOTATETOOL_H

#include "analyses/AccessGrouping.h"
#include "analyses/AccessKeeper.h"
#include "analyses/AnalysisTool.h"
#include "analyses/InvocationOwners.h"
#include "output/RowOrder.h"
#include "output/SourceText.h"
#include "simulator/CacheHierarchy.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace wgtrace::viewer {

class AnnotateTool : public AnalysisTool {
public:
  struct Options {
    /// First level first, one to CacheHierarchy::MaxLevels: `cache`'s
    /// levels (chooseCacheLevels()).
    std::vector<CacheLevel> Levels;
    /// Where the levels came from, printed under them ("" when given).
    std::string Note;
    bool Cold = false;
    /// Lines of context before and after each line with accesses.
    unsigned Context = 3;
    /// Chunks in file order instead of hottest first.
    bool FileOrder = false;
    /// --sort (default: accesses) and --top (lines annotated per kernel).
    RowOrder Order;
    /// Named in the header (the trace file).
    std::string Trace;
    /// --kernel's glob, named in the header ("" for all).
    std::string KernelGlob;
    /// --source-dir: where else to look for sources that moved.
    std::vector<std::string> SourceDirs;
    /// Count the distinct cache lines of each line, kernel and the run (the
    /// "lines" column). The HTML report shows none of them and turns this
    /// off: three hash-set insertions per access, into sets as large as
    /// the lines the trace touches, were a fifth of its sections' time.
    bool CountLines = true;
    /// Write the report to the stream in finish() (the HTML report reads
    /// kernels() and writes its own).
    bool Print = true;
  };

  AnnotateTool(llvm::raw_ostream &OS, bool Json, Options O);

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void census(const TraceCensus &C) override {
    Census = &C;
    Lines.census(C);
  }
  void finish() override;
  std::unique_ptr<AnalysisTool> newShard() const override;
  void mergeShard(AnalysisTool &Shard, const ShardPlace &Place) override;

  struct Misses {
    uint64_t Read = 0;
    uint64_t Write = 0;
  };
  struct Counts {
    uint64_t Loads = 0;
    uint64_t Stores = 0;
    uint64_t LoadBytes = 0;
    uint64_t StoreBytes = 0;
    /// Distinct cache lines (of the first level's size).
    uint64_t CacheLines = 0;
    /// Per level of Options::Levels, first level first.
    std::array<Misses, CacheHierarchy::MaxLevels> LevelMisses{};

    uint64_t accesses() const { return Loads + Stores; }
    uint64_t bytes() const { return LoadBytes + StoreBytes; }
    /// An access that missed the first \p Missed levels
    /// (CacheHierarchy::access()).
    void countMisses(bool Store, unsigned Missed) {
      for (unsigned L = 0; L < Missed; ++L)
        ++(Store ? LevelMisses[L].Write : LevelMisses[L].Read);
    }
    /// Adds all but CacheLines, which do not add up.
    void add(const Counts &O);
  };
  /// One source line of one kernel.
  struct LineRow {
    /// Unknown for accesses without a source line.
    SourcePlace Where;
    /// The access sites' expressions on the line.
    std::vector<std::string> Texts;
    Counts C;
  };
  struct Kernel {
    std::string Name;
    /// "site N at file:line" of each site that launched it.
    std::vector<std::string> Sites;
    Counts Totals;
    /// Ordered by file, then line; accesses without a line last.
    std::vector<LineRow> Lines;
  };

  /// After finish(): the kernels, most accesses first.
  const std::vector<Kernel> &kernels() const { return Kernels; }
  const Counts &totals() const { return Totals; }
  /// The levels modelled, first level first.
  const std::vector<CacheLevel> &levels() const { return Opts.Levels; }
  /// Where a file's lines came from, after finish().
  const SourceText *source(llvm::StringRef File) const;
  /// The columns --sort takes: accesses, loads, stores, bytes, lines, then
  /// <level>mr and <level>mw per level.
  static std::vector<std::string>
  columns(const std::vector<CacheLevel> &Levels);

private:
  struct Slot {
    Counts C;
    llvm::DenseSet<uint64_t> CacheLines;
    uint64_t LastLine = UINT64_MAX;
    uint32_t Kernel = 0;
    uint32_t Line = 0;
  };
  uint32_t kernelOf(const Record &R);
  Slot &slot(const Record &R, uint32_t Kernel) {
    const uint64_t Key = (uint64_t(Kernel) << 32) | Lines.key(R);
    return Key == LastSlotKey ? Slots[LastSlot] : newSlot(Key);
  }
  /// slot() of another kernel and line than the last access's.
  Slot &newSlot(uint64_t Key);
  /// The index of the kernel named \p Name, added if new.
  uint32_t kernelNamed(const std::string &Name);
  /// The kernels' copies and the access sites' texts of \p M, the
  /// metadata of a ring chunk, unless it is the last one's.
  void noteMetadata(const Metadata *M);
  void loadSources();
  double column(const Counts &C, llvm::StringRef Name) const;
  void printText();
  void printJson();

  llvm::raw_ostream &OS;
  bool Json;
  Options Opts;
  CacheHierarchy Caches;
  unsigned LineShift;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  AccessGrouping Lines{GroupBy::Line};

  /// Kernel index of each invocation.
  InvocationOwners KernelOf;
  llvm::StringMap<uint32_t> KernelIndex;
  std::vector<Kernel> Kernels;
  /// Per kernel: its distinct cache lines, and the last one added.
  std::vector<llvm::DenseSet<uint64_t>> KernelCacheLines;
  std::vector<uint64_t> KernelLastLine;
  llvm::DenseSet<uint64_t> AllCacheLines;
  uint64_t AllLastLine = UINT64_MAX;
  /// (kernel, line group) -> index in Slots; the last one looked up.
  llvm::DenseMap<uint64_t, uint32_t> SlotIndex;
  std::vector<Slot> Slots;
  uint64_t LastSlotKey = UINT64_MAX;
  uint32_t LastSlot = 0;
  Counts Totals;
  /// The kernel copies (function name, place, text) the metadata holds.
  std::map<std::string, SourceEvidence::KernelCopy> Copies;
  std::map<std::string, std::string> CopyFiles;
  /// Per file, the access sites' (line, column, text) of every metadata.
  std::map<std::string, std::set<std::tuple<uint32_t, uint32_t, std::string>>>
      Expressions;
  std::map<std::string, SourceText> Sources;
  /// A shard (newShard()) keeps its accesses for the merge, each owned by
  /// its slot (AccessKeeper.h); the chunks replayed go back to the pool
  /// shared by a tool and its shards.
  bool IsShard = false;
  std::shared_ptr<KeptChunkPool> KeptPool = std::make_shared<KeptChunkPool>();
  AccessKeeper Keeper{LineShift, KeptPool};
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ANNOTATETOOL_H
