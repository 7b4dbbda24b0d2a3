//===- scoped_ring.h - A ring the hot path records into, for tests -*- C++ -*-//
//
// Tests of what the access macros and the recorded algorithms write make a
// ring current, as a running workgroup does, and read the records back.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_RUNTIME_SCOPED_RING_H
#define WGTRACE_TEST_RUNTIME_SCOPED_RING_H

#include "thread_ring.h"

#include "wgtrace/format.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace wgtrace::test {

/// A ring-mode ring of \p Size bytes made current for the test's duration.
struct ScopedRing {
  explicit ScopedRing(uint64_t Size)
      : Storage(format::ringChunkContentLength(Size)) {
    TR.setSize(Size);
    TR.reset(Storage.data());
    TR.Hot.KeyBits = 0;
    detail::ThreadStateTLS.Recording = &TR.Hot;
    detail::ThreadStateTLS.Current = &TR.Hot;
  }
  ~ScopedRing() {
    detail::ThreadStateTLS.Recording = nullptr;
    detail::ThreadStateTLS.Current = nullptr;
  }
  ScopedRing(const ScopedRing &) = delete;
  ScopedRing &operator=(const ScopedRing &) = delete;

  const uint8_t *data() const { return Storage.data(); }

  /// A memory record as written: its address word split in two.
  struct Access {
    bool IsStore;
    uintptr_t Address;
    uint32_t Site;
  };
  /// The memory records written so far, in order.
  std::vector<Access> accesses() const {
    std::vector<Access> Out;
    for (uint64_t At = 0; At < TR.head(); At += 16) {
      format::MemoryRecord R = format::decodeMemory(data() + At);
      uint64_t Word;
      std::memcpy(&Word, data() + At + 8, sizeof(Word));
      Out.push_back({R.IsStore, format::addressOfWord(Word),
                     format::accessSiteOfWord(Word)});
    }
    return Out;
  }

  std::vector<uint8_t> Storage;
  runtime::ThreadRing TR;
};

} // namespace wgtrace::test

#endif // WGTRACE_TEST_RUNTIME_SCOPED_RING_H
