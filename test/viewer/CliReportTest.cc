//===- CliReportTest.cc - What every subcommand promises ------------------===//
//
// Nothing to analyse is an error, outputs are atomic, write errors are one
// line, metadata notes are printed once, filters and several files work
// in every subcommand that takes them.
//
//===----------------------------------------------------------------------===//

#include "CliRun.h"
#include "TraceBuilder.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <vector>

#include <sys/stat.h>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

const char *const kAnalyses[] = {"summary", "races", "footprint",
                                 "cache",   "html",  "export"};

std::vector<uint8_t> twoWorkgroups(uint32_t Site = 0) {
  RingBuilder Ring(4096);
  for (uint32_t X = 0; X < 2; ++X) {
    Ring.workgroup(Site, {X, 0, 0}, {2, 1, 1}, X);
    Ring.load(0x1000 + 64 * X, 4);
    Ring.store(0x2000 + 64 * X, 4);
  }
  TraceBuilder B;
  addSimpleMetadata(B, Site + 1).ring(Ring);
  return B.bytes();
}

TEST(CliReport, NothingToAnalyseExitsTwoInEveryAnalysis) {
  TraceBuilder Meta;
  addSimpleMetadata(Meta);
  TraceBuilder NoWorkgroups;
  addSimpleMetadata(NoWorkgroups).ring(RingBuilder(4096));
  struct Case {
    std::string Name;
    std::vector<uint8_t> Bytes;
    const char *Why;
  };
  for (const Case &C :
       std::vector<Case>{{"empty.bin", {}, "the file is empty"},
                         {"meta.bin", Meta.bytes(), "metadata only"},
                         {"none.bin", NoWorkgroups.bytes(),
                          "no workgroup record in 1 ring chunk"}}) {
    std::string Path = writeTrace(C.Name, C.Bytes);
    for (const char *Analysis : kAnalyses) {
      ViewRun R = view(std::string(Analysis) + " " + Path);
      EXPECT_EQ(R.Status, 2) << Analysis << " " << C.Name;
      EXPECT_EQ(R.Err.rfind(std::string("wgtrace-view: error: ") + Path, 0), 0u)
          << R.Err;
      EXPECT_NE(R.Err.find(C.Why), std::string::npos)
          << Analysis << ": " << R.Err;
    }
  }
  // A dump of metadata is what the user asked for.
  ViewRun R = view("dump " + writeTrace("meta2.bin", Meta.bytes()));
  EXPECT_EQ(R.Status, 0) << R.Err;
}

TEST(CliReport, SummaryNamesSitesThatRecordedNoWorkgroup) {
  std::string Path = writeTrace("sites.bin", [] {
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.load(0x1000, 4);
    TraceBuilder B;
    addSimpleMetadata(B, 3).ring(Ring);
    return B.bytes();
  }());
  ViewRun R = view("summary " + Path);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("site 1 (simple_mul): no workgroup recorded"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("site 2 (simple_mul): no workgroup recorded"),
            std::string::npos)
      << R.Out;
}

TEST(CliReport, SummaryLeavesOutDirectCallSitesNothingCalled) {
  // Site 0 launched, site 1 a launch that recorded nothing, site 2 the
  // kernel's direct calls (there were none).
  ExtensionSpec X;
  X.SiteDirect = {false, false, true};
  std::string Path = writeTrace("direct.bin", [&] {
    RingBuilder Ring(4096);
    Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
    Ring.load(0x1000, 4);
    TraceBuilder B;
    B.metadata({{"simple_mul", {}, {}, {}}}, {0, 0, 0}, &X).ring(Ring);
    return B.bytes();
  }());
  ViewRun R = view("summary " + Path);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("site 1 (simple_mul): no workgroup recorded"),
            std::string::npos)
      << R.Out;
  EXPECT_EQ(R.Out.find("site 2"), std::string::npos) << R.Out;
}

TEST(CliReport, OutputIsAtomic) {
  std::string Good = writeTrace("good.bin", twoWorkgroups());
  std::vector<uint8_t> Damaged = twoWorkgroups();
  Damaged.resize(Damaged.size() - 100);
  std::string Bad = writeTrace("bad.bin", Damaged);
  for (const char *Command : {"html", "export", "summary"}) {
    std::string Out = tempPath(std::string(Command) + ".out");
    std::ofstream(Out) << "previous";
    ViewRun R = view(std::string(Command) + " " + Bad + " -o " + Out);
    EXPECT_EQ(R.Status, 2) << Command;
    // The previous file is untouched, and no temporary file is left.
    EXPECT_EQ(slurp(Out), "previous") << Command;
    R = view(std::string(Command) + " " + Good + " -o " + Out);
    EXPECT_EQ(R.Status, 0) << Command << R.Err;
    EXPECT_NE(slurp(Out), "previous") << Command;
    EXPECT_EQ(R.Out, "");
  }
}

TEST(CliReport, WriteErrorIsOneLineAndExitTwo) {
  std::string Good = writeTrace("full.bin", twoWorkgroups());
  for (const char *Command :
       {"summary", "races", "footprint", "cache", "export", "html", "dump"}) {
    std::string Err = tempPath("full-err.txt");
    int Raw = std::system((std::string(WGTRACE_VIEW_PATH) + " " + Command +
                           " " + Good + " >/dev/full 2>" + Err)
                              .c_str());
    EXPECT_EQ(WEXITSTATUS(Raw), 2) << Command;
    std::string Text = slurp(Err);
    EXPECT_EQ(Text, "wgtrace-view: error: standard output: write failed: No "
                    "space left on device\n")
        << Command;
  }
  ViewRun R = view("summary " + Good + " -o /nonexistent-dir/x.txt");
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("/nonexistent-dir/x.txt: cannot create a temporary "
                       "file beside it: No such file or directory"),
            std::string::npos)
      << R.Err;
}

TEST(CliReport, ExtensionNoteIsPrintedOnceByEverySubcommand) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.load(0x1000, 4);
  TraceBuilder B;
  // Two metadata chunks with the same problem: one note.
  B.metadataWithBrokenExtension().ring(Ring).metadataWithBrokenExtension().ring(
      Ring);
  std::string Path = writeTrace("note.bin", B.bytes());
  for (const char *Command :
       {"dump", "summary", "races", "footprint", "cache", "export", "html"}) {
    ViewRun R = view(std::string(Command) + " " + Path);
    EXPECT_EQ(R.Status, 0) << Command << R.Err;
    llvm::StringRef Err(R.Err);
    EXPECT_EQ(Err.count("fields beyond IREE's schema do not verify"), 1u)
        << Command << ": " << R.Err;
    EXPECT_TRUE(Err.starts_with("wgtrace-view: note: " + Path + ": metadata"))
        << R.Err;
  }
}

TEST(CliReport, FiltersInEverySubcommand) {
  std::string Path = writeTrace("filter.bin", twoWorkgroups());
  ViewRun R = view("summary --workgroup 1,0,0 " + Path);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("(1 workgroups)"), std::string::npos) << R.Out;
  for (const char *Command :
       {"dump", "summary", "races", "footprint", "cache", "export", "html"}) {
    R = view(std::string(Command) +
             " --kernel 'simple*' --dispatch 0 "
             "--workgroup 0,0,0 " +
             Path);
    EXPECT_EQ(R.Status, 0) << Command << R.Err;
    if (std::string(Command) == "dump")
      continue;
    R = view(std::string(Command) + " --kernel 'other*' " + Path);
    EXPECT_EQ(R.Status, 2) << Command;
    EXPECT_NE(R.Err.find("no workgroup matches --kernel 'other*' (of 2 in "
                         "the file)"),
              std::string::npos)
        << Command << R.Err;
  }
  R = view("summary --kernel '[' " + Path);
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Err.find("--kernel"), std::string::npos);
}

TEST(CliReport, SeveralFilesAreKeptApart) {
  std::string A = writeTrace("a.bin", twoWorkgroups());
  std::string B = writeTrace("b.bin", twoWorkgroups());
  ViewRun R = view("summary " + A + " " + B);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("== " + A + " =="), std::string::npos);
  EXPECT_NE(R.Out.find("== " + B + " =="), std::string::npos);
  R = view("summary --json " + A + " " + B);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << R.Out;
  const llvm::json::Array *Files = V->getAsObject()->getArray("files");
  ASSERT_TRUE(Files && Files->size() == 2);
  EXPECT_EQ(*(*Files)[1].getAsObject()->getString("file"), B);
  R = view("races --json " + A + " " + B);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_TRUE(bool(llvm::json::parse(R.Out)));
  R = view("export --format csv " + A + " " + B);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find(",0," + B + ",0,,,,none\n"), std::string::npos) << R.Out;
  R = view("export " + A + " " + B);
  llvm::Expected<llvm::json::Value> Chrome = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(Chrome)) << llvm::toString(Chrome.takeError());
  size_t Pid2 = 0;
  for (const llvm::json::Value &E :
       *Chrome->getAsObject()->getArray("traceEvents"))
    Pid2 += E.getAsObject()->getInteger("pid") == 2 &&
            E.getAsObject()->getString("ph") == llvm::StringRef("X");
  EXPECT_EQ(Pid2, 2u);
  // A damaged file among them: the others are still reported, exit 2.
  std::vector<uint8_t> Damaged = twoWorkgroups();
  Damaged.resize(Damaged.size() - 100);
  R = view("summary " + A + " " + writeTrace("d.bin", Damaged));
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Out.find("== " + A + " =="), std::string::npos);
}

TEST(CliReport, AWorkgroupWhoseBeginningWasOverwrittenIsMarkedInEveryView) {
  // A wrapped ring, linearised: its first workgroup is a copy whose first
  // record (lifetime offset 0) a wrap overwrote; the second began whole.
  constexpr uint64_t kRing = 4096;
  RingBuilder Ring(kRing);
  Ring.continuation(0, {3, 0, 0}, {4, 1, 1}, 0, /*FirstRecord=*/0);
  Ring.load(0x1000, 4);
  Ring.workgroup(0, {1, 0, 0}, {4, 1, 1}, 1);
  Ring.store(0x2000, 4);
  format::RingTrailer T{};
  T.Flags = format::kTrailerWrapped;
  T.BaseVirtualOffset = 3 * kRing;
  T.RingSize = kRing;
  T.BytesLost = 3 * kRing;
  T.RecordsLost = 700;
  T.WorkgroupsLost = 3;
  Ring.trailer(T, {{0, 3}});
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  const std::string Path = writeTrace("lost-beginning.bin", B.bytes());

  ViewRun R = view("summary " + Path);
  EXPECT_EQ(R.Status, 3) << R.Err;
  EXPECT_NE(R.Out.find("\n  3,0,0*  "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("\n  1,0,0   "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("* 1 workgroup began before what its ring kept"),
            std::string::npos)
      << R.Out;
  R = view("cache " + Path);
  EXPECT_NE(R.Out.find("\n  3,0,0*  "), std::string::npos) << R.Out;
  R = view("footprint " + Path);
  EXPECT_NE(R.Out.find("workgroup 3,0,0* pid 0"), std::string::npos) << R.Out;

  // --json: the flag on each workgroup, true only for the first.
  auto Flags = [](const llvm::json::Array &WGs) {
    std::vector<bool> F;
    for (const llvm::json::Value &W : WGs)
      F.push_back(W.getAsObject()
                      ->getBoolean("beginning_lost")
                      .value_or(
                          /*absent=*/false));
    return F;
  };
  const std::vector<bool> Expected = {true, false};
  R = view("summary --json " + Path);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_EQ(
      Flags(*(*V->getAsObject()->getArray("sites"))[0].getAsObject()->getArray(
          "workgroups")),
      Expected);
  for (const char *Report : {"cache", "footprint"}) {
    R = view(std::string(Report) + " --json " + Path);
    V = llvm::json::parse(R.Out);
    ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
    EXPECT_EQ(Flags(*V->getAsObject()->getArray("workgroups")), Expected)
        << Report;
  }

  // CSV and JSONL: on the WORKGROUP record's row.
  R = view("export --format csv " + Path);
  EXPECT_NE(R.Out.find(",workgroup,3,0,0,0,0,simple_mul,,,,,0,,,1,,,\n"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find(",workgroup,1,0,0,1,0,simple_mul,,,,,1,,,0,,,\n"),
            std::string::npos)
      << R.Out;
  R = view("export --format jsonl " + Path);
  EXPECT_NE(R.Out.find("\"wg\":[3,0,0]"), std::string::npos) << R.Out;
  std::vector<bool> Rows;
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(R.Out).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef L : Lines) {
    llvm::Expected<llvm::json::Value> Row = llvm::json::parse(L);
    ASSERT_TRUE(bool(Row)) << llvm::toString(Row.takeError());
    if (Row->getAsObject()->getString("kind") == llvm::StringRef("workgroup"))
      Rows.push_back(*Row->getAsObject()->getBoolean("beginning_lost"));
  }
  EXPECT_EQ(Rows, Expected);

  // Chrome's trace: the slice's args.
  R = view("export " + Path);
  V = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  std::vector<bool> Slices;
  for (const llvm::json::Value &E : *V->getAsObject()->getArray("traceEvents"))
    if (E.getAsObject()->getString("ph") == llvm::StringRef("X"))
      Slices.push_back(
          *E.getAsObject()->getObject("args")->getBoolean("beginning_lost"));
  EXPECT_EQ(Slices, Expected);

  // HTML: the page's data (element 15 of a workgroup) and its script.
  const std::string Page = tempPath("lost-beginning.html");
  R = view("html " + Path + " -o " + Page);
  EXPECT_EQ(R.Status, 3) << R.Err;
  std::ifstream In(Page);
  std::string Html((std::istreambuf_iterator<char>(In)),
                   std::istreambuf_iterator<char>());
  const std::string Open = "<script type=\"application/json\" id=\"data\">";
  size_t Begin = Html.find(Open);
  ASSERT_NE(Begin, std::string::npos);
  Begin += Open.size();
  V = llvm::json::parse(
      Html.substr(Begin, Html.find("</script>", Begin) - Begin));
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  std::vector<bool> Marks;
  for (const llvm::json::Value &W : *V->getAsObject()->getArray("workgroups"))
    Marks.push_back((*W.getAsArray())[15].getAsInteger() == 1);
  EXPECT_EQ(Marks, Expected);
  EXPECT_NE(Html.find("(w[15] ? '*' : '')"), std::string::npos);
}

} // namespace

namespace {

// Every JSON report names its schema and version, so that a script can
// tell which fields to expect (docs/VIEWER.md, "JSON").
TEST(CliReport, EveryJsonReportNamesItsSchema) {
  std::string A = writeTrace("schema-a.bin", twoWorkgroups());
  std::string B = writeTrace("schema-b.bin", twoWorkgroups());
  // The version each report's JSON has now (cache/2: the hierarchy).
  const std::map<std::string, std::string> Version = {
      {"summary", "1"}, {"races", "1"}, {"footprint", "1"}, {"cache", "2"}};
  for (const char *Report : {"summary", "races", "footprint", "cache"}) {
    const std::string Schema =
        "wgtrace-" + std::string(Report) + "/" + Version.at(Report);
    ViewRun R = view(std::string(Report) + " --json " + A);
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
    ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << R.Out;
    EXPECT_EQ(V->getAsObject()->getString("schema"), Schema) << Report;
    R = view(std::string(Report) + " --json " + A + " " + B);
    V = llvm::json::parse(R.Out);
    ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << R.Out;
    EXPECT_EQ(V->getAsObject()->getString("schema"), "wgtrace-files/1");
    const llvm::json::Array *Files = V->getAsObject()->getArray("files");
    ASSERT_TRUE(Files && Files->size() == 2);
    EXPECT_EQ(
        (*Files)[0].getAsObject()->getObject("report")->getString("schema"),
        Schema);
  }
  ViewRun R = view("diff --json " + A + " " + B);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << R.Out;
  EXPECT_EQ(V->getAsObject()->getString("schema"), "wgtrace-diff/2");
}

} // namespace
