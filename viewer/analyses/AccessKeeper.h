//===- AccessKeeper.h - A chunk's accesses, for one cache in file order -*- C++
//-*-===//
//
// `cache`, `annotate` and `diff` run every load and store through one
// CacheHierarchy in record order: the state a ring chunk starts with is the
// one the chunks before it left. On several threads (AnalysisTool::
// newShard()) the shards decode but cannot simulate; each keeps its chunk's
// accesses here (address, length, load or store, and an owner the tool
// defines: a workgroup, a kernel's source line, a row of keys), and the
// merge replays them through the one hierarchy in file order
// (replayAccesses()) while the next chunks are decoded. The reuse
// distances of the same accesses, which follow their order but not the
// caches, are counted on a thread of their own (ReuseLane): `cache`'s
// histogram and the reuse distances of `html` (LineReuseTool).
//
// A run of accesses of one owner and kind that stay in the first-level line
// the access before ended in is kept as one access with a count: each hits
// that level and changes no level's order, so the replay looks it up once.
//
// Memory: 16 bytes per kept access (and 4 for a per-access key), for the
// chunks decoded ahead of the merge; the chunks replayed go back to a pool
// shared by a tool and its shards (RecyclePool.h: fresh pages, faulted in
// one by one, were most of two threads' system time).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_ACCESSKEEPER_H
#define WGTRACE_VIEWER_ACCESSKEEPER_H

#include "analyses/RecyclePool.h"
#include "reader/Record.h"
#include "simulator/CacheHierarchy.h"
#include "simulator/ReuseDistance.h"

#include "llvm/Support/Compiler.h"
#include "llvm/Support/ThreadPool.h"

#include <cstdint>
#include <future>
#include <memory>
#include <vector>

namespace wgtrace::viewer {

/// An access a shard kept (or, with Repeat, its run). 16 bytes: a chunk
/// keeps one per record that starts a run, and at 24 bytes the fresh pages
/// they filled (zeroed by the kernel) were a tenth of two threads' time.
struct KeptAccess {
  uint64_t Address = 0;
  /// A record's length field is 16 bits.
  uint16_t Length = 0;
  /// Accesses that follow it, of the same owner, kind and key, each in the
  /// one first-level line the access before it ended in. A longer run
  /// starts a new KeptAccess, which hits that line as they do.
  uint16_t Repeat = 0;
  /// The tool's owner of the access, times two, plus one for a store.
  uint32_t OwnerStore = 0;

  uint32_t owner() const { return OwnerStore >> 1; }
  bool store() const { return OwnerStore & 1; }
};
static_assert(sizeof(KeptAccess) == 16, "see KeptAccess");

/// What a shard kept of its chunk.
struct KeptChunk {
  std::vector<KeptAccess> Accesses;
  /// When the tool keys each access besides its owner (cache's rows per
  /// source line or buffer), the key of each of Accesses.
  std::vector<uint32_t> Keys;
  /// With cold caches, the index in Accesses of each new workgroup's first
  /// (the caches are emptied before it).
  std::vector<size_t> ColdAt;
  /// Empties it, keeping its storage (RecyclePool).
  void clear() {
    Accesses.clear();
    Keys.clear();
    ColdAt.clear();
  }
};

using KeptChunkPool = RecyclePool<KeptChunk>;

class AccessKeeper {
public:
  /// \p LineShift: of the first level's line size. \p Pool: shared by the
  /// tool and all its shards.
  AccessKeeper(unsigned LineShift, std::shared_ptr<KeptChunkPool> Pool)
      : LineShift(LineShift), Pool(std::move(Pool)) {}

  /// A ring chunk begins: a chunk from the pool, with room for one kept
  /// access (and key, with \p WithKeys) per record of \p Info's ring.
  /// Taken when the ring begins, not when the shard is made: shards waiting
  /// for a thread hold no chunk, so those replayed come back first.
  void beginRing(const RingInfo &Info, bool WithKeys);

  /// Keeps a load or store (\p Key: with keys only).
  LLVM_ATTRIBUTE_ALWAYS_INLINE void keep(uint64_t Address, uint32_t Length,
                                         uint32_t Owner, bool Store,
                                         bool WithKeys = false,
                                         uint32_t Key = 0) {
    const uint32_t OwnerStore = Owner * 2 + uint32_t(Store);
    const uint64_t First = Address >> LineShift;
    // Within one line, as CacheHierarchy::access() and
    // ReuseHistogram::accessBytes() see it (an access that wraps past the
    // top of the address space is not).
    const bool OneLine =
        Length <= 1 || ((Address + (Length - 1)) >> LineShift) == First;
    std::vector<KeptAccess> &Accesses = Kept->Accesses;
    if (OneLine && HaveLine && First == Line && !Accesses.empty() &&
        Accesses.back().OwnerStore == OwnerStore &&
        (!WithKeys || Kept->Keys.back() == Key) &&
        Accesses.back().Repeat < UINT16_MAX) {
      ++Accesses.back().Repeat;
      return;
    }
    Accesses.push_back({Address, uint16_t(Length), 0, OwnerStore});
    if (WithKeys)
      Kept->Keys.push_back(Key);
    // The line it ends in, as the hierarchy and the reuse distances keep
    // it (the first for an access that wraps).
    const uint64_t Last =
        Length ? (Address + (Length - 1)) >> LineShift : First;
    Line = Last < First ? First : Last;
    HaveLine = true;
  }

  /// A new workgroup begins with the caches emptied (--cold): its first
  /// access starts no run of the one before.
  void coldStart() {
    Kept->ColdAt.push_back(Kept->Accesses.size());
    HaveLine = false;
  }

  /// For the merge: what was kept (an empty chunk if the ring never
  /// began), given back to the pool when its last holder lets it go.
  std::shared_ptr<KeptChunk> take();

private:
  std::shared_ptr<KeptChunk> fromPool() const;

  unsigned LineShift;
  std::shared_ptr<KeptChunkPool> Pool;
  std::shared_ptr<KeptChunk> Kept;
  /// The first-level line the last access ended in, while the next may
  /// extend its run.
  uint64_t Line = 0;
  bool HaveLine = false;
};

/// Runs \p Chunk's accesses through \p Caches in order, the caches emptied
/// where it says (ColdAt, and after its last access when workgroups began
/// there), and calls \p Count(Index, Access, Missed) for each kept access:
/// Missed first levels missed by its first access; its Repeat more hit.
template <typename Fn>
void replayAccesses(CacheHierarchy &Caches, const KeptChunk &Chunk, Fn Count) {
  const std::vector<KeptAccess> &Accesses = Chunk.Accesses;
  const std::vector<size_t> &ColdAt = Chunk.ColdAt;
  size_t NextCold = 0;
  for (size_t I = 0; I < Accesses.size(); ++I) {
    if (NextCold < ColdAt.size() && ColdAt[NextCold] == I) {
      Caches.clear();
      while (NextCold < ColdAt.size() && ColdAt[NextCold] == I)
        ++NextCold;
    }
    const KeptAccess &A = Accesses[I];
    Count(I, A, Caches.access(A.Address, A.Length));
  }
  // New workgroups after its last access empty the caches too.
  if (NextCold < ColdAt.size())
    Caches.clear();
}

/// Counts the line accesses of \p Chunk's accesses into \p Reuse in order,
/// lines being 2^\p LineShift bytes (the keeper's), as
/// ReuseHistogram::accessBytes() counts each access; the lines are
/// forgotten where the caches are emptied (ColdAt).
void countReuse(ReuseHistogram &Reuse, const KeptChunk &Chunk,
                unsigned LineShift);

/// Counts the reuse distances of kept chunks into a histogram, chunk after
/// chunk in the order they are handed over, on a thread of its own beside
/// the merge. It counts a chunk in less time than the caches take for it,
/// so at most one chunk waits for it: each more that waited kept a chunk's
/// accesses out of the pool, and the next shard filled fresh pages instead.
class ReuseLane {
public:
  /// Counts into \p Reuse, with lines of 2^\p LineShift bytes.
  ReuseLane(ReuseHistogram &Reuse, unsigned LineShift)
      : Reuse(Reuse), LineShift(LineShift),
        Thread(llvm::hardware_concurrency(1)) {}
  ReuseLane(const ReuseLane &) = delete;
  ReuseLane &operator=(const ReuseLane &) = delete;
  ~ReuseLane() { wait(); }

  /// Counts \p Chunk after every chunk handed over before it (waits for
  /// the one before it to be counted).
  void count(std::shared_ptr<const KeptChunk> Chunk);
  /// Until every chunk handed over is counted: then the histogram is
  /// whole.
  void wait();

private:
  ReuseHistogram &Reuse;
  unsigned LineShift;
  /// The count of the last chunk handed over, until it is done.
  std::shared_future<void> Busy;
  /// One thread, so that chunks are counted in order.
  llvm::DefaultThreadPool Thread;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ACCESSKEEPER_H
