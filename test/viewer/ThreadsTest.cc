//===- ThreadsTest.cc - Reports read on several threads -------------------===//
//
// `--threads N` decodes ring chunks on N threads, each into a tool of its
// own, merged in file order: every report must be the one-thread report,
// byte for byte, and damage must stop the reading where one thread stops.
//
//===----------------------------------------------------------------------===//

#include "CliRun.h"
#include "TraceBuilder.h"
#include "analyses/AnnotateTool.h"
#include "analyses/CacheTool.h"
#include "analyses/DiffReport.h"
#include "analyses/FootprintTool.h"
#include "analyses/LineReuseTool.h"
#include "analyses/ProfileTool.h"
#include "analyses/RacesTool.h"
#include "analyses/SummaryTool.h"
#include "analyses/ToolPair.h"
#include "output/DumpTool.h"
#include "output/HtmlReportTool.h"
#include "output/IreeConvertTool.h"
#include "output/RecordTableTool.h"
#include "output/TraceRecompressor.h"
#include "reader/RecordStream.h"
#include "reader/TraceReader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

constexpr uint32_t kThreadedRings = 5;

/// Two kernels with buffer parameters and access sites, five threads' ring
/// chunks (with trailers unless \p Trailers is false). Each ring runs
/// workgroups of both sites with buffers of its own and of the others (so
/// that buffers, sites and lines first appear in different rings), and the
/// workgroups of one launch write the same bytes of c (races). \p Damaged:
/// the ring whose record 10 gets an unknown tag. \p RingSize: rings smaller
/// than their records wrap.
struct MultiRingTrace {
  std::vector<uint8_t> Bytes;
  /// File offset of the damaged record, if any.
  uint64_t DamageOffset = 0;
};

MultiRingTrace multiRingTrace(bool Trailers,
                              std::optional<uint32_t> Damaged = std::nullopt,
                              uint32_t RingCount = kThreadedRings,
                              uint64_t RingSize = 1 << 16) {
  ExtensionSpec X;
  X.FunctionParams = {
      {{"a", "const float *", 1, 0, 4, true}, {"c", "float *", 2, 0, 4, false}},
      {{"in", "const float *", 1, 0, 4, true},
       {"out", "float *", 2, 0, 4, false}}};
  X.SiteLocations = {{"main.cc", 30}, {"main.cc", 31}};
  X.AccessSites = {{"mm.cc", 12, 9, 0, "mm", "a[k]"},
                   {"mm.cc", 13, 5, 1, "mm", "c[i] += s"},
                   {"tr.cc", 7, 14, 0, "tr", "in[i]"},
                   {"tr.cc", 7, 5, 1, "tr", "out[j]"},
                   {"mm.cc", 20, 5, 2, "mm", "*total", std::string("a")},
                   {"mm.cc", 22, 5, 2, "mm", "*total", std::string("b")}};
  X.CriticalSections = {"a", "b"};
  TraceBuilder B;
  B.metadata({{"mm", {}, {}, {}}, {"tr", {}, {}, {}}}, {0, 1}, &X);
  std::vector<RingBuilder> Rings;
  for (uint32_t Ring = 0; Ring < RingCount; ++Ring) {
    RingBuilder R(RingSize, 0);
    for (uint32_t W = 0; W < 6; ++W) {
      const uint32_t Site = (Ring + W) % 2;
      // Buffers of ring Ring % 3: some rings share them.
      const uint64_t Base = 0x100000 * (1 + (Ring + W / 3) % 3);
      R.workgroup(Site, {Ring, W, 0}, {RingCount, 6, 1}, Ring);
      R.value(format::ValueType::BufferBase, 0, Base);
      R.value(format::ValueType::BufferExtent, 0, 4096);
      R.value(format::ValueType::BufferBase, 1, Base + 0x10000);
      const uint64_t Load = format::accessSiteBits(Site ? 3 : 1);
      const uint64_t Store = format::accessSiteBits(Site ? 4 : 2);
      for (uint64_t I = 0; I < 40; ++I)
        R.load((Base + 4 * ((I * 13 + W * 7 + Ring) % 1024)) | Load, 4);
      for (uint64_t I = 0; I < 8; ++I)
        R.store((Base + 0x10000 + 4 * (I + 3 * W)) | Store, 4);
      if (W == 2)
        R.print("ring " + std::to_string(Ring));
      // Updates of one word: in critical(a) or (b) (the rings meet them in
      // different orders), atomic, or plain.
      if (W % 3 == 0)
        R.critical(Ring % 2 ? "a" : "b", format::AtomicOp::Update, 0x2000, 4,
                   format::accessSiteBits(Ring % 2 ? 5 : 6));
      else if (W % 3 == 1)
        R.atomic(format::AtomicOp::Update, 0x2000, 4);
      else
        R.store(0x2000, 4);
      R.value(format::ValueType::SInt32, 0, Ring * 10 + W);
    }
    if (Trailers) {
      format::RingTrailer T{};
      T.RingId = Ring;
      T.RingSize = RingSize;
      // A ring that wrapped: an earlier writer's trailer (version 1, no
      // checksums); the writer of version 2 never wraps a chunk.
      if (R.head() > RingSize)
        T.Version = 1;
      R.trailer(T);
    }
    B.ring(R);
    Rings.push_back(R);
  }
  MultiRingTrace M;
  M.Bytes = B.bytes();
  if (Damaged) {
    // Chunk 0 is the metadata; ring chunk r is chunk r + 1.
    const uint64_t At = B.chunkOffset(*Damaged + 1) + format::kChunkHeaderSize +
                        Rings[*Damaged].positions()[10];
    M.Bytes[At] = 3; // no record has tag 3
    M.DamageOffset = At;
  }
  return M;
}

/// A report read on some threads.
struct ThreadedReport {
  std::string Text;
  std::string Error;
  bool OnThreads = false;
  /// How many of the reading's passes were on threads.
  unsigned PassesOnThreads = 0;
  /// summary: the workgroups of all sites; races: the racing pairs.
  uint64_t Workgroups = 0;
  uint64_t Races = 0;
  /// html: lanes, and segments of the address axis that are buffers;
  /// footprint: its address clusters (in BufferSegments).
  uint64_t Lanes = 0;
  uint64_t BufferSegments = 0;
};

/// Reads \p Bytes into \p Tool (which prints to \p R.Text) on \p Threads
/// threads.
void readOn(AnalysisTool &Tool, const std::vector<uint8_t> &Bytes,
            unsigned Threads, ThreadedReport &R,
            RingMode Mode = RingMode::WrapAware) {
  TraceFile File = TraceFile::fromBytes(Bytes);
  TraceReader Reader(File, Mode);
  Reader.setThreads(Threads);
  AnalysisTool *Tools[] = {&Tool};
  if (llvm::Error E = Reader.run(Tools))
    R.Error = llvm::toString(std::move(E));
  R.OnThreads = Reader.readOnThreads();
  R.PassesOnThreads = Reader.passesOnThreads();
}

/// A report read on one thread and on several: both whole, the same.
void expectWholeAndTheSame(const ThreadedReport &One,
                           const ThreadedReport &Four) {
  EXPECT_FALSE(One.OnThreads);
  EXPECT_TRUE(Four.OnThreads);
  EXPECT_EQ(One.Error, "");
  EXPECT_EQ(Four.Error, "");
  EXPECT_EQ(One.Text, Four.Text);
}

/// A damaged file read on one thread and on several (\p Many, read on
/// threads): the same error, and the same report (and R.Workgroups) of
/// what came before the damage.
void expectStoppedAlike(const ThreadedReport &One, const ThreadedReport &Many) {
  EXPECT_TRUE(Many.OnThreads);
  EXPECT_NE(One.Error, "");
  EXPECT_EQ(One.Error, Many.Error);
  EXPECT_EQ(One.Text, Many.Text);
  EXPECT_EQ(One.Workgroups, Many.Workgroups);
}

ThreadedReport summariseOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                           bool Json, GroupBy By) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  SummaryTool Summary(OS, Json, 64, By);
  readOn(Summary, Bytes, Threads, R);
  for (const SummaryTool::SiteSummary &S : Summary.sites())
    R.Workgroups += S.Totals.Workgroups;
  OS.flush();
  return R;
}

ThreadedReport racesOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                       bool Json) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  RacesTool Races(OS, Json);
  Races.setThreads(Threads);
  readOn(Races, Bytes, Threads, R);
  R.Races = Races.raceCount();
  OS.flush();
  return R;
}

/// Levels small enough that the trace misses in each.
std::vector<CacheLevel> smallLevels() {
  return {{"D1", {512, 64, 2}}, {"L2", {2048, 64, 4}}, {"LL", {8192, 64, 4}}};
}

ThreadedReport cacheOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                       bool Json, GroupBy By, bool Cold) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  CacheTool Cache(OS, Json, smallLevels(), Cold, By);
  readOn(Cache, Bytes, Threads, R);
  R.Workgroups = Cache.workgroups().size();
  OS.flush();
  return R;
}

/// annotate on \p Threads threads, sorted by \p Sort, hottest lines first
/// or in file order (R.Workgroups: the accesses of all kernels, R.Races:
/// the first-level misses).
ThreadedReport annotateOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                          bool Json, bool Cold, const std::string &Sort,
                          bool FileOrder, uint64_t Top = 0) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  AnnotateTool::Options O;
  O.Levels = smallLevels();
  O.Cold = Cold;
  O.Order.Column = Sort;
  O.Order.Top = Top;
  O.FileOrder = FileOrder;
  O.Trace = "threads.bin";
  AnnotateTool Annotate(OS, Json, std::move(O));
  readOn(Annotate, Bytes, Threads, R);
  R.Workgroups = Annotate.totals().accesses();
  R.Races = Annotate.totals().LevelMisses[0].Read +
            Annotate.totals().LevelMisses[0].Write;
  OS.flush();
  return R;
}

/// One side of `diff`: the profile and the races of a file read on
/// \p Threads threads, as the command line reads each.
struct DiffSideOn {
  ThreadedReport R;
  ProfileTool Profile;
  RacesTool Races{llvm::nulls(), false, UINT64_MAX};
  TraceCensus Census;

  DiffSideOn(const std::vector<uint8_t> &Bytes, unsigned Threads, bool Cold)
      : Profile(smallLevels(), Cold) {
    Races.setThreads(Threads);
    Profile.attachRaces(Races);
    TraceFile File = TraceFile::fromBytes(Bytes);
    TraceReader Reader(File, RingMode::WrapAware);
    Reader.setThreads(Threads);
    ToolPair<RacesTool, ProfileTool> Both(Races, Profile);
    AnalysisTool *Tools[] = {&Both};
    if (llvm::Error E = Reader.run(Tools))
      R.Error = llvm::toString(std::move(E));
    R.OnThreads = Reader.readOnThreads();
    Census = Reader.census();
  }
};

/// diff BEFORE AFTER, each read on \p Threads threads (R.Workgroups: the
/// accesses of AFTER's kernels, R.Races: their first-level misses).
ThreadedReport diffOn(const std::vector<uint8_t> &Before,
                      const std::vector<uint8_t> &After, unsigned Threads,
                      bool Json, bool Cold, const RowOrder &Order) {
  DiffSideOn B(Before, Threads, Cold), A(After, Threads, Cold);
  ThreadedReport R;
  R.OnThreads = B.R.OnThreads && A.R.OnThreads;
  R.Error = B.R.Error + A.R.Error;
  llvm::raw_string_ostream OS(R.Text);
  printDiff(OS, Json, smallLevels(), "", {"before.bin", &B.Profile, &B.Census},
            {"after.bin", &A.Profile, &A.Census}, Order);
  for (const auto &[Kernel, M] : A.Profile.measures(ProfileTool::Kernel)) {
    R.Workgroups += M.Accesses;
    R.Races += M.Misses[0] + M.Misses[1];
  }
  OS.flush();
  return R;
}

ThreadedReport footprintOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                           bool Json) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  FootprintTool Footprint(OS, Json);
  readOn(Footprint, Bytes, Threads, R);
  R.Workgroups = Footprint.workgroups().size();
  R.BufferSegments = Footprint.buffers().size();
  OS.flush();
  return R;
}

ThreadedReport pageOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                      uint64_t MaxPoints) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  HtmlReportTool Html(OS, "threads", MaxPoints);
  readOn(Html, Bytes, Threads, R);
  R.Workgroups = Html.workgroupCount();
  R.Lanes = Html.laneProcessors().size();
  for (const HtmlReportTool::Segment &S : Html.segments())
    R.BufferSegments += S.Buffer != kNoBuffer;
  OS.flush();
  return R;
}

/// The page as `wgtrace-view html` makes it: its races, per-line (annotate,
/// counting no distinct lines, printing nothing) and reuse-distance
/// sections read together on \p Threads threads, then the page's passes
/// on \p Threads (R.OnThreads: the sections were read on threads;
/// R.Workgroups: the line accesses of the reuse histogram; R.Races: the
/// racing pairs). \p Histogram: the reuse histogram, first uses last.
ThreadedReport htmlOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                      bool Cold, uint64_t MaxPoints,
                      std::vector<uint64_t> *Histogram = nullptr) {
  ThreadedReport R;
  RacesTool Races(llvm::nulls(), /*Json=*/false);
  Races.setThreads(Threads);
  AnnotateTool::Options O;
  O.Levels = smallLevels();
  O.Cold = Cold;
  O.CountLines = false;
  O.Print = false;
  O.Trace = "threads.bin";
  AnnotateTool Annotate(llvm::nulls(), /*Json=*/false, std::move(O));
  LineReuseTool Reuse;
  {
    TraceFile File = TraceFile::fromBytes(Bytes);
    TraceReader Reader(File, RingMode::WrapAware);
    Reader.setThreads(Threads);
    ToolPair<AnnotateTool, LineReuseTool> PerLine(Annotate, Reuse);
    ToolPair<RacesTool, decltype(PerLine)> Sections(Races, PerLine);
    AnalysisTool *Tools[] = {&Sections};
    if (llvm::Error E = Reader.run(Tools))
      R.Error = "sections: " + llvm::toString(std::move(E)) + "\n";
    R.OnThreads = Reader.readOnThreads();
  }
  llvm::raw_string_ostream OS(R.Text);
  HtmlReportTool Html(OS, "threads", MaxPoints);
  Html.attach(&Races, &Annotate, &Reuse);
  ThreadedReport Page;
  readOn(Html, Bytes, Threads, Page);
  R.Error += Page.Error;
  R.Workgroups = Reuse.histogram().lineAccesses();
  R.Races = Races.raceCount();
  if (Histogram) {
    *Histogram = Reuse.histogram().buckets();
    Histogram->push_back(Reuse.histogram().firstUses());
  }
  OS.flush();
  return R;
}

/// convert --iree on \p Threads threads: the output's bytes (R.Workgroups:
/// records written; R.Races: records left out).
ThreadedReport convertOn(const std::vector<uint8_t> &Bytes, unsigned Threads) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  IreeConvertTool Convert(OS);
  readOn(Convert, Bytes, Threads, R);
  R.Workgroups = Convert.recordsWritten();
  R.Races = Convert.recordsLeftOut();
  OS.flush();
  return R;
}

/// The dump on \p Threads threads, in batches of \p BatchLines LOAD and
/// STORE lines (R.OnThreads: some batches were formatted on threads).
ThreadedReport dumpOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                      DumpOptions Options, size_t BatchLines = 7) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  DumpTool Dump(OS, Options);
  Dump.setThreads(Threads, BatchLines);
  readOn(Dump, Bytes, Threads, R,
         Options.IreeCompat ? RingMode::IreeCompat : RingMode::WrapAware);
  R.OnThreads = Dump.batchesOnThreads() != 0;
  OS.flush();
  return R;
}

/// export --format csv|jsonl on \p Threads threads, in batches of
/// \p BatchRows load and store rows (R.OnThreads: some batches were
/// written on threads).
ThreadedReport tableOn(const std::vector<uint8_t> &Bytes, unsigned Threads,
                       RecordTableTool::Format F, size_t BatchRows = 7) {
  ThreadedReport R;
  llvm::raw_string_ostream OS(R.Text);
  RecordTableTool Table(OS, F);
  Table.setThreads(Threads, BatchRows);
  readOn(Table, Bytes, Threads, R);
  R.OnThreads = Table.batchesOnThreads() != 0;
  OS.flush();
  return R;
}

TEST(Threads, SummaryIsTheOneThreadSummary) {
  for (bool Trailers : {true, false})
    for (bool Json : {false, true})
      for (GroupBy By : {GroupBy::Workgroup, GroupBy::Site, GroupBy::Kernel,
                         GroupBy::Line, GroupBy::Buffer}) {
        SCOPED_TRACE(std::string(groupByName(By)) + (Json ? " json" : "") +
                     (Trailers ? " trailers" : ""));
        const std::vector<uint8_t> Bytes = multiRingTrace(Trailers).Bytes;
        ThreadedReport One = summariseOn(Bytes, 1, Json, By);
        ThreadedReport Four = summariseOn(Bytes, 4, Json, By);
        expectWholeAndTheSame(One, Four);
        // Not vacuous: the report has every ring's workgroups.
        EXPECT_EQ(One.Workgroups, kThreadedRings * 6);
        EXPECT_EQ(Four.Workgroups, kThreadedRings * 6);
      }
}

TEST(Threads, RacesAreTheOneThreadRaces) {
  for (bool Trailers : {true, false})
    for (bool Json : {false, true}) {
      SCOPED_TRACE(std::string(Json ? "json" : "text") +
                   (Trailers ? " trailers" : ""));
      const std::vector<uint8_t> Bytes = multiRingTrace(Trailers).Bytes;
      ThreadedReport One = racesOn(Bytes, 1, Json);
      ThreadedReport Four = racesOn(Bytes, 4, Json);
      expectWholeAndTheSame(One, Four);
      EXPECT_GT(One.Races, 0u);
      EXPECT_EQ(One.Races, Four.Races);
    }
  // Damage: the rings before it, and the same error.
  MultiRingTrace M = multiRingTrace(false, 3);
  ThreadedReport One = racesOn(M.Bytes, 1, false);
  ThreadedReport Four = racesOn(M.Bytes, 4, false);
  EXPECT_TRUE(Four.OnThreads);
  EXPECT_NE(One.Error, "");
  EXPECT_EQ(One.Error, Four.Error);
  EXPECT_EQ(One.Text, Four.Text);
}

// The caches are one, in file order: the shards decode, the merge
// simulates. Every access of the trace must count as on one thread, those
// that a shard keeps as a run of one line (the stores) as the others.
TEST(Threads, CacheIsTheOneThreadCache) {
  for (bool Trailers : {true, false})
    for (bool Json : {false, true})
      for (bool Cold : {false, true})
        for (GroupBy By : {GroupBy::Workgroup, GroupBy::Site, GroupBy::Kernel,
                           GroupBy::Line, GroupBy::Buffer}) {
          SCOPED_TRACE(std::string(groupByName(By)) + (Json ? " json" : "") +
                       (Trailers ? " trailers" : "") + (Cold ? " cold" : ""));
          const std::vector<uint8_t> Bytes = multiRingTrace(Trailers).Bytes;
          ThreadedReport One = cacheOn(Bytes, 1, Json, By, Cold);
          ThreadedReport Four = cacheOn(Bytes, 4, Json, By, Cold);
          expectWholeAndTheSame(One, Four);
          EXPECT_EQ(One.Workgroups, kThreadedRings * 6);
          EXPECT_EQ(Four.Workgroups, kThreadedRings * 6);
        }
  MultiRingTrace M = multiRingTrace(false, 3);
  ThreadedReport One = cacheOn(M.Bytes, 1, false, GroupBy::Workgroup, false);
  ThreadedReport Four = cacheOn(M.Bytes, 4, false, GroupBy::Workgroup, false);
  EXPECT_TRUE(Four.OnThreads);
  EXPECT_NE(One.Error, "");
  EXPECT_EQ(One.Error, Four.Error);
  EXPECT_EQ(One.Text, Four.Text);
}

// On two threads at most a few chunks are decoded ahead, so the accesses a
// chunk kept are given back once merged and counted and serve a later
// chunk (CacheTool's KeptPool): what a chunk kept before must not reach
// the next one's counts, nor its new workgroups (--cold) empty the caches
// there.
TEST(Threads, CacheChunksKeptAgainCountAsNew) {
  constexpr uint32_t kManyRings = 24;
  const std::vector<uint8_t> Bytes =
      multiRingTrace(true, std::nullopt, kManyRings).Bytes;
  for (bool Cold : {false, true})
    for (GroupBy By : {GroupBy::Workgroup, GroupBy::Line}) {
      SCOPED_TRACE(std::string(groupByName(By)) + (Cold ? " cold" : ""));
      ThreadedReport One = cacheOn(Bytes, 1, false, By, Cold);
      ThreadedReport Two = cacheOn(Bytes, 2, false, By, Cold);
      expectWholeAndTheSame(One, Two);
      EXPECT_EQ(Two.Workgroups, kManyRings * 6);
    }
}

// A shard keeps a run of accesses in one first-level line as one access
// and a count of at most 65535 more; a longer run goes on in a new kept
// access, which hits the line as the run's accesses do. Runs of 70000
// loads, one of them split between two access sites, must count as on
// one thread: every access, the one miss of each line, per site too.
TEST(Threads, CacheRunsLongerThanOneKeptAccessCountAsOnOneThread) {
  ExtensionSpec X;
  X.FunctionParams = {{{"a", "const float *", 1, 0, 4, true}}};
  X.SiteLocations = {{"main.cc", 30}};
  X.AccessSites = {{"k.cc", 5, 9, 0, "k", "a[0]"},
                   {"k.cc", 6, 9, 0, "k", "a[1]"}};
  TraceBuilder B;
  B.metadata({{"k", {}, {}, {}}}, {0}, &X);
  constexpr uint64_t kRun = 70000;
  for (uint32_t Ring = 0; Ring < 3; ++Ring) {
    RingBuilder R(1 << 22, 0);
    R.workgroup(0, {Ring, 0, 0}, {3, 1, 1}, Ring);
    const uint64_t Line = 0x100000 + 0x1000 * Ring;
    for (uint64_t I = 0; I < kRun; ++I)
      R.load(Line | format::accessSiteBits(1), 4);
    for (uint64_t I = 0; I < kRun; ++I)
      R.load((Line + 4) | format::accessSiteBits(I < kRun / 2 ? 1 : 2), 4);
    R.load((Line + 64) | format::accessSiteBits(2), 4);
    format::RingTrailer T{};
    T.RingId = Ring;
    T.RingSize = 1 << 22;
    R.trailer(T);
    B.ring(R);
  }
  const std::vector<uint8_t> Bytes = B.bytes();
  for (GroupBy By : {GroupBy::Workgroup, GroupBy::Site}) {
    SCOPED_TRACE(groupByName(By));
    ThreadedReport Reports[2];
    CacheTool::Counts Totals[2];
    for (unsigned Threads : {1u, 2u}) {
      ThreadedReport &R = Reports[Threads - 1];
      llvm::raw_string_ostream OS(R.Text);
      CacheTool Cache(OS, /*Json=*/true, smallLevels(), /*Cold=*/false, By);
      readOn(Cache, Bytes, Threads, R);
      Totals[Threads - 1] = Cache.totals();
      OS.flush();
    }
    expectWholeAndTheSame(Reports[0], Reports[1]);
    for (const CacheTool::Counts &C : Totals) {
      EXPECT_EQ(C.Reads, 3 * (2 * kRun + 1));
      // Two lines per ring, each missed once at every level.
      EXPECT_EQ(C.Misses[0].Read, 3u * 2);
      EXPECT_EQ(C.Misses[2].Read, 3u * 2);
    }
  }
}

// annotate counts per kernel and line in the shards and replays their
// accesses through the one hierarchy in file order (AccessKeeper.h, as
// cache does): every listing, text or JSON, by any column, in either
// order, must be the one-thread listing.
TEST(Threads, AnnotateIsTheOneThreadAnnotate) {
  // At least 6 workgroups of 40 loads and 8 stores per ring.
  constexpr uint64_t kAccesses = kThreadedRings * 6 * (40 + 8);
  for (bool Trailers : {true, false})
    for (bool Json : {false, true})
      for (bool Cold : {false, true})
        for (const char *Sort : {"", "D1mr", "lines", "LLmw", "stores"})
          for (bool FileOrder : {false, true}) {
            SCOPED_TRACE(std::string(Sort) + (Json ? " json" : "") +
                         (Trailers ? " trailers" : "") + (Cold ? " cold" : "") +
                         (FileOrder ? " file" : ""));
            const std::vector<uint8_t> Bytes = multiRingTrace(Trailers).Bytes;
            ThreadedReport One =
                annotateOn(Bytes, 1, Json, Cold, Sort, FileOrder);
            ThreadedReport Four =
                annotateOn(Bytes, 4, Json, Cold, Sort, FileOrder);
            expectWholeAndTheSame(One, Four);
            // Not vacuous: every access counted, and misses.
            EXPECT_GT(One.Workgroups, kAccesses);
            EXPECT_EQ(One.Workgroups, Four.Workgroups);
            EXPECT_GT(Four.Races, 0u);
            EXPECT_EQ(One.Races, Four.Races);
          }
  // --top, and more rings than a pool's window (kept chunks used again).
  const std::vector<uint8_t> Many =
      multiRingTrace(true, std::nullopt, 24).Bytes;
  for (bool Cold : {false, true}) {
    ThreadedReport One = annotateOn(Many, 1, false, Cold, "D1mr", false, 2);
    ThreadedReport Two = annotateOn(Many, 2, false, Cold, "D1mr", false, 2);
    expectWholeAndTheSame(One, Two);
  }
  // Damage: the rings before it, and the same error.
  MultiRingTrace M = multiRingTrace(false, 3);
  ThreadedReport One = annotateOn(M.Bytes, 1, false, false, "", false);
  ThreadedReport Four = annotateOn(M.Bytes, 4, false, false, "", false);
  EXPECT_TRUE(Four.OnThreads);
  EXPECT_NE(One.Error, "");
  EXPECT_EQ(One.Error, Four.Error);
  EXPECT_EQ(One.Text, Four.Text);
}

// diff's profile (ProfileTool) and races of each file, read on threads, as
// a pair of shards (ToolPair): every section, text or JSON, by any column,
// must be the one-thread diff.
TEST(Threads, DiffIsTheOneThreadDiff) {
  const std::vector<uint8_t> Before = multiRingTrace(true).Bytes;
  // Another run: more rings, without trailers.
  const std::vector<uint8_t> After =
      multiRingTrace(false, std::nullopt, kThreadedRings + 3).Bytes;
  constexpr uint64_t kAfterAccesses = (kThreadedRings + 3) * 6 * (40 + 8);
  for (bool Json : {false, true})
    for (bool Cold : {false, true})
      for (const char *Sort : {"", "D1mr", "lines", "LLmw", "races", "bytes"})
        for (uint64_t Top : {uint64_t(0), uint64_t(2)}) {
          SCOPED_TRACE(std::string(Sort) + (Json ? " json" : "") +
                       (Cold ? " cold" : "") + " top " + std::to_string(Top));
          RowOrder Order;
          Order.Column = Sort;
          Order.Top = Top;
          ThreadedReport One = diffOn(Before, After, 1, Json, Cold, Order);
          ThreadedReport Four = diffOn(Before, After, 4, Json, Cold, Order);
          expectWholeAndTheSame(One, Four);
          EXPECT_GT(One.Workgroups, kAfterAccesses);
          EXPECT_EQ(One.Workgroups, Four.Workgroups);
          EXPECT_GT(Four.Races, 0u);
          EXPECT_EQ(One.Races, Four.Races);
        }
}

// The page's first pass (records per processor, bytes accessed per buffer)
// reads on threads; the second, which places the accesses, on one.
TEST(Threads, HtmlPageIsTheOneThreadPage) {
  for (bool Trailers : {true, false})
    for (uint64_t MaxPoints :
         {HtmlReportTool::DefaultMaxPoints, uint64_t(50)}) {
      SCOPED_TRACE(std::to_string(MaxPoints) + (Trailers ? " trailers" : ""));
      const std::vector<uint8_t> Bytes = multiRingTrace(Trailers).Bytes;
      ThreadedReport One = pageOn(Bytes, 1, MaxPoints);
      ThreadedReport Four = pageOn(Bytes, 4, MaxPoints);
      expectWholeAndTheSame(One, Four);
      // Not vacuous: every ring's workgroups, a lane per ring, and the
      // buffers that rings meet in different orders on the address axis.
      EXPECT_EQ(Four.Workgroups, kThreadedRings * 6);
      EXPECT_EQ(Four.Lanes, kThreadedRings);
      EXPECT_GE(Four.BufferSegments, 3u);
    }
  MultiRingTrace M = multiRingTrace(false, 2);
  ThreadedReport One = pageOn(M.Bytes, 1, 50);
  ThreadedReport Four = pageOn(M.Bytes, 4, 50);
  EXPECT_TRUE(Four.OnThreads);
  EXPECT_NE(One.Error, "");
  EXPECT_EQ(One.Error, Four.Error);
  EXPECT_EQ(One.Text, Four.Text);
}

// The page's sections read on threads too: races and annotate as their
// commands read them, the reuse distances (LineReuseTool) kept per chunk
// (AccessKeeper.h) and counted in file order on a lane of their own, as
// `cache` counts its histogram. The page must be the one-thread page byte
// for byte, and the histogram (which the page draws) the one-thread one.
TEST(Threads, HtmlIsTheOneThreadHtml) {
  // At least 6 workgroups of 40 loads and 8 stores per ring.
  constexpr uint64_t kAccesses = kThreadedRings * 6 * (40 + 8);
  for (bool Trailers : {true, false})
    for (bool Cold : {false, true})
      for (uint64_t MaxPoints :
           {HtmlReportTool::DefaultMaxPoints, uint64_t(50)}) {
        SCOPED_TRACE(std::to_string(MaxPoints) + (Trailers ? " trailers" : "") +
                     (Cold ? " cold" : ""));
        const std::vector<uint8_t> Bytes = multiRingTrace(Trailers).Bytes;
        std::vector<uint64_t> OneHistogram, FourHistogram;
        ThreadedReport One = htmlOn(Bytes, 1, Cold, MaxPoints, &OneHistogram);
        ThreadedReport Four = htmlOn(Bytes, 4, Cold, MaxPoints, &FourHistogram);
        expectWholeAndTheSame(One, Four);
        EXPECT_EQ(OneHistogram, FourHistogram);
        // Not vacuous: every access's line, distances other than 0, races.
        EXPECT_GE(Four.Workgroups, kAccesses);
        EXPECT_EQ(One.Workgroups, Four.Workgroups);
        uint64_t Reused = 0;
        for (size_t B = 1; B + 1 < FourHistogram.size(); ++B)
          Reused += FourHistogram[B];
        EXPECT_GT(Reused, 0u);
        EXPECT_GT(Four.Races, 0u);
        EXPECT_EQ(One.Races, Four.Races);
      }
  // More rings than a pool's window: kept chunks counted and used again.
  const std::vector<uint8_t> Many =
      multiRingTrace(true, std::nullopt, 24).Bytes;
  std::vector<uint64_t> OneHistogram, TwoHistogram;
  ThreadedReport One = htmlOn(Many, 1, false, 50, &OneHistogram);
  ThreadedReport Two = htmlOn(Many, 2, false, 50, &TwoHistogram);
  expectWholeAndTheSame(One, Two);
  EXPECT_EQ(OneHistogram, TwoHistogram);
  // Damage: the page of the rings before it, and the same errors.
  MultiRingTrace M = multiRingTrace(false, 3);
  expectStoppedAlike(htmlOn(M.Bytes, 1, false, 50),
                     htmlOn(M.Bytes, 4, false, 50));
}

// A shard converts its ring chunk into an output chunk of its own; the
// merge writes them in file order: the output is the one-thread output
// byte for byte, wrapped rings (an earlier writer's trailers) and a file
// of more rings than the pool's window included; damage stops it where
// one thread stops.
TEST(Threads, ConvertIsTheOneThreadConvert) {
  for (bool Trailers : {true, false})
    for (uint64_t RingSize : {uint64_t(1) << 16, uint64_t(2048)})
      for (uint32_t Rings : {kThreadedRings, 24u}) {
        SCOPED_TRACE(std::to_string(RingSize) + " " + std::to_string(Rings) +
                     (Trailers ? " trailers" : ""));
        const std::vector<uint8_t> Bytes =
            multiRingTrace(Trailers, std::nullopt, Rings, RingSize).Bytes;
        ThreadedReport One = convertOn(Bytes, 1);
        EXPECT_FALSE(One.OnThreads);
        EXPECT_EQ(One.Error, "");
        // Not vacuous: records of every ring (the 48 loads and stores of
        // each workgroup, of those the wrapped rings kept).
        EXPECT_GT(One.Workgroups, uint64_t(Rings) * 48);
        for (unsigned Threads : {2u, 4u}) {
          SCOPED_TRACE(std::to_string(Threads) + " threads");
          ThreadedReport Many = convertOn(Bytes, Threads);
          EXPECT_EQ(Many.Error, "");
          EXPECT_EQ(One.Text, Many.Text);
          EXPECT_EQ(One.Workgroups, Many.Workgroups);
          EXPECT_EQ(One.Races, Many.Races);
          // A ring without trailer that ends near full may go on in the
          // next chunk: such files are read on one thread.
          if (Trailers || RingSize != 2048) {
            EXPECT_TRUE(Many.OnThreads);
          }
        }
      }
  for (uint32_t Damaged : {0u, 2u, kThreadedRings - 1}) {
    SCOPED_TRACE("ring " + std::to_string(Damaged));
    MultiRingTrace M = multiRingTrace(/*Trailers=*/false, Damaged);
    expectStoppedAlike(convertOn(M.Bytes, 1), convertOn(M.Bytes, 2));
  }
}

// Both passes read on threads: the first's shards find the bytes their
// chunk touched, the second's their chunk's workgroups against the file's
// clusters; the buffers (parameters) are numbered as rings first meet them.
TEST(Threads, FootprintIsTheOneThreadFootprint) {
  for (bool Trailers : {true, false})
    for (bool Json : {false, true}) {
      SCOPED_TRACE(std::string(Json ? "json" : "text") +
                   (Trailers ? " trailers" : ""));
      const std::vector<uint8_t> Bytes = multiRingTrace(Trailers).Bytes;
      ThreadedReport One = footprintOn(Bytes, 1, Json);
      EXPECT_EQ(One.PassesOnThreads, 0u);
      EXPECT_EQ(One.Workgroups, kThreadedRings * 6);
      for (unsigned Threads : {2u, 3u}) {
        SCOPED_TRACE(std::to_string(Threads) + " threads");
        ThreadedReport Many = footprintOn(Bytes, Threads, Json);
        expectWholeAndTheSame(One, Many);
        EXPECT_EQ(Many.PassesOnThreads, 2u);
        EXPECT_EQ(Many.Workgroups, kThreadedRings * 6);
      }
    }
}

// Accesses in no parameter: each ring's bytes alone are clusters of their
// own, the file's join them (gaps under 4 KiB between rings), and every
// ring loads and stores the same bytes too. A shard must find its buffers
// in the file's clusters, and the file's clusters must be those of all
// rings.
TEST(Threads, FootprintClustersAreTheFilesClusters) {
  constexpr uint32_t kRings = 4;
  TraceBuilder B;
  addSimpleMetadata(B, 2);
  for (uint32_t Ring = 0; Ring < kRings; ++Ring) {
    RingBuilder R(1 << 16, 0);
    for (uint32_t W = 0; W < 3; ++W) {
      R.workgroup(W % 2, {Ring, W, 0}, {kRings, 3, 1}, Ring);
      // Ring 3's run lies lowest: the clusters' numbers follow addresses,
      // not the rings.
      const uint64_t Run = 0x700000 + 0x800 * uint64_t(kRings - 1 - Ring);
      for (uint64_t I = 0; I < 32; ++I)
        R.load(Run + 8 * I + 4 * uint64_t(W), 4);
      // A cluster of this ring alone, far from the others.
      for (uint64_t I = 0; I < 4; ++I)
        R.store(0x900000 + 0x4000 * uint64_t(Ring) + 64 * I * (W + 1), 8);
      // The same bytes from every ring and workgroup.
      for (uint64_t I = 0; I < 6; ++I) {
        R.load(0x500000 + 4 * I, 4);
        R.store(0x500000 + 4 * I, 4);
      }
    }
    format::RingTrailer T{};
    T.RingId = Ring;
    T.RingSize = 1 << 16;
    R.trailer(T);
    B.ring(R);
  }
  const std::vector<uint8_t> Bytes = B.bytes();
  for (bool Json : {false, true}) {
    SCOPED_TRACE(Json ? "json" : "text");
    ThreadedReport One = footprintOn(Bytes, 1, Json);
    ThreadedReport Two = footprintOn(Bytes, 2, Json);
    expectWholeAndTheSame(One, Two);
    EXPECT_EQ(Two.PassesOnThreads, 2u);
    EXPECT_EQ(Two.Workgroups, uint64_t(kRings) * 3);
    // 0x500000, the runs of all rings as one, one per ring at 0x900000.
    EXPECT_EQ(One.BufferSegments, 2 + kRings);
    EXPECT_EQ(Two.BufferSegments, 2 + kRings);
  }
}

TEST(Threads, FootprintOfADamagedRingStopsWhereOneThreadStops) {
  for (uint32_t Damaged : {0u, 2u, kThreadedRings - 1})
    for (bool Json : {false, true}) {
      SCOPED_TRACE("ring " + std::to_string(Damaged) + (Json ? " json" : ""));
      MultiRingTrace M = multiRingTrace(/*Trailers=*/false, Damaged);
      ThreadedReport One = footprintOn(M.Bytes, 1, Json);
      ThreadedReport Two = footprintOn(M.Bytes, 2, Json);
      EXPECT_TRUE(Two.OnThreads);
      EXPECT_EQ(Two.PassesOnThreads, 2u);
      EXPECT_NE(One.Error, "");
      EXPECT_EQ(One.Error, Two.Error);
      EXPECT_EQ(One.Text, Two.Text);
      EXPECT_EQ(Two.Workgroups, 6 * uint64_t(Damaged) + 1);
    }
}

TEST(Threads, DamagedRingStopsWhereOneThreadStops) {
  for (uint32_t Damaged : {0u, 2u, kThreadedRings - 1}) {
    SCOPED_TRACE("ring " + std::to_string(Damaged));
    MultiRingTrace M = multiRingTrace(/*Trailers=*/false, Damaged);
    ThreadedReport One = summariseOn(M.Bytes, 1, false, GroupBy::Workgroup);
    ThreadedReport Four = summariseOn(M.Bytes, 4, false, GroupBy::Workgroup);
    EXPECT_TRUE(Four.OnThreads);
    EXPECT_EQ(One.Text, Four.Text);
    EXPECT_EQ(One.Error, Four.Error);
    char Offset[32];
    std::snprintf(Offset, sizeof(Offset), "offset 0x%llx:",
                  static_cast<unsigned long long>(M.DamageOffset));
    EXPECT_EQ(Four.Error.rfind(Offset, 0), 0u) << Four.Error;
    // The rings before the damaged one are all in the report, and the
    // first workgroup of the damaged one up to the damage.
    EXPECT_EQ(Four.Workgroups, 6 * Damaged + 1);
  }
}

// The decoding thread keeps batches of lines (LOAD and STORE records, the
// other lines formatted), the pool's threads format them, and the text is
// written in batch order: the dump is the one-thread dump, line for line,
// wrapped rings (read either way), filters, --iree-compat and batches of
// every size included.
TEST(Threads, DumpIsTheOneThreadDump) {
  for (bool Trailers : {true, false})
    for (uint64_t RingSize : {uint64_t(1) << 16, uint64_t(2048)})
      for (bool Iree : {false, true})
        for (int Filter = 0; Filter < 3; ++Filter) {
          SCOPED_TRACE(std::to_string(RingSize) +
                       (Trailers ? " trailers" : "") + (Iree ? " iree" : "") +
                       " filter " + std::to_string(Filter));
          const std::vector<uint8_t> Bytes =
              multiRingTrace(Trailers, std::nullopt, kThreadedRings, RingSize)
                  .Bytes;
          DumpOptions Options;
          Options.IreeCompat = Iree;
          if (Filter == 1)
            Options.Dispatch = 1;
          if (Filter == 2)
            Options.WorkgroupId = {{2, 3, 0}};
          ThreadedReport One = dumpOn(Bytes, 1, Options);
          for (unsigned Threads : {2u, 4u})
            for (size_t BatchLines : {1, 7, 1000, 1 << 15}) {
              SCOPED_TRACE(std::to_string(Threads) + " threads, batches of " +
                           std::to_string(BatchLines));
              ThreadedReport Many = dumpOn(Bytes, Threads, Options, BatchLines);
              expectWholeAndTheSame(One, Many);
            }
          // Not vacuous: every ring's lines (the prints of the rings that
          // did not wrap past them).
          if (Filter == 0 && RingSize == (1 << 16)) {
            for (uint32_t Ring = 0; Ring < kThreadedRings; ++Ring)
              EXPECT_NE(One.Text.find("PRINT ring " + std::to_string(Ring)),
                        std::string::npos);
          }
        }
}

TEST(Threads, DumpOfADamagedRingStopsWhereOneThreadStops) {
  for (uint32_t Damaged : {0u, 2u, kThreadedRings - 1})
    for (bool Iree : {false, true}) {
      SCOPED_TRACE("ring " + std::to_string(Damaged) + (Iree ? " iree" : ""));
      MultiRingTrace M = multiRingTrace(/*Trailers=*/false, Damaged);
      DumpOptions Options;
      Options.IreeCompat = Iree;
      ThreadedReport One = dumpOn(M.Bytes, 1, Options);
      ThreadedReport Two = dumpOn(M.Bytes, 2, Options);
      EXPECT_FALSE(One.OnThreads);
      EXPECT_TRUE(Two.OnThreads);
      EXPECT_NE(One.Error, "");
      EXPECT_EQ(One.Error, Two.Error);
      EXPECT_EQ(One.Text, Two.Text);
      // The rings before the damaged one, none after.
      if (Damaged) {
        EXPECT_NE(Two.Text.find("PRINT ring " + std::to_string(Damaged - 1)),
                  std::string::npos);
      }
      EXPECT_EQ(Two.Text.find("PRINT ring " + std::to_string(Damaged + 1)),
                std::string::npos);
    }
}

// As the dump: rows of loads and stores in batches written on the pool's
// threads, the other rows (workgroups, values, prints, the CSV header) in
// their place, the text in batch order; each batch names its functions,
// sources and buffers itself (sites and buffers change within a batch).
TEST(Threads, ExportTableIsTheOneThreadTable) {
  for (bool Trailers : {true, false})
    for (auto F :
         {RecordTableTool::Format::Csv, RecordTableTool::Format::JsonLines}) {
      SCOPED_TRACE(
          std::string(F == RecordTableTool::Format::Csv ? "csv" : "jsonl") +
          (Trailers ? " trailers" : ""));
      const std::vector<uint8_t> Bytes = multiRingTrace(Trailers).Bytes;
      ThreadedReport One = tableOn(Bytes, 1, F);
      for (unsigned Threads : {2u, 4u})
        for (size_t BatchRows : {1, 7, 1000, 1 << 14}) {
          SCOPED_TRACE(std::to_string(Threads) + " threads, batches of " +
                       std::to_string(BatchRows));
          expectWholeAndTheSame(One, tableOn(Bytes, Threads, F, BatchRows));
        }
      // Not vacuous: the rows name both kernels' sources and buffers.
      for (const char *Name : {"mm.cc:12", "tr.cc:7", "out", "in"})
        EXPECT_NE(One.Text.find(Name), std::string::npos) << Name;
    }
  for (uint32_t Damaged : {0u, 2u, kThreadedRings - 1}) {
    SCOPED_TRACE("ring " + std::to_string(Damaged));
    MultiRingTrace M = multiRingTrace(/*Trailers=*/false, Damaged);
    ThreadedReport One = tableOn(M.Bytes, 1, RecordTableTool::Format::Csv);
    ThreadedReport Two = tableOn(M.Bytes, 2, RecordTableTool::Format::Csv);
    EXPECT_FALSE(One.OnThreads);
    EXPECT_TRUE(Two.OnThreads);
    EXPECT_NE(One.Error, "");
    EXPECT_EQ(One.Error, Two.Error);
    EXPECT_EQ(One.Text, Two.Text);
  }
}

/// Two ring chunks of one ring id: a copy in the second could continue
/// an invocation of the first, so the file is read on one thread.
std::vector<uint8_t> ringIdTwiceTrace() {
  TraceBuilder B;
  addSimpleMetadata(B);
  for (int I = 0; I < 2; ++I) {
    RingBuilder R(4096, 0);
    R.workgroup(0, {uint32_t(I), 0, 0}, {2, 1, 1});
    R.load(0x1000, 4);
    format::RingTrailer T{};
    T.RingId = 7;
    T.RingSize = 4096;
    R.trailer(T);
    B.ring(R);
  }
  return B.bytes();
}

TEST(Threads, FilesTheReaderCannotSplitAreReadOnOneThread) {
  const std::vector<uint8_t> Bytes = ringIdTwiceTrace();
  ThreadedReport One = summariseOn(Bytes, 1, false, GroupBy::Workgroup);
  ThreadedReport Four = summariseOn(Bytes, 4, false, GroupBy::Workgroup);
  EXPECT_FALSE(Four.OnThreads);
  EXPECT_EQ(One.Text, Four.Text);
}

/// `wgtrace-view COMMAND OPTIONS PATH` with --threads 1, without --threads
/// and with --threads \p Threads: one output, error and exit status
/// (\p Status), and some output.
void expectTheSameOnThreads(const std::string &Command, const char *Options,
                            const std::string &Path, int Status,
                            const char *Threads) {
  SCOPED_TRACE(Command + " " + Options);
  const std::string Args = Command + " " + Options + " " + Path;
  ViewRun One = view(Args + " --threads 1");
  ViewRun Default = view(Args);
  ViewRun Many = view(Args + " --threads " + Threads);
  EXPECT_EQ(One.Status, Status) << One.Err;
  EXPECT_NE(One.Out, "");
  EXPECT_EQ(One.Out, Default.Out);
  EXPECT_EQ(One.Out, Many.Out);
  EXPECT_EQ(One.Err, Many.Err);
  EXPECT_EQ(One.Status, Many.Status);
}

/// `wgtrace-view ARGS` of a damaged file with --threads 1 and 2: exit
/// status 2, some output, one error line (notes besides it are the
/// loss's), and the same output, error and status; the one-thread run.
ViewRun expectDamagedAlikeOnThreads(const std::string &Args) {
  SCOPED_TRACE(Args);
  ViewRun One = view(Args + " --threads 1");
  ViewRun Two = view(Args + " --threads 2");
  EXPECT_EQ(One.Status, 2);
  EXPECT_NE(One.Out, "");
  size_t Errors = 0;
  for (size_t At = One.Err.find("error: "); At != std::string::npos;
       At = One.Err.find("error: ", At + 1))
    ++Errors;
  EXPECT_EQ(Errors, 1u) << One.Err;
  EXPECT_EQ(One.Status, Two.Status);
  EXPECT_EQ(One.Out, Two.Out);
  EXPECT_EQ(One.Err, Two.Err);
  return One;
}

TEST(Threads, CommandLine) {
  const std::string Path =
      writeTrace("threads.bin", multiRingTrace(true).Bytes);
  for (const char *Options :
       {"", "--json", "--by site", "--by line --json", "--by buffer",
        "--by kernel --json", "--sort loads --top 2", "--kernel 'm*'",
        "--dispatch 1 --json", "--workgroup 2,3,0"})
    expectTheSameOnThreads("summary", Options, Path, 0, "4");
  for (const char *Options :
       {"", "--json", "--limit 3", "--sort pairs", "--kernel 't*' --json"})
    expectTheSameOnThreads("races", Options, Path, 1, "4"); // races found
  for (const char *Options :
       {"", "--json", "--cold", "--by line --json", "--by buffer",
        "--l1 1k,2,64 --l2 4k,4,64 --ll 16k,4,64 --json", "--sort D1mr --top 3",
        "--kernel 't*'"})
    expectTheSameOnThreads("cache", Options, Path, 0, "2");
  for (const char *Options :
       {"", "--json", "--sort store_bytes --top 4", "--sort accesses --json",
        "--kernel 't*'", "--dispatch 1 --json", "--workgroup 2,3,0"})
    expectTheSameOnThreads("footprint", Options, Path, 0, "3");
  for (const char *Options : {"", "--iree-compat", "--kernel 't*'",
                              "--dispatch 1", "--workgroup 2,3,0"})
    expectTheSameOnThreads("dump", Options, Path, 0, "2");
  for (const char *Options :
       {"", "--json", "--cold", "--order file", "--sort D1mr --top 2",
        "--l1 1k,2,64 --l2 none --ll 16k,4,64 --json", "--kernel 't*'",
        "--dispatch 1 --json", "--workgroup 2,3,0"})
    expectTheSameOnThreads("annotate", Options, Path, 0, "2");
  const std::string Other =
      writeTrace("threads-other.bin",
                 multiRingTrace(false, std::nullopt, kThreadedRings + 2).Bytes);
  for (const char *Options :
       {"", "--json", "--cold", "--sort LLmr --top 3", "--sort races --json",
        "--kernel 't*'", "--dispatch 1 --json"})
    expectTheSameOnThreads("diff", Options, Path + " " + Other, 0, "2");
  EXPECT_EQ(view("annotate --threads 0 " + Path).Status, 1);
  EXPECT_EQ(view("diff --threads 0 " + Path + " " + Other).Status, 1);
  ViewRun Zero = view("summary --threads 0 " + Path);
  EXPECT_EQ(Zero.Status, 1); // usage
  EXPECT_NE(Zero.Err.find("--threads 0"), std::string::npos) << Zero.Err;

  const std::string Damaged =
      writeTrace("threads-damaged.bin", multiRingTrace(false, 2).Bytes);
  ViewRun One = view("summary --threads 1 " + Damaged);
  ViewRun Two = view("summary --threads 2 " + Damaged);
  EXPECT_EQ(One.Status, 2);
  EXPECT_EQ(One.Status, Two.Status);
  EXPECT_EQ(One.Out, Two.Out);
  EXPECT_EQ(One.Err, Two.Err);
  for (const char *Json : {"", " --json"}) {
    ViewRun OneFootprint =
        view("footprint --threads 1" + std::string(Json) + " " + Damaged);
    ViewRun TwoFootprint =
        view("footprint --threads 2" + std::string(Json) + " " + Damaged);
    EXPECT_EQ(OneFootprint.Status, 2) << Json;
    EXPECT_NE(OneFootprint.Out, "") << Json;
    EXPECT_EQ(OneFootprint.Status, TwoFootprint.Status) << Json;
    EXPECT_EQ(OneFootprint.Out, TwoFootprint.Out) << Json;
    EXPECT_EQ(OneFootprint.Err, TwoFootprint.Err) << Json;
  }
  // A damaged record, and a copy cut to 2/3 (the error line after the
  // lines before the cut).
  std::vector<uint8_t> Cut = multiRingTrace(true).Bytes;
  Cut.resize(Cut.size() * 2 / 3);
  const std::string CutPath = writeTrace("threads-cut.bin", Cut);
  for (const std::string &Bad : {Damaged, CutPath})
    for (const char *Iree : {"", " --iree-compat"}) {
      SCOPED_TRACE(Bad + Iree);
      ViewRun OneDump =
          view("dump --threads 1" + std::string(Iree) + " " + Bad);
      ViewRun TwoDump =
          view("dump --threads 2" + std::string(Iree) + " " + Bad);
      EXPECT_EQ(OneDump.Status, 2);
      EXPECT_NE(OneDump.Out, "");
      EXPECT_NE(OneDump.Err, "");
      EXPECT_EQ(OneDump.Status, TwoDump.Status);
      EXPECT_EQ(OneDump.Out, TwoDump.Out);
      EXPECT_EQ(OneDump.Err, TwoDump.Err);
    }
  EXPECT_EQ(view("dump --threads 0 " + Path).Status, 1);
  for (const char *Options :
       {"--format csv", "--format jsonl", "--format csv --kernel 't*'",
        "--format jsonl --dispatch 1", "--format chrome"})
    expectTheSameOnThreads("export", Options, Path, 0, "2");
  // Several files, one table; a damaged and a cut file.
  expectTheSameOnThreads("export", "--format csv", Path + " " + Path, 0, "2");
  for (const std::string &Bad : {Damaged, CutPath})
    for (const char *Format : {"csv", "jsonl"}) {
      SCOPED_TRACE(Bad + " " + Format);
      const std::string Args =
          std::string("export --format ") + Format + " " + Bad;
      ViewRun OneTable = view(Args + " --threads 1");
      ViewRun TwoTable = view(Args + " --threads 2");
      EXPECT_EQ(OneTable.Status, 2);
      EXPECT_NE(OneTable.Err, "");
      EXPECT_EQ(OneTable.Status, TwoTable.Status);
      EXPECT_EQ(OneTable.Out, TwoTable.Out);
      EXPECT_EQ(OneTable.Err, TwoTable.Err);
    }
  EXPECT_EQ(view("export --threads 0 " + Path).Status, 1);
  ViewRun ZeroFootprint = view("footprint --threads 0 " + Path);
  EXPECT_EQ(ZeroFootprint.Status, 1);
}

// html and convert --iree as a user runs them: the page, the converted
// file, error lines and exit status the same on one thread and on two, for
// a damaged file and a file cut short too, and convert of a compressed
// trace (read on one thread, whatever --threads) the convert of the plain
// one.
TEST(Threads, HtmlAndConvertCommandLine) {
  const std::string Path =
      writeTrace("threads.bin", multiRingTrace(true).Bytes);
  for (const char *Options :
       {"", "--cold", "--max-points 50", "--kernel 't*'", "--dispatch 1",
        "--l1 1k,2,64 --l2 none --ll 16k,4,64"})
    expectTheSameOnThreads("html", Options, Path, 0, "2");
  expectTheSameOnThreads("convert", "--iree", Path, 0, "2");
  const std::string Damaged =
      writeTrace("threads-damaged.bin", multiRingTrace(false, 2).Bytes);
  std::vector<uint8_t> Cut = multiRingTrace(true).Bytes;
  Cut.resize(Cut.size() * 2 / 3);
  const std::string CutPath = writeTrace("threads-cut.bin", Cut);
  for (const std::string &Bad : {Damaged, CutPath})
    for (const char *Command : {"html", "convert --iree"})
      expectDamagedAlikeOnThreads(std::string(Command) + " " + Bad);
  const std::string Zst = tempPath("threads.bin.zst");
  ASSERT_EQ(view("compress " + Path + " " + Zst).Status, 0);
  ViewRun Plain = view("convert --iree --threads 1 " + Path);
  ViewRun OneZst = view("convert --iree --threads 1 " + Zst);
  ViewRun TwoZst = view("convert --iree --threads 2 " + Zst);
  EXPECT_EQ(OneZst.Status, 0) << OneZst.Err;
  EXPECT_EQ(TwoZst.Status, 0) << TwoZst.Err;
  EXPECT_EQ(Plain.Out, OneZst.Out);
  EXPECT_EQ(OneZst.Out, TwoZst.Out);
  EXPECT_EQ(OneZst.Err, TwoZst.Err);
  EXPECT_EQ(view("html --threads 0 " + Path).Status, 1);
  EXPECT_EQ(view("convert --iree --threads 0 " + Path).Status, 1);
}

#ifdef WGTRACE_HAVE_ZSTD
/// \p Raw with its ring chunks compressed, as `compress` writes it.
std::vector<uint8_t> compressed(const std::vector<uint8_t> &Raw) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  RecompressCounts Counts;
  TraceFile File = TraceFile::fromBytes(Raw);
  if (llvm::Error E = compressTrace(File, OS, 1, 1, Counts))
    ADD_FAILURE() << llvm::toString(std::move(E));
  OS.flush();
  return std::vector<uint8_t>(Out.begin(), Out.end());
}

/// The file offsets of \p Bytes's chunks of type \p Type.
std::vector<uint64_t> chunkOffsets(const std::vector<uint8_t> &Bytes,
                                   format::ChunkType Type) {
  std::vector<uint64_t> At;
  for (uint64_t Offset = 0;
       Offset + format::kChunkHeaderSize <= Bytes.size();) {
    format::ChunkHeader H;
    std::memcpy(&H, Bytes.data() + Offset, sizeof(H));
    if (H.Type == uint16_t(Type))
      At.push_back(Offset);
    Offset = format::nextChunkOffset(Offset, H.ContentLength);
  }
  return At;
}

std::vector<uint64_t>
compressedChunkOffsets(const std::vector<uint8_t> &Bytes) {
  return chunkOffsets(Bytes, format::ChunkType::Compressed);
}

/// The compressed chunk header at file offset \p At of \p Bytes.
format::CompressedChunkHeader *compressedHeader(std::vector<uint8_t> &Bytes,
                                                uint64_t At) {
  return reinterpret_cast<format::CompressedChunkHeader *>(
      Bytes.data() + At + format::kChunkHeaderSize);
}

/// A report of a file on some threads.
using ReportOn =
    std::function<ThreadedReport(const std::vector<uint8_t> &, unsigned)>;

/// Every report that reads ring chunks on threads, by name: summary, races,
/// cache, annotate, footprint, the html page and its sections, and convert
/// (diff is two files: its own test).
std::vector<std::pair<std::string, ReportOn>> threadedReports() {
  using Bytes = const std::vector<uint8_t> &;
  return {
      {"summary",
       [](Bytes B, unsigned T) {
         return summariseOn(B, T, false, GroupBy::Workgroup);
       }},
      {"summary --by line --json",
       [](Bytes B, unsigned T) {
         return summariseOn(B, T, true, GroupBy::Line);
       }},
      {"races", [](Bytes B, unsigned T) { return racesOn(B, T, false); }},
      {"races --json", [](Bytes B, unsigned T) { return racesOn(B, T, true); }},
      {"cache --by site",
       [](Bytes B, unsigned T) {
         return cacheOn(B, T, false, GroupBy::Site, false);
       }},
      {"cache --by buffer --cold --json",
       [](Bytes B, unsigned T) {
         return cacheOn(B, T, true, GroupBy::Buffer, true);
       }},
      {"annotate",
       [](Bytes B, unsigned T) {
         return annotateOn(B, T, false, false, "", false);
       }},
      {"annotate --json --order file",
       [](Bytes B, unsigned T) {
         return annotateOn(B, T, true, false, "", true);
       }},
      {"footprint",
       [](Bytes B, unsigned T) { return footprintOn(B, T, false); }},
      {"footprint --json",
       [](Bytes B, unsigned T) { return footprintOn(B, T, true); }},
      {"html", [](Bytes B, unsigned T) { return htmlOn(B, T, false, 50); }},
      {"html page", [](Bytes B, unsigned T) { return pageOn(B, T, 1000); }},
      {"convert --iree", [](Bytes B, unsigned T) { return convertOn(B, T); }},
  };
}

// A compressed trace is read on threads as its plain copy is: each chunk
// decompressed by the thread that decodes it. Every report is the one
// thread's, and the plain copy's, byte for byte.
TEST(Threads, CompressedTraceIsReadOnThreads) {
  for (bool Trailers : {true, false}) {
    const std::vector<uint8_t> Raw = multiRingTrace(Trailers).Bytes;
    const std::vector<uint8_t> Zst = compressed(Raw);
    ASSERT_EQ(compressedChunkOffsets(Zst).size(), kThreadedRings);
    for (const auto &[Name, Run] : threadedReports()) {
      SCOPED_TRACE(Name + (Trailers ? " trailers" : ""));
      ThreadedReport Plain = Run(Raw, 1);
      ThreadedReport One = Run(Zst, 1);
      ThreadedReport Four = Run(Zst, 4);
      expectWholeAndTheSame(One, Four);
      EXPECT_NE(One.Text, "");
      EXPECT_EQ(Plain.Text, One.Text);
      EXPECT_EQ(One.Workgroups, Four.Workgroups);
      EXPECT_EQ(Plain.Workgroups, Four.Workgroups);
      EXPECT_EQ(One.Races, Four.Races);
      EXPECT_EQ(One.Lanes, Four.Lanes);
      EXPECT_EQ(One.BufferSegments, Four.BufferSegments);
      if (Name.rfind("footprint", 0) == 0) {
        EXPECT_EQ(Four.PassesOnThreads, 2u); // both passes
      }
      if (Name.rfind("summary", 0) == 0) {
        EXPECT_EQ(Four.Workgroups, kThreadedRings * 6);
      }
    }
    const std::vector<uint8_t> Other = compressed(
        multiRingTrace(!Trailers, std::nullopt, kThreadedRings + 2).Bytes);
    for (bool Json : {false, true}) {
      SCOPED_TRACE(std::string("diff") + (Json ? " --json" : ""));
      ThreadedReport One = diffOn(Zst, Other, 1, Json, false, {});
      ThreadedReport Two = diffOn(Zst, Other, 2, Json, false, {});
      ThreadedReport Plain = diffOn(Raw, Other, 1, Json, false, {});
      EXPECT_FALSE(One.OnThreads);
      EXPECT_TRUE(Two.OnThreads);
      EXPECT_EQ(One.Error, "");
      EXPECT_EQ(Two.Error, "");
      EXPECT_EQ(One.Text, Two.Text);
      EXPECT_EQ(Plain.Text, One.Text);
      EXPECT_GT(One.Workgroups, 0u);
      EXPECT_EQ(One.Workgroups, Two.Workgroups);
    }
  }
}

// On threads, a compressed chunk is decompressed once. One among the first
// of the window is decoded by the survey that reads its trailer; of one
// after the window, the survey decompresses only the tail's frame (the
// trailer), and the chunk is decompressed to be decoded once the survey
// has decided that the file is read on threads. Before the tail's frame
// (codecs 1 and 2) the survey decompressed such a chunk twice.
TEST(Threads, CompressedChunksOfTheWindowAreDecompressedOnce) {
  const std::vector<uint8_t> Zst = compressed(multiRingTrace(true).Bytes);
  const std::string OneThread =
      summariseOn(Zst, 1, false, GroupBy::Workgroup).Text;
  auto FramesOn = [&](unsigned Threads) {
    const uint64_t Before = TraceFile::ChunkIterator::framesDecompressed();
    ThreadedReport R = summariseOn(Zst, Threads, false, GroupBy::Workgroup);
    EXPECT_EQ(R.OnThreads, Threads != 1);
    EXPECT_EQ(R.Text, OneThread);
    return TraceFile::ChunkIterator::framesDecompressed() - Before;
  };
  EXPECT_EQ(FramesOn(1), kThreadedRings);
  // Four threads, a window of eight chunks: each of the five once.
  EXPECT_EQ(FramesOn(4), kThreadedRings);
  // Two threads, a window of four: the fifth chunk's tail, then the chunk.
  EXPECT_EQ(FramesOn(2), kThreadedRings);
}

/// Three rings of 4 MiB, each nearly full of PRINT records of many lengths
/// between loads, with checksums (\p Trailers) or as IREE's writer writes
/// them: larger than the window a compressed chunk is read through.
std::vector<uint8_t> printedRingsTrace(bool Trailers) {
  constexpr uint64_t RingSize = 4 << 20;
  TraceBuilder B;
  addSimpleMetadata(B);
  for (uint32_t Ring = 0; Ring < 3; ++Ring) {
    RingBuilder R(RingSize, 0);
    R.workgroup(0, {Ring, 0, 0}, {3, 1, 1}, Ring);
    for (uint64_t I = 0; R.head() + 2 * format::kMaxRecordSize < RingSize;
         ++I) {
      const size_t Length = 1 + (I * 397 + Ring * 11) % 1500;
      R.print(std::string(Length, char('a' + (I + Ring) % 26)) +
              std::to_string(I));
      for (uint64_t K = 0; K < I % 3; ++K)
        R.load(0x10000 + 4 * (I + K), 4);
    }
    if (Trailers) {
      format::RingTrailer T{};
      T.RingId = Ring;
      T.RingSize = RingSize;
      R.trailer(T);
    }
    B.ring(R);
  }
  return B.bytes();
}

// A compressed chunk larger than the window its records are decompressed
// into as they are decoded (RecordStream) reads as the chunk decompressed
// whole does, the PRINT text delivered a record late moving with the
// window: convert --iree (which copies every PRINT's text) and summary on
// two threads are those of the plain file on one.
TEST(Threads, CompressedChunksLargerThanTheirWindowAreReadAsStreams) {
  for (bool Trailers : {true, false}) {
    SCOPED_TRACE(Trailers ? "checksums" : "no trailers");
    const std::vector<uint8_t> Raw = printedRingsTrace(Trailers);
    const std::vector<uint8_t> Zst = compressed(Raw);
    ASSERT_EQ(compressedChunkOffsets(Zst).size(), 3u);
    const uint64_t Before = RecordStream::slides();
    ThreadedReport Plain = convertOn(Raw, 1);
    ThreadedReport Two = convertOn(Zst, 2);
    EXPECT_TRUE(Two.OnThreads);
    EXPECT_EQ(Plain.Error, "");
    EXPECT_EQ(Two.Error, "");
    EXPECT_GT(Plain.Workgroups, 3u * 4000);
    EXPECT_EQ(Plain.Workgroups, Two.Workgroups);
    EXPECT_TRUE(Plain.Text == Two.Text);
    // Each 4 MiB ring through a window of half a MiB.
    EXPECT_GE(RecordStream::slides() - Before, 3u);
    ThreadedReport PlainSummary =
        summariseOn(Raw, 1, false, GroupBy::Workgroup);
    ThreadedReport TwoSummary = summariseOn(Zst, 2, false, GroupBy::Workgroup);
    EXPECT_TRUE(TwoSummary.OnThreads);
    EXPECT_EQ(PlainSummary.Text, TwoSummary.Text);
    EXPECT_EQ(TwoSummary.Error, "");

    // The second chunk's records' frame damaged past its first window,
    // the header resealed: found after records were read from it, and
    // skipped with the line and the rest one thread gives.
    std::vector<uint8_t> Damaged = Zst;
    const uint64_t At = compressedChunkOffsets(Damaged)[1];
    format::CompressedChunkHeader *H = compressedHeader(Damaged, At);
    uint8_t *Frame =
        Damaged.data() + At + format::kChunkHeaderSize + sizeof(*H);
    Frame[H->CompressedLength * 3 / 4] ^= 0x55;
    H->Checksum =
        format::compressedChunkChecksum(*H, Frame, H->CompressedLength);
    ThreadedReport OneDamaged =
        summariseOn(Damaged, 1, false, GroupBy::Workgroup);
    ThreadedReport TwoDamaged =
        summariseOn(Damaged, 2, false, GroupBy::Workgroup);
    EXPECT_TRUE(TwoDamaged.OnThreads);
    EXPECT_NE(OneDamaged.Error, "");
    EXPECT_EQ(OneDamaged.Error, TwoDamaged.Error);
    EXPECT_EQ(OneDamaged.Text, TwoDamaged.Text);
    EXPECT_EQ(TwoDamaged.Workgroups, 2u);
  }
}

/// The records (tag and ring offset) and error of \p D's decoding, and
/// the frame's problem, as one string.
std::string streamedRecords(const RingDecoder &D) {
  std::string Out;
  llvm::Error E = D.decode([&](Record &R) {
    Out += std::to_string(unsigned(R.Tag)) + "@" + std::to_string(R.Offset) +
           (R.Text.empty() ? "" : ":" + R.Text.str()) + " ";
  });
  if (E)
    Out += "error: " + llvm::toString(std::move(E));
  return Out + D.frameProblem();
}

/// createStreamed() of the one ring chunk of \p Raw compressed (its
/// decoder, nullopt, or the error's text), and whether its records equal
/// those of create() on the chunk decompressed whole.
std::optional<std::string> streamedAlike(const std::vector<uint8_t> &Raw,
                                         bool &Alike) {
  Alike = false;
  const std::vector<uint8_t> Zst = compressed(Raw);
  TraceFile File = TraceFile::fromBytes(Zst);
  TraceFile::ChunkIterator It = File.chunks();
  It.keepCompressed();
  Chunk C;
  std::optional<Metadata> Meta;
  while (true) {
    llvm::Expected<bool> More = It.next(C);
    if (!More) {
      ADD_FAILURE() << llvm::toString(More.takeError());
      return std::nullopt;
    }
    if (!*More) {
      ADD_FAILURE() << "no compressed chunk";
      return std::nullopt;
    }
    if (C.type() == format::ChunkType::DispatchMetadata) {
      llvm::Expected<Metadata> M = Metadata::decode(C);
      if (!M) {
        ADD_FAILURE() << llvm::toString(M.takeError());
        return std::nullopt;
      }
      Meta = std::move(*M);
    }
    if (C.Where.Compressed)
      break;
  }
  llvm::Expected<std::optional<CompressedTail>> Tail =
      TraceFile::ChunkIterator::decompressTail(C);
  if (!Tail || !*Tail) {
    if (!Tail)
      ADD_FAILURE() << llvm::toString(Tail.takeError());
    return std::nullopt;
  }
  const Metadata *M = Meta ? &*Meta : nullptr;
  llvm::Expected<std::optional<RingDecoder>> Streamed =
      RingDecoder::createStreamed(C, std::move(**Tail), M);
  if (!Streamed)
    return "error: " + llvm::toString(Streamed.takeError());
  if (!*Streamed)
    return std::nullopt;
  Chunk Whole = C;
  if (llvm::Error E = TraceFile::ChunkIterator::decompress(Whole)) {
    ADD_FAILURE() << llvm::toString(std::move(E));
    return std::nullopt;
  }
  llvm::Expected<RingDecoder> D =
      RingDecoder::create(Whole, M, RingMode::WrapAware);
  if (!D) {
    ADD_FAILURE() << llvm::toString(D.takeError());
    return std::nullopt;
  }
  const std::string Records = streamedRecords(**Streamed);
  // Twice: a streamed decoder starts its frame over.
  Alike = Records == streamedRecords(*D) &&
          Records == streamedRecords(**Streamed) && !Records.empty();
  return Records;
}

// Which compressed chunks are read as streams: a ring that did not wrap
// whose tail is its padding, with checksums or from a writer that does
// not zero what follows its records; the others are decompressed whole.
// A streamed chunk's records are those of the chunk decompressed whole.
TEST(Threads, OnlyChunksWhoseTailSaysEnoughAreReadAsStreams) {
  bool Alike = false;
  // With checksums, and as IREE's writer writes them.
  for (bool Trailers : {true, false}) {
    SCOPED_TRACE(Trailers);
    TraceBuilder B;
    addSimpleMetadata(B);
    RingBuilder R(1 << 16, 0);
    R.workgroup(0, {0, 0, 0}, {1, 1, 1});
    for (uint64_t I = 0; I < 500; ++I) {
      R.load(0x1000 + 4 * I, 4);
      if (I % 50 == 0)
        R.print("step " + std::to_string(I));
    }
    if (Trailers) {
      format::RingTrailer T{};
      T.RingSize = 1 << 16;
      R.trailer(T);
    }
    B.ring(R);
    EXPECT_TRUE(streamedAlike(B.bytes(), Alike).has_value());
    EXPECT_TRUE(Alike);
  }
  // A ring that wrapped: its first record is found in the records.
  {
    TraceBuilder B;
    addSimpleMetadata(B);
    RingBuilder R(1 << 13, 0);
    R.workgroup(0, {0, 0, 0}, {1, 1, 1});
    for (uint64_t I = 0; I < 1000; ++I)
      R.load(0x1000 + 4 * I, 4);
    ASSERT_GT(R.head(), R.size());
    B.ring(R);
    EXPECT_FALSE(streamedAlike(B.bytes(), Alike).has_value());
  }
  // A ring of 4 KiB: its whole content is in the tail's frame.
  EXPECT_FALSE(streamedAlike(runRecordTrace(nullptr), Alike).has_value());
  // A writer's chunk without checksums (trailer version 1): the zeroes
  // after its head are checked before any record is read. The same with
  // checksums (version 2) is streamed.
  auto WrittenChunk = [](uint16_t TrailerVersion) {
    ExtensionSpec X;
    X.WithAccessSites = false;
    X.RunRecord = true;
    TraceBuilder B;
    B.metadata({{"simple_mul", "t", "l", "src"}}, {0}, &X);
    RingBuilder R(1 << 16, 0);
    R.workgroup(0, {0, 0, 0}, {1, 1, 1});
    for (uint64_t I = 0; I < 500; ++I)
      R.load(0x1000 + 4 * I, 4);
    format::RingTrailer T{};
    T.Version = TrailerVersion;
    T.RingSize = 1 << 16;
    R.trailer(T);
    B.ring(R);
    return B.bytes();
  };
  EXPECT_FALSE(
      streamedAlike(WrittenChunk(format::kRingTrailerVersionUnchecked), Alike)
          .has_value());
  EXPECT_TRUE(streamedAlike(WrittenChunk(format::kRingTrailerVersion), Alike)
                  .has_value());
  EXPECT_TRUE(Alike);
}

// A compressed file the reader cannot split: the survey decodes both
// chunks before it finds the ring id twice, drops what it decoded, and one
// thread reads the file.
TEST(Threads, CompressedFilesTheReaderCannotSplitAreReadOnOneThread) {
  const std::vector<uint8_t> Zst = compressed(ringIdTwiceTrace());
  ASSERT_EQ(compressedChunkOffsets(Zst).size(), 2u);
  ThreadedReport One = summariseOn(Zst, 1, false, GroupBy::Workgroup);
  ThreadedReport Four = summariseOn(Zst, 4, false, GroupBy::Workgroup);
  EXPECT_FALSE(Four.OnThreads);
  EXPECT_EQ(One.Text, Four.Text);
  EXPECT_EQ(One.Workgroups, 2u);
}

/// How errors name file offset \p Offset.
std::string offsetPrefix(uint64_t Offset) {
  char Where[32];
  std::snprintf(Where, sizeof(Where),
                "offset 0x%llx: ", static_cast<unsigned long long>(Offset));
  return Where;
}

/// \p Bytes, damaged, read by every threaded report on one thread and on
/// four: the reading on threads, the same error (naming \p Offset, and
/// \p Problem), and the same report; summary saw \p Workgroups.
void expectDamageReadAlike(const std::vector<uint8_t> &Bytes, uint64_t Offset,
                           const std::string &Problem, uint64_t Workgroups) {
  const std::string Where = offsetPrefix(Offset);
  for (const auto &[Name, Run] : threadedReports()) {
    SCOPED_TRACE(Name);
    ThreadedReport One = Run(Bytes, 1);
    ThreadedReport Four = Run(Bytes, 4);
    expectStoppedAlike(One, Four);
    EXPECT_NE(One.Error.find(Where), std::string::npos) << One.Error;
    EXPECT_NE(One.Error.find(Problem), std::string::npos) << One.Error;
    EXPECT_EQ(One.Races, Four.Races);
    if (Name.rfind("summary", 0) == 0) {
      EXPECT_EQ(Four.Workgroups, Workgroups);
    }
  }
}

// A compressed chunk whose frame is damaged but whose size its frame
// still says: one thread skips it with one line and reads every other
// chunk, and so do several threads.
TEST(Threads, DamagedCompressedChunkIsSkippedOnThreads) {
  std::vector<uint8_t> Zst = compressed(multiRingTrace(true).Bytes);
  const std::vector<uint64_t> At = compressedChunkOffsets(Zst);
  ASSERT_EQ(At.size(), kThreadedRings);
  const uint64_t Frame =
      At[2] + format::kChunkHeaderSize + sizeof(format::CompressedChunkHeader);
  Zst[Frame + compressedHeader(Zst, At[2])->CompressedLength / 2] ^= 0x55;
  expectDamageReadAlike(Zst, At[2], "checksum mismatch in the compressed chunk",
                        (kThreadedRings - 1) * 6);
  ThreadedReport Four = summariseOn(Zst, 4, false, GroupBy::Workgroup);
  // One line: skipped, not the end of the reading.
  EXPECT_EQ(Four.Error.find("not known either"), std::string::npos);
  EXPECT_EQ(Four.Error.find('\n'), std::string::npos) << Four.Error;
  // Two damaged chunks: two lines, in file order.
  Zst[At[4] + format::kChunkHeaderSize + sizeof(format::CompressedChunkHeader) +
      40] ^= 0x55;
  ThreadedReport One = summariseOn(Zst, 1, false, GroupBy::Workgroup);
  Four = summariseOn(Zst, 4, false, GroupBy::Workgroup);
  expectStoppedAlike(One, Four);
  EXPECT_EQ(Four.Workgroups, (kThreadedRings - 2) * 6);
  EXPECT_LT(Four.Error.find("chunk 3 "), Four.Error.find("chunk 5 "))
      << Four.Error;
}

// A compressed chunk whose records' frame zstd cannot read though its
// header's checksum matches (a writer's bug): on two threads it is the
// fifth chunk, after the window, whose tail alone the survey decompresses;
// the thread that decodes it finds the damage, and the chunk is skipped
// with the line one thread gives it.
TEST(Threads, RecordsFrameFoundDamagedAfterTheSurveyIsSkipped) {
  std::vector<uint8_t> Zst = compressed(multiRingTrace(true).Bytes);
  const std::vector<uint64_t> At = compressedChunkOffsets(Zst);
  ASSERT_EQ(At.size(), kThreadedRings);
  format::CompressedChunkHeader *H = compressedHeader(Zst, At[4]);
  ASSERT_EQ(H->Codec, uint16_t(format::Codec::ZstdWordDeltasTail));
  uint8_t *Frame = Zst.data() + At[4] + format::kChunkHeaderSize + sizeof(*H);
  // Inside the first block's compressed bytes: the frames' sizes and the
  // tail still read.
  Frame[24] ^= 0x55;
  H->Checksum = format::compressedChunkChecksum(*H, Frame, H->CompressedLength);
  ThreadedReport One = summariseOn(Zst, 1, false, GroupBy::Workgroup);
  ThreadedReport Two = summariseOn(Zst, 2, false, GroupBy::Workgroup);
  EXPECT_TRUE(Two.OnThreads);
  EXPECT_EQ(One.Text, Two.Text);
  EXPECT_EQ(One.Error, Two.Error);
  EXPECT_NE(Two.Error.find(offsetPrefix(At[4])), std::string::npos)
      << Two.Error;
  EXPECT_NE(Two.Error.find("zstd: "), std::string::npos) << Two.Error;
  EXPECT_EQ(Two.Error.find('\n'), std::string::npos) << Two.Error;
  EXPECT_EQ(Two.Workgroups, (kThreadedRings - 1) * 6);
}

// A compressed chunk whose size is not known either (its header's
// inner length damaged): one thread ends the reading there, after the
// chunks before it; so do several.
TEST(Threads, CompressedChunkOfUnknownSizeEndsTheReadingOnThreads) {
  std::vector<uint8_t> Zst = compressed(multiRingTrace(true).Bytes);
  const std::vector<uint64_t> At = compressedChunkOffsets(Zst);
  ASSERT_EQ(At.size(), kThreadedRings);
  compressedHeader(Zst, At[3])->InnerLength ^= 0x1000;
  expectDamageReadAlike(Zst, At[3], "its decompressed size is not known either",
                        3 * 6);
}

// A compressed file cut short inside a compressed chunk: the chunks before
// the cut, then the error, on one thread and on several.
TEST(Threads, CutTracesAreReadOnThreads) {
  std::vector<uint8_t> Zst = compressed(multiRingTrace(true).Bytes);
  const std::vector<uint64_t> At = compressedChunkOffsets(Zst);
  ASSERT_EQ(At.size(), kThreadedRings);
  Zst.resize(At[3] + 100);
  // The error names the header's content_length.
  expectDamageReadAlike(Zst, At[3] + 8, "truncated: content_length", 3 * 6);
  // So is a plain file cut inside a ring chunk whose writer promised no
  // run record (one thread shows nothing of that chunk either).
  std::vector<uint8_t> Raw = multiRingTrace(true).Bytes;
  const std::vector<uint64_t> Rings =
      chunkOffsets(Raw, format::ChunkType::DispatchRingBuffer);
  ASSERT_EQ(Rings.size(), kThreadedRings);
  Raw.resize(Rings[3] + 100);
  expectDamageReadAlike(Raw, Rings[3] + 8, "truncated: content_length", 3 * 6);
}

// The same as a user runs them: every subcommand with --threads on a
// compressed trace, whole, with a damaged compressed chunk and cut short.
TEST(Threads, CompressedTraceCommandLine) {
  const std::string Path =
      writeTrace("threads.bin", multiRingTrace(true).Bytes);
  const std::string Zst = tempPath("threads.zst.bin");
  ASSERT_EQ(view("compress " + Path + " " + Zst).Status, 0);
  for (const char *Options : {"", "--json", "--by line --json"})
    expectTheSameOnThreads("summary", Options, Zst, 0, "2");
  for (const char *Options : {"", "--json"})
    expectTheSameOnThreads("races", Options, Zst, 1, "2");
  for (const char *Options : {"", "--json --by buffer"})
    expectTheSameOnThreads("cache", Options, Zst, 0, "2");
  for (const char *Options : {"", "--json"}) {
    expectTheSameOnThreads("footprint", Options, Zst, 0, "2");
    expectTheSameOnThreads("annotate", Options, Zst, 0, "2");
  }
  const std::string Other = tempPath("threads-other.zst.bin");
  ASSERT_EQ(
      view("compress " +
           writeTrace(
               "threads-other.bin",
               multiRingTrace(false, std::nullopt, kThreadedRings + 2).Bytes) +
           " " + Other)
          .Status,
      0);
  expectTheSameOnThreads("diff", "--json", Zst + " " + Other, 0, "2");
  expectTheSameOnThreads("html", "--max-points 50", Zst, 0, "2");
  expectTheSameOnThreads("convert", "--iree", Zst, 0, "2");
  expectTheSameOnThreads("dump", "", Zst, 0, "2");
  expectTheSameOnThreads("export", "--format csv", Zst, 0, "2");

  const std::string Written = slurp(Zst);
  const std::vector<uint8_t> Bytes(Written.begin(), Written.end());
  const std::vector<uint64_t> At = compressedChunkOffsets(Bytes);
  ASSERT_EQ(At.size(), kThreadedRings);
  std::vector<uint8_t> Damaged = Bytes;
  Damaged[At[2] + format::kChunkHeaderSize +
          sizeof(format::CompressedChunkHeader) +
          compressedHeader(Damaged, At[2])->CompressedLength / 2] ^= 0x55;
  std::vector<uint8_t> Cut = Bytes;
  Cut.resize(At[3] + 100);
  for (const auto &[Bad, Offset] :
       {std::make_pair(writeTrace("threads-damaged.zst.bin", Damaged), At[2]),
        std::make_pair(writeTrace("threads-cut.zst.bin", Cut), At[3] + 8)})
    for (const char *Command :
         {"summary", "summary --json", "races", "cache", "footprint",
          "annotate", "html", "convert --iree", "dump",
          "export --format csv"}) {
      ViewRun One =
          expectDamagedAlikeOnThreads(std::string(Command) + " " + Bad);
      EXPECT_NE(One.Err.find(offsetPrefix(Offset)), std::string::npos)
          << One.Err;
    }
}
#endif // WGTRACE_HAVE_ZSTD

} // namespace
