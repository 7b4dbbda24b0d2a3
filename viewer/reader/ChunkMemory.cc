//===- ChunkMemory.cc -----------------------------------------------------===//

#include "reader/ChunkMemory.h"

#include "analyses/HugePages.h"

#include <algorithm>

namespace wgtrace::viewer {

std::shared_ptr<uint8_t[]> ChunkMemory::take(uint64_t Bytes) {
  Block B;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    // The smallest free block that holds the chunk; without one, the
    // largest free block gives way to a new one, so that the pool never
    // holds more blocks than were in use at once.
    auto Best = Free.end();
    for (auto It = Free.begin(); It != Free.end(); ++It)
      if (It->Size >= Bytes && (Best == Free.end() || It->Size < Best->Size))
        Best = It;
    if (Best == Free.end() && !Free.empty())
      Best = std::max_element(
          Free.begin(), Free.end(),
          [](const Block &L, const Block &R) { return L.Size < R.Size; });
    if (Best != Free.end()) {
      if (Best->Size >= Bytes)
        B = std::move(*Best);
      Free.erase(Best);
    }
  }
  if (!B.Data) {
    B.Data.reset(new uint8_t[Bytes]);
    B.Size = Bytes;
    adviseHugePages(B.Data.get(), Bytes);
  }
  const uint64_t Size = B.Size;
  return std::shared_ptr<uint8_t[]>(
      B.Data.release(), [Pool = shared_from_this(), Size](uint8_t *Data) {
        Block Back;
        Back.Data.reset(Data);
        Back.Size = Size;
        Pool->give(std::move(Back));
      });
}

void ChunkMemory::give(Block B) {
  std::lock_guard<std::mutex> Guard(Lock);
  Free.push_back(std::move(B));
}

} // namespace wgtrace::viewer
