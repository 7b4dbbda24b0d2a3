//===- UnselectedTest.cc - Workgroups WGTRACE_FILTER left out -------------===//
//
// A workgroup the runtime's filter did not select writes its WORKGROUP
// record and an Unselected VALUE: reports list the selected workgroups
// only, and say in one line how many were left out and by which filter.
// A trace without marks reads as before.
//
//===----------------------------------------------------------------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/CacheTool.h"
#include "analyses/FootprintTool.h"
#include "analyses/RacesTool.h"
#include "analyses/SummaryTool.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

/// Four workgroups of one site under the filter 'sample=2': 0 and 2 were
/// selected (0 loads 8 bytes, 2 makes no access), 1 and 3 were not. With
/// \p Marked false, the same records without the Unselected VALUEs (a
/// trace of a writer before them).
std::vector<uint8_t> filteredTrace(bool Marked = true) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {4, 1, 1});
  Ring.load(0x1000, 8);
  for (uint32_t Id : {1u, 2u, 3u}) {
    Ring.workgroup(0, {Id, 0, 0}, {4, 1, 1});
    if (Marked && Id % 2)
      Ring.value(format::ValueType::Unselected, 0, 0);
  }
  ExtensionSpec X;
  X.Filters = {"sample=2"};
  TraceBuilder B;
  B.metadata({{"k", "x86_64", "()", "void k() {}"}}, {0}, &X).ring(Ring);
  return B.bytes();
}

std::string summaryOf(const std::vector<uint8_t> &Bytes, bool Json,
                      std::vector<SummaryTool::SiteSummary> *Sites = nullptr) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  SummaryTool Tool(OS, Json);
  decodeWith(Tool, Bytes);
  OS.flush();
  if (Sites)
    *Sites = Tool.sites();
  return Text;
}

const char kUnselectedLine[] =
    "2 of 4 workgroups not selected by WGTRACE_FILTER 'sample=2' (their "
    "WORKGROUP records only)\n";

TEST(Unselected, SummaryListsSelectedWorkgroupsAndCountsTheOthers) {
  std::vector<SummaryTool::SiteSummary> Sites;
  std::string Text = summaryOf(filteredTrace(), false, &Sites);
  ASSERT_EQ(Sites.size(), 1u);
  ASSERT_EQ(Sites[0].Workgroups.size(), 2u);
  EXPECT_EQ(Sites[0].Workgroups[0].Id[0], 0u);
  EXPECT_EQ(Sites[0].Workgroups[1].Id[0], 2u); // selected, no access
  EXPECT_EQ(Sites[0].Totals.Workgroups, 2u);
  EXPECT_EQ(Text.rfind(kUnselectedLine, 0), 0u) << Text;
  EXPECT_NE(Text.find("dispatch site 0: k (2 workgroups selected of 4 that "
                      "ran)\n"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("  1,0,0"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("  3,0,0"), std::string::npos) << Text;
  // The kernels table: selected, then ran.
  EXPECT_NE(Text.find("selected        ran"), std::string::npos) << Text;
}

TEST(Unselected, SummaryJsonCarriesTheSelection) {
  llvm::Expected<llvm::json::Value> Root =
      llvm::json::parse(summaryOf(filteredTrace(), true));
  ASSERT_TRUE(bool(Root)) << llvm::toString(Root.takeError());
  const llvm::json::Object &O = *Root->getAsObject();
  EXPECT_EQ(*O.getString("schema"), "wgtrace-summary/1");
  const llvm::json::Object &Selection = *O.getObject("selection");
  EXPECT_EQ(Selection.getInteger("workgroups_ran"), 4);
  EXPECT_EQ(Selection.getInteger("workgroups_selected"), 2);
  const llvm::json::Array &By = *Selection.getArray("not_selected_by");
  ASSERT_EQ(By.size(), 1u);
  EXPECT_EQ(*By[0].getAsObject()->getString("filter"), "sample=2");
  EXPECT_EQ(By[0].getAsObject()->getInteger("workgroups"), 2);
  const llvm::json::Object &Site = *(*O.getArray("sites"))[0].getAsObject();
  EXPECT_EQ(Site.getArray("workgroups")->size(), 2u);
  EXPECT_EQ(Site.getObject("totals")->getInteger("workgroups"), 2);
  EXPECT_EQ(Site.getInteger("workgroups_not_selected"), 2);
  EXPECT_EQ(O.getObject("kernels")->getObject("k")->getInteger(
                "workgroups_not_selected"),
            2);
}

// A trace without marks: every workgroup is a row, as before, and nothing
// says any was left out.
TEST(Unselected, TraceWithoutMarksReadsAsBefore) {
  std::vector<SummaryTool::SiteSummary> Sites;
  std::string Text = summaryOf(filteredTrace(false), false, &Sites);
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_EQ(Sites[0].Workgroups.size(), 4u);
  EXPECT_EQ(Text.find("not selected"), std::string::npos) << Text;
  EXPECT_NE(Text.find("dispatch site 0: k (4 workgroups)\n"), std::string::npos)
      << Text;
  EXPECT_EQ(Text.find(" ran"), std::string::npos) << Text;
  llvm::Expected<llvm::json::Value> Root =
      llvm::json::parse(summaryOf(filteredTrace(false), true));
  ASSERT_TRUE(bool(Root)) << llvm::toString(Root.takeError());
  const llvm::json::Object &Selection =
      *Root->getAsObject()->getObject("selection");
  EXPECT_EQ(Selection.getInteger("workgroups_ran"), 4);
  EXPECT_EQ(Selection.getInteger("workgroups_selected"), 4);
  EXPECT_TRUE(Selection.getArray("not_selected_by")->empty());
}

TEST(Unselected, PerWorkgroupTablesOfOtherReportsListSelectedOnly) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  CacheTool Cache(OS, false, CacheGeometry{}, false);
  decodeWith(Cache, filteredTrace());
  OS.flush();
  EXPECT_EQ(Cache.workgroups().size(), 2u);
  EXPECT_NE(Text.find(kUnselectedLine), std::string::npos) << Text;

  std::string FootText;
  llvm::raw_string_ostream FootOS(FootText);
  FootprintTool Footprint(FootOS, false);
  decodeWith(Footprint, filteredTrace());
  FootOS.flush();
  EXPECT_NE(FootText.find(kUnselectedLine), std::string::npos) << FootText;
  for (const FootprintTool::Workgroup &W : Footprint.workgroups())
    EXPECT_EQ(W.Id[0] % 2, 0u) << W.Id[0];
}

TEST(Unselected, DumpNamesTheMarkAndIreeCompatKeepsIreesText) {
  DumpResult D = dump(filteredTrace());
  ASSERT_EQ(D.Error, "");
  EXPECT_NE(D.Text.find("not selected by WGTRACE_FILTER 'sample=2'"),
            std::string::npos)
      << D.Text;
  // Every workgroup that ran is in the dump.
  EXPECT_NE(D.Text.find("3,0,0"), std::string::npos) << D.Text;
  DumpResult Compat = dumpCompat(filteredTrace());
  ASSERT_EQ(Compat.Error, "");
  EXPECT_NE(Compat.Text.find("<<unknown type: 48>>"), std::string::npos)
      << Compat.Text;
  EXPECT_EQ(Compat.Text.find("not selected"), std::string::npos);
}

/// \p Ring in a file of wgtrace's writer (its metadata promises a run
/// record): its VALUEs are checked.
std::vector<uint8_t> writtenByWgtrace(RingBuilder Ring) {
  format::RingTrailer T{};
  T.RingSize = 4096;
  Ring.trailer(T);
  ExtensionSpec X;
  X.RunRecord = true;
  X.Filters = {"sample=2"};
  TraceBuilder B;
  B.metadata({{"k", "x86_64", "()", "void k() {}"}}, {0}, &X).ring(Ring);
  return B.bytes();
}

// A mark anywhere but right after its WORKGROUP record, or records after
// it, are damage: reported as such, never taken in.
TEST(Unselected, MisplacedMarkOrRecordsAfterItAreDamage) {
  {
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.load(0x1000, 4);
    Ring.value(format::ValueType::Unselected, 0, 0);
    DumpResult D = dump(writtenByWgtrace(Ring));
    EXPECT_NE(D.Error.find("Unselected value does not follow its WORKGROUP "
                           "record"),
              std::string::npos)
        << D.Error;
  }
  {
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.value(format::ValueType::Unselected, 0, 0);
    Ring.load(0x1000, 4);
    DumpResult D = dump(writtenByWgtrace(Ring));
    EXPECT_NE(D.Error.find("which its Unselected value says recorded nothing"),
              std::string::npos)
        << D.Error;
  }
  {
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.value(format::ValueType::Unselected, 1, 0);
    DumpResult D = dump(writtenByWgtrace(Ring));
    EXPECT_NE(D.Error.find("Unselected value does not follow"),
              std::string::npos)
        << D.Error;
  }
}

// Races: unselected workgroups made no access, so the report is the one of
// the trace without them.
TEST(Unselected, RacesUnchanged) {
  auto Races = [](const std::vector<uint8_t> &Bytes) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    RacesTool Tool(OS, /*Json=*/true);
    decodeWith(Tool, Bytes);
    OS.flush();
    llvm::Expected<llvm::json::Value> Root = llvm::json::parse(Text);
    EXPECT_TRUE(bool(Root));
    if (!Root) {
      llvm::consumeError(Root.takeError());
      return llvm::json::Value(nullptr);
    }
    llvm::json::Object &O = *Root->getAsObject();
    return llvm::json::Value(llvm::json::Array{std::move(*O.get("races")),
                                               std::move(*O.get("listed"))});
  };
  EXPECT_EQ(Races(filteredTrace()), Races(filteredTrace(false)));
}

} // namespace
