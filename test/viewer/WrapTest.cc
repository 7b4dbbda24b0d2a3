//===- WrapTest.cc - Decoding rings whose head passed their size ----------===//
//
// The builder reserves exactly like the runtime, so each test knows the
// absolute position of every record it wrote and thereby which records
// survived the last lap.
//
//===----------------------------------------------------------------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

/// The ring's record lines and its decode info.
struct RingDump {
  std::vector<std::string> Lines;
  viewer::RingInfo Info;
  std::string Error;
};

class CaptureInfo : public viewer::AnalysisTool {
public:
  viewer::RingInfo Info;
  void beginRing(const viewer::RingInfo &I) override { Info = I; }
  void record(const viewer::Record &) override {}
};

RingDump decodeRing(const RingBuilder &Ring, unsigned Sites = 1,
                    bool Compat = false) {
  TraceBuilder B;
  addSimpleMetadata(B, Sites).ring(Ring);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  viewer::TraceFile File = viewer::TraceFile::fromBytes(B.bytes());
  viewer::DumpOptions Options;
  Options.IreeCompat = Compat;
  viewer::DumpTool Dump(OS, Options);
  CaptureInfo Capture;
  viewer::TraceReader Reader(File, Compat ? viewer::RingMode::IreeCompat
                                          : viewer::RingMode::WrapAware);
  viewer::AnalysisTool *Tools[] = {&Capture, &Dump};
  RingDump Result;
  if (llvm::Error E = Reader.run(Tools))
    Result.Error = llvm::toString(std::move(E));
  OS.flush();
  Result.Info = Capture.Info;
  // Skip the metadata block: record lines start with 16 hex digits.
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    std::string Line = Text.substr(Pos, End - Pos);
    if (Line.size() > 19 && Line.substr(16, 3) == " | ")
      Result.Lines.push_back(Line);
    Pos = End + 1;
  }
  return Result;
}

std::string wgLine(uint64_t Offset, uint32_t X, uint32_t CountX = 64) {
  return fmt::format("{:016X} | WORKGROUP dispatch(0 simple_mul {}x1x1) "
                     "{},0,0 pid:0",
                     Offset, CountX, X);
}
std::string loadLine(uint64_t Key, uint64_t Address) {
  return fmt::format("{:016X} | LOAD  {:016X} 4", Key, Address);
}

/// Workgroup \p X with \p Loads loads at X * 0x1000 + 4 * i.
void addWorkgroup(RingBuilder &Ring, uint32_t X, unsigned Loads) {
  Ring.workgroup(0, {X, 0, 0}, {64, 1, 1});
  for (unsigned I = 0; I < Loads; ++I)
    Ring.load(X * 0x1000 + 4 * I, 4);
}

TEST(Wrap, NotWrappedLosesNothing) {
  RingBuilder Ring(256);
  addWorkgroup(Ring, 0, 14); // exactly 256 bytes: head == R is not a wrap
  RingDump D = decodeRing(Ring);
  EXPECT_EQ(D.Error, "");
  EXPECT_FALSE(D.Info.Wrapped);
  EXPECT_EQ(D.Lines.size(), 15u);
}

TEST(Wrap, LapStartsOnWorkgroupRecord) {
  // Three workgroups of exactly R bytes: the last one fills the last lap.
  RingBuilder Ring(256);
  for (uint32_t X = 0; X < 3; ++X)
    addWorkgroup(Ring, X, 14);
  RingDump D = decodeRing(Ring);
  EXPECT_EQ(D.Error, "");
  EXPECT_TRUE(D.Info.Wrapped);
  EXPECT_EQ(D.Info.LostBytes, 0u);
  EXPECT_EQ(D.Info.StartOffset, 0u);
  ASSERT_EQ(D.Lines.size(), 15u);
  EXPECT_EQ(D.Lines[0], wgLine(0, 2));
  EXPECT_EQ(D.Lines[14], loadLine(0, 0x2000 + 4 * 13));
}

TEST(Wrap, OrphanRecordsOfOverwrittenWorkgroupAreLost) {
  // Workgroups of 112 bytes; head 560, lap [304, 560): the loads of
  // workgroup 2 at 304 and 320 lost their workgroup record (224).
  RingBuilder Ring(256);
  for (uint32_t X = 0; X < 5; ++X)
    addWorkgroup(Ring, X, 5);
  ASSERT_EQ(Ring.head(), 560u);
  RingDump D = decodeRing(Ring);
  EXPECT_EQ(D.Error, "");
  EXPECT_EQ(D.Info.LostBytes, 32u);
  EXPECT_EQ(D.Info.StartOffset, 336u % 256);
  ASSERT_EQ(D.Lines.size(), 12u);
  EXPECT_EQ(D.Lines[0], wgLine(80, 3));
  EXPECT_EQ(D.Lines[6], wgLine(192, 4));
  // Workgroup 4's records continue across the lap: ring offsets 224, 240,
  // then 0, 16, 32.
  EXPECT_EQ(D.Lines[11], loadLine(192, 0x4000 + 16));
}

TEST(Wrap, HalfOverwrittenWorkgroupRecordIsNotShown) {
  // Count 256 makes the second half of a workgroup record start with a 0
  // byte (tag WORKGROUP) and a dispatch id of 1, a valid site. The lap
  // boundary falls in the middle of workgroup 3's record (at 144); the
  // slot at 160 is rejected because, read as a workgroup record, its
  // count would be taken from the load that follows (count y == 0).
  RingBuilder Ring(256);
  for (uint32_t X = 0; X < 8; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {256, 1, 1});
    Ring.load(0x1000 * X, 4);
  }
  Ring.workgroup(0, {8, 0, 0}, {256, 1, 1});
  ASSERT_EQ(Ring.head() - 256, 144u + 16);
  RingDump D = decodeRing(Ring, /*Sites=*/2);
  EXPECT_EQ(D.Error, "");
  EXPECT_EQ(D.Info.LostBytes, 32u); // half a workgroup record and a load
  EXPECT_EQ(D.Info.StartOffset, 192u);
  ASSERT_FALSE(D.Lines.empty());
  EXPECT_EQ(D.Lines[0].substr(0, 30), "00000000000000C0 | WORKGROUP d");
  EXPECT_EQ(D.Lines.size(), 4u * 2 + 1);
}

TEST(Wrap, CutPrintRecordIsSkipped) {
  RingBuilder Ring(256);
  Ring.workgroup(0, {0, 0, 0}, {64, 1, 1});
  Ring.print(std::string(100, 'x')); // 112 bytes at 32
  addWorkgroup(Ring, 1, 1);          // 144
  addWorkgroup(Ring, 2, 7);          // 192 .. 336
  // Lap [80, 336) begins inside the print's text: slots 80..128 are text.
  RingDump D = decodeRing(Ring);
  EXPECT_EQ(D.Error, "");
  EXPECT_EQ(D.Info.LostBytes, 144u - 80);
  EXPECT_EQ(D.Lines[0], wgLine(144, 1));

  // Two more workgroup records: lap [144, 400) starts right after the print.
  addWorkgroup(Ring, 3, 2); // 336 .. 400
  D = decodeRing(Ring);
  EXPECT_EQ(D.Error, "");
  EXPECT_EQ(D.Info.LostBytes, 0u);
  EXPECT_EQ(D.Lines[0], wgLine(144, 1));
}

TEST(Wrap, RecordsOfOuterWorkgroupAfterNestedScopeMoveTheStart) {
  RingBuilder Ring(256);
  addWorkgroup(Ring, 0, 2);                                  // 0 .. 64
  uint64_t Outer = Ring.workgroup(0, {1, 0, 0}, {64, 1, 1}); // 64
  Ring.load(0x10, 4);                                        // 96
  Ring.workgroup(0, {2, 0, 0}, {64, 1, 1});                  // 112: nested call
  Ring.load(0x20, 4);                                        // 144
  Ring.setKey(Outer);        // nested call returned
  Ring.load(0x30, 4);        // 160
  addWorkgroup(Ring, 3, 10); // 176 .. 368
  // Lap [112, 368): workgroup 2 starts it, but the load at 160 belongs to
  // workgroup 1, whose record is gone; decoding starts at workgroup 3.
  RingDump D = decodeRing(Ring);
  EXPECT_EQ(D.Error, "");
  EXPECT_EQ(D.Info.LostBytes, 176u - 112);
  EXPECT_EQ(D.Lines[0], wgLine(176, 3));
  EXPECT_EQ(D.Lines.size(), 11u);
}

TEST(Wrap, WorkgroupLongerThanRingLosesEverything) {
  RingBuilder Ring(256);
  addWorkgroup(Ring, 0, 40);
  RingDump D = decodeRing(Ring);
  EXPECT_EQ(D.Error, "");
  EXPECT_TRUE(D.Info.Wrapped);
  EXPECT_EQ(D.Info.LostBytes, 256u);
  EXPECT_TRUE(D.Lines.empty());
}

TEST(Wrap, IreeCompatReadsTheRingFromOffsetZero) {
  // Like LapStartsOnWorkgroupRecord, but IREE's reading of a wrapped ring
  // starts at ring offset 0 regardless of the head: here the same records.
  RingBuilder Ring(256);
  for (uint32_t X = 0; X < 5; ++X)
    addWorkgroup(Ring, X, 5);
  RingDump D = decodeRing(Ring, 1, /*Compat=*/true);
  EXPECT_EQ(D.Error, "");
  // Ring offsets 0..255 hold, in order: workgroup 4's loads 2..4 (absolute
  // 512..560), then stale bytes of earlier laps from 48 on.
  ASSERT_FALSE(D.Lines.empty());
  EXPECT_EQ(D.Lines[0], loadLine(192, 0x4000 + 8));
}

} // namespace

namespace {

TEST(Wrap, RuntimeFillerBeforeOldestWorkgroupIsSkippedWhateverItsLength) {
  // The runtime overwrites the lap's bytes before its oldest surviving
  // WORKGROUP record with 0xFF (docs/FORMAT.md). Here 8 KiB of orphan loads
  // of an overwritten workgroup precede it: more than the 4096 bytes in
  // which a cut record's tail is searched for.
  RingBuilder Ring(16384);
  addWorkgroup(Ring, 0, 1500); // 32 + 24000 bytes: wraps
  uint64_t Oldest = Ring.head();
  addWorkgroup(Ring, 1, 500);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::vector<uint8_t> Bytes = B.bytes();
  uint64_t Ring0 = B.chunkOffset(1) + 16;
  uint64_t W = Ring.head() - 16384;
  ASSERT_GT(Oldest - W, 4096u);
  for (uint64_t A = W; A < Oldest; ++A)
    Bytes[Ring0 + (A & 16383)] = 0xFF;
  DumpResult R = dump(Bytes);
  EXPECT_EQ(R.Error, "");
  // No load of workgroup 0 (addresses below 0x1000) is shown.
  EXPECT_EQ(R.Text.find("| LOAD  0000000000000"), std::string::npos);
  EXPECT_NE(R.Text.find(wgLine(Oldest & 16383, 1)), std::string::npos);
  EXPECT_EQ(R.Text.find("WORKGROUP dispatch(0 simple_mul 64x1x1) 0,0,0"),
            std::string::npos);
}

} // namespace
