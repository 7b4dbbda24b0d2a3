//===- HugePages.cc -------------------------------------------------------===//

#include "analyses/HugePages.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace wgtrace::viewer {

void adviseHugePages(void *Begin, size_t Bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t HugePage = uintptr_t(2) << 20;
  const uintptr_t Start = uintptr_t(Begin);
  const uintptr_t Lo = (Start + HugePage - 1) & ~(HugePage - 1);
  const uintptr_t Hi = (Start + Bytes) & ~(HugePage - 1);
  if (Hi > Lo)
    // Advice only: on failure the pages stay small. Addressed from Begin:
    // the range is part of the buffer.
    (void)::madvise(static_cast<char *>(Begin) + (Lo - Start), Hi - Lo,
                    MADV_HUGEPAGE);
#else
  (void)Begin;
  (void)Bytes;
#endif
}

} // namespace wgtrace::viewer
