//===- trace_modes_test.cc - Ring wrap, stream mode, crashes, timing ------===//
//
// Runs trace_modes_driver in a child process with the environment of each
// case and decodes the file it leaves with the viewer's decoder.
//
//===----------------------------------------------------------------------===//

#include "driver_process.h"
#include "raw_trace.h"

#include "wgtrace/format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <spawn.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

using namespace wgtrace;
using namespace wgtrace::viewer;
using namespace wgtrace::test;

namespace {

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

/// Every ring chunk read as IREE's tool reads it holds only records, its
/// keys name earlier WORKGROUP records, and it has a trailer.
void expectSelfContainedChunks(const RawTrace &T) {
  for (size_t I = 0; I < T.Rings.size(); ++I) {
    const RawRing &R = T.Rings[I];
    EXPECT_EQ(R.Problem, "") << "ring chunk " << I;
    EXPECT_LE(R.Head, R.RingSize) << "ring chunk " << I;
    EXPECT_TRUE(format::isPowerOfTwo(R.RingSize)) << "ring chunk " << I;
    EXPECT_TRUE(R.Trailer.has_value()) << "ring chunk " << I;
    if (!R.Records.empty()) {
      EXPECT_EQ(R.Records.front().Tag, format::Tag::Workgroup)
          << "ring chunk " << I;
    }
  }
  std::string Bad;
  T.invocations(&Bad);
  EXPECT_EQ(Bad, "");
  // The checksums the writer computed as it streamed the chunks are those
  // of the bytes it wrote.
  EXPECT_EQ(T.ChecksumProblems, "");
}

/// Checks that the timing chunks follow every ring chunk and that each
/// names its ring chunk and, per entry, a WORKGROUP record in it; returns
/// their entries.
std::vector<format::TimingRecord> checkTimingChunks(const RawTrace &T) {
  std::vector<format::TimingRecord> All;
  std::vector<size_t> RingsSoFar;
  bool SawTiming = false;
  for (const RawChunk &C : T.Chunks) {
    if (C.Type == format::ChunkType::DispatchRingBuffer && !C.RunRecord) {
      EXPECT_FALSE(SawTiming) << "a ring chunk after a timing chunk";
      RingsSoFar.push_back(C.Ring);
      continue;
    }
    if (C.Type != format::ChunkType::WorkgroupTiming)
      continue;
    SawTiming = true;
    EXPECT_EQ(C.Version, format::kTimingChunkVersion);
    format::TimingChunkHeader H;
    std::memcpy(&H, C.Content, sizeof(H));
    EXPECT_GE(H.RingsBack, 1u);
    if (H.RingsBack < 1 || H.RingsBack > RingsSoFar.size()) {
      ADD_FAILURE() << "RingsBack " << H.RingsBack << " names no ring chunk";
      continue;
    }
    const RawRing &Ring = T.Rings[RingsSoFar[RingsSoFar.size() - H.RingsBack]];
    EXPECT_EQ(H.RingId, Ring.Trailer->RingId);
    EXPECT_EQ(H.ChunkSequence, Ring.Trailer->ChunkSequence);
    EXPECT_EQ((C.Length - sizeof(H)) % sizeof(format::TimingRecord), 0u);
    for (const format::TimingRecord &E : timingEntries(C, sizeof(H))) {
      bool Named = false;
      for (const RawRecord &Rec : Ring.Records)
        Named |= Rec.Offset == E.WorkgroupOffset &&
                 Rec.Tag == format::Tag::Workgroup;
      EXPECT_TRUE(Named) << "timing entry at offset " << E.WorkgroupOffset;
      All.push_back(E);
    }
  }
  return All;
}

/// Bytes recorded in a ring-mode trace's only ring: what its chunk holds
/// and what its trailer says was lost.
uint64_t ringBytes(const RawRing &R) { return R.Head + R.Trailer->BytesLost; }

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

#ifdef WGTRACE_HAVE_ZSTD
// WGTRACE_COMPRESS=zstd: every ring chunk with records is a compressed
// chunk (the run record stays plain), and the decoder reads the same
// workgroups and records from it as from the plain trace of the same run.
TEST(TraceModes, CompressedTracesHoldWhatPlainOnesHold) {
  for (const char *Mode : {"ring", "stream"}) {
    std::string Plain = tracePath(std::string("plain_") + Mode);
    std::string Packed = tracePath(std::string("zstd_") + Mode);
    // Stream mode: many buffers; ring mode: one ring that holds them all.
    const bool Stream = std::string(Mode) == "stream";
    std::vector<std::string> Env = {std::string("WGTRACE_MODE=") + Mode,
                                    std::string("WGTRACE_BUFFER_SIZE=") +
                                        (Stream ? "64kib" : "16mib"),
                                    "WGTRACE_TIMING=1"};
    Env.push_back("WGTRACE_FILE=" + Plain);
    ChildResult P = runDriver({"records", "200", "100"}, Env);
    ASSERT_EQ(P.ExitCode, 0) << P.Stderr;
    Env.back() = "WGTRACE_FILE=" + Packed;
    Env.push_back("WGTRACE_COMPRESS=zstd:3");
    ChildResult Z = runDriver({"records", "200", "100"}, Env);
    ASSERT_EQ(Z.ExitCode, 0) << Z.Stderr;

    RawTrace Raw = RawTrace::read(Packed);
    unsigned Compressed = 0;
    for (const RawChunk &C : Raw.Chunks) {
      Compressed += C.Type == format::ChunkType::Compressed;
      if (C.Type == format::ChunkType::DispatchRingBuffer) {
        EXPECT_TRUE(C.RunRecord) << Mode << ": a plain ring chunk";
      }
    }
    EXPECT_EQ(Raw.Runs.size(), 1u) << Mode;
    EXPECT_GT(Compressed, 0u) << Mode;
    EXPECT_LT(Raw.File.size() * 5, RawTrace::read(Plain).File.size()) << Mode;

    Decoded A = decode(Plain), B = decode(Packed);
    ASSERT_TRUE(A.Ok) << Mode << ": " << A.Error;
    ASSERT_TRUE(B.Ok) << Mode << ": " << B.Error;
    EXPECT_EQ(A.Rings.size(), B.Rings.size()) << Mode;
    auto Expected = perWorkgroup(A);
    EXPECT_EQ(Expected.size(), 200u) << Mode;
    EXPECT_EQ(perWorkgroup(B), Expected) << Mode;
  }
}
#endif

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

// 100 workgroups of 352 bytes (a 32-byte record, 10 loads and 10 stores)
// through an 8 KiB ring of two 4 KiB parts: the chunk is the newest records
// from a workgroup record on, rotated to start at offset 0, and its trailer
// accounts for every byte, record and workgroup of the ring.
TEST(TraceModes, WrappedRingIsWrittenFromItsOldestWorkgroupWithItsLoss) {
  constexpr uint64_t kWorkgroupBytes = 32 + 20 * 16, kCount = 100;
  std::string Path = tracePath("wrap");
  ChildResult R =
      runDriver({"records", "100", "10"},
                {"WGTRACE_FILE=" + Path, "WGTRACE_BUFFER_SIZE=8kib"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  RawTrace T = RawTrace::read(Path);
  ASSERT_EQ(T.Rings.size(), 1u);
  expectSelfContainedChunks(T);
  const RawRing &Ring = T.Rings[0];
  ASSERT_TRUE(Ring.Trailer);
  const format::RingTrailer &Trailer = *Ring.Trailer;
  EXPECT_TRUE(Trailer.Flags & format::kTrailerWrapped);
  EXPECT_FALSE(Trailer.Flags &
               (format::kTrailerStream | format::kTrailerCrash));
  EXPECT_EQ(Trailer.RingId, 0u);
  EXPECT_EQ(Trailer.ChunkSequence, 0u);
  EXPECT_EQ(Trailer.RingSize, 8192u);
  EXPECT_EQ(Trailer.BaseVirtualOffset, Trailer.BytesLost)
      << "nothing after the chunk's first record may be dropped";
  // At most a part of the ring and a workgroup precede the chunk's start.
  EXPECT_GE(Ring.Head, 8192u - 4096 - kWorkgroupBytes);
  EXPECT_EQ(Ring.RingSize, 8192u);

  // The workgroups of the chunk are the last ones, each complete but the
  // first, which may be a continuation of a workgroup begun before.
  auto Invocations = T.invocations();
  ASSERT_FALSE(Invocations.empty());
  uint32_t Id = Invocations.begin()->second.Id[0];
  for (const auto &[Key, Inv] : Invocations) {
    EXPECT_EQ(Inv.Id[0], Id++);
    if (Key != Invocations.begin()->first || Inv.SawFirst) {
      EXPECT_TRUE(Inv.SawFirst);
      EXPECT_EQ(Inv.Loads, 10u);
      EXPECT_EQ(Inv.Stores, 10u);
    }
  }
  EXPECT_EQ(Id, kCount);

  // Every byte recorded is in the chunk or counted lost: the workgroups'
  // bytes, 48 per continuation (a copy and its Continuation VALUE: two
  // records) and, on odd laps, 16 for the mark of no operation before it
  // (one record). So the bytes and the records say how many of each there
  // were, and the chunk holds at most as many.
  uint64_t Bytes = ringBytes(Ring);
  uint64_t Extra = Bytes - kCount * kWorkgroupBytes;
  ASSERT_EQ(Extra % 16, 0u);
  uint64_t Records = Ring.Records.size() + Trailer.RecordsLost;
  ASSERT_GE(Records, kCount * 21);
  ASSERT_GE(Extra / 16, Records - kCount * 21);
  uint64_t Copies = Extra / 16 - (Records - kCount * 21);
  ASSERT_GE(Records - kCount * 21, 2 * Copies);
  uint64_t Marks = Records - kCount * 21 - 2 * Copies;
  EXPECT_GT(Copies, 0u);
  EXPECT_GT(Marks, 0u) << "laps 1 and 3 cross part boundaries";
  EXPECT_LE(Marks, Copies);
  uint64_t CopiesKept = 0, MarksKept = 0;
  for (const RawRecord &Rec : Ring.Records) {
    if (Rec.Tag != format::Tag::Value)
      continue;
    format::ValueRecord V = format::decodeValue(Rec.Bytes);
    CopiesKept += V.Type == format::ValueType::Continuation;
    MarksKept += V.Type == format::ValueType::Atomic &&
                 V.Bits == uint64_t(format::AtomicOp::None);
  }
  EXPECT_LE(CopiesKept, Copies);
  EXPECT_LE(MarksKept, Marks);
  EXPECT_EQ(Invocations.size() + Trailer.WorkgroupsLost, kCount);
  ASSERT_EQ(Ring.LostSites.size(), 1u);
  EXPECT_EQ(Ring.LostSites[0].DispatchId, 0u);
  EXPECT_EQ(Ring.LostSites[0].Workgroups, Trailer.WorkgroupsLost);
  EXPECT_NE(
      R.Stderr.find(
          "wgtrace: ring 0 wrapped: " + std::to_string(Trailer.BytesLost) +
          " of " + std::to_string(Bytes) + " bytes overwritten (" +
          std::to_string(Trailer.RecordsLost) + " records, " +
          std::to_string(Trailer.WorkgroupsLost) + " workgroups)"),
      std::string::npos)
      << R.Stderr;

  // The viewer reads it, and so does IREE's reading of a ring (from offset
  // 0 to the head), record for record.
  Decoded D = decode(Path);
  ASSERT_TRUE(D.Ok) << D.Error;
  Decoded Iree = decode(Path, RingMode::IreeCompat);
  ASSERT_TRUE(Iree.Ok) << Iree.Error;
  size_t WorkgroupRecords = 0;
  for (const RawRecord &Rec : Ring.Records)
    WorkgroupRecords += Rec.Tag == format::Tag::Workgroup;
  EXPECT_EQ(D.Workgroups.size(), WorkgroupRecords);
  EXPECT_EQ(Iree.Workgroups.size(), WorkgroupRecords);
}

// A ring that never wrapped is written as the smallest power-of-two ring of
// at least 4 KiB that holds its records, however large WGTRACE_BUFFER_SIZE.
TEST(TraceModes, RingThatNeverWrappedIsWrittenAsSmallAsItsRecords) {
  struct Case {
    const char *Workgroups, *Accesses;
    uint64_t Used, ChunkRing;
  } Cases[] = {{"3", "4", 3 * (32 + 8 * 16), 4096},
               {"100", "40", 100 * (32 + 80 * 16), 262144}};
  for (const Case &C : Cases) {
    std::string Path = tracePath("compact");
    ChildResult R =
        runDriver({"records", C.Workgroups, C.Accesses},
                  {"WGTRACE_FILE=" + Path, "WGTRACE_BUFFER_SIZE=16mib"});
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    RawTrace T = RawTrace::read(Path);
    ASSERT_EQ(T.Rings.size(), 1u);
    expectSelfContainedChunks(T);
    EXPECT_EQ(T.Rings[0].Head, C.Used);
    EXPECT_EQ(T.Rings[0].RingSize, C.ChunkRing);
    EXPECT_LT(T.File.size(), C.ChunkRing + 16384);
    const format::RingTrailer &Trailer = *T.Rings[0].Trailer;
    EXPECT_EQ(Trailer.RingSize, uint64_t{16} << 20);
    EXPECT_EQ(Trailer.Flags, 0u);
    EXPECT_EQ(Trailer.BytesLost + Trailer.RecordsLost + Trailer.WorkgroupsLost,
              0u);
    EXPECT_TRUE(T.Rings[0].LostSites.empty());
    EXPECT_EQ(R.Stderr.find("wrapped"), std::string::npos) << R.Stderr;
  }
}

// A thread per launch: a thread that ends hands its ring to the next, so
// the trace has as many rings as threads were alive at once, each holding
// the records of all the threads that used it, with their processor ids.
TEST(TraceModes, ThreadsThatEndHandTheirRingToTheNext) {
  for (const char *Scenario : {"threads", "threads2"}) {
    std::string Path = tracePath(Scenario);
    ChildResult R =
        runDriver({Scenario, "50", "16"},
                  {"WGTRACE_FILE=" + Path, "WGTRACE_BUFFER_SIZE=1mib"});
    ASSERT_EQ(R.ExitCode, 0) << Scenario << ": " << R.Stderr;
    RawTrace T = RawTrace::read(Path);
    expectSelfContainedChunks(T);
    size_t Together = std::string(Scenario) == "threads2" ? 2 : 1;
    EXPECT_LE(T.Rings.size(), Together) << Scenario;
    auto Invocations = T.invocations();
    ASSERT_EQ(Invocations.size(), 50u) << Scenario;
    std::set<uint32_t> Ids;
    for (const auto &[Key, Inv] : Invocations) {
      EXPECT_EQ(Inv.ProcessorId, Inv.Id[0]);
      EXPECT_EQ(Inv.Loads, 16u);
      EXPECT_EQ(Inv.Stores, 16u);
      Ids.insert(Inv.Id[0]);
    }
    EXPECT_EQ(Ids.size(), 50u);
    // The rings hold 50 x (32 + 32 x 16) bytes of records between them, in
    // any split: a thread that ends before its partner starts hands its
    // ring to it. Each ring chunk is as small as its own records.
    uint64_t Records = 0, Chunks = 0;
    for (const RawRing &Ring : T.Rings) {
      Records += Ring.Head;
      uint64_t Smallest = 4096;
      while (Smallest < Ring.Head)
        Smallest *= 2;
      EXPECT_EQ(Ring.RingSize, Smallest) << Scenario << ": " << Ring.Head;
      Chunks += format::kChunkHeaderSize + Ring.RingSize + format::kRingPadding;
    }
    EXPECT_EQ(Records, 50u * (32 + 32 * 16));
    // Besides: the metadata and the run record chunk (4128 bytes).
    EXPECT_LT(T.File.size(), Chunks + 8192 + 4128);
  }
}

// Ctrl-C, kill, a hang-up, quit and a CPU time limit write the trace, in
// the middle of a workgroup, and the process still ends by the signal.
TEST(TraceModes, TerminationSignalsWriteTheTraceAndEndTheProcessAsBefore) {
  for (int Signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU}) {
    for (const char *Mode : {"ring", "stream"}) {
      std::string Path = tracePath("signal");
      ChildResult R = runDriver({"raise", "3", "40"},
                                {"WGTRACE_FILE=" + Path,
                                 std::string("WGTRACE_MODE=") + Mode,
                                 "WGTRACE_BUFFER_SIZE=4kib",
                                 "DRIVER_SIGNAL=" + std::to_string(Signal)});
      EXPECT_EQ(R.Signal, Signal) << Mode << ": " << R.Stderr;
      RawTrace T = RawTrace::read(Path);
      expectSelfContainedChunks(T);
      auto Invocations = T.invocations();
      uint64_t Complete = 0, Cut = 0;
      for (const auto &[Key, Inv] : Invocations) {
        Complete += Inv.Loads == 40 && Inv.Stores == 40;
        // The direct call: interrupted after 21 loads and stores.
        Cut += Inv.Loads == 21 && Inv.Stores == 21;
      }
      if (std::string(Mode) == "stream") {
        EXPECT_EQ(Complete, 3u) << "signal " << Signal;
        EXPECT_EQ(Cut, 1u) << "signal " << Signal;
      } else {
        EXPECT_GE(Complete + Cut, 1u) << "signal " << Signal;
      }
      ASSERT_FALSE(T.Rings.empty());
      EXPECT_TRUE(T.Rings.back().Trailer->Flags & format::kTrailerCrash);
    }
  }
}

// A SIGTERM handler of the program's own still runs: after the trace is
// written if it ends the process, and the program goes on (its trace
// written again at exit, complete) if it returns. An ignored SIGTERM stays
// ignored.
TEST(TraceModes, TheProgramsOwnSignalHandlerStillRuns) {
  std::string Path = tracePath("own_exit");
  ChildResult R = runDriver({"raise", "3", "40"},
                            {"WGTRACE_FILE=" + Path, "DRIVER_OWN_HANDLER=exit",
                             "DRIVER_SIGNAL=" + std::to_string(SIGTERM)});
  EXPECT_EQ(R.ExitCode, 7) << R.Stderr;
  EXPECT_NE(R.Stderr.find("handled"), std::string::npos);
  RawTrace T = RawTrace::read(Path);
  expectSelfContainedChunks(T);
  EXPECT_EQ(T.invocations().size(), 4u);

  for (const char *Setting :
       {"DRIVER_OWN_HANDLER=return", "DRIVER_IGNORE_SIGTERM=1"}) {
    Path = tracePath("own_return");
    R = runDriver({"raise", "3", "40"},
                  {"WGTRACE_FILE=" + Path, Setting,
                   "DRIVER_SIGNAL=" + std::to_string(SIGTERM)});
    EXPECT_EQ(R.ExitCode, 0) << Setting << ": " << R.Stderr;
    EXPECT_EQ(R.Stderr.find("handled") != std::string::npos,
              std::string(Setting) == "DRIVER_OWN_HANDLER=return");
    T = RawTrace::read(Path);
    expectSelfContainedChunks(T);
    auto Invocations = T.invocations();
    ASSERT_EQ(Invocations.size(), 4u) << Setting;
    for (const auto &[Key, Inv] : Invocations)
      EXPECT_EQ(Inv.Stores, 40u) << Setting;
    EXPECT_FALSE(T.Rings[0].Trailer->Flags & format::kTrailerCrash);
  }
}

// A trace that cannot be written is an error the caller sees: the path and
// the reason on stderr, and exit status 74 where the program would have
// exited 0 (its own non-zero status is kept).
TEST(TraceModes, ATraceThatCannotBeWrittenFailsTheProcess) {
  std::string Missing = freshDirectory("missing") + "/no-such-dir/trace.bin";
  ChildResult R = runDriver({"records", "2", "4"}, {"WGTRACE_FILE=" + Missing});
  EXPECT_EQ(R.ExitCode, 74) << R.Stderr;
  EXPECT_NE(R.Stderr.find("wgtrace: error: trace not written: cannot create "
                          "a temporary file beside '" +
                          Missing + "': No such file or directory"),
            std::string::npos)
      << R.Stderr;
  R = runDriver({"exit", "2", "4"}, {"WGTRACE_FILE=" + Missing});
  EXPECT_EQ(R.ExitCode, 3) << R.Stderr;
  EXPECT_NE(R.Stderr.find("trace not written"), std::string::npos);

  // The trace's own path is a directory.
  std::string Directory = freshDirectory("directory");
  R = runDriver({"records", "2", "4"}, {"WGTRACE_FILE=" + Directory});
  EXPECT_EQ(R.ExitCode, 74) << R.Stderr;
  EXPECT_NE(R.Stderr.find("wgtrace: error: trace not written: cannot write to "
                          "'" +
                          Directory + "': Is a directory"),
            std::string::npos)
      << R.Stderr;

  // Stream mode opens the file when the first workgroup runs.
  R = runDriver({"records", "2", "4"},
                {"WGTRACE_FILE=" + Missing, "WGTRACE_MODE=stream"});
  EXPECT_EQ(R.ExitCode, 2) << R.Stderr;
  EXPECT_NE(
      R.Stderr.find("cannot create a temporary file beside '" + Missing + "'"),
      std::string::npos)
      << R.Stderr;
}

// Without WGTRACE_FILE the program says, once, that it recorded a trace
// that nobody asked to keep, and how to keep it; WGTRACE_QUIET=1 silences
// it (and the note of a wrapped ring), never an error.
TEST(TraceModes, NoTraceFileIsSaidOnceUnlessQuiet) {
  ChildResult R = runDriver({"records", "3", "4"}, {});
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_NE(R.Stderr.find("wgtrace: no trace written: 3 workgroups were "
                          "recorded but WGTRACE_FILE is not set; set "
                          "WGTRACE_FILE=PATH"),
            std::string::npos)
      << R.Stderr;
  R = runDriver({"records", "3", "4"}, {"WGTRACE_QUIET=1"});
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_EQ(R.Stderr, "");
  std::string Path = tracePath("quiet_wrap");
  R = runDriver(
      {"records", "100", "10"},
      {"WGTRACE_FILE=" + Path, "WGTRACE_BUFFER_SIZE=4kib", "WGTRACE_QUIET=1"});
  EXPECT_EQ(R.ExitCode, 0);
  EXPECT_EQ(R.Stderr, "");
  // Every spelling of a switch (settings_syntax.h): "true" once stopped
  // the program.
  for (const char *On :
       {"WGTRACE_QUIET=true", "WGTRACE_QUIET=yes", "WGTRACE_QUIET=ON"}) {
    R = runDriver({"records", "3", "4"}, {On});
    EXPECT_EQ(R.ExitCode, 0) << On;
    EXPECT_EQ(R.Stderr, "") << On;
  }
  R = runDriver({"records", "3", "4"}, {"WGTRACE_QUIET=quiet"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("WGTRACE_QUIET='quiet' is not a switch; expected "
                          "1/0, true/false, yes/no or on/off"),
            std::string::npos)
      << R.Stderr;
}

// %p, %h, %t and %% in WGTRACE_FILE: one file per process, here a process
// and the child it forks.
TEST(TraceModes, TraceFilePatternsNameOneFilePerProcess) {
  std::string Directory = freshDirectory("patterns");
  char Host[256] = {};
  gethostname(Host, sizeof(Host) - 1);
  ChildResult R = runDriver({"fork", "2", "4"}, {"WGTRACE_FILE=" + Directory +
                                                 "/trace-%p-%h-%t-100%%.bin"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  std::vector<std::string> Names = filesIn(Directory);
  ASSERT_EQ(Names.size(), 2u);
  std::regex Expected("trace-([0-9]+)-" + std::string(Host) +
                      "-[0-9]{8}-[0-9]{6}-100%\\.bin");
  std::set<std::string> Pids;
  size_t Workgroups = 0;
  for (const std::string &Name : Names) {
    std::smatch M;
    ASSERT_TRUE(std::regex_match(Name, M, Expected)) << Name;
    Pids.insert(M[1]);
    RawTrace T = RawTrace::read(Directory + "/" + Name);
    expectSelfContainedChunks(T);
    Workgroups += T.invocations().size();
  }
  EXPECT_EQ(Pids.size(), 2u);
  EXPECT_EQ(Workgroups, 2u + 3u) << "the parent's 2, the child's 2 and 1";

  R = runDriver({"records", "1", "1"}, {"WGTRACE_FILE=trace-%q.bin"});
  EXPECT_EQ(R.ExitCode, 2);
  EXPECT_NE(R.Stderr.find("WGTRACE_FILE='trace-%q.bin' has '%q', which is no "
                          "pattern"),
            std::string::npos)
      << R.Stderr;
}

/// For the "dispatches" scenario with \p Workgroups per dispatch: whether
/// each workgroup of dispatch D (0-2 fill, 3 vary) recorded its accesses.
/// Those that did not must say so: an Unselected VALUE right after their
/// WORKGROUP record, naming filter \p FilterIndex[D] of the metadata.
std::vector<std::vector<bool>>
selectedPerDispatch(const RawTrace &T, uint32_t Workgroups,
                    std::vector<uint64_t> FilterIndex = {0, 0, 0, 0}) {
  std::vector<std::vector<bool>> Selected(4,
                                          std::vector<bool>(Workgroups, false));
  size_t Index = 0;
  for (const auto &[Key, Inv] : T.invocations()) {
    size_t Dispatch = Index++ / Workgroups;
    if (Dispatch >= 4 || Inv.Id[0] >= Workgroups) {
      ADD_FAILURE() << "more invocations than the scenario runs";
      break;
    }
    bool Recorded = Inv.Loads + Inv.Stores + Inv.Prints + Inv.Values > 0;
    for (const auto &Buffers : Inv.PieceBuffers)
      Recorded |= !Buffers.empty();
    Selected[Dispatch][Inv.Id[0]] = Recorded;
    EXPECT_EQ(Inv.Unselected, !Recorded)
        << "dispatch " << Dispatch << " workgroup " << Inv.Id[0];
    if (Inv.Unselected) {
      EXPECT_EQ(Inv.UnselectedBy, FilterIndex[Dispatch])
          << "dispatch " << Dispatch << " workgroup " << Inv.Id[0];
    }
  }
  EXPECT_EQ(Index, 4u * Workgroups) << "every workgroup keeps its record";
  return Selected;
}

// WGTRACE_FILTER: kernel globs, dispatch numbers, workgroup ids and 1 in N;
// the others keep their WORKGROUP record and nothing else.
TEST(TraceModes, FilterSelectsWorkgroupsTheOthersKeepOnlyTheirRecord) {
  constexpr uint32_t W = 12;
  struct Case {
    const char *Filter;
    std::function<bool(size_t Dispatch, uint32_t Id)> Expected;
  } Cases[] = {
      {"kernel=va*", [](size_t D, uint32_t) { return D == 3; }},
      {"kernel=fill,nothing", [](size_t D, uint32_t) { return D < 3; }},
      {"dispatch=1-2", [](size_t D, uint32_t) { return D == 1 || D == 2; }},
      {"dispatch=2-", [](size_t D, uint32_t) { return D >= 2; }},
      {"workgroup=3-5", [](size_t, uint32_t Id) { return Id >= 3 && Id <= 5; }},
      {"workgroup=7,*,0", [](size_t, uint32_t Id) { return Id == 7; }},
      {"sample=4", [](size_t, uint32_t Id) { return Id % 4 == 0; }},
      {"kernel=fill; dispatch=0,2 ;sample=5",
       [](size_t D, uint32_t Id) { return (D == 0 || D == 2) && Id % 5 == 0; }},
  };
  for (const Case &C : Cases) {
    std::string Path = tracePath("filter");
    ChildResult R = runDriver(
        {"dispatches", std::to_string(W), "6"},
        {"WGTRACE_FILE=" + Path, std::string("WGTRACE_FILTER=") + C.Filter});
    ASSERT_EQ(R.ExitCode, 0) << C.Filter << ": " << R.Stderr;
    RawTrace T = RawTrace::read(Path);
    expectSelfContainedChunks(T);
    auto Selected = selectedPerDispatch(T, W);
    uint64_t Count = 0;
    for (size_t D = 0; D < 4; ++D)
      for (uint32_t Id = 0; Id < W; ++Id) {
        EXPECT_EQ(Selected[D][Id], C.Expected(D, Id))
            << C.Filter << ": dispatch " << D << " workgroup " << Id;
        Count += C.Expected(D, Id);
      }
    EXPECT_NE(R.Stderr.find("wgtrace: filter '" + std::string(C.Filter) +
                            "' selected " + std::to_string(Count) + " of " +
                            std::to_string(4 * W) + " workgroups"),
              std::string::npos)
        << R.Stderr;
  }

  // The program's own setFilter: only the second and third dispatch are
  // filtered, the last one runs with none.
  std::string Path = tracePath("filter_api");
  ChildResult R = runDriver({"dispatches", std::to_string(W), "6"},
                            {"WGTRACE_FILE=" + Path, "WGTRACE_FILTER=sample=2",
                             "DRIVER_API_FILTER=workgroup=1"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  // The settings' filter is the metadata's first, the program's second.
  auto Selected = selectedPerDispatch(RawTrace::read(Path), W, {0, 1, 1, 0});
  for (uint32_t Id = 0; Id < W; ++Id) {
    EXPECT_EQ(Selected[0][Id], Id % 2 == 0) << Id;
    EXPECT_EQ(Selected[1][Id], Id == 1) << Id;
    EXPECT_EQ(Selected[2][Id], Id == 1) << Id;
    EXPECT_TRUE(Selected[3][Id]) << Id;
  }
  R = runDriver({"dispatches", "2", "1"},
                {"WGTRACE_FILE=" + Path, "DRIVER_API_FILTER=group=1"});
  EXPECT_EQ(R.ExitCode, 4);
  EXPECT_NE(R.Stderr.find("setFilter: filter 'group=1' is not a clause"),
            std::string::npos)
      << R.Stderr;

  for (const char *Bad : {"sample=0", "dispatch=3-1", "workgroup=1,2,3,4",
                          "kernel=", "sample=2;sample=3", "color=red"}) {
    R = runDriver(
        {"dispatches", "2", "1"},
        {"WGTRACE_FILE=" + Path, std::string("WGTRACE_FILTER=") + Bad});
    EXPECT_EQ(R.ExitCode, 2) << Bad;
    EXPECT_NE(R.Stderr.find(std::string("wgtrace: error: WGTRACE_FILTER='") +
                            Bad + "': '"),
              std::string::npos)
        << R.Stderr;
  }
}

// A kernel calling a kernel directly, with wraps (ring mode) and buffer
// changes (stream mode) in both: every record stays with its own
// invocation (every access falls in the buffer that the piece of the
// invocation it is keyed to names), and stream mode keeps all of them.
TEST(TraceModes, NestedKernelsKeepEveryRecordWithItsWorkgroup) {
  struct Case {
    std::vector<std::string> Env;
    bool Lossless;
  } Cases[] = {{{"WGTRACE_BUFFER_SIZE=8kib"}, false},
               {{"WGTRACE_BUFFER_SIZE=64kib"}, false},
               {{"WGTRACE_BUFFER_SIZE=4kib", "WGTRACE_MODE=stream"}, true},
               {{"WGTRACE_BUFFER_SIZE=64kib", "WGTRACE_MODE=stream"}, true}};
  for (const Case &C : Cases) {
    std::string Path = tracePath("nested");
    std::vector<std::string> Env = C.Env;
    Env.push_back("WGTRACE_FILE=" + Path);
    ChildResult R = runDriver({"nested", "40", "100"}, Env);
    ASSERT_EQ(R.ExitCode, 0) << C.Env[0] << ": " << R.Stderr;
    RawTrace T = RawTrace::read(Path);
    expectSelfContainedChunks(T);
    uint64_t Outer = 0, Inner = 0;
    for (const auto &[Key, Inv] : T.invocations()) {
      EXPECT_TRUE(Inv.PieceAddressesBad.empty())
          << C.Env[0] << ": workgroup " << Inv.Id[0] << " of site " << Inv.Site
          << " has an access outside its buffer";
      if (Inv.Site == 2) {
        ++Outer;
        if (C.Lossless) {
          EXPECT_EQ(Inv.Loads, 100u);
          EXPECT_EQ(Inv.Stores, 100u);
        }
      } else if (C.Lossless) {
        ++Inner;
        EXPECT_EQ(Inv.Stores, 8u);
      }
    }
    if (C.Lossless) {
      EXPECT_EQ(Outer, 40u) << C.Env[0];
      EXPECT_EQ(Inner, 40u * 6) << C.Env[0];
    } else {
      ASSERT_EQ(T.Rings.size(), 1u);
      EXPECT_TRUE(T.Rings[0].Trailer->Flags & format::kTrailerWrapped);
      EXPECT_EQ(T.Rings[0].Trailer->BaseVirtualOffset,
                T.Rings[0].Trailer->BytesLost);
    }
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
  // The crash handler's chunks have the checksums of what it wrote.
  expectSelfContainedChunks(RawTrace::read(Path));
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
  expectSelfContainedChunks(RawTrace::read(Path));
}

// Two threads that fault at once (the iterations of an OpenMP loop that
// all read one bad pointer): the second one's handler must not let the
// process die while the first one's is writing the trace. Before, it
// returned at once and its thread died of the fault, with the trace half
// written (stream mode lost it on most runs: only its temporary file was
// left).
TEST(TraceModes, ThreadsThatFaultAtOnceLeaveTheWholeTrace) {
  for (const char *Mode : {"ring", "stream"}) {
    for (int Round = 0; Round < 10; ++Round) {
      std::string Path = tracePath(std::string("crash_threads_") + Mode);
      // A file left by the round before must not pass for this one's.
      unlink(Path.c_str());
      ChildResult R = runDriver(
          {"crash-threads", "300", "100"},
          {"WGTRACE_FILE=" + Path, std::string("WGTRACE_MODE=") + Mode,
           // A ring that does not wrap; stream buffers that change often.
           std::string("WGTRACE_BUFFER_SIZE=") +
               (std::string(Mode) == "ring" ? "16mib" : "64kib")});
      EXPECT_EQ(R.Signal, SIGSEGV) << Mode << ": " << R.Stderr;
      Decoded D = decode(Path);
      ASSERT_TRUE(D.Ok) << Mode << " round " << Round << ": " << D.Error;
      // The dispatch's 300 workgroups, then each faulting thread's with its
      // loop and the store through null (which the second thread may not
      // have reached when the first one's handler ended the process).
      // A workgroup split across stream chunks comes in pieces: add them.
      std::set<uint32_t> Dispatched;
      std::map<uint32_t, std::pair<uint64_t, uint64_t>> Faulted;
      for (const Decoded::Workgroup &W : D.Workgroups) {
        if (W.Site == D.Workgroups.front().Site) {
          Dispatched.insert(W.Id);
          continue;
        }
        Faulted[W.Id].first += W.Loads;
        Faulted[W.Id].second += W.Stores;
      }
      EXPECT_EQ(Faulted.size(), 2u) << Mode << " round " << Round;
      for (auto &[Id, Counts] : Faulted) {
        EXPECT_EQ(Counts.first, 100u) << Mode << " workgroup " << Id;
        EXPECT_GE(Counts.second, 100u) << Mode << " workgroup " << Id;
        EXPECT_LE(Counts.second, 101u) << Mode << " workgroup " << Id;
      }
      EXPECT_EQ(Dispatched.size(), 300u) << Mode << " round " << Round;
    }
  }
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
      {"WGTRACE_BUFFER_SIZE=16mb", "WGTRACE_BUFFER_SIZE='16mb' is not a "
                                   "size"},
      {"WGTRACE_MEMORY=maybe", "WGTRACE_MEMORY='maybe' is not a switch"},
      {"WGTRACE_TIMING=2", "WGTRACE_TIMING='2' is not a switch"},
      {"WGTRACE_WORKERS=0", "WGTRACE_WORKERS='0' is not a worker count"},
      {"WGTRACE_WORKERS=1000000", "WGTRACE_WORKERS='1000000' is not a worker "
                                  "count"},
      {"WGTRACE_DEVICE=gpu", "WGTRACE_DEVICE='gpu' is not a device"},
      {"WGTRACE_COMPRESS=gzip", "WGTRACE_COMPRESS='gzip' is not a "
                                "compression; expected zstd, zstd:LEVEL"},
      {"WGTRACE_COMPRESS=zstd:30", "WGTRACE_COMPRESS='zstd:30' is not a "
                                   "compression"},
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

TEST(TraceModes, TimingChunksFollowAllRingChunksAndNameTheirWorkgroups) {
  std::string Path = tracePath("timing");
  ChildResult R = runDriver(
      {"timing", "16", "4"},
      {"WGTRACE_FILE=" + Path, "WGTRACE_TIMING=1", "WGTRACE_WORKERS=2"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  RawTrace Raw = RawTrace::read(Path);
  uint64_t Entries = 0;
  for (const format::TimingRecord &T : checkTimingChunks(Raw)) {
    EXPECT_LE(T.StartNs, T.EndNs);
    EXPECT_LT(T.ProcessorId, 2u);
    ++Entries;
  }
  EXPECT_EQ(Entries, 16u);
  EXPECT_EQ(Raw.invocations().size(), 16u);
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
  RawTrace Raw = RawTrace::read(Path);
  expectSelfContainedChunks(Raw);
  uint64_t Entries = 0, Continued = 0;
  for (const format::TimingRecord &T : checkTimingChunks(Raw)) {
    Continued += T.WorkgroupOffset == 0;
    ++Entries;
  }
  EXPECT_EQ(Entries, 40u);
  EXPECT_GT(Raw.Rings.size(), 4u) << "the trace should span several buffers";
  EXPECT_GT(Continued, 0u) << "no workgroup was continued in a new buffer";
  // Each ring's chunks follow each other without a gap.
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> Next;
  for (const RawRing &Ring : Raw.Rings) {
    ASSERT_TRUE(Ring.Trailer);
    EXPECT_TRUE(Ring.Trailer->Flags & format::kTrailerStream);
    auto &[Sequence, Lifetime] = Next[Ring.Trailer->RingId];
    EXPECT_EQ(Ring.Trailer->ChunkSequence, Sequence++);
    EXPECT_EQ(Ring.Trailer->BaseVirtualOffset, Lifetime);
    Lifetime += Ring.Head;
    EXPECT_EQ(Ring.Trailer->BytesLost, 0u);
  }
  auto Invocations = Raw.invocations();
  ASSERT_EQ(Invocations.size(), 40u);
  for (const auto &[Key, Inv] : Invocations)
    EXPECT_EQ(Inv.Stores, 300u) << "workgroup " << Inv.Id[0];
}

TEST(TraceModes, RingWrapWithWorkgroupsLargerThanTheRing) {
  // Workgroups of 6 KiB through a 16 KiB ring of four 4 KiB parts.
  std::string Path = tracePath("wrap_large");
  ChildResult R =
      runDriver({"records", "20", "192"},
                {"WGTRACE_FILE=" + Path, "WGTRACE_BUFFER_SIZE=16kib"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  RawTrace T = RawTrace::read(Path);
  ASSERT_EQ(T.Rings.size(), 1u);
  expectSelfContainedChunks(T);
  EXPECT_GE(T.Rings[0].Head, 16384u - 4096);
  auto Invocations = T.invocations();
  ASSERT_FALSE(Invocations.empty());
  EXPECT_EQ(std::prev(Invocations.end())->second.Id[0], 19u);
  for (const auto &[Key, Inv] : Invocations)
    if (Inv.SawFirst) {
      EXPECT_EQ(Inv.Loads, 192u);
      EXPECT_EQ(Inv.Stores, 192u);
    }

  // One workgroup bigger than the whole ring: the chunk shows its newest
  // records (at least the ring less one part) after a copy of its record.
  std::string Huge = tracePath("wrap_huge");
  R = runDriver({"records", "2", "1000"},
                {"WGTRACE_FILE=" + Huge, "WGTRACE_BUFFER_SIZE=8kib"});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  T = RawTrace::read(Huge);
  ASSERT_EQ(T.Rings.size(), 1u);
  expectSelfContainedChunks(T);
  const RawRing &Ring = T.Rings[0];
  EXPECT_GE(Ring.Head, 8192u - 4096);
  Invocations = T.invocations();
  ASSERT_EQ(Invocations.size(), 1u);
  const RawInvocation &Last = Invocations.begin()->second;
  EXPECT_EQ(Last.Id[0], 1u);
  EXPECT_FALSE(Last.SawFirst);
  // Each copy is two records (its WORKGROUP record and Continuation
  // VALUE); on odd laps a mark of no operation comes before it (the only
  // VALUEs of this kernel).
  EXPECT_LE(Last.Values, Last.Pieces);
  EXPECT_EQ(Last.Loads + Last.Stores + Last.Values + 2 * Last.Pieces,
            Ring.Records.size());
  EXPECT_EQ(Ring.Trailer->WorkgroupsLost, 1u);
  Decoded D = decode(Huge);
  ASSERT_TRUE(D.Ok) << D.Error;
  ASSERT_FALSE(D.Workgroups.empty());
  EXPECT_EQ(D.Workgroups.back().Id, 1u);
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

TEST(TraceModes, MoreAccessSitesThanIdsAttributeNoAccessAndSaySo) {
  std::string Path = tracePath("access_site_overflow");
  ChildResult R =
      runProgram(WGTRACE_ACCESS_SITE_OVERFLOW, {}, {"WGTRACE_FILE=" + Path});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_NE(R.Stderr.find("more than 65535 access sites"), std::string::npos)
      << R.Stderr;

  // The program's sites got ids 70001 and 70002, which wrapped to those of
  // the first module's sites 4465 and 4466: the table lists every site,
  // and a reader seeing more sites than ids trusts none of them.
  struct Sites : AnalysisTool {
    size_t TableSize = 0;
    bool Wrapped = false;
    std::vector<uint64_t> Words, Addresses;
    std::vector<uint32_t> Ids;
    void metadata(const Metadata &M, const ChunkLocation &) override {
      TableSize = M.AccessSites.size();
      Wrapped = M.accessSiteIdsWrapped();
      EXPECT_EQ(M.accessSite(1), nullptr);
    }
    void record(const Record &R) override {
      if (R.Tag != format::Tag::MemoryLoad && R.Tag != format::Tag::MemoryStore)
        return;
      Words.push_back(R.AddressWord);
      Addresses.push_back(R.Memory.Address);
      Ids.push_back(R.AccessSite);
    }
  } S;
  llvm::Expected<TraceFile> File = TraceFile::open(Path);
  ASSERT_TRUE(bool(File)) << llvm::toString(File.takeError());
  TraceReader Reader(*File, RingMode::WrapAware);
  AnalysisTool *Tools[] = {&S};
  ASSERT_FALSE(bool(Reader.run(Tools)));
  EXPECT_EQ(S.TableSize, 70002u);
  EXPECT_TRUE(S.Wrapped);
  ASSERT_EQ(S.Words.size(), 2u);
  EXPECT_EQ(format::accessSiteOfWord(S.Words[0]), 70001u & 0xFFFF);
  EXPECT_EQ(format::accessSiteOfWord(S.Words[1]), 70002u & 0xFFFF);
  EXPECT_EQ(S.Ids, (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(S.Addresses[1], S.Addresses[0] + sizeof(float));
  ASSERT_EQ(Reader.census().Notes.size(), 1u);
  EXPECT_NE(Reader.census().Notes[0].find(
                "the program has 70002 access sites, more than the 65535 a "
                "record can name: no access is attributed to its source line"),
            std::string::npos)
      << Reader.census().Notes[0];
}
