//===- ProgressTest.cc - The status line only where someone looks ---------===//

#include "analyses/Progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace wgtrace::viewer;

namespace {

void feed(Progress &P, uint64_t Records) {
  Record R;
  for (uint64_t I = 0; I < Records; ++I) {
    R.FileOffset = I * 16;
    P.record(R);
  }
}

TEST(Progress, SilentWhenNotATerminal) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Progress P(OS, 1 << 30, /*Enabled=*/false);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  feed(P, 1 << 18);
  P.finish();
  EXPECT_EQ(OS.str(), "");
}

TEST(Progress, SilentForShortRuns) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  Progress P(OS, 1 << 30, /*Enabled=*/true);
  feed(P, 1 << 18);
  P.finish();
  EXPECT_EQ(OS.str(), "");
}

TEST(Progress, StatusLineAfterASecondThenErased) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  // 2^22 records of 16 bytes: the last tick is at 64 MiB of 128 MiB.
  Progress P(OS, uint64_t(128) << 20, /*Enabled=*/true);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  feed(P, 1 << 22);
  EXPECT_EQ(OS.str().rfind("\rwgtrace-view: ", 0), 0u) << OS.str();
  EXPECT_NE(OS.str().find("% of 128.0 MiB, "), std::string::npos);
  P.finish();
  EXPECT_EQ(OS.str().substr(OS.str().size() - 4), "\r\x1b[K");
}

} // namespace
