//===- ring_registry.cc - Every thread's ring, for the writer -------------===//

#include "ring_registry.h"

#include "config.h"

#include <cstdlib>
#include <mutex>
#include <vector>

namespace wgtrace::detail {
WGTRACE_TLS ThreadState ThreadStateTLS = {nullptr, nullptr, kNoSite};
} // namespace wgtrace::detail

namespace wgtrace::runtime {
namespace {

struct RingList {
  std::mutex Lock;
  std::vector<detail::Ring *> Rings;
};

// Leaked on purpose: the trace is written by an exit handler that may run
// after static destructors.
RingList &ringList() {
  static RingList *List = new RingList;
  return *List;
}

WGTRACE_TLS detail::Ring *OwnRing = nullptr;

detail::Ring *allocateRing() {
  uint64_t Size = config().BufferSize;
  // calloc of this size maps fresh zero pages: only touched pages become
  // resident, so a large ring costs what the trace uses.
  auto *Data = static_cast<uint8_t *>(
      std::calloc(1, format::ringChunkContentLength(Size)));
  if (!Data)
    fatal("cannot allocate a trace ring of " + std::to_string(Size) +
          " bytes (WGTRACE_BUFFER_SIZE)");
  auto *R = new detail::Ring{Data, Size - 1, 0, 0};
  RingList &List = ringList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  List.Rings.push_back(R);
  return R;
}

} // namespace

detail::Ring &threadRing() {
  if (!OwnRing)
    OwnRing = allocateRing();
  return *OwnRing;
}

void forEachRing(const std::function<void(const detail::Ring &)> &Visit) {
  RingList &List = ringList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  for (const detail::Ring *R : List.Rings)
    Visit(*R);
}

} // namespace wgtrace::runtime
