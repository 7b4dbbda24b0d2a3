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
  EXPECT_NE(R.Out.find(",0," + B + ",0\n"), std::string::npos) << R.Out;
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

} // namespace
