//===- run_record_test.cc - How the run ended, in every trace -------------===//
//
// Every trace ends with its run record (format.h): a finished run with its
// exit status, a run ended by a signal (which one), a crash (which signal)
// and a trace written while the program went on are told apart, in ring
// and stream mode; a run in which no kernel ran still leaves its file.
//
//===----------------------------------------------------------------------===//

#include "driver_process.h"

#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::test;

namespace {

const char *modeName(const std::vector<std::string> &Mode) {
  return Mode.empty() ? "ring" : "stream";
}

/// The one run record of the trace at \p Path.
RunInfo runOf(const std::string &Path, const std::string &What) {
  std::string Error;
  TraceCensus C = censusOf(Path, &Error);
  EXPECT_EQ(Error, "") << What;
  EXPECT_FALSE(C.RunRecordMissing) << What;
  EXPECT_EQ(C.Runs.size(), 1u) << What;
  return C.Runs.empty() ? RunInfo() : C.Runs.back();
}

} // namespace

TEST(RunRecord, FinishedRunsSayTheirExitStatus) {
  for (const auto &Mode : kModes) {
    std::string Path = tracePath("run_exit");
    ChildResult R =
        runDriver({"records", "3", "4"}, with(Mode, {"WGTRACE_FILE=" + Path}));
    ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
    RunInfo Run = runOf(Path, modeName(Mode));
    EXPECT_EQ(Run.End, format::RunEnd::Exit) << modeName(Mode);
    EXPECT_EQ(Run.ExitStatus, 0) << modeName(Mode);
    EXPECT_EQ(Run.Workgroups, 3u) << modeName(Mode);
    EXPECT_EQ(Run.endText(), "exited with status 0");

    // exit(3) from inside a kernel.
    R = runDriver({"exit", "2", "4"}, with(Mode, {"WGTRACE_FILE=" + Path}));
    ASSERT_EQ(R.ExitCode, 3) << R.Stderr;
    Run = runOf(Path, modeName(Mode));
    EXPECT_EQ(Run.End, format::RunEnd::Exit) << modeName(Mode);
    EXPECT_EQ(Run.ExitStatus, 3) << modeName(Mode);
  }
}

// A stream-mode run killed by SIGTERM used to decode as a complete run.
TEST(RunRecord, SignalsAndCrashesSayWhichSignal) {
  struct Case {
    const char *Scenario;
    int Signal;
    format::RunEnd End;
  } Cases[] = {{"raise", SIGTERM, format::RunEnd::Signal},
               {"raise", SIGINT, format::RunEnd::Signal},
               {"crash", SIGSEGV, format::RunEnd::Crash},
               {"abort", SIGABRT, format::RunEnd::Crash},
               {"terminate", SIGABRT, format::RunEnd::Crash}};
  for (const auto &Mode : kModes) {
    for (const Case &C : Cases) {
      std::string What = std::string(modeName(Mode)) + " " + C.Scenario + " " +
                         std::to_string(C.Signal);
      std::string Path = tracePath("run_signal");
      ChildResult R =
          runDriver({C.Scenario, "3", "40"},
                    with(Mode, {"WGTRACE_FILE=" + Path,
                                "DRIVER_SIGNAL=" + std::to_string(C.Signal)}));
      EXPECT_EQ(R.Signal, C.Signal) << What << ": " << R.Stderr;
      RunInfo Run = runOf(Path, What);
      EXPECT_EQ(Run.End, C.End) << What;
      EXPECT_EQ(Run.Signal, uint32_t(C.Signal)) << What;
      EXPECT_EQ(Run.Workgroups, 4u) << What;
    }
  }
  RunInfo Term;
  Term.End = format::RunEnd::Signal;
  Term.Signal = SIGTERM;
  EXPECT_EQ(Term.endText(), "ended by signal 15 (SIGTERM)");
  RunInfo Segv;
  Segv.End = format::RunEnd::Crash;
  Segv.Signal = SIGSEGV;
  EXPECT_EQ(Segv.endText(), "crashed: signal 11 (SIGSEGV); the workgroup "
                            "running then is cut short");
}

// flushTrace writes a trace of a run that goes on: it says so.
TEST(RunRecord, FlushedTraceSaysTheRunWentOn) {
  std::string Path = tracePath("run_final");
  std::string Flushed = tracePath("run_flushed");
  ChildResult R =
      runDriver({"api", "3", "5"},
                {"WGTRACE_FILE=" + Path, "WGTRACE_API_FLUSH=" + Flushed});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  EXPECT_EQ(runOf(Flushed, "flushed").End, format::RunEnd::Running);
  RunInfo Final = runOf(Path, "final");
  EXPECT_EQ(Final.End, format::RunEnd::Exit);
  EXPECT_EQ(Final.Workgroups, 1u) << "resetTrace forgot the first three";
}

// A run whose kernels never ran leaves its file, in both modes, even when
// a signal ends it first; it holds the metadata (the kernels it knows) and
// its run record, and the views say that no workgroup ran.
TEST(RunRecord, ARunInWhichNoKernelRanStillLeavesItsTrace) {
  for (const auto &Mode : kModes) {
    for (const char *Scenario : {"none", "none-signal"}) {
      std::string What = std::string(modeName(Mode)) + " " + Scenario;
      std::string Path = tracePath("run_none");
      ChildResult R =
          runDriver({Scenario, "3", "4"},
                    with(Mode, {"WGTRACE_FILE=" + Path,
                                "DRIVER_SIGNAL=" + std::to_string(SIGTERM)}));
      std::string Error;
      TraceCensus C = censusOf(Path, &Error);
      ASSERT_EQ(Error, "") << What << ": " << R.Stderr;
      EXPECT_EQ(C.MetadataChunks, 1u) << What;
      EXPECT_EQ(C.RingChunks, 0u) << What;
      ASSERT_EQ(C.Runs.size(), 1u) << What;
      EXPECT_EQ(C.Runs[0].Workgroups, 0u) << What;
      EXPECT_EQ(C.Sites.size(), 7u) << What << ": 3 launch sites, 4 direct";
      std::string Why = C.nothingToAnalyse("");
      EXPECT_EQ(Why.rfind("no workgroup ran: the program ", 0), 0u)
          << What << ": " << Why;
      EXPECT_NE(Why.find(std::string(Scenario) == "none"
                             ? "exited with status 0"
                             : "ended by signal 15 (SIGTERM)"),
                std::string::npos)
          << What << ": " << Why;
    }
  }
}

// The largest processor id of the run: direct calls with the user's own
// processor ids (0 to 49 here) count too.
TEST(RunRecord, SaysTheLargestProcessorId) {
  std::string Path = tracePath("run_processors");
  ChildResult R = runDriver({"threads", "50", "4"}, {"WGTRACE_FILE=" + Path});
  ASSERT_EQ(R.ExitCode, 0) << R.Stderr;
  RunInfo Run = runOf(Path, "threads");
  EXPECT_EQ(Run.MaxProcessorId, 49u);
  EXPECT_EQ(Run.Workgroups, 50u);
}
