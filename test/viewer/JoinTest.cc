//===- JoinTest.cc - One workgroup invocation is one workgroup everywhere -===//
//
// Copies of a WORKGROUP record (stream-mode buffer changes, wraps, returns
// from nested kernels) are joined by the reader, so every view counts the
// invocation once; and the reader's census reports what rings lost.
//
//===----------------------------------------------------------------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/CacheTool.h"
#include "analyses/FootprintTool.h"
#include "analyses/RacesTool.h"
#include "analyses/SummaryTool.h"
#include "output/ChromeTraceTool.h"
#include "output/HtmlReportTool.h"
#include "output/RecordTableTool.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

constexpr uint64_t kRing = 4096;

format::RingTrailer streamTrailer(uint32_t RingId, uint64_t Sequence,
                                  uint64_t Base) {
  format::RingTrailer T{};
  T.Flags = format::kTrailerStream;
  T.RingId = RingId;
  T.ChunkSequence = Sequence;
  T.BaseVirtualOffset = Base;
  T.RingSize = kRing;
  return T;
}

/// Stream mode with trailers: workgroup 0,0,0 whole in chunk 0; workgroup
/// 1,0,0 begins in chunk 0 and continues in chunks 1 and 2 (copies with
/// Continuation values), on processor 3. Without chunk \p Missing, if any.
std::vector<uint8_t> streamWithTrailers(int Missing = -1) {
  TraceBuilder B;
  addSimpleMetadata(B);
  RingBuilder C0(kRing);
  C0.workgroup(0, {0, 0, 0}, {2, 1, 1}, 3);
  C0.load(0x10000, 4);
  C0.store(0x20000, 4);
  const uint64_t First = C0.head(); // lifetime offset 0 + ring offset
  C0.workgroup(0, {1, 0, 0}, {2, 1, 1}, 3);
  C0.load(0x10040, 4);
  C0.trailer(streamTrailer(7, 0, 0));
  if (Missing != 0)
    B.ring(C0);
  RingBuilder C1(kRing);
  C1.continuation(0, {1, 0, 0}, {2, 1, 1}, 3, First);
  C1.load(0x10080, 4);
  C1.load(0x100C0, 4);
  C1.trailer(streamTrailer(7, 1, kRing));
  if (Missing != 1)
    B.ring(C1);
  RingBuilder C2(kRing);
  C2.continuation(0, {1, 0, 0}, {2, 1, 1}, 3, First);
  C2.store(0x20040, 4);
  C2.trailer(streamTrailer(7, 2, 2 * kRing));
  if (Missing != 2)
    B.ring(C2);
  return B.bytes();
}

// The writer writes each stream-mode ring's chunks in order, 0, 1, 2...:
// one missing (a content_length damaged into one that covers it) is
// damage, said where the next chunk of the ring is, even though every
// chunk left is whole and consistent.
TEST(Join, StreamChunkMissingFromItsRingIsDamage) {
  DumpResult Whole = dump(streamWithTrailers());
  EXPECT_EQ(Whole.Error, "");
  DumpResult Gap = dump(streamWithTrailers(/*Missing=*/1));
  EXPECT_NE(Gap.Error.find("chunk 2 of stream-mode ring 7 where its chunk 1 "
                           "was due: a chunk of the ring is missing"),
            std::string::npos)
      << Gap.Error;
  // Chunk 0 was read; nothing of chunk 2.
  EXPECT_NE(Gap.Text.find("0000000000010040"), std::string::npos) << Gap.Text;
  EXPECT_EQ(Gap.Text.find("0000000000020040"), std::string::npos) << Gap.Text;
}

/// Stream mode before format extension 1: the copy is at offset 0 of the
/// thread's next buffer, the previous buffer ended nearly full.
std::vector<uint8_t> legacyStream(bool PreviousFull) {
  TraceBuilder B;
  addSimpleMetadata(B);
  RingBuilder C0(kRing);
  C0.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  const unsigned Loads =
      PreviousFull ? (kRing - format::kWorkgroupRecordSize) / 16 : 4;
  for (unsigned I = 0; I < Loads; ++I)
    C0.load(0x10000 + 4 * I, 4);
  B.ring(C0);
  RingBuilder C1(kRing);
  C1.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  C1.load(0x30000, 4);
  B.ring(C1);
  return B.bytes();
}

TEST(Join, StreamCopiesWithTrailersAreOneWorkgroupInEveryView) {
  std::vector<uint8_t> Bytes = streamWithTrailers();

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  SummaryTool Summary(OS, /*Json=*/false);
  decodeWith(Summary, Bytes);
  ASSERT_EQ(Summary.sites().size(), 1u);
  const auto &S = Summary.sites()[0];
  ASSERT_EQ(S.Workgroups.size(), 2u) << Out;
  EXPECT_EQ(S.Totals.Workgroups, 2u);
  EXPECT_EQ(S.Workgroups[1].Counts.Loads, 3u);
  EXPECT_EQ(S.Workgroups[1].Counts.Stores, 1u);
  // The Continuation values are bookkeeping, not the kernel's values.
  EXPECT_EQ(S.Totals.Values, 0u);
  EXPECT_NE(Out.find("dispatch site 0: simple_mul (2 workgroups)"),
            std::string::npos)
      << Out;

  llvm::raw_null_ostream Null;
  CacheTool Cache(Null, false, CacheGeometry{}, /*Cold=*/true);
  decodeWith(Cache, Bytes);
  ASSERT_EQ(Cache.workgroups().size(), 2u);
  EXPECT_EQ(Cache.workgroups()[1].C.accesses(), 4u);

  RacesTool Races(Null, false);
  decodeWith(Races, Bytes);
  EXPECT_EQ(Races.launches().workgroups().size(), 2u);

  FootprintTool Footprint(Null, false);
  decodeWith(Footprint, Bytes);
  EXPECT_EQ(Footprint.workgroups().size(), 2u);

  ChromeTraceTool Chrome(Null);
  decodeWith(Chrome, Bytes);
  EXPECT_EQ(Chrome.slices().size(), 2u);

  std::string Csv;
  llvm::raw_string_ostream CsvOS(Csv);
  RecordTableTool Table(CsvOS, RecordTableTool::Format::Csv);
  decodeWith(Table, Bytes);
  size_t WorkgroupRows = 0;
  llvm::SmallVector<llvm::StringRef, 16> Rows;
  llvm::StringRef(Csv).split(Rows, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Row : Rows) {
    llvm::SmallVector<llvm::StringRef, 16> Fields;
    Row.split(Fields, ',');
    WorkgroupRows += Fields.size() > 2 && Fields[2] == "workgroup";
  }
  EXPECT_EQ(WorkgroupRows, 2u) << Csv;
  EXPECT_EQ(Csv.find("continuation"), std::string::npos) << Csv;

  std::string Html;
  llvm::raw_string_ostream HtmlOS(Html);
  HtmlReportTool Report(HtmlOS, "t");
  decodeWith(Report, Bytes);
  EXPECT_EQ(Report.workgroupCount(), 2u);
}

TEST(Join, NestedKernelReturnJoinsTheOuterWorkgroup) {
  ExtensionSpec X;
  X.WithAccessSites = false;
  X.SiteDirect = {false, true};
  TraceBuilder B;
  B.metadata({{"outer", {}, {}, {}}, {"inner", {}, {}, {}}}, {0, 1}, &X);
  RingBuilder R(kRing);
  const uint64_t OuterFirst = R.head();
  R.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  R.load(0x1000, 4);
  R.workgroup(1, {0, 0, 0}, {1, 1, 1}, 0); // called directly from outer
  R.load(0x2000, 4);
  R.continuation(0, {0, 0, 0}, {1, 1, 1}, 0, OuterFirst);
  R.load(0x1004, 4);
  format::RingTrailer T{};
  T.RingSize = kRing;
  R.trailer(T);
  B.ring(R);

  llvm::raw_null_ostream Null;
  SummaryTool Summary(Null, false);
  decodeWith(Summary, B.bytes());
  ASSERT_EQ(Summary.sites().size(), 2u);
  EXPECT_EQ(Summary.sites()[0].Workgroups.size(), 1u);
  EXPECT_EQ(Summary.sites()[0].Totals.Loads, 2u);
  EXPECT_EQ(Summary.sites()[1].Totals.Loads, 1u);
}

/// Decodes \p Bytes, a trace cut by the end of the file, into \p Tool:
/// the error says so.
void decodeCut(AnalysisTool &Tool, const std::vector<uint8_t> &Bytes) {
  TraceFile File = TraceFile::fromBytes(Bytes);
  TraceReader Reader(File, RingMode::WrapAware);
  AnalysisTool *Tools[] = {&Tool};
  std::string E = llvm::toString(Reader.run(Tools));
  EXPECT_NE(E.find("truncated"), std::string::npos) << E;
}

/// The row of workgroup \p Id in \p Site, which must be there once.
const SummaryTool::WorkgroupSummary &rowOf(const SummaryTool::SiteSummary &Site,
                                           std::array<uint32_t, 3> Id) {
  const SummaryTool::WorkgroupSummary *Found = nullptr;
  for (const auto &Row : Site.Workgroups)
    if (Row.Id == Id) {
      EXPECT_EQ(Found, nullptr) << "two rows for one workgroup";
      Found = &Row;
    }
  EXPECT_NE(Found, nullptr);
  return Found ? *Found : Site.Workgroups.front();
}

// A wrapped ring's chunk cut inside its last bytes (a copy interrupted)
// has lost its trailer, and with it the ring-lifetime offset of its first
// byte, by which a continuation names the invocation it continues. The
// copy repeats the WORKGROUP record of an invocation the chunk began and
// that is still running: that gives the offset, and the workgroup is one
// row, its beginning not lost.
TEST(Join, WrappedRingCutInsideItsTrailerJoinsItsCopies) {
  ExtensionSpec X;
  X.WithAccessSites = false;
  X.RunRecord = true;
  TraceBuilder B;
  B.metadata({{"simple_mul", "t", "l", "src"}}, {0}, &X);
  const uint64_t Base = 5 * kRing + 512;
  RingBuilder R(kRing, /*Fill=*/0); // as the writer leaves it
  R.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  R.load(0x1000, 4);
  const uint64_t Second = R.head();
  R.workgroup(0, {1, 0, 0}, {2, 1, 1}, 0);
  R.load(0x1040, 4);
  R.continuation(0, {1, 0, 0}, {2, 1, 1}, 0, Base + Second);
  R.load(0x1044, 4);
  R.store(0x2000, 4);
  format::RingTrailer T{};
  T.Flags = format::kTrailerWrapped;
  T.BaseVirtualOffset = Base;
  T.RingSize = 8 * kRing;
  T.BytesLost = Base;
  T.RecordsLost = 300;
  T.WorkgroupsLost = 6;
  R.trailer(T, {{0, 6}});
  B.ring(R);
  for (uint64_t Short : {uint64_t(8), uint64_t(100), uint64_t(352)}) {
    std::vector<uint8_t> Bytes = B.bytes();
    Bytes.resize(Bytes.size() - Short);
    llvm::raw_null_ostream Null;
    SummaryTool Summary(Null, false);
    decodeCut(Summary, Bytes);
    ASSERT_EQ(Summary.sites().size(), 1u);
    const auto &Site = Summary.sites()[0];
    EXPECT_EQ(Site.Workgroups.size(), 2u) << Short;
    const auto &Row = rowOf(Site, {1, 0, 0});
    EXPECT_EQ(Row.Counts.Loads, 2u) << Short;
    EXPECT_EQ(Row.Counts.Stores, 1u) << Short;
    EXPECT_FALSE(Row.BeginningLost) << Short;
  }
}

// A stream-mode chunk cut inside its trailer starts where its ring's
// previous chunk ended: a workgroup it begins, calls a kernel from, and
// goes on in after the return (a copy naming it) is one row.
TEST(Join, StreamChunkCutInsideItsTrailerJoinsItsCopies) {
  ExtensionSpec X;
  X.WithAccessSites = false;
  X.RunRecord = true;
  X.SiteDirect = {false, true};
  TraceBuilder B;
  B.metadata({{"outer", "t", "l", "src"}, {"inner", "t", "l", "src"}}, {0, 1},
             &X);
  RingBuilder C0(kRing, /*Fill=*/0);
  const uint64_t First = C0.head();
  C0.workgroup(0, {1, 0, 0}, {2, 2, 1}, 3);
  C0.load(0x1000, 4);
  C0.trailer(streamTrailer(7, 0, 0));
  B.ring(C0);
  const uint64_t Base1 = C0.head();
  RingBuilder C1(kRing, /*Fill=*/0);
  C1.continuation(0, {1, 0, 0}, {2, 2, 1}, 3, First);
  C1.load(0x1004, 4);
  const uint64_t Outer = C1.head();
  C1.workgroup(0, {0, 1, 0}, {2, 2, 1}, 3);
  C1.load(0x2000, 4);
  C1.workgroup(1, {0, 0, 0}, {1, 1, 1}, 3); // called directly from it
  C1.load(0x3000, 4);
  C1.continuation(0, {0, 1, 0}, {2, 2, 1}, 3, Base1 + Outer);
  C1.store(0x2004, 4);
  C1.trailer(streamTrailer(7, 1, Base1));
  B.ring(C1);
  std::vector<uint8_t> Bytes = B.bytes();
  Bytes.resize(Bytes.size() - 40);
  llvm::raw_null_ostream Null;
  SummaryTool Summary(Null, false);
  decodeCut(Summary, Bytes);
  ASSERT_EQ(Summary.sites().size(), 2u);
  const auto &Site = Summary.sites()[0];
  EXPECT_EQ(Site.Workgroups.size(), 2u);
  EXPECT_EQ(rowOf(Site, {1, 0, 0}).Counts.Loads, 2u);
  const auto &Row = rowOf(Site, {0, 1, 0});
  EXPECT_EQ(Row.Counts.Loads, 1u);
  EXPECT_EQ(Row.Counts.Stores, 1u);
  EXPECT_FALSE(Row.BeginningLost);
}

TEST(Join, LegacyStreamCopyAtOffsetZeroOfTheNextBuffer) {
  llvm::raw_null_ostream Null;
  SummaryTool Joined(Null, false);
  decodeWith(Joined, legacyStream(/*PreviousFull=*/true));
  ASSERT_EQ(Joined.sites().size(), 1u);
  EXPECT_EQ(Joined.sites()[0].Workgroups.size(), 1u);
  EXPECT_EQ(Joined.sites()[0].Totals.Loads,
            (kRing - format::kWorkgroupRecordSize) / 16 + 1);

  // A buffer that was not full was not handed over for lack of room: the
  // next chunk's workgroup is another launch of the same one-workgroup grid.
  SummaryTool Apart(Null, false);
  decodeWith(Apart, legacyStream(/*PreviousFull=*/false));
  EXPECT_EQ(Apart.sites()[0].Workgroups.size(), 2u);
}

TEST(Join, CopyWhoseBeginningWasOverwrittenIsOneWorkgroup) {
  TraceBuilder B;
  addSimpleMetadata(B);
  RingBuilder R(kRing);
  // A linearised wrapped ring: it starts with a copy whose first record
  // (lifetime offset 0) was overwritten.
  R.continuation(0, {3, 0, 0}, {4, 1, 1}, 0, /*FirstRecord=*/0);
  R.load(0x1000, 4);
  format::RingTrailer T{};
  T.Flags = format::kTrailerWrapped;
  T.BaseVirtualOffset = 3 * kRing;
  T.RingSize = kRing;
  T.BytesLost = 3 * kRing;
  T.RecordsLost = 700;
  T.WorkgroupsLost = 3;
  R.trailer(T, {{0, 3}});
  B.ring(R);

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  SummaryTool Summary(OS, false);
  decodeWith(Summary, B.bytes());
  ASSERT_EQ(Summary.sites().size(), 1u);
  EXPECT_EQ(Summary.sites()[0].Workgroups.size(), 1u);
  EXPECT_NE(Out.find("12288 of 12352 bytes, 700 records, 3 workgroups "
                     "overwritten"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("site 0 (simple_mul): 3 workgroups lost"),
            std::string::npos)
      << Out;
}

TEST(Loss, SiteWithNoSurvivingRecordIsListedAsLost) {
  TraceBuilder B;
  B.metadata({{"kept", {}, {}, {}}, {"gone", {}, {}, {}}}, {0, 1});
  RingBuilder R(kRing);
  R.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  R.load(0x1000, 4);
  format::RingTrailer T{};
  T.Flags = format::kTrailerWrapped;
  T.RingId = 2;
  T.BaseVirtualOffset = 100 * kRing;
  T.RingSize = kRing;
  T.BytesLost = 100 * kRing;
  T.RecordsLost = 25000;
  T.WorkgroupsLost = 16;
  R.trailer(T, {{1, 16}});
  B.ring(R);

  std::string Text, Json;
  llvm::raw_string_ostream TS(Text), JS(Json);
  SummaryTool Summary(TS, false), SummaryJ(JS, true);
  decodeWith(Summary, B.bytes());
  decodeWith(SummaryJ, B.bytes());
  EXPECT_NE(Text.find("ring 2 (chunk 1 at 0x"), std::string::npos) << Text;
  EXPECT_NE(Text.find("site 1 (gone): 16 workgroups lost (overwritten), none "
                      "survived"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("gone: 16 workgroups lost, none survived"),
            std::string::npos)
      << Text;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Loss = V->getAsObject()->getObject("loss");
  ASSERT_TRUE(Loss);
  EXPECT_EQ(Loss->getInteger("bytes_lost"), int64_t(100 * kRing));
  const llvm::json::Array *Rings = Loss->getArray("rings");
  ASSERT_TRUE(Rings && Rings->size() == 1);
  EXPECT_EQ((*Rings)[0].getAsObject()->getInteger("records_lost"), 25000);
  const llvm::json::Array *Kernels = Loss->getArray("kernels_without_records");
  ASSERT_TRUE(Kernels && Kernels->size() == 1);
  EXPECT_EQ(*(*Kernels)[0].getAsObject()->getString("function"), "gone");
  EXPECT_EQ(*(*Kernels)[0].getAsObject()->getString("status"), "lost");
}

TEST(Loss, WrappedRingWithoutTrailerCountsEveryOverwrittenByte) {
  TraceBuilder B;
  addSimpleMetadata(B, 2);
  RingBuilder R(kRing);
  for (int W = 0; W < 40; ++W) {
    R.workgroup(0, {uint32_t(W), 0, 0}, {40, 1, 1}, 0);
    for (int I = 0; I < 10; ++I)
      R.load(0x1000 + 64 * I, 4);
  }
  B.ring(R);
  TraceFile File = TraceFile::fromBytes(B.bytes());
  TraceReader Reader(File, RingMode::WrapAware);
  llvm::raw_null_ostream Null;
  SummaryTool Summary(Null, false);
  AnalysisTool *Tools[] = {&Summary};
  ASSERT_FALSE(bool(Reader.run(Tools)));
  const TraceCensus &C = Reader.census();
  ASSERT_EQ(C.Rings.size(), 1u);
  EXPECT_FALSE(C.Rings[0].FromTrailer);
  EXPECT_EQ(C.Rings[0].BytesRecorded, R.head());
  // Every lap before the last, and the cut prefix of the last one.
  EXPECT_GE(C.Rings[0].BytesLost, R.head() - kRing);
  EXPECT_TRUE(C.LossUncounted);
  std::string Text = lossText(C);
  EXPECT_NE(Text.find("records and workgroups lost unknown"),
            std::string::npos);
  // Site 1 ran nothing that survived; it may have been overwritten.
  EXPECT_NE(Text.find("site 1 (simple_mul): no surviving workgroup record "
                      "(rings wrapped: may have been overwritten)"),
            std::string::npos)
      << Text;
}

TEST(Loss, SiteWhoseRecordsAreInADamagedBlockIsNotCalledUnrecorded) {
  // One checksummed ring whose only workgroups lie in its first block; a
  // flipped bit there stops the reading before any of them.
  TraceBuilder B;
  B.metadata({{"kept", {}, {}, {}}}, {0});
  RingBuilder R(kRing);
  for (uint32_t W = 0; W < 4; ++W) {
    R.workgroup(0, {W, 0, 0}, {4, 1, 1}, 0);
    R.load(0x1000 + 4 * W, 4);
  }
  format::RingTrailer T{};
  T.RingSize = kRing;
  R.trailer(T, {});
  B.ring(R);
  std::vector<uint8_t> Bytes = B.bytes();
  Bytes[B.chunkOffset(1) + 16 + 40] ^= 0x10;

  TraceFile File = TraceFile::fromBytes(Bytes);
  TraceReader Reader(File, RingMode::WrapAware);
  llvm::raw_null_ostream Null;
  SummaryTool Summary(Null, false);
  AnalysisTool *Tools[] = {&Summary};
  llvm::Error E = Reader.run(Tools);
  ASSERT_TRUE(bool(E));
  const std::string Error = llvm::toString(std::move(E));
  EXPECT_NE(Error.find("checksum mismatch in block 0"), std::string::npos)
      << Error;
  const TraceCensus &C = Reader.census();
  EXPECT_EQ(C.Invocations, 0u);
  std::string Text = lossText(C, /*AllSites=*/true);
  EXPECT_NE(Text.find("site 0 (kept): no surviving workgroup record (the file "
                      "is damaged: may have been in what could not be read)"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("kept: no surviving workgroup record (may have been in "
                      "the damaged part of the file)"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("no workgroup recorded"), std::string::npos) << Text;
  llvm::json::Object Json = lossJson(C);
  const llvm::json::Array *Sites = Json.getArray("sites_without_records");
  ASSERT_TRUE(Sites && !Sites->empty());
  EXPECT_EQ(*(*Sites)[0].getAsObject()->getString("status"), "maybe lost");
  const llvm::json::Array *Kernels = Json.getArray("kernels_without_records");
  ASSERT_TRUE(Kernels && Kernels->size() == 1);
  EXPECT_EQ(*(*Kernels)[0].getAsObject()->getString("status"), "maybe lost");
}

TEST(Census, NothingToAnalyse) {
  auto Why = [](const std::vector<uint8_t> &Bytes,
                WorkgroupFilter Filter = {}) {
    TraceFile File = TraceFile::fromBytes(Bytes);
    TraceReader Reader(File, RingMode::WrapAware, Filter);
    llvm::raw_null_ostream Null;
    SummaryTool Summary(Null, false);
    AnalysisTool *Tools[] = {&Summary};
    llvm::consumeError(Reader.run(Tools));
    return Reader.census().nothingToAnalyse(Filter.describe());
  };
  EXPECT_NE(Why({}).find("empty"), std::string::npos);
  TraceBuilder Meta;
  addSimpleMetadata(Meta);
  EXPECT_NE(Why(Meta.bytes()).find("metadata only"), std::string::npos);
  TraceBuilder NoWorkgroups;
  addSimpleMetadata(NoWorkgroups).ring(RingBuilder(kRing));
  EXPECT_NE(Why(NoWorkgroups.bytes()).find("no workgroup record in 1 ring"),
            std::string::npos);
  std::vector<uint8_t> Stream = streamWithTrailers();
  EXPECT_EQ(Why(Stream), "");
  WorkgroupFilter F;
  F.Dispatch = 4;
  EXPECT_EQ(Why(Stream, F), "no workgroup matches --dispatch 4 (of 2 in "
                            "the file)");
}

TEST(Filter, OnlySelectedWorkgroupsReachTheTools) {
  WorkgroupFilter F;
  F.Id = std::array<uint32_t, 3>{1, 0, 0};
  std::vector<uint8_t> Bytes = streamWithTrailers();
  TraceFile File = TraceFile::fromBytes(Bytes);
  TraceReader Reader(File, RingMode::WrapAware, F);
  llvm::raw_null_ostream Null;
  SummaryTool Summary(Null, false);
  AnalysisTool *Tools[] = {&Summary};
  ASSERT_FALSE(bool(Reader.run(Tools)));
  ASSERT_EQ(Summary.sites().size(), 1u);
  ASSERT_EQ(Summary.sites()[0].Workgroups.size(), 1u);
  EXPECT_EQ(Summary.sites()[0].Workgroups[0].Id[0], 1u);
  EXPECT_EQ(Summary.sites()[0].Totals.Loads, 3u);

  WorkgroupFilter K;
  K.Kernel = "simple_*";
  TraceReader All(File, RingMode::WrapAware, K);
  SummaryTool Everything(Null, false);
  AnalysisTool *Both[] = {&Everything};
  ASSERT_FALSE(bool(All.run(Both)));
  EXPECT_EQ(Everything.sites()[0].Workgroups.size(), 2u);
}

TEST(Timing, Version1ChunksAfterAllRingsResolveToInvocations) {
  // The stream trace, then timing for its chunk sequence 2 (the last ring
  // chunk, 1 back) and sequence 0 (3 back).
  std::vector<uint8_t> Bytes = streamWithTrailers();
  std::vector<uint8_t> WithTiming = Bytes;
  TraceBuilder Timing;
  Timing.timing({1, 7, 2}, {{0, 500, 900, 3, 0}});
  Timing.timing({3, 7, 0}, {{0, 100, 200, 3, 0}});
  WithTiming.insert(WithTiming.end(), Timing.bytes().begin(),
                    Timing.bytes().end());
  llvm::raw_null_ostream Null;
  ChromeTraceTool Chrome(Null);
  decodeWith(Chrome, WithTiming);
  ASSERT_EQ(Chrome.slices().size(), 2u);
  EXPECT_TRUE(Chrome.slices()[0].Timed);
  EXPECT_EQ(Chrome.slices()[0].StartNs, 100u);
  EXPECT_TRUE(Chrome.slices()[1].Timed);
  EXPECT_EQ(Chrome.slices()[1].EndNs, 900u);

  // A header that names the wrong ring chunk is damage.
  TraceBuilder Wrong;
  Wrong.timing({1, 7, 0}, {});
  std::vector<uint8_t> Bad = Bytes;
  Bad.insert(Bad.end(), Wrong.bytes().begin(), Wrong.bytes().end());
  DumpResult D = dump(Bad);
  EXPECT_NE(D.Error.find("timing chunk names ring 7 chunk 0 but the ring "
                         "chunk 1 back is ring 7 chunk 2"),
            std::string::npos)
      << D.Error;
}

} // namespace
