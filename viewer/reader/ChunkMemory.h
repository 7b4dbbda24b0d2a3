//===- ChunkMemory.h - Reused memory for decompressed chunks ----*- C++ -*-===//
//
// A compressed ring chunk is decompressed into memory of its own, as large
// as the ring (tens of MiB). Fresh memory for every chunk faults its pages
// in one by one, 4 KiB at a time, and on a virtual machine a page fault
// costs microseconds: on the bench's 64 MiB rings that was most of what
// the decompression cost beyond zstd. The memory here goes back to a pool
// when the chunk is done with and serves the next chunk, on whichever
// thread decompresses it, on transparent huge pages where the system gives
// them on request. The pool holds no more blocks than were in use at once.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_CHUNKMEMORY_H
#define WGTRACE_VIEWER_CHUNKMEMORY_H

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace wgtrace::viewer {

class ChunkMemory : public std::enable_shared_from_this<ChunkMemory> {
public:
  static std::shared_ptr<ChunkMemory> create() {
    return std::shared_ptr<ChunkMemory>(new ChunkMemory());
  }

  /// At least \p Bytes bytes (not zeroed), which return to the pool when
  /// the last copy of the pointer goes; the pool lives as long as they do.
  std::shared_ptr<uint8_t[]> take(uint64_t Bytes);

private:
  ChunkMemory() = default;
  struct Block {
    std::unique_ptr<uint8_t[]> Data;
    uint64_t Size = 0;
  };
  void give(Block B);

  std::mutex Lock;
  std::vector<Block> Free;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_CHUNKMEMORY_H
