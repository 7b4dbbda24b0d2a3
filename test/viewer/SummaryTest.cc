//===- SummaryTest.cc - `summary` on traces with known answers ------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/CacheTool.h"
#include "analyses/SummaryTool.h"
#include "reader/TraceReader.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

struct Summarised {
  std::string Text;
  std::vector<SummaryTool::SiteSummary> Sites;
  std::map<std::string, AccessCounts> Kernels;
};

Summarised summarise(const std::vector<uint8_t> &Bytes, bool Json = false) {
  Summarised S;
  llvm::raw_string_ostream OS(S.Text);
  SummaryTool Tool(OS, Json);
  decodeWith(Tool, Bytes);
  S.Sites = Tool.sites();
  S.Kernels = Tool.kernels();
  return S;
}

/// Two sites of one kernel. Site 0, workgroup 0: 16 contiguous 4-byte loads
/// from 0x1000 (one 64-byte line) and a 4-byte store at 0x103E, which
/// straddles lines 0x1000 and 0x1040: 2 lines. Workgroup 1: an 8-byte load
/// at 0x1040 (a line workgroup 0 touched too), a value and two prints.
/// Site 1: one workgroup storing 128 bytes in 2-byte steps from 0x2000.
std::vector<uint8_t> knownTrace() {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
  for (int I = 0; I < 16; ++I)
    Ring.load(0x1000 + 4 * I, 4);
  Ring.store(0x103E, 4);
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 1);
  Ring.load(0x1040, 8);
  Ring.value(format::ValueType::SInt32, 0, 5);
  Ring.print("a");
  Ring.print("b");
  Ring.workgroup(1, {0, 0, 0}, {1, 1, 1}, 0);
  for (int I = 0; I < 64; ++I)
    Ring.store(0x2000 + 2 * I, 2);
  TraceBuilder B;
  addSimpleMetadata(B, 2).ring(Ring);
  return B.bytes();
}

TEST(Summary, CountsPerWorkgroupSiteAndKernel) {
  Summarised S = summarise(knownTrace());
  ASSERT_EQ(S.Sites.size(), 2u);
  const auto &W0 = S.Sites[0].Workgroups.at(0).Counts;
  EXPECT_EQ(W0.Loads, 16u);
  EXPECT_EQ(W0.Stores, 1u);
  EXPECT_EQ(W0.LoadBytes, 64u);
  EXPECT_EQ(W0.StoreBytes, 4u);
  EXPECT_EQ(W0.Lines, 2u);
  const auto &W1 = S.Sites[0].Workgroups.at(1).Counts;
  EXPECT_EQ(W1.Loads, 1u);
  EXPECT_EQ(W1.LoadBytes, 8u);
  EXPECT_EQ(W1.Lines, 1u);
  EXPECT_EQ(W1.Values, 1u);
  EXPECT_EQ(W1.Prints, 2u);
  EXPECT_EQ(S.Sites[0].Workgroups[1].ProcessorId, 1u);
  // Site totals: line 0x1040 is shared, so 2 distinct lines, not 3.
  EXPECT_EQ(S.Sites[0].Totals.Workgroups, 2u);
  EXPECT_EQ(S.Sites[0].Totals.Loads, 17u);
  EXPECT_EQ(S.Sites[0].Totals.Lines, 2u);
  const auto &Site1 = S.Sites[1].Totals;
  EXPECT_EQ(Site1.Stores, 64u);
  EXPECT_EQ(Site1.StoreBytes, 128u);
  EXPECT_EQ(Site1.Lines, 2u);
  const AccessCounts &K = S.Kernels.at("simple_mul");
  EXPECT_EQ(K.Workgroups, 3u);
  EXPECT_EQ(K.Loads, 17u);
  EXPECT_EQ(K.Stores, 65u);
  EXPECT_EQ(K.LoadBytes, 72u);
  EXPECT_EQ(K.StoreBytes, 132u);
  EXPECT_EQ(K.Lines, 4u);
}

TEST(Summary, TextTable) {
  Summarised S = summarise(knownTrace());
  EXPECT_NE(S.Text.find("dispatch site 0: simple_mul (2 workgroups)\n"),
            std::string::npos)
      << S.Text;
  EXPECT_NE(S.Text.find("  0,0,0             0         16          1"
                        "        0           64            4        2       0"
                        "       0\n"),
            std::string::npos)
      << S.Text;
}

TEST(Summary, Json) {
  Summarised S = summarise(knownTrace(), /*Json=*/true);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(S.Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object *Root = V->getAsObject();
  ASSERT_TRUE(Root);
  EXPECT_EQ(Root->getInteger("line_size"), 64);
  const llvm::json::Array *Sites = Root->getArray("sites");
  ASSERT_TRUE(Sites && Sites->size() == 2);
  const llvm::json::Object *Site0 = (*Sites)[0].getAsObject();
  EXPECT_EQ(Site0->getString("function"), "simple_mul");
  EXPECT_EQ(Site0->getObject("totals")->getInteger("loads"), 17);
  const llvm::json::Object *WG1 =
      (*Site0->getArray("workgroups"))[1].getAsObject();
  EXPECT_EQ(WG1->getInteger("prints"), 2);
  EXPECT_EQ((*WG1->getArray("id"))[0].getAsInteger(), 1);
  EXPECT_EQ(
      Root->getObject("kernels")->getObject("simple_mul")->getInteger("stores"),
      65);
}

} // namespace

namespace {

// --by kernel: one row per function over every site that launched it
// (Python's summary(by="kernel") had it; the command line refused it).
TEST(Summary, ByKernelShowsTheKernelsTableAlone) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  SummaryTool Tool(OS, /*Json=*/false, 64, GroupBy::Kernel);
  decodeWith(Tool, knownTrace());
  EXPECT_EQ(Text.find("dispatch site"), std::string::npos) << Text;
  EXPECT_NE(Text.find("kernels\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("  simple_mul              3         17         65"),
            std::string::npos)
      << Text;
}

TEST(Summary, CacheByKernelSumsItsSites) {
  llvm::raw_null_ostream Null;
  CacheTool BySite(Null, false, CacheGeometry{}, false, GroupBy::Site);
  decodeWith(BySite, knownTrace());
  CacheTool ByKernel(Null, false, CacheGeometry{}, false, GroupBy::Kernel);
  decodeWith(ByKernel, knownTrace());
  ASSERT_EQ(BySite.groups().size(), 2u);
  ASSERT_EQ(ByKernel.groups().size(), 1u);
  EXPECT_EQ(ByKernel.groups()[0].Label, "simple_mul");
  EXPECT_EQ(ByKernel.groups()[0].C.accesses(),
            BySite.groups()[0].C.accesses() + BySite.groups()[1].C.accesses());
  EXPECT_EQ(ByKernel.groups()[0].C.Misses[0].Read,
            BySite.groups()[0].C.Misses[0].Read +
                BySite.groups()[1].C.Misses[0].Read);
}

} // namespace

namespace {

// --sort COLUMN --top N: each table's rows with the most of the column
// first, cut to N; totals stay those of every row.
TEST(Summary, SortAndTopApplyToEachTable) {
  auto Run = [](RowOrder Order) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    SummaryTool Tool(OS, /*Json=*/false);
    Tool.setOrder(Order);
    decodeWith(Tool, knownTrace());
    return Tool.sites();
  };
  std::vector<SummaryTool::SiteSummary> Plain = Run({});
  ASSERT_EQ(Plain[0].Workgroups.size(), 2u);
  EXPECT_EQ(Plain[0].Workgroups[0].Id[0], 0u);
  std::vector<SummaryTool::SiteSummary> ByPrints = Run({"prints", 0});
  EXPECT_EQ(ByPrints[0].Workgroups[0].Id[0], 1u); // two prints
  EXPECT_EQ(ByPrints[0].Workgroups[1].Id[0], 0u);
  std::vector<SummaryTool::SiteSummary> Top = Run({"loads", 1});
  ASSERT_EQ(Top[0].Workgroups.size(), 1u);
  EXPECT_EQ(Top[0].Workgroups[0].Id[0], 0u); // 16 loads against 1
  EXPECT_EQ(Top[0].Totals.Loads, 17u);
}

TEST(Summary, CacheSortsWithinEachSite) {
  llvm::raw_null_ostream Null;
  CacheTool Cache(Null, false, CacheGeometry{}, false);
  Cache.setOrder({"accesses", 1});
  decodeWith(Cache, knownTrace());
  ASSERT_EQ(Cache.workgroups().size(), 2u); // one per site
  EXPECT_EQ(Cache.workgroups()[0].Site, 0u);
  EXPECT_EQ(Cache.workgroups()[0].Id[0], 0u);
  EXPECT_EQ(Cache.workgroups()[0].C.accesses(), 17u);
  EXPECT_EQ(Cache.workgroups()[1].Site, 1u);
  EXPECT_EQ(Cache.totals().accesses(), 17u + 1u + 64u);
}

} // namespace

namespace {

// --by site: the label column is as wide as the longest label, so that
// every row's numbers stand under their header (OpenMP loops' names are
// longer than the 24 columns the table used to keep).
TEST(Summary, BySiteColumnsStayAlignedWithLongNames) {
  const std::string Long = "omp for at src/omp/OMPStream.cpp:111 in "
                           "OMPStream::copy";
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  Ring.load(0x1000, 4);
  Ring.workgroup(1, {0, 0, 0}, {1, 1, 1}, 0);
  Ring.store(0x2000, 4);
  TraceBuilder B;
  B.metadata({{"k", "t", "l", "src"}, {Long, "t", "l", "src"}}, {0, 1});
  B.ring(Ring);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  SummaryTool Tool(OS, /*Json=*/false, 64, GroupBy::Site);
  decodeWith(Tool, B.bytes());
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(Text).split(Lines, '\n');
  auto Header = llvm::find_if(
      Lines, [](llvm::StringRef L) { return L.starts_with("  site "); });
  ASSERT_NE(Header, Lines.end()) << Text;
  // Each row's workgroup count ends where the header's "workgroups" ends.
  const size_t End = Header->find("workgroups") + strlen("workgroups");
  for (llvm::StringRef Label :
       {llvm::StringRef("0: k"), llvm::StringRef(Long)}) {
    auto Row = llvm::find_if(Lines, [&](llvm::StringRef L) {
      return L.contains(Label) && L.starts_with("  ");
    });
    ASSERT_NE(Row, Lines.end()) << Text;
    EXPECT_EQ(Row->substr(0, End).rtrim().size(), End) << Text;
    EXPECT_EQ(Row->substr(0, End).back(), '1') << Text;
  }
}

} // namespace
