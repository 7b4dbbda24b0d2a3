//===- CliRun.h - Run wgtrace-view as a user would, for tests ---*- C++ -*-===//

#ifndef WGTRACE_TEST_VIEWER_CLIRUN_H
#define WGTRACE_TEST_VIEWER_CLIRUN_H

#include "support/ScratchDirectory.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace wgtrace::testing {

struct ViewRun {
  int Status = -1;
  std::string Out, Err;
};

inline std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

inline std::string tempPath(const std::string &Name) {
  // ctest runs each test in its own process, in parallel: each keeps its
  // files apart, and removes them when it ends.
  return scratchDirectory() + "/" + Name;
}

/// wgtrace-view run with \p Args, its standard input \p Input's bytes
/// through a pipe when given.
inline ViewRun view(const std::string &Args, const std::string &Input = "") {
  std::string Out = tempPath("out.txt"), Err = tempPath("err.txt");
  std::string Cmd = (Input.empty() ? "" : "cat " + Input + " | ") +
                    std::string(WGTRACE_VIEW_PATH) + " " + Args + " >" + Out +
                    " 2>" + Err;
  int Raw = std::system(Cmd.c_str());
  ViewRun R;
  R.Status = WIFEXITED(Raw) ? WEXITSTATUS(Raw) : -1;
  R.Out = slurp(Out);
  R.Err = slurp(Err);
  return R;
}

inline std::string writeTrace(const std::string &Name,
                              const std::vector<uint8_t> &Bytes) {
  std::string Path = tempPath(Name);
  std::ofstream(Path, std::ios::binary)
      .write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  return Path;
}

} // namespace wgtrace::testing

#endif // WGTRACE_TEST_VIEWER_CLIRUN_H
