//===- trace_output_test.cc - Where a trace goes, as users name it --------===//
//
// WGTRACE_FILE as users set it: a symlink (its target is written, the link
// stays), a FIFO, a socket, a device and /dev/stdout (written in place,
// never replaced), a file that cannot be written (the previous one stays,
// no temporary file is left), and one path shared by several processes
// (no mixed file, every process's trace survives).
//
//===----------------------------------------------------------------------===//

#include "driver_process.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <poll.h>
#include <set>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <thread>
#include <utility>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::test;

namespace {

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In),
                     std::istreambuf_iterator<char>());
}

Decoded decodeBytes(const std::string &Bytes) {
  TraceFile File = TraceFile::fromBytes(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size()));
  return decodeFile(File);
}

/// What an earlier run left at a path: a file that begins as a trace does.
std::string earlierTrace(const std::string &Rest) {
  std::string Bytes(sizeof(format::kChunkMagic), '\0');
  std::memcpy(Bytes.data(), &format::kChunkMagic, Bytes.size());
  return Bytes + Rest;
}

/// Reads everything written to the file descriptor \p Fd until its end.
std::string readAll(int Fd) {
  std::string Bytes;
  char Buffer[65536];
  for (ssize_t N; (N = read(Fd, Buffer, sizeof(Buffer))) > 0;)
    Bytes.append(Buffer, size_t(N));
  return Bytes;
}

} // namespace

// A symlink's target is written and the link stays a link, also when the
// target does not exist yet or the link is relative and in another folder.
TEST(TraceOutput, SymlinkIsWrittenThroughToItsTarget) {
  for (const auto &Mode : kModes) {
    std::string Directory = freshDirectory("symlink");
    std::string Target = Directory + "/target.bin";
    std::string Link = Directory + "/link.bin";
    std::ofstream(Target) << earlierTrace("previous");
    ASSERT_EQ(symlink("target.bin", Link.c_str()), 0);
    ChildResult R =
        runDriver({"records", "3", "4"}, with(Mode, {"WGTRACE_FILE=" + Link}));
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    struct stat S;
    ASSERT_EQ(lstat(Link.c_str(), &S), 0);
    EXPECT_TRUE(S_ISLNK(S.st_mode)) << "the link was replaced";
    Decoded D = decode(Target);
    ASSERT_TRUE(D.Ok) << D.Error;
    EXPECT_EQ(D.Workgroups.size(), 3u);

    // A dangling link: its target is created.
    std::remove(Target.c_str());
    R = runDriver({"records", "2", "4"}, with(Mode, {"WGTRACE_FILE=" + Link}));
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    ASSERT_EQ(lstat(Link.c_str(), &S), 0);
    EXPECT_TRUE(S_ISLNK(S.st_mode));
    D = decode(Target);
    ASSERT_TRUE(D.Ok) << D.Error;
    EXPECT_EQ(D.Workgroups.size(), 2u);
    // Nothing else is left in the folder: no temporary file.
    EXPECT_EQ(filesIn(Directory, /*Hidden=*/true),
              (std::vector<std::string>{"link.bin", "target.bin"}));
  }
}

// A FIFO is opened and written, never replaced by a file; what its reader
// gets is the whole trace.
TEST(TraceOutput, FifoIsWrittenInPlace) {
  for (const auto &Mode : kModes) {
    std::string Directory = freshDirectory("fifo");
    std::string Fifo = Directory + "/trace.fifo";
    ASSERT_EQ(mkfifo(Fifo.c_str(), 0644), 0);
    // Held open for writing too until the program is done, so that the
    // reader sees the end even if the program never opened the FIFO. The
    // read end is opened here, not in the reader thread: opened there after
    // Keep was closed, it would wait for a writer forever (seen as a CI run
    // that never ended, on a loaded machine).
    int Keep = open(Fifo.c_str(), O_RDWR | O_CLOEXEC);
    ASSERT_GE(Keep, 0);
    int ReadEnd = open(Fifo.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(ReadEnd, 0);
    std::string Bytes;
    std::thread Reader([&] {
      Bytes = readAll(ReadEnd);
      close(ReadEnd);
    });
    ChildResult R =
        runDriver({"records", "3", "40"}, with(Mode, {"WGTRACE_FILE=" + Fifo}));
    close(Keep);
    Reader.join();
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    struct stat S;
    ASSERT_EQ(lstat(Fifo.c_str(), &S), 0);
    EXPECT_TRUE(S_ISFIFO(S.st_mode)) << "the FIFO was replaced";
    Decoded D = decodeBytes(Bytes);
    ASSERT_TRUE(D.Ok) << D.Error;
    std::set<uint32_t> Ids;
    for (const Decoded::Workgroup &W : D.Workgroups)
      Ids.insert(W.Id);
    EXPECT_EQ(Ids, (std::set<uint32_t>{0, 1, 2}));
    EXPECT_EQ(filesIn(Directory, true), std::vector<std::string>{"trace.fifo"});
  }
}

// A Unix socket is connected to, and its listener gets the trace.
TEST(TraceOutput, SocketIsConnectedTo) {
  for (const auto &Mode : kModes) {
    std::string Directory = freshDirectory("socket");
    std::string Path = Directory + "/trace.sock";
    int Listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un Address = {};
    Address.sun_family = AF_UNIX;
    ASSERT_LT(Path.size(), sizeof(Address.sun_path));
    std::memcpy(Address.sun_path, Path.c_str(), Path.size() + 1);
    ASSERT_EQ(bind(Listener, reinterpret_cast<struct sockaddr *>(&Address),
                   sizeof(Address)),
              0);
    ASSERT_EQ(listen(Listener, 1), 0);
    std::string Bytes;
    std::atomic<bool> Done{false};
    std::thread Reader([&] {
      // Until the program has ended, and a last look after.
      struct pollfd Wait = {Listener, POLLIN, 0};
      bool Last = false;
      while (poll(&Wait, 1, 100) != 1)
        if (std::exchange(Last, Done.load()))
          return; // nobody connected
      int Fd = accept(Listener, nullptr, nullptr);
      Bytes = readAll(Fd);
      close(Fd);
    });
    ChildResult R =
        runDriver({"records", "3", "4"}, with(Mode, {"WGTRACE_FILE=" + Path}));
    Done = true;
    Reader.join();
    close(Listener);
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    struct stat S;
    ASSERT_EQ(lstat(Path.c_str(), &S), 0);
    EXPECT_TRUE(S_ISSOCK(S.st_mode));
    Decoded D = decodeBytes(Bytes);
    ASSERT_TRUE(D.Ok) << D.Error;
    EXPECT_EQ(D.Workgroups.size(), 3u);
  }
}

// A character device (here a private copy of /dev/null: the test must not
// risk the system's) is written in place, even by root, whom nothing stops
// from replacing it with a file.
TEST(TraceOutput, CharacterDeviceIsWrittenInPlace) {
  std::string Directory = freshDirectory("device");
  std::string Device = Directory + "/null";
  if (mknod(Device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "cannot make a device node here (needs root): "
                 << std::strerror(errno);
  for (const auto &Mode : kModes) {
    ChildResult R = runDriver({"records", "3", "4"},
                              with(Mode, {"WGTRACE_FILE=" + Device}));
    EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
    EXPECT_EQ(R.Stderr, "");
    struct stat S;
    ASSERT_EQ(lstat(Device.c_str(), &S), 0);
    EXPECT_TRUE(S_ISCHR(S.st_mode)) << "the device was replaced by a file";
    EXPECT_EQ(S.st_rdev, makedev(1, 3));
  }
  EXPECT_EQ(filesIn(Directory, true), std::vector<std::string>{"null"});
}

// WGTRACE_FILE=/dev/stdout writes to the program's standard output, here
// a file, which stays the file its parent opened. (A private link to
// /proc/self/fd/1, which is what /dev/stdout is: a test of a runtime that
// replaced it must not replace the system's.)
TEST(TraceOutput, DevStdoutIsTheProgramsStandardOutput) {
  for (const auto &Mode : kModes) {
    std::string Directory = freshDirectory("stdout");
    std::string Out = Directory + "/out.bin";
    std::string Stdout = Directory + "/stdout";
    ASSERT_EQ(symlink("/proc/self/fd/1", Stdout.c_str()), 0);
    std::ofstream(Out) << "x";
    struct stat Before, After;
    ASSERT_EQ(stat(Out.c_str(), &Before), 0);
    ChildResult R = runProgram(WGTRACE_DRIVER, {"records", "3", "4"},
                               with(Mode, {"WGTRACE_FILE=" + Stdout}), Out);
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    ASSERT_EQ(stat(Out.c_str(), &After), 0);
    EXPECT_EQ(Before.st_ino, After.st_ino) << "standard output was replaced";
    struct stat Link;
    ASSERT_EQ(lstat(Stdout.c_str(), &Link), 0);
    EXPECT_TRUE(S_ISLNK(Link.st_mode)) << "the link was replaced";
    Decoded D = decode(Out);
    ASSERT_TRUE(D.Ok) << D.Error;
    EXPECT_EQ(D.Workgroups.size(), 3u);
    EXPECT_EQ(filesIn(Directory, true),
              (std::vector<std::string>{"out.bin", "stdout"}));
  }
}

// A write that fails half-way (here the file size limit) is an error with
// the path and the reason; the file that was there stays as it was, and
// no temporary file is left.
TEST(TraceOutput, FailedWriteKeepsThePreviousFileAndLeavesNoTemporary) {
  for (const auto &Mode : kModes) {
    std::string Directory = freshDirectory("failed");
    std::string Path = Directory + "/trace.bin";
    std::ofstream(Path) << "previous";
    ChildResult R = runDriver(
        {"records", "100", "40"},
        with(Mode, {"WGTRACE_FILE=" + Path, "DRIVER_FILE_SIZE=20000"}));
    EXPECT_EQ(R.ExitCode, 74) << R.Stderr;
    EXPECT_NE(R.Stderr.find("wgtrace: error: trace not written: cannot write"),
              std::string::npos)
        << R.Stderr;
    EXPECT_NE(R.Stderr.find("File too large"), std::string::npos) << R.Stderr;
    EXPECT_EQ(slurp(Path), "previous");
    EXPECT_EQ(filesIn(Directory, true), std::vector<std::string>{"trace.bin"});
  }
}

namespace {

/// Runs one driver per entry of \p Workgroups, all with WGTRACE_FILE=\p
/// Path (and \p Env), and lets them exit at the same moment: each waits at
/// a gate (DRIVER_GATE) that opens when all are ready.
std::vector<ChildResult> runTogether(const std::string &Directory,
                                     const std::string &Path,
                                     const std::vector<std::string> &Env,
                                     const std::vector<int> &Workgroups,
                                     std::vector<pid_t> &Pids) {
  std::string Gate = Directory + "/gate";
  std::vector<RunningChild> Children;
  for (int N : Workgroups)
    Children.push_back(startProgram(
        WGTRACE_DRIVER, {"records", std::to_string(N), "40"},
        with(Env, {"WGTRACE_FILE=" + Path, "DRIVER_GATE=" + Gate})));
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (const RunningChild &C : Children)
    while (access((Gate + ".ready." + std::to_string(C.Pid)).c_str(), F_OK) !=
               0 &&
           std::chrono::steady_clock::now() < Deadline)
      usleep(1000);
  std::ofstream(Gate) << "open";
  std::vector<ChildResult> Results;
  Pids.clear();
  for (const RunningChild &C : Children) {
    Results.push_back(finishProgram(C));
    Pids.push_back(C.Pid);
  }
  for (const RunningChild &C : Children)
    std::remove((Gate + ".ready." + std::to_string(C.Pid)).c_str());
  std::remove(Gate.c_str());
  return Results;
}

} // namespace

// Two programs with the same WGTRACE_FILE (no %p) ending at the same
// moment, in ring and in stream mode, with no file there before and with
// an earlier run's: neither file is mixed, both traces are complete, one
// at the path and one beside it, and the process that wrote beside says so
// in one line naming both.
TEST(TraceOutput, TwoProcessesOnePathBothTracesSurvive) {
  for (const auto &Mode : kModes) {
    for (bool EarlierRun : {false, true}) {
      std::string What = std::string(Mode.empty() ? "ring" : "stream") +
                         (EarlierRun ? ", after an earlier run" : "");
      std::string Directory = freshDirectory("together");
      std::string Path = Directory + "/trace.bin";
      if (EarlierRun)
        std::ofstream(Path) << earlierTrace("an earlier run's trace");
      std::vector<pid_t> Pids;
      std::vector<ChildResult> Results =
          runTogether(Directory, Path, Mode, {3, 5}, Pids);
      int Warnings = 0;
      std::set<std::string> Expected = {"trace.bin"};
      for (size_t I = 0; I < Results.size(); ++I) {
        EXPECT_EQ(Results[I].ExitCode, 0) << What << ": " << Results[I].Stderr;
        std::string Beside = Path + "." + std::to_string(Pids[I]);
        if (Results[I].Stderr.find("wgtrace: warning: '" + Path +
                                   "' was written by another process since "
                                   "this one started; this process's trace "
                                   "is in '" +
                                   Beside + "'") != std::string::npos) {
          ++Warnings;
          Expected.insert("trace.bin." + std::to_string(Pids[I]));
        }
      }
      EXPECT_EQ(Warnings, 1)
          << What << ": " << Results[0].Stderr << Results[1].Stderr;
      std::vector<std::string> Files = filesIn(Directory, /*Hidden=*/true);
      EXPECT_EQ(std::set<std::string>(Files.begin(), Files.end()), Expected)
          << What;
      std::multiset<size_t> Counts;
      for (const std::string &Name : Expected) {
        Decoded D = decode(Directory + "/" + Name);
        ASSERT_TRUE(D.Ok) << What << ": " << Name << ": " << D.Error;
        std::set<uint32_t> Ids;
        for (const Decoded::Workgroup &W : D.Workgroups)
          Ids.insert(W.Id);
        Counts.insert(Ids.size());
      }
      EXPECT_EQ(Counts, (std::multiset<size_t>{3, 5})) << What;
    }
  }
}

// A file at the path that is no trace (a source file named by mistake) is
// never replaced: the trace goes beside it, and the process says so in one
// line naming both. An empty file is replaced.
TEST(TraceOutput, AFileThatIsNoTraceIsKept) {
  for (const auto &Mode : kModes) {
    std::string Directory = freshDirectory("kept");
    std::string Path = Directory + "/kernel.cc";
    const std::string Source = "int main() { return 0; }\n";
    std::ofstream(Path) << Source;
    ChildResult R =
        runDriver({"records", "3", "4"}, with(Mode, {"WGTRACE_FILE=" + Path}));
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    EXPECT_EQ(slurp(Path), Source);
    std::vector<std::string> Files = filesIn(Directory, /*Hidden=*/true);
    ASSERT_EQ(Files.size(), 2u) << R.Stderr;
    const std::string Beside =
        Directory + "/" + (Files[0] == "kernel.cc" ? Files[1] : Files[0]);
    EXPECT_EQ(Beside.rfind(Path + ".", 0), 0u) << Beside;
    EXPECT_NE(R.Stderr.find("wgtrace: warning: '" + Path +
                            "' is not a trace file, and is kept; this "
                            "process's trace is in '" +
                            Beside + "'"),
              std::string::npos)
        << R.Stderr;
    Decoded D = decode(Beside);
    ASSERT_TRUE(D.Ok) << D.Error;
    EXPECT_EQ(D.Workgroups.size(), 3u);

    const std::string Empty = Directory + "/empty.bin";
    std::ofstream(Empty).close();
    R = runDriver({"records", "2", "4"}, with(Mode, {"WGTRACE_FILE=" + Empty}));
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    EXPECT_EQ(R.Stderr.find("warning"), std::string::npos) << R.Stderr;
    D = decode(Empty);
    ASSERT_TRUE(D.Ok) << D.Error;
    EXPECT_EQ(D.Workgroups.size(), 2u);
  }
}

// A process and the child it forks share WGTRACE_FILE without %p: the
// child's trace (which holds the parent's records before the fork too) is
// at the path and the parent's beside it.
TEST(TraceOutput, ForkedChildAndParentKeepBothTraces) {
  std::string Directory = freshDirectory("fork");
  std::string Path = Directory + "/trace.bin";
  ChildResult R = runDriver({"fork", "2", "4"}, {"WGTRACE_FILE=" + Path});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  std::vector<std::string> Files = filesIn(Directory, true);
  ASSERT_EQ(Files.size(), 2u) << R.Stderr;
  std::multiset<size_t> Counts;
  for (const std::string &Name : Files) {
    Decoded D = decode(Directory + "/" + Name);
    ASSERT_TRUE(D.Ok) << Name << ": " << D.Error;
    Counts.insert(D.Workgroups.size());
  }
  EXPECT_EQ(Counts, (std::multiset<size_t>{2, 3}));
  EXPECT_NE(R.Stderr.find("was written by another process since this one "
                          "started"),
            std::string::npos)
      << R.Stderr;
}
