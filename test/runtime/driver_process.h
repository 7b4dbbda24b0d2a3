//===- driver_process.h - Run a traced program, decode its trace -*- C++
//-*-===//
//
// What the whole-process tests share: running trace_modes_driver (or
// another instrumented program) in a child process with a chosen
// environment, and reading the trace it leaves with the viewer's decoder.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_RUNTIME_DRIVER_PROCESS_H
#define WGTRACE_TEST_RUNTIME_DRIVER_PROCESS_H

#include "reader/TraceFile.h"
#include "reader/TraceReader.h"

#include "support/ScratchDirectory.h"
#include "wgtrace/format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace wgtrace::test {

using namespace wgtrace::viewer;

struct ChildResult {
  int ExitCode = -1;
  int Signal = 0;
  std::string Stderr;
};

/// A child process started by startProgram().
struct RunningChild {
  pid_t Pid = -1;
  std::string ErrPath;
};

/// Starts \p Program with \p Env added to the environment (WGTRACE_
/// variables of the test's own environment removed), its standard error
/// captured and, with \p StdoutPath, its standard output written there.
inline RunningChild startProgram(const char *Program,
                                 const std::vector<std::string> &Args,
                                 const std::vector<std::string> &Env,
                                 const std::string &StdoutPath = "") {
  static int Started = 0;
  RunningChild Child;
  Child.ErrPath = ::testing::TempDir() + "/driver-" + std::to_string(getpid()) +
                  "-" + std::to_string(Started++) + ".stderr";
  std::vector<std::string> Argv = {Program};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::vector<char *> ArgvPtrs;
  for (std::string &A : Argv)
    ArgvPtrs.push_back(A.data());
  ArgvPtrs.push_back(nullptr);
  std::vector<std::string> Environment;
  for (char **E = environ; *E; ++E)
    if (std::string(*E).rfind("WGTRACE_", 0) != 0)
      Environment.push_back(*E);
  Environment.insert(Environment.end(), Env.begin(), Env.end());
  std::vector<char *> EnvPtrs;
  for (std::string &E : Environment)
    EnvPtrs.push_back(E.data());
  EnvPtrs.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 2, Child.ErrPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!StdoutPath.empty())
    posix_spawn_file_actions_addopen(&Actions, 1, StdoutPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (posix_spawn(&Child.Pid, Program, &Actions, nullptr, ArgvPtrs.data(),
                  EnvPtrs.data()) != 0)
    Child.Pid = -1;
  posix_spawn_file_actions_destroy(&Actions);
  return Child;
}

/// Waits for \p Child and returns how it ended and what it printed on
/// standard error.
inline ChildResult finishProgram(const RunningChild &Child) {
  ChildResult Result;
  if (Child.Pid < 0)
    return Result;
  int Status = 0;
  waitpid(Child.Pid, &Status, 0);
  if (WIFEXITED(Status))
    Result.ExitCode = WEXITSTATUS(Status);
  if (WIFSIGNALED(Status))
    Result.Signal = WTERMSIG(Status);
  std::ifstream In(Child.ErrPath);
  Result.Stderr.assign(std::istreambuf_iterator<char>(In),
                       std::istreambuf_iterator<char>());
  std::remove(Child.ErrPath.c_str());
  return Result;
}

/// startProgram() and finishProgram().
inline ChildResult runProgram(const char *Program,
                              const std::vector<std::string> &Args,
                              const std::vector<std::string> &Env,
                              const std::string &StdoutPath = "") {
  return finishProgram(startProgram(Program, Args, Env, StdoutPath));
}

/// The two ways the runtime writes a trace: ring mode (the default) and
/// stream mode with small buffers, so that a short run writes many chunks.
inline const std::vector<std::vector<std::string>> kModes = {
    {}, {"WGTRACE_MODE=stream", "WGTRACE_BUFFER_SIZE=4kib"}};

/// \p Env with \p More appended.
inline std::vector<std::string> with(std::vector<std::string> Env,
                                     const std::vector<std::string> &More) {
  Env.insert(Env.end(), More.begin(), More.end());
  return Env;
}

inline ChildResult runDriver(const std::vector<std::string> &Args,
                             const std::vector<std::string> &Env) {
  return runProgram(WGTRACE_DRIVER, Args, Env);
}

/// What a decoded trace holds, per workgroup record in order.
struct Decoded {
  struct Workgroup {
    uint32_t Id;
    uint32_t Site;
    uint64_t Loads = 0, Stores = 0;
  };
  /// Function name of each dispatch site, from the last metadata chunk.
  std::vector<std::string> SiteNames;
  std::vector<Workgroup> Workgroups;
  std::vector<RingInfo> Rings;
  bool Ok = false;
  std::string Error;
};

class Collector : public AnalysisTool {
public:
  explicit Collector(Decoded &Out) : Out(Out) {}
  void metadata(const Metadata &M, const ChunkLocation &) override {
    Out.SiteNames.clear();
    for (uint32_t Site = 0; Site < M.SiteFunctions.size(); ++Site)
      Out.SiteNames.push_back(M.siteFunction(Site).nameOr("").str());
  }
  void beginRing(const RingInfo &Info) override { Out.Rings.push_back(Info); }
  void endRing(const RingInfo &Info) override { Out.Rings.back() = Info; }
  void record(const Record &R) override {
    if (R.Tag == format::Tag::Workgroup) {
      Out.Workgroups.push_back(
          {R.Workgroup->Record.Id[0], R.Workgroup->Record.DispatchId});
      return;
    }
    if (R.Tag == format::Tag::MemoryLoad)
      ++Out.Workgroups.back().Loads;
    if (R.Tag == format::Tag::MemoryStore)
      ++Out.Workgroups.back().Stores;
  }

private:
  Decoded &Out;
};

inline Decoded decodeFile(const TraceFile &File,
                          RingMode Mode = RingMode::WrapAware) {
  Decoded D;
  Collector C(D);
  TraceReader Reader(File, Mode);
  AnalysisTool *Tools[] = {&C};
  if (llvm::Error E = Reader.run(Tools)) {
    D.Error = llvm::toString(std::move(E));
    return D;
  }
  D.Ok = true;
  return D;
}

/// The census of the trace at \p Path (its run records, loss), or the
/// decoder's error in \p Error.
inline TraceCensus censusOf(const std::string &Path, std::string *Error) {
  llvm::Expected<TraceFile> File = TraceFile::open(Path);
  if (!File) {
    *Error = llvm::toString(File.takeError());
    return {};
  }
  Decoded D;
  Collector C(D);
  TraceReader Reader(*File, RingMode::WrapAware);
  AnalysisTool *Tools[] = {&C};
  if (llvm::Error E = Reader.run(Tools))
    *Error = llvm::toString(std::move(E));
  return Reader.census();
}

inline Decoded decode(const std::string &Path,
                      RingMode Mode = RingMode::WrapAware) {
  llvm::Expected<TraceFile> File = TraceFile::open(Path);
  if (!File) {
    Decoded D;
    D.Error = llvm::toString(File.takeError());
    return D;
  }
  return decodeFile(*File, Mode);
}

inline std::string tracePath(const std::string &Name) {
  return wgtrace::testing::scratchPath(Name + ".bin");
}

/// An empty directory of this test process's own (removed when it ends).
inline std::string freshDirectory(const std::string &Name) {
  return wgtrace::testing::scratchSubdirectory(Name);
}

/// The files in \p Directory; with \p Hidden, also those whose name
/// begins with a dot (but "." and "..").
inline std::vector<std::string> filesIn(const std::string &Directory,
                                        bool Hidden = false) {
  std::vector<std::string> Names;
  if (DIR *D = opendir(Directory.c_str())) {
    while (dirent *E = readdir(D))
      if (E->d_name[0] != '.' || (Hidden && std::string(E->d_name) != "." &&
                                  std::string(E->d_name) != ".."))
        Names.push_back(E->d_name);
    closedir(D);
  }
  std::sort(Names.begin(), Names.end());
  return Names;
}

} // namespace wgtrace::test

#endif // WGTRACE_TEST_RUNTIME_DRIVER_PROCESS_H
