//===- trace_modes_test.cc - Ring wrap, stream mode, crashes, timing ------===//
//
// Runs trace_modes_driver in a child process with the environment of each
// case and decodes the file it leaves with the viewer's decoder.
//
//===----------------------------------------------------------------------===//

#include "TraceFile.h"
#include "TraceReader.h"

#include "wgtrace/format.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace wgtrace;
using namespace wgtrace::viewer;

namespace {

struct ChildResult {
  int ExitCode = -1;
  int Signal = 0;
  std::string Stderr;
};

/// Runs the driver with \p Env added to the environment.
ChildResult runProgram(const char *Program,
                       const std::vector<std::string> &Args,
                       const std::vector<std::string> &Env) {
  std::string ErrPath =
      ::testing::TempDir() + "/driver-" + std::to_string(getpid()) + ".stderr";
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
  posix_spawn_file_actions_addopen(&Actions, 2, ErrPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t Pid;
  ChildResult Result;
  if (posix_spawn(&Pid, Program, &Actions, nullptr, ArgvPtrs.data(),
                  EnvPtrs.data()) != 0)
    return Result;
  posix_spawn_file_actions_destroy(&Actions);
  int Status = 0;
  waitpid(Pid, &Status, 0);
  if (WIFEXITED(Status))
    Result.ExitCode = WEXITSTATUS(Status);
  if (WIFSIGNALED(Status))
    Result.Signal = WTERMSIG(Status);
  std::ifstream In(ErrPath);
  Result.Stderr.assign(std::istreambuf_iterator<char>(In),
                       std::istreambuf_iterator<char>());
  return Result;
}

ChildResult runDriver(const std::vector<std::string> &Args,
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

Decoded decode(const std::string &Path) {
  Decoded D;
  llvm::Expected<TraceFile> File = TraceFile::open(Path);
  if (!File) {
    D.Error = llvm::toString(File.takeError());
    return D;
  }
  Collector C(D);
  TraceReader Reader(*File, RingMode::WrapAware);
  AnalysisTool *Tools[] = {&C};
  if (llvm::Error E = Reader.run(Tools)) {
    D.Error = llvm::toString(std::move(E));
    return D;
  }
  D.Ok = true;
  return D;
}

std::string tracePath(const std::string &Name) {
  std::string Path = ::testing::TempDir() + "/" + Name + "-" +
                     std::to_string(getpid()) + ".bin";
  std::remove(Path.c_str());
  return Path;
}

/// Loads and stores recorded per workgroup id (a workgroup split across
/// stream chunks counts once per piece, so add them up).
std::map<uint32_t, std::pair<uint64_t, uint64_t>>
perWorkgroup(const Decoded &D) {
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> Counts;
  for (const Decoded::Workgroup &W : D.Workgroups) {
    Counts[W.Id].first += W.Loads;
    Counts[W.Id].second += W.Stores;
  }
  return Counts;
}

/// A trace file's chunks, read without the decoder: what the runtime wrote.
struct RawTrace {
  struct Chunk {
    format::ChunkType Type;
    const uint8_t *Content;
    uint64_t Length;
  };
  std::vector<uint8_t> File;
  std::vector<Chunk> Chunks;
};

RawTrace readRawTrace(const std::string &Path) {
  RawTrace T;
  std::ifstream In(Path, std::ios::binary);
  T.File.assign(std::istreambuf_iterator<char>(In),
                std::istreambuf_iterator<char>());
  for (uint64_t Offset = 0; Offset + 16 <= T.File.size();) {
    format::ChunkHeader H;
    std::memcpy(&H, T.File.data() + Offset, sizeof(H));
    EXPECT_EQ(H.Magic, format::kChunkMagic) << "at offset " << Offset;
    if (H.Magic != format::kChunkMagic)
      break;
    T.Chunks.push_back({static_cast<format::ChunkType>(H.Type),
                        T.File.data() + Offset + 16, H.ContentLength});
    Offset = format::nextChunkOffset(Offset, H.ContentLength);
  }
  return T;
}

std::vector<format::TimingRecord> timingEntries(const RawTrace::Chunk &C) {
  std::vector<format::TimingRecord> Entries(C.Length /
                                            sizeof(format::TimingRecord));
  std::memcpy(Entries.data(), C.Content,
              Entries.size() * sizeof(format::TimingRecord));
  return Entries;
}

} // namespace

TEST(TraceModes, StreamModeLosesNothingOnATraceTenTimesTheBuffer) {
  // 400 workgroups x 100 accesses x 2 records x 16 bytes = 1.25 MiB of
  // records through a 64 KiB buffer: about 20 buffers.
  std::string Stream = tracePath("stream");
  ChildResult S = runDriver({"records", "400", "100"},
                            {"WGTRACE_FILE=" + Stream, "WGTRACE_MODE=stream",
                             "WGTRACE_BUFFER_SIZE=64kib"});
  ASSERT_EQ(S.ExitCode, 0) << S.Stderr;
  std::string Ring = tracePath("ring_large");
  ChildResult R =
      runDriver({"records", "400", "100"},
                {"WGTRACE_FILE=" + Ring, "WGTRACE_BUFFER_SIZE=64mib"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;

  Decoded StreamTrace = decode(Stream);
  Decoded RingTrace = decode(Ring);
  ASSERT_TRUE(StreamTrace.Ok) << StreamTrace.Error;
  ASSERT_TRUE(RingTrace.Ok) << RingTrace.Error;
  EXPECT_GE(StreamTrace.Rings.size(), 10u);
  for (const RingInfo &I : StreamTrace.Rings)
    EXPECT_FALSE(I.Wrapped);
  auto Expected = perWorkgroup(RingTrace);
  ASSERT_EQ(Expected.size(), 400u);
  for (auto &[Id, Counts] : Expected) {
    EXPECT_EQ(Counts.first, 100u) << "workgroup " << Id;
    EXPECT_EQ(Counts.second, 100u) << "workgroup " << Id;
  }
  EXPECT_EQ(perWorkgroup(StreamTrace), Expected);
}

// Buffers of 4 KiB, the smallest, with workgroups of every length and long
// prints: workgroups continue in new buffers at every offset, prints are cut
// to what a buffer holds after a workgroup record, and nothing is lost.
TEST(TraceModes, StreamModeWithTheSmallestBufferAndLongPrints) {
  std::string Stream = tracePath("stream_small");
  ChildResult S = runDriver({"varied", "300", "40"},
                            {"WGTRACE_FILE=" + Stream, "WGTRACE_MODE=stream",
                             "WGTRACE_BUFFER_SIZE=4kib"});
  ASSERT_EQ(S.ExitCode, 0) << S.Stderr;
  Decoded D = decode(Stream);
  ASSERT_TRUE(D.Ok) << D.Error;
  EXPECT_GE(D.Rings.size(), 100u);
  auto Counts = perWorkgroup(D);
  ASSERT_EQ(Counts.size(), 300u);
  for (auto &[Id, Count] : Counts) {
    uint64_t Expected = 40 + Id * 7 % 23;
    EXPECT_EQ(Count.first, Expected) << "workgroup " << Id;
    EXPECT_EQ(Count.second, Expected) << "workgroup " << Id;
  }
}

TEST(TraceModes, RingWrapKeepsExactlyTheWorkgroupsOfTheLastLap) {
  // Each workgroup: a 32-byte record and 10 x 2 access records of 16 bytes,
  // 352 bytes; 100 of them through an 8 KiB ring.
  constexpr uint64_t kWorkgroupBytes = 32 + 20 * 16, kRing = 8192, kCount = 100;
  std::string Path = tracePath("wrap");
  ChildResult R =
      runDriver({"records", "100", "10"},
                {"WGTRACE_FILE=" + Path, "WGTRACE_BUFFER_SIZE=8kib"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  uint64_t Head = kCount * kWorkgroupBytes;
  // The oldest workgroup record at or after Head - R survives; every one
  // before it is gone.
  uint64_t FirstKept = (Head - kRing + kWorkgroupBytes - 1) / kWorkgroupBytes;
  EXPECT_NE(R.Stderr.find("wgtrace: ring of thread 0 wrapped: " +
                          std::to_string(FirstKept * kWorkgroupBytes) + " of " +
                          std::to_string(Head) + " bytes overwritten"),
            std::string::npos)
      << R.Stderr;

  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  ASSERT_EQ(D.Rings.size(), 1u);
  EXPECT_TRUE(D.Rings[0].Wrapped);
  ASSERT_EQ(D.Workgroups.size(), kCount - FirstKept);
  for (size_t I = 0; I < D.Workgroups.size(); ++I) {
    EXPECT_EQ(D.Workgroups[I].Id, FirstKept + I);
    EXPECT_EQ(D.Workgroups[I].Loads, 10u);
    EXPECT_EQ(D.Workgroups[I].Stores, 10u);
  }
}

TEST(TraceModes, FaultingKernelLeavesItsEarlierRecordsAndDiesOfTheSignal) {
  std::string Path = tracePath("crash");
  ChildResult R = runDriver({"crash", "4", "8"}, {"WGTRACE_FILE=" + Path});
  EXPECT_EQ(R.Signal, SIGSEGV) << R.Stderr;
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  // The four dispatched workgroups, then the direct call that faulted,
  // with its accesses up to and including the faulting store.
  ASSERT_EQ(D.Workgroups.size(), 5u);
  for (size_t I = 0; I < 4; ++I) {
    EXPECT_EQ(D.Workgroups[I].Id, I);
    EXPECT_EQ(D.Workgroups[I].Stores, 8u);
  }
  EXPECT_EQ(D.Workgroups[4].Loads, 8u);
  EXPECT_EQ(D.Workgroups[4].Stores, 9u);
  EXPECT_NE(D.Workgroups[4].Site, D.Workgroups[0].Site)
      << "a direct call must record under the kernel's direct-call site";
}

// The records of a loop that is still running when the signal arrives are
// written but not yet counted (the cursor lives in a register until the
// loop ends); the crash handler recovers them from the ring.
TEST(TraceModes, FaultInTheMiddleOfALoopKeepsTheLoopsRecords) {
  std::string Path = tracePath("crash_in_loop");
  ChildResult R =
      runDriver({"crash-in-loop", "4", "100"}, {"WGTRACE_FILE=" + Path});
  EXPECT_EQ(R.Signal, SIGSEGV) << R.Stderr;
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  ASSERT_EQ(D.Workgroups.size(), 5u);
  // Ten rounds, then the 11th load and the store through null.
  EXPECT_EQ(D.Workgroups[4].Loads, 11u);
  EXPECT_EQ(D.Workgroups[4].Stores, 11u);
}

// Workgroups of 2 KiB in a 64 KiB ring: every workgroup record lands where
// one landed a lap before, whose records carry the same key. Those must not
// be recovered as the faulting workgroup's.
TEST(TraceModes, RecoveryAfterAWrapTakesNoStaleRecords) {
  std::string Path = tracePath("crash_after_wrap");
  ChildResult R =
      runDriver({"crash-in-loop", "100", "63"},
                {"WGTRACE_FILE=" + Path, "WGTRACE_BUFFER_SIZE=64kib"});
  EXPECT_EQ(R.Signal, SIGSEGV) << R.Stderr;
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  ASSERT_FALSE(D.Workgroups.empty());
  EXPECT_EQ(D.Workgroups.back().Loads, 11u);
  EXPECT_EQ(D.Workgroups.back().Stores, 11u);
}

TEST(TraceModes, AbortExitAndTerminateStillWriteTheTrace) {
  struct Case {
    const char *Scenario;
    int Signal;
    int ExitCode;
  } Cases[] = {
      {"abort", SIGABRT, -1}, {"exit", 0, 3}, {"terminate", SIGABRT, -1}};
  for (const Case &C : Cases) {
    std::string Path = tracePath(C.Scenario);
    ChildResult R = runDriver({C.Scenario, "2", "4"}, {"WGTRACE_FILE=" + Path});
    EXPECT_EQ(R.Signal, C.Signal) << C.Scenario << ": " << R.Stderr;
    if (C.ExitCode >= 0) {
      EXPECT_EQ(R.ExitCode, C.ExitCode) << C.Scenario;
    }
    Decoded D = decode(Path);
    ASSERT_TRUE(D.Ok) << C.Scenario << ": " << D.Error;
    EXPECT_EQ(D.Workgroups.size(), 3u) << C.Scenario;
  }
}

TEST(TraceModes, StreamModeSurvivesACrash) {
  std::string Path = tracePath("stream_crash");
  ChildResult R = runDriver({"crash", "300", "100"},
                            {"WGTRACE_FILE=" + Path, "WGTRACE_MODE=stream",
                             "WGTRACE_BUFFER_SIZE=64kib"});
  EXPECT_EQ(R.Signal, SIGSEGV) << R.Stderr;
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  auto Counts = perWorkgroup(D);
  ASSERT_EQ(Counts.size(), 300u);
  for (uint32_t Id = 1; Id < 300; ++Id)
    EXPECT_EQ(Counts[Id].second, 100u) << "workgroup " << Id;
}

TEST(TraceModes, MemoryOffKeepsOnlyWorkgroups) {
  std::string Path = tracePath("memory_off");
  ChildResult R = runDriver({"records", "5", "10"},
                            {"WGTRACE_FILE=" + Path, "WGTRACE_MEMORY=0"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  ASSERT_EQ(D.Workgroups.size(), 5u);
  for (const auto &W : D.Workgroups)
    EXPECT_EQ(W.Loads + W.Stores, 0u);
}

TEST(TraceModes, BadSettingsNameTheVariable) {
  struct Case {
    const char *Setting;
    const char *Expected;
  } Cases[] = {
      {"WGTRACE_BUFFER_SIZE=3mib", "WGTRACE_BUFFER_SIZE='3mib' is not a power "
                                   "of two"},
      {"WGTRACE_BUFFER_SIZE=big", "WGTRACE_BUFFER_SIZE='big' is not a size"},
      {"WGTRACE_MODE=fast", "WGTRACE_MODE='fast' is not a mode"},
      {"WGTRACE_MEMORY=yes", "WGTRACE_MEMORY='yes' is not a switch"},
      {"WGTRACE_WORKERS=0", "WGTRACE_WORKERS='0' is not a worker count"},
      {"WGTRACE_DEVICE=gpu", "WGTRACE_DEVICE='gpu' is not a device"},
  };
  for (const Case &C : Cases) {
    ChildResult R = runDriver({"timing", "2", "1"},
                              {C.Setting, "WGTRACE_FILE=" + tracePath("bad")});
    EXPECT_EQ(R.ExitCode, 2) << C.Setting;
    EXPECT_NE(R.Stderr.find(std::string("wgtrace: error: ") + C.Expected),
              std::string::npos)
        << C.Setting << ": " << R.Stderr;
  }
}

TEST(TraceModes, TimingChunkFollowsEachRingWithOneEntryPerWorkgroup) {
  std::string Path = tracePath("timing");
  ChildResult R = runDriver(
      {"timing", "16", "4"},
      {"WGTRACE_FILE=" + Path, "WGTRACE_TIMING=1", "WGTRACE_WORKERS=2"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  RawTrace Raw = readRawTrace(Path);
  uint64_t Entries = 0;
  format::ChunkType Previous = format::ChunkType::DispatchMetadata;
  for (const RawTrace::Chunk &C : Raw.Chunks) {
    if (C.Type == format::ChunkType::WorkgroupTiming) {
      EXPECT_EQ(Previous, format::ChunkType::DispatchRingBuffer);
      ASSERT_EQ(C.Length % sizeof(format::TimingRecord), 0u);
      for (const format::TimingRecord &T : timingEntries(C)) {
        EXPECT_LE(T.StartNs, T.EndNs);
        EXPECT_LT(T.ProcessorId, 2u);
        ++Entries;
      }
    }
    Previous = C.Type;
  }
  EXPECT_EQ(Entries, 16u);
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  EXPECT_EQ(D.Workgroups.size(), 16u);
}

// In stream mode a workgroup that outlives its thread's buffer is written
// again at the top of the next chunk; its timing entry names that copy.
TEST(TraceModes, StreamTimingEntriesNameWorkgroupRecordsInTheirChunk) {
  std::string Path = tracePath("stream_timing");
  ChildResult R = runDriver({"timing", "40", "300"},
                            {"WGTRACE_FILE=" + Path, "WGTRACE_TIMING=1",
                             "WGTRACE_MODE=stream", "WGTRACE_BUFFER_SIZE=64kib",
                             "WGTRACE_WORKERS=2"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  RawTrace Raw = readRawTrace(Path);
  uint64_t Entries = 0, RingChunks = 0, Continued = 0;
  const uint8_t *Ring = nullptr;
  uint64_t Head = 0;
  for (const RawTrace::Chunk &C : Raw.Chunks) {
    if (C.Type == format::ChunkType::DispatchRingBuffer) {
      Ring = C.Content;
      std::memcpy(&Head, C.Content + C.Length - 8, 8);
      ++RingChunks;
    }
    if (C.Type == format::ChunkType::WorkgroupTiming) {
      ASSERT_NE(Ring, nullptr);
      for (const format::TimingRecord &T : timingEntries(C)) {
        ASSERT_LT(T.WorkgroupOffset, Head);
        EXPECT_EQ(format::recordTag(Ring + T.WorkgroupOffset),
                  uint8_t(format::Tag::Workgroup))
            << "entry " << Entries << " at offset " << T.WorkgroupOffset;
        Continued += T.WorkgroupOffset == 0 && RingChunks > 2;
        ++Entries;
      }
    }
  }
  EXPECT_EQ(Entries, 40u);
  EXPECT_GT(RingChunks, 4u) << "the trace should span several buffers";
  EXPECT_GT(Continued, 0u) << "no workgroup was continued in a new buffer";
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  auto Counts = perWorkgroup(D);
  ASSERT_EQ(Counts.size(), 40u);
  for (uint32_t Id = 0; Id < 40; ++Id)
    EXPECT_EQ(Counts[Id].second, 300u) << "workgroup " << Id;
}

TEST(TraceModes, RingWrapWithWorkgroupsLargerThanTheRing) {
  // Workgroups of 6 KiB through a 16 KiB ring: up to 6 KiB of the last lap
  // precede the oldest intact workgroup record.
  constexpr uint64_t kWorkgroupBytes = 32 + 384 * 16, kRing = 16384,
                     kCount = 20;
  std::string Path = tracePath("wrap_large");
  ChildResult R =
      runDriver({"records", "20", "192"},
                {"WGTRACE_FILE=" + Path, "WGTRACE_BUFFER_SIZE=16kib"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  uint64_t Head = kCount * kWorkgroupBytes;
  uint64_t FirstKept = (Head - kRing + kWorkgroupBytes - 1) / kWorkgroupBytes;
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  ASSERT_EQ(D.Workgroups.size(), kCount - FirstKept);
  EXPECT_EQ(D.Workgroups.front().Id, FirstKept);
  EXPECT_EQ(D.Rings[0].LostBytes, FirstKept * kWorkgroupBytes - (Head - kRing));

  // One workgroup bigger than the whole ring: no workgroup record
  // survives, and nothing is shown as belonging to a wrong one.
  std::string Huge = tracePath("wrap_huge");
  R = runDriver({"records", "2", "1000"},
                {"WGTRACE_FILE=" + Huge, "WGTRACE_BUFFER_SIZE=8kib"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  D = decode(Huge);
  ASSERT_TRUE(D.Ok) << D.Error;
  EXPECT_TRUE(D.Workgroups.empty());
  EXPECT_EQ(D.Rings[0].LostBytes, 8192u);
}

TEST(TraceModes, SharedStaticAndExecutableModulesShareOneTrace) {
  std::string Path = tracePath("multi_module");
  ChildResult R =
      runProgram(WGTRACE_MULTI_MODULE, {}, {"WGTRACE_FILE=" + Path});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  // Three modules, each with one dispatch site and one direct-call site.
  ASSERT_EQ(D.SiteNames.size(), 6u);
  std::multiset<std::string> Names(D.SiteNames.begin(), D.SiteNames.end());
  EXPECT_EQ(Names.count("kernel_a"), 3u); // its two sites + main's launch
  EXPECT_EQ(Names.count("kernel_b"), 2u);
  EXPECT_EQ(Names.count("kernel_main"), 1u);
  // 2 + 2 dispatched workgroups, one launch of kernel_a from main, one
  // direct call: each under a site naming its own kernel, with distinct
  // sites for distinct launch places.
  ASSERT_EQ(D.Workgroups.size(), 6u);
  std::set<uint32_t> SitesOfA;
  for (const auto &W : D.Workgroups) {
    ASSERT_LT(W.Site, D.SiteNames.size());
    if (D.SiteNames[W.Site] == "kernel_a")
      SitesOfA.insert(W.Site);
  }
  EXPECT_EQ(SitesOfA.size(), 2u) << "module_a's site and main's site";
  EXPECT_EQ(D.SiteNames[D.Workgroups[2].Site], "kernel_b");
  EXPECT_EQ(D.SiteNames[D.Workgroups.back().Site], "kernel_main");
}

TEST(TraceModes, FlushSnapshotAndResetFromTheProgram) {
  std::string Flushed = tracePath("api_flushed");
  std::string Final = tracePath("api_final");
  ChildResult R =
      runDriver({"api", "3", "5"},
                {"WGTRACE_FILE=" + Final, "WGTRACE_API_FLUSH=" + Flushed});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  // flushTrace wrote the three workgroups of the first dispatch...
  Decoded First = decode(Flushed);
  ASSERT_TRUE(First.Ok) << First.Error;
  EXPECT_EQ(First.Workgroups.size(), 3u);
  // ...and after resetTrace the exit trace holds only the second.
  Decoded Last = decode(Final);
  ASSERT_TRUE(Last.Ok) << Last.Error;
  ASSERT_EQ(Last.Workgroups.size(), 1u);
  EXPECT_EQ(Last.Workgroups[0].Stores, 5u);

  // In stream mode the trace is already streaming: flush says so.
  std::string Streamed = tracePath("api_stream");
  R = runDriver({"api", "3", "5"},
                {"WGTRACE_FILE=" + Streamed, "WGTRACE_MODE=stream",
                 "WGTRACE_API_FLUSH=" + Flushed});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  Decoded S = decode(Streamed);
  ASSERT_TRUE(S.Ok) << S.Error;
  EXPECT_EQ(S.Workgroups.size(), 3u) << "stream mode: nothing was reset";
}
