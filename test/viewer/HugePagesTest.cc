//===- HugePagesTest.cc - Asking for transparent huge pages ---------------===//
//
// adviseHugePages() marks the 2 MiB-aligned part inside a buffer for huge
// pages, and nothing around it (the pages there may belong to other
// allocations). The kernel says which mappings are marked: "hg" in the
// VmFlags of /proc/self/smaps.
//
//===----------------------------------------------------------------------===//

#include "analyses/HugePages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace wgtrace::viewer;

namespace {

#if defined(__linux__)
constexpr uintptr_t kHuge = uintptr_t(2) << 20;

/// Whether the mapping holding \p Address is marked for huge pages.
bool markedHuge(uintptr_t Address) {
  std::ifstream Smaps("/proc/self/smaps");
  bool Inside = false;
  for (std::string Line; std::getline(Smaps, Line);) {
    uintptr_t Lo = 0, Hi = 0;
    char Dash = 0;
    std::istringstream Range(Line);
    if (Line.find("VmFlags:") == 0) {
      if (Inside)
        return Line.find(" hg") != std::string::npos;
      continue;
    }
    if (Range >> std::hex >> Lo >> Dash >> Hi && Dash == '-')
      Inside = Address >= Lo && Address < Hi;
  }
  return false;
}

TEST(HugePages, AdvisesTheAlignedPartInside) {
  if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) != 0)
    GTEST_SKIP() << "no transparent huge pages";
  // Four huge pages mapped, so that three lie 2 MiB-aligned inside; advise
  // 4 MiB from one page past the first boundary.
  const size_t Bytes = 4 * kHuge;
  void *Map = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(Map, MAP_FAILED);
  char *const Mapped = static_cast<char *>(Map);
  const uintptr_t Aligned = (uintptr_t(Map) + kHuge - 1) & ~(kHuge - 1);
  const size_t Page = size_t(sysconf(_SC_PAGESIZE));
  char *const First = Mapped + (Aligned - uintptr_t(Map));
  adviseHugePages(First + Page, 2 * kHuge);
  // Only [Aligned + 2 MiB, Aligned + 4 MiB) lies whole inside.
  EXPECT_FALSE(markedHuge(Aligned));
  EXPECT_TRUE(markedHuge(Aligned + kHuge));
  EXPECT_TRUE(markedHuge(Aligned + 2 * kHuge - 1));
  EXPECT_FALSE(markedHuge(Aligned + 2 * kHuge));
  // Less than one aligned huge page inside: nothing.
  adviseHugePages(First + 2 * kHuge + Page, kHuge);
  EXPECT_FALSE(markedHuge(Aligned + 2 * kHuge + Page));
  munmap(Map, Bytes);
}
#endif

} // namespace
