//===- ScratchDirectory.h - Where a test process keeps its files -*- C++
//-*-===//
//
// Tests write traces, outputs and directories of their own. Each test
// process keeps them in one directory under GoogleTest's TempDir(), named
// after the process, and removes it with everything in it when the process
// ends: a test run leaves nothing behind in /tmp (ctest runs every test in
// a process of its own, so thousands of runs would otherwise pile up).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_SUPPORT_SCRATCHDIRECTORY_H
#define WGTRACE_TEST_SUPPORT_SCRATCHDIRECTORY_H

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace wgtrace::testing {

/// This process's scratch directory (created on first use, removed at exit).
inline const std::string &scratchDirectory() {
  struct Scratch {
    std::string Path =
        ::testing::TempDir() + "/wgtrace-test-" + std::to_string(getpid());
    pid_t Owner = getpid();
    Scratch() { mkdir(Path.c_str(), 0755); }
    ~Scratch() {
      // A child forked by a test exits through here too: only the process
      // that made the directory removes it.
      if (getpid() != Owner)
        return;
      std::error_code Ignored;
      std::filesystem::remove_all(Path, Ignored);
    }
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;
  };
  static Scratch S;
  return S.Path;
}

/// scratchDirectory()/\p Name, without the file that may be there.
inline std::string scratchPath(const std::string &Name) {
  std::string Path = scratchDirectory() + "/" + Name;
  std::error_code Ignored;
  std::filesystem::remove(Path, Ignored);
  return Path;
}

/// scratchDirectory()/\p Name as an empty directory.
inline std::string scratchSubdirectory(const std::string &Name) {
  std::string Path = scratchDirectory() + "/" + Name;
  std::error_code Ignored;
  std::filesystem::remove_all(Path, Ignored);
  std::filesystem::create_directory(Path, Ignored);
  return Path;
}

} // namespace wgtrace::testing

#endif // WGTRACE_TEST_SUPPORT_SCRATCHDIRECTORY_H
