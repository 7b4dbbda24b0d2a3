//===- ProfileTool.h - What a run did, per kernel, site, buffer, line -*- C++
//-*-===//
//
// The numbers `diff` compares between two runs: per kernel, dispatch site,
// buffer (kernel parameter) and source line, the accesses, bytes, distinct
// cache lines, modelled cache misses (one set-associative LRU cache in
// record order, as `cache` models it) and racing workgroup pairs (from a
// RacesTool run beside it, see attachRaces()).
//
// Memory: one entry per key with the distinct cache lines it touched (the
// footprint, not the trace), the cache model, and the races tool's ranges.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_PROFILETOOL_H
#define WGTRACE_VIEWER_PROFILETOOL_H

#include "AnalysisTool.h"
#include "CacheModel.h"
#include "RacesTool.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace wgtrace::viewer {

class ProfileTool : public AnalysisTool {
public:
  enum Dimension : uint8_t { Kernel, Site, Buffer, Line, Dimensions };
  struct Measures {
    uint64_t Accesses = 0;
    uint64_t Bytes = 0;
    uint64_t Lines = 0;
    uint64_t Misses = 0;
    uint64_t Races = 0;
  };

  explicit ProfileTool(const CacheGeometry &G)
      : Cache(G), LineShift(__builtin_ctzll(G.LineSize)) {}

  void beginRing(const RingInfo &Info) override;
  void record(const Record &R) override;
  void census(const TraceCensus &C) override { Census = &C; }
  void finish() override;

  /// After finish(): by dimension, the measures of every key ("matmul",
  /// "0: matmul", "b", "k.cc:12"), the races of \p Races (which must have
  /// read the same file with no limit) included.
  const std::map<std::string, Measures> &measures(Dimension D) const {
    return Results[D];
  }
  void attachRaces(const RacesTool &Races) { RacesFrom = &Races; }

private:
  struct Key {
    Measures M;
    llvm::DenseSet<uint64_t> Lines;
    uint64_t LastLine = UINT64_MAX;
  };
  /// Per dimension, keys by a small id (site: by metadata and site; buffer:
  /// Record::Buffer; line: by metadata and access site).
  struct Table {
    std::vector<Key> Keys;
    std::vector<std::string> Labels;
  };
  uint32_t id(Dimension D, const Record &R);
  void count(Key &K, const Record &R, uint64_t Misses);
  void addLine(Key &K, uint64_t Line);

  CacheModel Cache;
  unsigned LineShift;
  const Metadata *Meta = nullptr;
  const TraceCensus *Census = nullptr;
  const RacesTool *RacesFrom = nullptr;
  std::array<Table, Dimensions> Tables;
  llvm::DenseMap<std::pair<const Metadata *, uint64_t>, uint32_t>
      Ids[Dimensions];
  /// The last record's ids: runs of one workgroup's accesses share them,
  /// and runs of one access site or buffer theirs.
  const Metadata *LastMeta = nullptr;
  uint64_t LastInvocation = UINT64_MAX;
  uint32_t LastSite = 0, LastKernel = 0;
  uint64_t LastBufferFrom = UINT64_MAX, LastLineFrom = UINT64_MAX;
  uint32_t LastBuffer = 0, LastLine = 0;
  /// Per cache line, the keys (16 bits per dimension) that last recorded
  /// it: a line touched again from the same kernel, site, buffer and
  /// source line costs one lookup instead of four set insertions.
  llvm::DenseMap<uint64_t, uint64_t> LineKeys;
  /// The last line recorded and its keys: runs on one line skip even that.
  uint64_t PrevLine = UINT64_MAX, PrevCombo = 0;
  std::array<std::map<std::string, Measures>, Dimensions> Results;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_PROFILETOOL_H
