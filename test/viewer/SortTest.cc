//===- SortTest.cc - --sort COLUMN and --top N in every table report ------===//
//
// summary and cache have their own tests (SummaryTest.cc); here races,
// footprint and diff, through the command line as a user runs them, and
// the refusal of a column a report does not have.
//
//===----------------------------------------------------------------------===//

#include "CliRun.h"
#include "TraceBuilder.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

llvm::json::Object parseObject(const std::string &Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError()) << "\n" << Text;
    return {};
  }
  return *V->getAsObject();
}

/// Two launches (two dispatch sites): in the first 2 workgroups store to
/// one word (1 pair), in the second \p Writers store to another (a pair
/// for each two of them).
std::string racingLaunches(uint32_t Writers) {
  RingBuilder Ring(1 << 14);
  for (uint32_t X = 0; X < 2; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {2, 1, 1}, 0);
    Ring.store(0x1000, 4);
  }
  for (uint32_t X = 0; X < Writers; ++X) {
    Ring.workgroup(1, {X, 0, 0}, {Writers, 1, 1}, 0);
    Ring.store(0x3000, 8);
  }
  TraceBuilder B;
  addSimpleMetadata(B, 2).ring(Ring);
  return writeTrace("races-" + std::to_string(Writers) + ".bin", B.bytes());
}

std::vector<int64_t> listedPairs(const llvm::json::Object &Report) {
  std::vector<int64_t> Pairs;
  for (const llvm::json::Value &G : *Report.getArray("listed"))
    Pairs.push_back(*G.getAsObject()->getInteger("pairs"));
  return Pairs;
}

TEST(Sort, RacesListsTheGroupsWithTheMostPairsFirst) {
  std::string Path = racingLaunches(5);
  ViewRun R = view("races --json " + Path);
  ASSERT_EQ(R.Status, 1) << R.Err;
  EXPECT_EQ(listedPairs(parseObject(R.Out)), (std::vector<int64_t>{1, 10}));

  R = view("races --json --sort pairs " + Path);
  ASSERT_EQ(R.Status, 1) << R.Err;
  EXPECT_EQ(listedPairs(parseObject(R.Out)), (std::vector<int64_t>{10, 1}));
  R = view("races --json --sort overlap_bytes " + Path);
  EXPECT_EQ(listedPairs(parseObject(R.Out)), (std::vector<int64_t>{10, 1}));

  // --top cuts the list, not the counts (nor the exit status).
  R = view("races --json --sort pairs --top 1 " + Path);
  ASSERT_EQ(R.Status, 1) << R.Err;
  llvm::json::Object Top = parseObject(R.Out);
  EXPECT_EQ(listedPairs(Top), (std::vector<int64_t>{10}));
  EXPECT_EQ(Top.getInteger("races"), 11);
  EXPECT_EQ(Top.getInteger("groups"), 2);
  R = view("races --top 1 " + Path);
  EXPECT_NE(R.Out.find("... 1 more groups of racing accesses not shown "
                       "(--limit, --top)"),
            std::string::npos)
      << R.Out;
  // --limit and --top together: the smaller wins.
  R = view("races --json --sort pairs --limit 1 --top 2 " + Path);
  EXPECT_EQ(listedPairs(parseObject(R.Out)), (std::vector<int64_t>{10}));
}

TEST(Sort, FootprintOrdersWorkgroups) {
  // Workgroup x makes 1, 3 and 2 loads of 4 bytes of its own.
  RingBuilder Ring(1 << 14);
  const uint32_t Loads[] = {1, 3, 2};
  for (uint32_t X = 0; X < 3; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {3, 1, 1}, 0);
    for (uint32_t I = 0; I < Loads[X]; ++I)
      Ring.load(0x1000 + 64 * X + 4 * I, 4);
  }
  Ring.store(0x2000, 4); // workgroup 2 stores too
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::string Path = writeTrace("footprint-sort.bin", B.bytes());
  auto Ids = [](const std::string &Out, const char *Field = nullptr) {
    std::vector<int64_t> Got;
    llvm::json::Object Report = parseObject(Out);
    for (const llvm::json::Value &W : *Report.getArray("workgroups")) {
      const llvm::json::Object &O = *W.getAsObject();
      Got.push_back(Field ? *O.getInteger(Field)
                          : *(*O.getArray("id"))[0].getAsInteger());
    }
    return Got;
  };
  ViewRun R = view("footprint --json " + Path);
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(Ids(R.Out), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(Ids(R.Out, "accesses"), (std::vector<int64_t>{1, 3, 3}));
  EXPECT_EQ(Ids(R.Out, "load_bytes"), (std::vector<int64_t>{4, 12, 8}));
  EXPECT_EQ(Ids(R.Out, "store_bytes"), (std::vector<int64_t>{0, 0, 4}));
  R = view("footprint --json --sort load_bytes " + Path);
  EXPECT_EQ(Ids(R.Out), (std::vector<int64_t>{1, 2, 0}));
  // Ties keep the report's order.
  R = view("footprint --json --sort accesses " + Path);
  EXPECT_EQ(Ids(R.Out), (std::vector<int64_t>{1, 2, 0}));
  R = view("footprint --json --sort store_bytes --top 1 " + Path);
  EXPECT_EQ(Ids(R.Out), (std::vector<int64_t>{2}));
  R = view("footprint --sort load_bytes --top 2 " + Path);
  ASSERT_EQ(R.Status, 0) << R.Err;
  size_t First = R.Out.find("\nworkgroup 1,0,0 pid 0 (dispatch site 0: "
                            "simple_mul): 3 accesses, 12 bytes loaded, 0 "
                            "stored\n");
  EXPECT_NE(First, std::string::npos) << R.Out;
  EXPECT_LT(First, R.Out.find("\nworkgroup 2,0,0"));
  EXPECT_EQ(R.Out.find("\nworkgroup 0,0,0"), std::string::npos) << R.Out;
}

/// Site 0 makes 10 loads, site 1 \p Site1Loads.
std::string twoSites(const std::string &Name, uint32_t Site1Loads) {
  RingBuilder Ring(1 << 14);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  for (uint32_t I = 0; I < 10; ++I)
    Ring.load(0x1000 + 4 * I, 4);
  Ring.workgroup(1, {0, 0, 0}, {1, 1, 1}, 0);
  for (uint32_t I = 0; I < Site1Loads; ++I)
    Ring.load(0x8000 + 4 * I, 4);
  TraceBuilder B;
  addSimpleMetadata(B, 2).ring(Ring);
  return writeTrace(Name, B.bytes());
}

TEST(Sort, DiffPutsTheLargestChangeFirst) {
  std::string Before = twoSites("diff-before.bin", 1);
  std::string After = twoSites("diff-after.bin", 5);
  auto Sites = [](const std::string &Out) {
    std::vector<std::string> Keys;
    llvm::json::Object Report = parseObject(Out);
    for (const llvm::json::Value &Row : *Report.getArray("sites"))
      Keys.push_back(Row.getAsObject()->getString("site")->str());
    return Keys;
  };
  ViewRun R = view("diff --json " + Before + " " + After);
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(Sites(R.Out),
            (std::vector<std::string>{"0: simple_mul", "1: simple_mul"}));
  R = view("diff --json --sort accesses " + Before + " " + After);
  EXPECT_EQ(Sites(R.Out),
            (std::vector<std::string>{"1: simple_mul", "0: simple_mul"}));
  R = view("diff --json --sort accesses --top 1 " + Before + " " + After);
  EXPECT_EQ(Sites(R.Out), (std::vector<std::string>{"1: simple_mul"}));
  // A decrease counts as much as an increase.
  R = view("diff --json --sort bytes --top 1 " + After + " " + Before);
  EXPECT_EQ(Sites(R.Out), (std::vector<std::string>{"1: simple_mul"}));
  R = view("diff --sort accesses --top 1 " + Before + " " + After);
  EXPECT_NE(R.Out.find("1: simple_mul"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("0: simple_mul"), std::string::npos) << R.Out;
}

// --top says, under each table it cut, how many rows it left out, and in
// JSON the same counts, per table, in `omitted` (0 for a table not cut),
// as races says so of the groups --limit and --top leave out.
TEST(Sort, TopSaysHowManyRowsItLeftOut) {
  // Site 0 runs 2 workgroups, site 1 runs 5, all of kernel simple_mul.
  std::string Path = racingLaunches(5);
  auto Omitted = [](const std::string &Out) {
    std::map<std::string, int64_t> Counts;
    const llvm::json::Object Report = parseObject(Out);
    for (const auto &[Table, N] : *Report.getObject("omitted"))
      Counts[Table.str()] = *N.getAsInteger();
    return Counts;
  };
  using Counts = std::map<std::string, int64_t>;
  const std::string Levels = " --l1 32k,8,64 --l2 256k,8,64 --ll 8m,16,64 ";

  // Per site's workgroups: 1 of site 0's and 4 of site 1's.
  ViewRun R = view("summary --top 1 " + Path);
  ASSERT_EQ(R.Status, 0) << R.Err;
  size_t Site0 = R.Out.find("  ... 1 more workgroups not shown (--top)\n");
  size_t Site1 = R.Out.find("  ... 4 more workgroups not shown (--top)\n");
  EXPECT_NE(Site0, std::string::npos) << R.Out;
  EXPECT_LT(Site0, Site1) << R.Out;
  R = view("summary --json --top 1 " + Path);
  EXPECT_EQ(
      Omitted(R.Out),
      (Counts{{"groups", 0}, {"kernels", 0}, {"sites", 0}, {"workgroups", 5}}));
  // Nothing left out: no line, every count 0.
  R = view("summary --top 5 --by site " + Path);
  EXPECT_EQ(R.Out.find("more"), std::string::npos) << R.Out;
  R = view("summary --top 1 --by site " + Path);
  EXPECT_NE(R.Out.find("  ... 1 more sites not shown (--top)\n"),
            std::string::npos)
      << R.Out;
  R = view("summary --json --top 1 --by site " + Path);
  EXPECT_EQ(Omitted(R.Out)["sites"], 1);

  R = view("cache --top 2" + Levels + Path);
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("  ... 3 more workgroups not shown (--top)\n"),
            std::string::npos)
      << R.Out;
  R = view("cache --json --top 2" + Levels + Path);
  EXPECT_EQ(Omitted(R.Out), (Counts{{"groups", 0}, {"workgroups", 3}}));
  R = view("cache --top 1 --by site" + Levels + Path);
  EXPECT_NE(R.Out.find("  ... 1 more sites not shown (--top)\n"),
            std::string::npos)
      << R.Out;
  R = view("cache --json --top 1 --by site" + Levels + Path);
  EXPECT_EQ(Omitted(R.Out), (Counts{{"groups", 1}, {"workgroups", 0}}));

  R = view("footprint --top 3 " + Path);
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("\n... 4 more workgroups not shown (--top)\n"),
            std::string::npos)
      << R.Out;
  R = view("footprint --json --top 3 " + Path);
  EXPECT_EQ(Omitted(R.Out), (Counts{{"workgroups", 4}}));

  R = view("races --json --top 1 " + Path);
  EXPECT_EQ(Omitted(R.Out), (Counts{{"listed", 1}}));
  R = view("races --json " + Path);
  EXPECT_EQ(Omitted(R.Out), (Counts{{"listed", 0}}));

  std::string Before = twoSites("omitted-before.bin", 1);
  std::string After = twoSites("omitted-after.bin", 5);
  R = view("diff --top 1 " + Before + " " + After);
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("  ... 1 more sites not shown (--top)\n"),
            std::string::npos)
      << R.Out;
  R = view("diff --json --top 1 " + Before + " " + After);
  Counts Diff = Omitted(R.Out);
  EXPECT_EQ(Diff["sites"], 1);
  EXPECT_EQ(Diff["kernels"], 0);
}

// Every table report refuses a column it does not have, naming the ones
// it has, before reading any file.
TEST(Sort, EveryReportNamesItsColumns) {
  const std::pair<const char *, const char *> Reports[] = {
      {"summary", "workgroups, loads, stores, atomics, load_bytes, "
                  "store_bytes, lines, values, prints"},
      {"cache", "accesses, reads, writes, D1mr, D1mw, L2mr, L2mw, LLmr, "
                "LLmw"},
      {"races", "pairs, write_write_pairs, read_write_pairs, overlap_bytes"},
      {"footprint", "load_bytes, store_bytes, accesses"},
      {"diff", "accesses, bytes, lines, D1mr, D1mw, L2mr, L2mw, LLmr, LLmw, "
               "races"}};
  for (const auto &[Report, Columns] : Reports) {
    std::string Files = std::string(Report) == "diff" ? "x.bin y.bin" : "x.bin";
    // cache's and diff's columns are their levels': three given, whatever
    // the machine.
    if (std::string(Report) == "cache" || std::string(Report) == "diff")
      Files = "--l1 32k,8,64 --l2 256k,8,64 --ll 8m,16,64 " + Files;
    ViewRun R = view(std::string(Report) + " --sort nope " + Files);
    EXPECT_EQ(R.Status, 1) << Report;
    EXPECT_EQ(R.Err, std::string("wgtrace-view: error: --sort nope: ") +
                         Report + " has no such column; it sorts by " +
                         Columns + "\n");
    R = view(std::string(Report) + " --top 0 " + Files);
    EXPECT_EQ(R.Status, 1) << Report;
    EXPECT_EQ(R.Err, "wgtrace-view: error: --top 0 keeps no row; give at "
                     "least 1\n");
    R = view(std::string(Report) + " --help");
    EXPECT_NE(R.Out.find("--sort=<column>"), std::string::npos) << Report;
    EXPECT_NE(R.Out.find("--top=<N>"), std::string::npos) << Report;
  }
}

} // namespace
