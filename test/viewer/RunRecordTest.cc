//===- RunRecordTest.cc - Every view says how the run ended ---------------===//
//
// The run record (format.h) heads every report: text, --json, HTML, the
// Chrome export's otherData, and notes on stderr for dump and the tables;
// a file whose writer promised one and that lacks it is cut short (exit
// 3); launches of kernels that are not instrumented are listed and exit 3.
//
//===----------------------------------------------------------------------===//

#include "CliRun.h"
#include "TraceBuilder.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <csignal>
#include <cstring>

using namespace wgtrace;
using namespace wgtrace::testing;

TEST(RunRecord, EveryReportSaysHowTheRunEnded) {
  struct Case {
    format::RunRecord Record;
    const char *Text;
    const char *Json;
  } Cases[] = {
      {endedRun(format::RunEnd::Exit, 0, 0), "run: exited with status 0",
       "exit"},
      {endedRun(format::RunEnd::Signal, 0, SIGTERM),
       "run: ended by signal 15 (SIGTERM)", "signal"},
      {endedRun(format::RunEnd::Crash, 0, SIGSEGV),
       "run: crashed: signal 11 (SIGSEGV)", "crash"},
      {endedRun(format::RunEnd::Running, 0, 0), "run: still running",
       "running"},
  };
  for (const Case &C : Cases) {
    std::string Path = writeTrace("run.bin", runRecordTrace(&C.Record));
    for (const char *View : {"summary", "races", "footprint", "cache"}) {
      ViewRun R = view(std::string(View) + " " + Path);
      EXPECT_EQ(R.Status, 0) << View << ": " << R.Err;
      EXPECT_EQ(R.Out.rfind(C.Text, 0), 0u) << View << ": " << R.Out;
      R = view(std::string(View) + " --json " + Path);
      llvm::Expected<llvm::json::Value> J = llvm::json::parse(R.Out);
      ASSERT_TRUE(bool(J)) << View << ": " << llvm::toString(J.takeError());
      const llvm::json::Object *Run = J->getAsObject()
                                          ->getObject("run")
                                          ->getArray("records")
                                          ->front()
                                          .getAsObject();
      EXPECT_EQ(Run->getString("end"), C.Json) << View;
    }
    ViewRun R = view("diff " + Path + " " + Path);
    EXPECT_NE(R.Out.find(std::string("before ") + C.Text), std::string::npos)
        << R.Out;
    std::string Html = tempPath("run.html");
    R = view("html " + Path + " -o " + Html);
    EXPECT_EQ(R.Status, 0) << R.Err;
    EXPECT_NE(wgtrace::testing::slurp(Html).find(C.Text), std::string::npos);
    R = view("export " + Path);
    EXPECT_NE(R.Out.find(std::string("\"end\":\"") + C.Json + "\""),
              std::string::npos)
        << R.Out.substr(R.Out.size() - 600);
    for (const char *Other : {"dump", "export --format csv"}) {
      R = view(std::string(Other) + " " + Path);
      EXPECT_NE(R.Err.find(std::string("note: ") + Path + ": " + C.Text),
                std::string::npos)
          << Other << ": " << R.Err;
    }
  }
}

// The file ends before the run record its writer promised: cut short (a
// copy interrupted at a chunk boundary) or its process killed outright.
TEST(RunRecord, AMissingRunRecordIsACutShortTrace) {
  std::string Path = writeTrace("cut.bin", runRecordTrace(nullptr));
  for (const char *View : {"summary", "races", "footprint", "cache"}) {
    ViewRun R = view(std::string(View) + " " + Path);
    EXPECT_EQ(R.Status, 3) << View << ": " << R.Err;
    EXPECT_EQ(R.Out.rfind("run: not recorded: the file ends before its run "
                          "record",
                          0),
              0u)
        << View << ": " << R.Out;
  }
  ViewRun R = view("summary --json " + Path);
  EXPECT_NE(R.Out.find("\"cut_short\": true"), std::string::npos) << R.Out;
}

TEST(RunRecord, UninstrumentedLaunchesAreListedAndExitThree) {
  format::RunRecord Record = endedRun(format::RunEnd::Exit, 0, 0);
  Record.UninstrumentedLaunches = 3;
  std::string Path = writeTrace(
      "uninstrumented.bin",
      runRecordTrace(&Record,
                     {{"main.cc", 12, "void scale<float>(float*)", 2, 8},
                      {"main.cc", 16, "lambda at main.cc:15", 1, 3}}));
  for (const char *View : {"summary", "races", "footprint", "cache"}) {
    ViewRun R = view(std::string(View) + " " + Path);
    EXPECT_EQ(R.Status, 3) << View << ": " << R.Err;
    EXPECT_NE(R.Out.find("3 launches of kernels that are not instrumented"),
              std::string::npos)
        << View << ": " << R.Out;
    EXPECT_NE(R.Out.find("  main.cc:12: void scale<float>(float*): 2 "
                         "launches, 8 workgroups\n"),
              std::string::npos)
        << View << ": " << R.Out;
    EXPECT_NE(R.Out.find("  main.cc:16: lambda at main.cc:15: 1 launch, 3 "
                         "workgroups\n"),
              std::string::npos)
        << View << ": " << R.Out;
  }
}

// A run record that is damaged is damage like any other: one line naming
// the file, the offset and what is wrong, exit 2, what came before shown.
TEST(RunRecord, ADamagedRunRecordIsOneErrorLine) {
  format::RunRecord Record = endedRun(format::RunEnd::Exit, 0, 0);
  std::vector<uint8_t> Bytes = runRecordTrace(&Record);
  // The run record's version field: 16 bytes of chunk header into the
  // last chunk, then 4.
  const uint64_t Content =
      format::ringChunkContentLength(format::kRunRecordRingSize);
  size_t RunChunk = Bytes.size() - 16 - Content;
  Bytes[RunChunk + 16 + 4] = 9;
  // The chunk's checksum says so first.
  std::string Path = writeTrace("bad-run.bin", Bytes);
  ViewRun R = view("summary " + Path);
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Out.find("0,0,0"), std::string::npos) << R.Out;
  const uint64_t SumAt =
      format::checksumHeaderOffset(format::kRunRecordRingSize) +
      offsetof(format::ChecksumHeader, TailChecksum);
  const std::string Prefix =
      "wgtrace-view: error: " + Path + ": offset 0x" +
      llvm::utohexstr(RunChunk + 16 + SumAt, true) +
      ": chunk 2 (ring): run record: checksum mismatch in the chunk [0x0, "
      "0x1010): 0x";
  EXPECT_EQ(R.Err.substr(0, Prefix.size()), Prefix);
  EXPECT_NE(R.Err.find(": it is damaged\n"), std::string::npos) << R.Err;
  // With checksums that match (a writer's mistake), the record's own
  // checks.
  format::sealRingChunk(Bytes.data() + RunChunk + 16, Content);
  Path = writeTrace("bad-run.bin", Bytes);
  R = view("summary " + Path);
  EXPECT_EQ(R.Status, 2);
  EXPECT_EQ(R.Err, "wgtrace-view: error: " + Path + ": offset 0x" +
                       llvm::utohexstr(RunChunk + 16 + 4, true) +
                       ": chunk 2 (ring): run record: version 9 is not the "
                       "supported version 1\n");
}

// Cut inside the run record chunk, the last of the file: its trailer is
// gone, and its bytes are no ring records. The error says the chunk is
// cut, every view shows all the records, which are whole, and the run is
// reported as cut short.
TEST(RunRecord, ACutRunRecordIsReportedAsCutNotAsBadRecords) {
  const format::RunRecord Record = endedRun(format::RunEnd::Exit, 0, 0);
  const std::vector<uint8_t> Whole = runRecordTrace(&Record);
  const uint64_t Content =
      format::ringChunkContentLength(format::kRunRecordRingSize);
  for (uint64_t Short : {uint64_t(8), uint64_t(352), Content - 16}) {
    std::vector<uint8_t> Bytes(Whole.begin(), Whole.end() - Short);
    const std::string Path = writeTrace("cut-run-record.bin", Bytes);
    const std::string Missing = fmt::format(
        "truncated: content_length {} but only {} bytes left in the file ({} "
        "bytes missing)",
        Content, Content - Short, Short);
    for (const char *View :
         {"summary", "cache", "footprint", "dump", "races"}) {
      ViewRun R = view(std::string(View) + " " + Path);
      EXPECT_EQ(R.Status, 2) << View << ": " << R.Err;
      EXPECT_NE(R.Err.find(Missing), std::string::npos)
          << View << ": " << R.Err;
      EXPECT_EQ(R.Err.find("record tag"), std::string::npos)
          << View << ": " << R.Err;
      if (std::string(View) == "races")
        continue;
      for (uint32_t X : {0u, 1u}) {
        const std::string Row = std::string(View) == "dump"
                                    ? fmt::format("2x1x1) {},0,0 pid:{}", X, X)
                                    : fmt::format("{},0,0", X);
        EXPECT_NE(R.Out.find(Row), std::string::npos) << View << ": " << R.Out;
      }
    }
    ViewRun R = view("summary --json " + Path);
    EXPECT_NE(R.Out.find("\"cut_short\": true"), std::string::npos) << R.Out;
  }
}

// A copy interrupted, a full disk: the ring chunk is cut by the end of the
// file. Its records before the cut are shown by every view, the error line
// says how many bytes are missing, and the status is 2.
TEST(RunRecord, AChunkCutByTheEndOfTheFileIsDecodedUpToTheCut) {
  const format::RunRecord Record = endedRun(format::RunEnd::Exit, 0, 0);
  const std::vector<uint8_t> Whole = runRecordTrace(&Record);
  uint64_t MetadataLength;
  std::memcpy(&MetadataLength, Whole.data() + 8, sizeof(MetadataLength));
  const uint64_t Ring =
      format::kChunkHeaderSize +
      format::alignUp(MetadataLength, format::kChunkAlignment) +
      format::kChunkHeaderSize;
  const uint64_t Content = format::ringChunkContentLength(4096);
  // Records: workgroup 0,0,0 at 0, its load at 32, workgroup 1,0,0 at 48,
  // its load at 80. Cut inside the second workgroup record, and after it.
  struct Case {
    uint64_t Cut;
    bool Second;
  };
  for (const Case &C : {Case{60, false}, Case{200, true}}) {
    std::vector<uint8_t> Bytes(Whole.begin(), Whole.begin() + Ring + C.Cut);
    const std::string Path = writeTrace("cut-chunk.bin", Bytes);
    const std::string Missing =
        fmt::format("chunk 1 (ring): truncated: content_length {} but only "
                    "{} bytes left in the file ({} bytes missing)",
                    Content, C.Cut, Content - C.Cut);
    for (const char *View : {"summary", "cache", "footprint", "dump",
                             "export --format csv", "races"}) {
      ViewRun R = view(std::string(View) + " " + Path);
      EXPECT_EQ(R.Status, 2) << View << ": " << R.Err;
      EXPECT_NE(R.Err.find(Missing), std::string::npos)
          << View << ": " << R.Err;
      if (std::string(View) == "races")
        continue; // no workgroup rows; it read them all the same
      const bool Dump = std::string(View) == "dump";
      const bool Csv = std::string(View) == "export --format csv";
      auto Row = [&](uint32_t X) {
        return Dump  ? fmt::format("2x1x1) {},0,0 pid:{}", X, X)
               : Csv ? fmt::format(",workgroup,{},0,0,{},", X, X)
                     : fmt::format("{},0,0", X);
      };
      EXPECT_NE(R.Out.find(Row(0)), std::string::npos) << View << ": " << R.Out;
      EXPECT_EQ(R.Out.find(Row(1)) != std::string::npos, C.Second)
          << View << ": " << R.Out;
    }
    ViewRun R = view("summary --json " + Path);
    EXPECT_NE(R.Out.find("\"cut_short\": true"), std::string::npos) << R.Out;
  }
}
