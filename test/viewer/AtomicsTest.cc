//===- AtomicsTest.cc - Atomic marks: decoder, races, dump, exports -------===//

#include "CliRun.h"
#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/FootprintTool.h"
#include "analyses/RacesTool.h"
#include "analyses/SummaryTool.h"
#include "output/RecordTableTool.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

using Op = format::AtomicOp;

/// The memory records a trace decodes to, in order: store?, atomic?.
struct AtomicFlags : AnalysisTool {
  std::vector<std::pair<bool, bool>> Seen;
  void record(const Record &R) override {
    if (R.Tag == format::Tag::MemoryLoad || R.Tag == format::Tag::MemoryStore)
      Seen.emplace_back(R.Memory.IsStore, R.Atomic);
  }
};

std::vector<uint8_t> atomicsTrace(const RingBuilder &Ring, unsigned Sites = 1) {
  TraceBuilder B;
  addSimpleMetadata(B, Sites).ring(Ring);
  return B.bytes();
}

/// A histogram of 4 workgroups that all add to bins 0x2000 and 0x2004,
/// after reading their own input: with atomic updates (std::atomic_ref's
/// fetch_add), or with `+=`.
std::vector<uint8_t> sharedBins(bool Atomic) {
  RingBuilder Ring(1 << 14);
  for (uint32_t X = 0; X < 4; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {4, 1, 1}, X % 2);
    for (uint32_t I = 0; I < 4; ++I) {
      Ring.load(0x1000 + 16 * X + 4 * I, 4);
      const uint64_t Bin = 0x2000 + 4 * (I % 2);
      if (Atomic) {
        Ring.atomic(Op::Update, Bin, 4);
      } else {
        Ring.load(Bin, 4);
        Ring.store(Bin, 4);
      }
    }
  }
  return atomicsTrace(Ring);
}

/// A plain load, an atomic update, load, a filler, an atomic store and a
/// plain store.
std::vector<uint8_t> everyOperation() {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.load(0x1000, 4);
  Ring.atomic(Op::Update, 0x2000, 4);
  Ring.atomic(Op::Load, 0x2000, 4);
  Ring.value(format::ValueType::Atomic, 0, uint64_t(Op::None)); // a filler
  Ring.atomic(Op::Store, 0x2004, 8);
  Ring.store(0x1000, 4);
  return atomicsTrace(Ring);
}

// The export's atomic_op column is the mark's operation: both records of a
// read-modify-write say update; a filler marks no row.
TEST(Atomics, ExportNamesEachAccessesOperation) {
  std::string Jsonl;
  {
    llvm::raw_string_ostream OS(Jsonl);
    RecordTableTool Tool(OS, RecordTableTool::Format::JsonLines);
    decodeWith(Tool, everyOperation());
  }
  std::vector<std::string> Ops;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Jsonl).split(Lines, '\n', -1, false);
  for (llvm::StringRef L : Lines) {
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(L);
    ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
    if (std::optional<llvm::StringRef> Op =
            V->getAsObject()->getString("atomic_op"))
      Ops.push_back(Op->str());
  }
  EXPECT_EQ(Ops, (std::vector<std::string>{"none", "update", "update", "load",
                                           "store", "none"}));
}

TEST(Atomics, TheMarkMakesTheRecordsAfterItAtomic) {
  AtomicFlags Tool;
  decodeWith(Tool, everyOperation());
  const std::vector<std::pair<bool, bool>> Expected = {
      {false, false}, {false, true}, {true, true},
      {false, true},  {true, true},  {true, false}};
  EXPECT_EQ(Tool.Seen, Expected);
}

TEST(Atomics, AMarkWithoutItsRecordsIsDamage) {
  {
    // An update's mark followed by its LOAD, then not by its STORE.
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.value(format::ValueType::Atomic, 2, uint64_t(Op::Update));
    Ring.load(0x2000, 4);
    Ring.value(format::ValueType::Float32, 0, 0);
    DumpResult D = dump(atomicsTrace(Ring));
    EXPECT_NE(D.Error.find("record at ring offset 0x40: the atomic mark at "
                           "ring offset 0x20 is not followed by its STORE of "
                           "workgroup offset 0x0"),
              std::string::npos)
        << D.Error;
  }
  {
    // A load's mark followed by a record of another workgroup.
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {2, 1, 1});
    Ring.value(format::ValueType::Atomic, 1, uint64_t(Op::Load));
    Ring.workgroup(0, {1, 0, 0}, {2, 1, 1});
    Ring.load(0x2000, 4);
    DumpResult D = dump(atomicsTrace(Ring));
    EXPECT_NE(D.Error.find("is not followed by its LOAD"), std::string::npos)
        << D.Error;
  }
  {
    // A count that is not the operation's.
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.value(format::ValueType::Atomic, 1, uint64_t(Op::Update));
    Ring.load(0x2000, 4);
    Ring.store(0x2000, 4);
    DumpResult D = dump(atomicsTrace(Ring));
    EXPECT_NE(D.Error.find("atomic mark with operation 3 and record count 1"),
              std::string::npos)
        << D.Error;
  }
  {
    // A mark at the end of a chunk (a signal cut the run short there)
    // marks nothing and is no damage.
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.load(0x1000, 4);
    Ring.value(format::ValueType::Atomic, 2, uint64_t(Op::Update));
    DumpResult D = dump(atomicsTrace(Ring));
    EXPECT_EQ(D.Error, "");
  }
}

TEST(Atomics, AtomicHistogramHasNoRaceThePlainOneHas) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  RacesTool Atomic(OS, false);
  decodeWith(Atomic, sharedBins(true));
  EXPECT_EQ(Atomic.raceCount(), 0u) << Text;
  EXPECT_TRUE(Atomic.races().empty());

  RacesTool Plain(llvm::nulls(), false);
  decodeWith(Plain, sharedBins(false));
  EXPECT_EQ(Plain.raceCount(), 6u); // every pair of the 4 workgroups
  ASSERT_EQ(Plain.races().size(), 1u);
  EXPECT_EQ(Plain.races()[0].K, RacesTool::Kind::WriteWrite);
  EXPECT_FALSE(Plain.races()[0].AtomicA || Plain.races()[0].AtomicB);
}

TEST(Atomics, AnAtomicAgainstAPlainAccessIsARace) {
  // Workgroups 1-3 update bin 0x2000 atomically; workgroup 0 reads it
  // plainly, and writes 0x2004 plainly, which workgroup 3 reads atomically.
  RingBuilder Ring(4096);
  for (uint32_t X = 0; X < 4; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {4, 1, 1});
    if (X == 0) {
      Ring.load(0x2000, 4);
      Ring.store(0x2004, 4);
    } else {
      Ring.atomic(Op::Update, 0x2000, 4);
    }
    if (X == 3)
      Ring.atomic(Op::Load, 0x2004, 4);
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  RacesTool Tool(OS, false);
  decodeWith(Tool, atomicsTrace(Ring));
  OS.flush();
  // 0 with each of 1, 2, 3 (read-write on 0x2000); 0 with 3 again on
  // 0x2004. The atomic updates of 1, 2 and 3 do not race with each other.
  EXPECT_EQ(Tool.raceCount(), 3u) << Text;
  ASSERT_EQ(Tool.races().size(), 2u) << Text;
  const RacesTool::Race &Bin = Tool.races()[0];
  EXPECT_EQ(Bin.Overlap.Lo, 0x2000u);
  EXPECT_EQ(Bin.K, RacesTool::Kind::ReadWrite);
  EXPECT_EQ(Bin.Pairs, 3u);
  EXPECT_TRUE(Bin.AtomicA); // the writer: an atomic update
  EXPECT_FALSE(Bin.AtomicB);
  const RacesTool::Race &Out = Tool.races()[1];
  EXPECT_EQ(Out.Overlap.Lo, 0x2004u);
  EXPECT_FALSE(Out.AtomicA);
  EXPECT_TRUE(Out.AtomicB); // the reader: an atomic load
  EXPECT_NE(Text.find("    atomic store (no access site)  vs  load (no "
                      "access site)\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("(pid 0, atomic store 0x2000+4)"), std::string::npos)
      << Text;

  std::string Json;
  llvm::raw_string_ostream JS(Json);
  RacesTool JsonTool(JS, true);
  decodeWith(JsonTool, atomicsTrace(Ring));
  JS.flush();
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Array *Listed = V->getAsObject()->getArray("listed");
  ASSERT_EQ(Listed->size(), 2u);
  const llvm::json::Object *First = (*Listed)[0].getAsObject();
  EXPECT_EQ(First->getObject("a")->getObject("access")->getBoolean("atomic"),
            true);
  EXPECT_EQ(First->getObject("b")->getObject("access")->getBoolean("atomic"),
            false);
}

TEST(Atomics, RacesExitZeroForTheAtomicHistogramAndOneForThePlain) {
  ViewRun R = view("races " + writeTrace("atomic.bin", sharedBins(true)));
  EXPECT_EQ(R.Status, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("0 racing workgroup pairs"), std::string::npos) << R.Out;
  R = view("races " + writeTrace("plain.bin", sharedBins(false)));
  EXPECT_EQ(R.Status, 1) << R.Out << R.Err;
}

TEST(Atomics, DumpPrintsTheMarkWhereIreesToolPrintsItsLine) {
  std::vector<uint8_t> Bytes = sharedBins(true);
  DumpResult D = dump(Bytes);
  DumpResult Compat = dumpCompat(Bytes);
  ASSERT_EQ(D.Error, "");
  ASSERT_EQ(Compat.Error, "");
  EXPECT_NE(D.Text.find("0000000000000000 | VALUE 0002 = atomic update\n"
                        "0000000000000000 | LOAD  0000000000002000 4\n"
                        "0000000000000000 | STORE 0000000000002000 4\n"),
            std::string::npos)
      << D.Text;
  EXPECT_NE(Compat.Text.find("0000000000000000 | VALUE 0002 = <<unknown "
                             "type: 44>>\n0000000000000000 | LOAD  "),
            std::string::npos)
      << Compat.Text;
  EXPECT_EQ(Compat.Text.find("atomic"), std::string::npos);
  // Line for line: only the mark's value text differs.
  EXPECT_EQ(llvm::StringRef(D.Text).count('\n'),
            llvm::StringRef(Compat.Text).count('\n'));
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.atomic(Op::Load, 0x10, 1);
  Ring.atomic(Op::Store, 0x10, 1);
  Ring.value(format::ValueType::Atomic, 0, uint64_t(Op::None));
  D = dump(atomicsTrace(Ring));
  EXPECT_NE(D.Text.find("| VALUE 0001 = atomic load\n"), std::string::npos);
  EXPECT_NE(D.Text.find("| VALUE 0001 = atomic store\n"), std::string::npos);
  EXPECT_NE(D.Text.find("| VALUE 0000 = atomic none\n"), std::string::npos);
}

TEST(Atomics, ConvertIreeWritesPlainLoadsAndStores) {
  std::string In = writeTrace("hist.bin", sharedBins(true));
  std::string Out = tempPath("hist-iree.bin");
  ViewRun R = view("convert --iree " + In + " -o " + Out);
  ASSERT_EQ(R.Status, 0) << R.Err;
  std::string Text = slurp(Out);
  std::vector<uint8_t> Converted(Text.begin(), Text.end());
  DumpResult D = dumpCompat(Converted);
  EXPECT_EQ(D.Error, "");
  EXPECT_EQ(D.Text.find("<<unknown type"), std::string::npos) << D.Text;
  AtomicFlags Before, After;
  decodeWith(Before, sharedBins(true));
  decodeWith(After, Converted);
  ASSERT_EQ(Before.Seen.size(), After.Seen.size());
  for (size_t I = 0; I < Before.Seen.size(); ++I) {
    EXPECT_EQ(Before.Seen[I].first, After.Seen[I].first) << I;
    EXPECT_FALSE(After.Seen[I].second) << I;
  }
  EXPECT_EQ(Before.Seen.size(), 4u * 12);
}

TEST(Atomics, ExportsSummaryAndFootprintCarryTheMark) {
  std::vector<uint8_t> Bytes = sharedBins(true);
  std::string Csv;
  {
    llvm::raw_string_ostream OS(Csv);
    RecordTableTool Tool(OS, RecordTableTool::Format::Csv);
    decodeWith(Tool, Bytes);
  }
  EXPECT_NE(
      Csv.find(
          ",workgroup,file,atomic,beginning_lost,source,buffer,atomic_op\n"),
      std::string::npos);
  // Rows of the marked accesses end in 1 (and the empty beginning_lost,
  // source and buffer of this file) and their operation, the others in 0
  // and none; the marks themselves are not rows.
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Csv).split(Lines, '\n', -1, false);
  unsigned Atomic = 0, Plain = 0;
  for (llvm::StringRef L : llvm::ArrayRef(Lines).drop_front()) {
    EXPECT_FALSE(L.contains(",value,")) << L.str();
    if (!L.contains(",load,") && !L.contains(",store,"))
      continue;
    if (L.ends_with(",1,,,,update"))
      ++Atomic;
    else if (L.ends_with(",0,,,,none"))
      ++Plain;
  }
  EXPECT_EQ(Atomic, 4u * 8);
  EXPECT_EQ(Plain, 4u * 4);

  std::string Jsonl;
  {
    llvm::raw_string_ostream OS(Jsonl);
    RecordTableTool Tool(OS, RecordTableTool::Format::JsonLines);
    decodeWith(Tool, Bytes);
  }
  EXPECT_EQ(llvm::StringRef(Jsonl).count("\"atomic\":true"), 4u * 8);
  EXPECT_EQ(llvm::StringRef(Jsonl).count("\"atomic\":false"), 4u * 4);
  EXPECT_EQ(llvm::StringRef(Jsonl).count("\"atomic_op\":\"update\""), 4u * 8);
  EXPECT_EQ(llvm::StringRef(Jsonl).count("\"atomic_op\":\"none\""), 4u * 4);

  SummaryTool Summary(llvm::nulls(), false);
  decodeWith(Summary, Bytes);
  ASSERT_EQ(Summary.sites().size(), 1u);
  EXPECT_EQ(Summary.sites()[0].Totals.Atomics, 4u * 8);
  EXPECT_EQ(Summary.sites()[0].Totals.Loads, 4u * 8);
  EXPECT_EQ(Summary.sites()[0].Totals.Values, 0u) << "marks are no values";

  FootprintTool Footprint(llvm::nulls(), false);
  decodeWith(Footprint, Bytes);
  ASSERT_EQ(Footprint.workgroups().size(), 4u);
  // The input loads, and the atomic loads and stores of the bins apart.
  const auto &Streams = Footprint.workgroups()[0].Streams;
  ASSERT_EQ(Streams.size(), 3u);
  EXPECT_FALSE(Streams[0].Atomic);
  EXPECT_TRUE(Streams[1].Atomic);
  EXPECT_FALSE(Streams[1].Store);
  EXPECT_TRUE(Streams[2].Atomic);
  EXPECT_TRUE(Streams[2].Store);
}

} // namespace
