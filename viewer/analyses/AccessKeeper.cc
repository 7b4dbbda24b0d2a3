//===- AccessKeeper.cc ----------------------------------------------------===//

#include "analyses/AccessKeeper.h"

#include "analyses/HugePages.h"

#include <algorithm>

namespace wgtrace::viewer {

std::shared_ptr<KeptChunk> AccessKeeper::fromPool() const {
  std::shared_ptr<KeptChunkPool> P = Pool;
  return std::shared_ptr<KeptChunk>(new KeptChunk(P->take()),
                                    [P](KeptChunk *Chunk) {
                                      P->give(std::move(*Chunk));
                                      delete Chunk;
                                    });
}

void AccessKeeper::beginRing(const RingInfo &Info, bool WithKeys) {
  if (!Kept)
    Kept = fromPool();
  HaveLine = false;
  // Room for a kept access per record of the ring (16 bytes at least, the
  // last one perhaps in the padding): growing the vector copied it over
  // and over, and the pages past what the runs fill are never touched.
  const uint64_t Records =
      (std::min(Info.Head, Info.Size) + format::kRingPadding) /
      format::kMemoryRecordSize;
  std::vector<KeptAccess> &Accesses = Kept->Accesses;
  Accesses.reserve(Records);
  adviseHugePages(Accesses.data(), Accesses.capacity() * sizeof(KeptAccess));
  if (WithKeys) {
    Kept->Keys.reserve(Records);
    adviseHugePages(Kept->Keys.data(),
                    Kept->Keys.capacity() * sizeof(uint32_t));
  }
}

std::shared_ptr<KeptChunk> AccessKeeper::take() {
  HaveLine = false;
  return Kept ? std::move(Kept) : fromPool();
}

void countReuse(ReuseHistogram &Reuse, const KeptChunk &Chunk,
                unsigned LineShift) {
  size_t NextCold = 0;
  for (size_t I = 0; I < Chunk.Accesses.size(); ++I) {
    if (NextCold < Chunk.ColdAt.size() && Chunk.ColdAt[NextCold] == I) {
      Reuse.forgetLines();
      while (NextCold < Chunk.ColdAt.size() && Chunk.ColdAt[NextCold] == I)
        ++NextCold;
    }
    const KeptAccess &A = Chunk.Accesses[I];
    Reuse.accessBytes(A.Address, A.Length, LineShift);
    // A run's accesses stay in the line the access before ended in.
    Reuse.repeatLast(A.Repeat);
  }
  // New workgroups after its last access forget the lines too.
  if (NextCold < Chunk.ColdAt.size())
    Reuse.forgetLines();
}

void ReuseLane::count(std::shared_ptr<const KeptChunk> Chunk) {
  if (Busy.valid())
    Busy.wait();
  Busy = Thread.async([this, Chunk = std::move(Chunk)] {
    countReuse(Reuse, *Chunk, LineShift);
  });
}

void ReuseLane::wait() {
  Thread.wait();
  Busy = {};
}

} // namespace wgtrace::viewer
