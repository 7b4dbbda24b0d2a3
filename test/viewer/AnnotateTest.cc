//===- AnnotateTest.cc - `annotate`: a listing worked out by hand ---------===//

#include "CliRun.h"
#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/AnnotateTool.h"
#include "analyses/CacheTool.h"
#include "reader/TraceReader.h"
#include "support/ScratchDirectory.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

/// 512 bytes, 64-byte lines, 2 ways: 4 sets, set = line % 4.
const CacheGeometry kTiny{512, 64, 2};

/// The kernel as the metadata keeps it; defined at line 2 of its file.
const char *const kScaleSource = "WGTRACE_DISPATCH void scale(float *a, float "
                                 "*b) {\n"
                                 "  float t = a[0];\n"
                                 "  b[0] = t * 2;\n"
                                 "  // nothing here\n"
                                 "  // nothing here either\n"
                                 "  // still nothing\n"
                                 "  a[1] = b[0];\n"
                                 "}";

/// The file as it was traced: a line before the kernel.
std::string scaleFile() {
  return std::string("#include \"wgtrace.h\"\n") + kScaleSource + "\n";
}

/// Kernel "scale" (site 0) in \p File, kernel "other" (site 1) in
/// other.cc, whose place (and so its copy) the metadata does not give. Access
/// sites: 1 a[0] line 3 (load), 2 b[0] line 4 (store), 3 b[0] line 8 (load), 4
/// a[1] line 8 (store), 5 o[0] other.cc:1.
void scaleMetadata(TraceBuilder &B, const std::string &File) {
  ExtensionSpec X;
  X.FunctionPlaces = {{File, 2}};
  X.SiteLocations = {{"main.cc", 40}, {"main.cc", 41}};
  X.AccessSites = {{File, 3, 13, 0, "scale", "a[0]"},
                   {File, 4, 3, 1, "scale", "b[0]"},
                   {File, 8, 10, 0, "scale", "b[0]"},
                   {File, 8, 3, 1, "scale", "a[1]"},
                   {"other.cc", 1, 1, 1, "other", "o[0]"}};
  B.metadata({{"scale", "x86_64", "(float*, float*)", kScaleSource},
              {"other", "x86_64", "(float*)", "void other(float *o) {}"}},
             {0, 1}, &X);
}

/// scaleMetadata()'s kernels and sites.
///
/// Worked out by hand (line = address / 64, set = line % 4, 2 ways):
///
///   wg 0  site 1 load  0x1000 4  line 64 miss  set0 [64]
///         site 2 store 0x1100 4  line 68 miss  set0 [68 64]
///         site 3 load  0x1100 4  line 68 hit   set0 [68 64]
///         site 4 store 0x1004 4  line 64 hit   set0 [64 68]
///   wg 1  site 1 load  0x1200 4  line 72 miss  set0 [72 64]  (68 out)
///         site 2 store 0x1100 4  line 68 miss  set0 [68 72]  (64 out)
///         site 3 load  0x113C 8  line 68 hit   set0 [68 72]
///                                line 69 miss  set1 [69]
///         site 4 store 0x1204 4  line 72 hit   set0 [72 68]
///         (none) load  0x2000 4  line 128 miss set0 [128 72] (68 out)
///   other site 5 store 0x3000 4  line 192 miss set0 [192 128] (72 out)
///
/// scale line 3: 2 loads, 8 bytes, lines {64, 72}, D1mr 2.
/// scale line 4: 2 stores, 8 bytes, line {68}, D1mw 2.
/// scale line 8: 2 loads (12 bytes), 2 stores (8 bytes), lines {64, 68,
///   69, 72}, D1mr 1 (line 69).
/// scale, no line: 1 load, 4 bytes, line {128}, D1mr 1.
std::vector<uint8_t> handTrace(const std::string &File) {
  TraceBuilder B;
  scaleMetadata(B, File);
  RingBuilder Ring(4096);
  auto Site = [](uint32_t Id) { return format::accessSiteBits(Id); };
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1});
  Ring.load(0x1000 | Site(1), 4);
  Ring.store(0x1100 | Site(2), 4);
  Ring.load(0x1100 | Site(3), 4);
  Ring.store(0x1004 | Site(4), 4);
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1});
  Ring.load(0x1200 | Site(1), 4);
  Ring.store(0x1100 | Site(2), 4);
  Ring.load(0x113C | Site(3), 8);
  Ring.store(0x1204 | Site(4), 4);
  Ring.load(0x2000, 4);
  Ring.workgroup(1, {0, 0, 0}, {1, 1, 1});
  Ring.store(0x3000 | Site(5), 4);
  B.ring(Ring);
  return B.bytes();
}

/// scaleMetadata()'s kernels and sites, with enough accesses to reach past D1
/// into L2 and LL of kHierarchy, many of them straddling two lines. The
/// first access (site 1, line 3) straddles lines 63 and 64 of cold caches:
/// one access, so one miss of each level (a miss per line would be two).
std::vector<uint8_t> hierarchyTrace(const std::string &File) {
  TraceBuilder B;
  scaleMetadata(B, File);
  RingBuilder Ring(1 << 16);
  auto Site = [](uint32_t Id) { return format::accessSiteBits(Id); };
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1});
  Ring.load(0x0FFC | Site(1), 8);
  for (uint32_t I = 0; I < 96; ++I) {
    // Strides of 40 and 72 bytes: one access in eight or so straddles.
    Ring.load((0x1000 + (I * 40) % 3072) | Site(3), 8);
    Ring.store((0x2000 + (I * 72) % 5120) | Site(2), 8);
  }
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1});
  for (uint32_t I = 0; I < 96; ++I) {
    Ring.load((0x1000 + (I * 56) % 4096) | Site(3), 16);
    Ring.store((0x3000 + (I * 24) % 2048) | Site(4), 16);
  }
  Ring.load(0x4038, 16); // no site, straddling
  Ring.workgroup(1, {0, 0, 0}, {1, 1, 1});
  for (uint32_t I = 0; I < 64; ++I)
    Ring.store((0x1000 + (I * 100) % 6000) | Site(5), 8);
  B.ring(Ring);
  return B.bytes();
}

/// Three levels small enough for hierarchyTrace() to miss each: D1 kTiny,
/// L2 1 KiB (8 sets of 2), LL 2 KiB (8 sets of 4).
const std::vector<CacheLevel> kHierarchy = {
    {"D1", kTiny}, {"L2", {1024, 64, 2}}, {"LL", {2048, 64, 4}}};

/// A path in a fresh directory of the test process's scratch directory
/// (the file is not created; the directory goes when the process ends).
std::string tempPath(const char *Name) {
  static unsigned Directories = 0;
  return scratchSubdirectory("annotate-" + std::to_string(Directories++)) +
         "/" + Name;
}

void writeFile(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  ASSERT_FALSE(EC) << EC.message();
  OS << Text;
}

AnnotateTool::Options options(unsigned Context = 3) {
  AnnotateTool::Options O;
  O.Levels = {{"D1", kTiny}};
  O.Context = Context;
  O.Trace = "hand.trace";
  return O;
}

struct AnnotateRun {
  std::string Text;
  std::vector<AnnotateTool::Kernel> Kernels;
  AnnotateTool::Counts Totals;
  SourceOrigin Origin = SourceOrigin::None;
  std::string Reason;
};

AnnotateRun run(const std::vector<uint8_t> &Bytes, AnnotateTool::Options O,
                bool Json = false, WorkgroupFilter Filter = {},
                const std::string &File = "") {
  AnnotateRun Out;
  llvm::raw_string_ostream OS(Out.Text);
  AnnotateTool Tool(OS, Json, std::move(O));
  TraceFile Trace = TraceFile::fromBytes(Bytes);
  TraceReader Reader(Trace, RingMode::WrapAware, Filter);
  AnalysisTool *Tools[] = {&Tool};
  llvm::Error E = Reader.run(Tools);
  EXPECT_FALSE(E) << llvm::toString(std::move(E));
  Out.Kernels = Tool.kernels();
  Out.Totals = Tool.totals();
  if (const SourceText *S = Tool.source(File)) {
    Out.Origin = S->origin();
    Out.Reason = S->reason();
  }
  return Out;
}

const AnnotateTool::LineRow *rowAt(const AnnotateTool::Kernel &K,
                                   uint32_t Line) {
  for (const AnnotateTool::LineRow &R : K.Lines)
    if (R.Where.known() && R.Where.Line == Line)
      return &R;
  return nullptr;
}

TEST(Annotate, HandWorkedCountsAndMisses) {
  std::string File = tempPath("scale.cc");
  writeFile(File, scaleFile());
  AnnotateRun R = run(handTrace(File), options(), false, {}, File);
  ASSERT_EQ(R.Kernels.size(), 2u) << R.Text;
  const AnnotateTool::Kernel &K = R.Kernels[0];
  EXPECT_EQ(K.Name, "scale");
  EXPECT_EQ(K.Sites, (std::vector<std::string>{"site 0 at main.cc:40"}));
  const AnnotateTool::LineRow *L3 = rowAt(K, 3), *L4 = rowAt(K, 4),
                              *L8 = rowAt(K, 8);
  ASSERT_TRUE(L3 && L4 && L8) << R.Text;
  EXPECT_EQ(L3->C.Loads, 2u);
  EXPECT_EQ(L3->C.Stores, 0u);
  EXPECT_EQ(L3->C.LoadBytes, 8u);
  EXPECT_EQ(L3->C.CacheLines, 2u);
  EXPECT_EQ(L3->C.LevelMisses[0].Read, 2u);
  EXPECT_EQ(L3->C.LevelMisses[0].Write, 0u);
  EXPECT_EQ(L4->C.Stores, 2u);
  EXPECT_EQ(L4->C.StoreBytes, 8u);
  EXPECT_EQ(L4->C.CacheLines, 1u);
  EXPECT_EQ(L4->C.LevelMisses[0].Read, 0u);
  EXPECT_EQ(L4->C.LevelMisses[0].Write, 2u);
  EXPECT_EQ(L8->C.Loads, 2u);
  EXPECT_EQ(L8->C.Stores, 2u);
  EXPECT_EQ(L8->C.LoadBytes, 12u);
  EXPECT_EQ(L8->C.StoreBytes, 8u);
  EXPECT_EQ(L8->C.CacheLines, 4u);
  EXPECT_EQ(L8->C.LevelMisses[0].Read, 1u);
  EXPECT_EQ(L8->C.LevelMisses[0].Write, 0u);
  EXPECT_EQ(L8->Texts, (std::vector<std::string>{"b[0]", "a[1]"}));
  // The access without a site is the kernel's, on no line.
  ASSERT_FALSE(K.Lines.back().Where.known());
  EXPECT_EQ(K.Lines.back().C.Loads, 1u);
  EXPECT_EQ(K.Lines.back().C.LevelMisses[0].Read, 1u);
  EXPECT_EQ(K.Totals.Loads, 5u);
  EXPECT_EQ(K.Totals.Stores, 4u);
  EXPECT_EQ(K.Totals.CacheLines, 5u);
  EXPECT_EQ(K.Totals.LevelMisses[0].Read, 4u);
  EXPECT_EQ(K.Totals.LevelMisses[0].Write, 2u);
  EXPECT_EQ(R.Kernels[1].Name, "other");
  EXPECT_EQ(R.Kernels[1].Totals.LevelMisses[0].Write, 1u);

  // The misses are `cache`'s.
  std::string Ignored;
  llvm::raw_string_ostream Null(Ignored);
  CacheTool Cache(Null, false, kTiny, false);
  decodeWith(Cache, handTrace(File));
  EXPECT_EQ(R.Totals.LevelMisses[0].Read, Cache.totals().Misses[0].Read);
  EXPECT_EQ(R.Totals.LevelMisses[0].Write, Cache.totals().Misses[0].Write);
  EXPECT_EQ(R.Totals.Loads + R.Totals.Stores, Cache.totals().accesses());

  // The file on disk is used; lines show counts left of the source.
  EXPECT_EQ(R.Origin, SourceOrigin::Disk) << R.Reason;
  EXPECT_NE(R.Text.find("source: the file on disk"), std::string::npos)
      << R.Text;
  // Counts of 0 are 0 on a line with accesses, as cg_annotate prints them.
  EXPECT_NE(R.Text.find(" 2  0     8     2    2    0   float t = a[0];\n"),
            std::string::npos)
      << R.Text;
  // Context lines have '.' in every column.
  EXPECT_NE(R.Text.find(" .  .     .     .    .    .   // nothing here\n"),
            std::string::npos)
      << R.Text;
  EXPECT_NE(R.Text.find("(accesses with no source line)"), std::string::npos);
  EXPECT_NE(R.Text.find("PROGRAM TOTALS"), std::string::npos);
}

// What the HTML report asks for (no distinct lines, no report): every
// other count, the kernels' and lines' order and the sources are the
// default run's, and nothing is printed.
TEST(Annotate, WithoutLinesOrReportTheOtherCountsStay) {
  std::string File = tempPath("scale.cc");
  writeFile(File, scaleFile());
  AnnotateTool::Options Quiet = options();
  Quiet.CountLines = false;
  Quiet.Print = false;
  AnnotateRun Full = run(handTrace(File), options(), false, {}, File);
  AnnotateRun R = run(handTrace(File), std::move(Quiet), false, {}, File);
  EXPECT_EQ(R.Text, "");
  EXPECT_EQ(R.Origin, Full.Origin);
  EXPECT_EQ(R.Totals.CacheLines, 0u);
  EXPECT_EQ(Full.Totals.CacheLines, 6u); // both kernels' lines
  auto Same = [](const AnnotateTool::Counts &A, const AnnotateTool::Counts &B) {
    EXPECT_EQ(A.Loads, B.Loads);
    EXPECT_EQ(A.Stores, B.Stores);
    EXPECT_EQ(A.LoadBytes, B.LoadBytes);
    EXPECT_EQ(A.StoreBytes, B.StoreBytes);
    EXPECT_EQ(A.CacheLines, 0u);
    for (size_t L = 0; L < A.LevelMisses.size(); ++L) {
      EXPECT_EQ(A.LevelMisses[L].Read, B.LevelMisses[L].Read) << L;
      EXPECT_EQ(A.LevelMisses[L].Write, B.LevelMisses[L].Write) << L;
    }
  };
  Same(R.Totals, Full.Totals);
  ASSERT_EQ(R.Kernels.size(), Full.Kernels.size());
  for (size_t K = 0; K < R.Kernels.size(); ++K) {
    EXPECT_EQ(R.Kernels[K].Name, Full.Kernels[K].Name);
    Same(R.Kernels[K].Totals, Full.Kernels[K].Totals);
    ASSERT_EQ(R.Kernels[K].Lines.size(), Full.Kernels[K].Lines.size());
    for (size_t L = 0; L < R.Kernels[K].Lines.size(); ++L) {
      EXPECT_EQ(R.Kernels[K].Lines[L].Where.str(),
                Full.Kernels[K].Lines[L].Where.str());
      EXPECT_EQ(R.Kernels[K].Lines[L].Texts, Full.Kernels[K].Lines[L].Texts);
      Same(R.Kernels[K].Lines[L].C, Full.Kernels[K].Lines[L].C);
    }
  }
}

// Each level's misses of a kernel's lines (and its accesses without a
// line) add up to what `cache --by kernel` counts for it with the same
// levels, warm or --cold: one model, one way of counting a straddling
// access.
TEST(Annotate, EveryLevelsLinesSumToCacheByKernel) {
  std::string File = tempPath("scale.cc");
  writeFile(File, scaleFile());
  std::vector<uint8_t> Trace = hierarchyTrace(File);
  for (bool Cold : {false, true}) {
    AnnotateTool::Options O = options();
    O.Levels = kHierarchy;
    O.Cold = Cold;
    AnnotateRun R = run(Trace, O, false, {}, File);
    std::string Ignored;
    llvm::raw_string_ostream Null(Ignored);
    CacheTool Cache(Null, false, kHierarchy, Cold, GroupBy::Kernel);
    decodeWith(Cache, Trace);
    ASSERT_EQ(R.Kernels.size(), 2u) << R.Text;
    ASSERT_EQ(Cache.groups().size(), 2u);
    for (const AnnotateTool::Kernel &K : R.Kernels) {
      const CacheTool::GroupCounts *Row = nullptr;
      for (const CacheTool::GroupCounts &G : Cache.groups())
        if (G.Label == K.Name)
          Row = &G;
      ASSERT_TRUE(Row) << K.Name;
      EXPECT_EQ(K.Totals.accesses(), Row->C.accesses()) << K.Name;
      for (unsigned L = 0; L < kHierarchy.size(); ++L) {
        uint64_t Read = 0, Write = 0;
        for (const AnnotateTool::LineRow &Line : K.Lines) {
          Read += Line.C.LevelMisses[L].Read;
          Write += Line.C.LevelMisses[L].Write;
        }
        SCOPED_TRACE(K.Name + " " + kHierarchy[L].Name +
                     (Cold ? " cold" : " warm"));
        EXPECT_EQ(Read, Row->C.Misses[L].Read);
        EXPECT_EQ(Write, Row->C.Misses[L].Write);
        EXPECT_EQ(K.Totals.LevelMisses[L].Read, Read);
        EXPECT_EQ(K.Totals.LevelMisses[L].Write, Write);
        // Something reaches every level, or the sums prove little.
        EXPECT_GT(Read + Write, 0u);
      }
    }
    for (unsigned L = 0; L < kHierarchy.size(); ++L) {
      EXPECT_EQ(R.Totals.LevelMisses[L].Read, Cache.totals().Misses[L].Read);
      EXPECT_EQ(R.Totals.LevelMisses[L].Write, Cache.totals().Misses[L].Write);
    }
    // The straddling first access: two lines, one miss of each level.
    const AnnotateTool::LineRow *L3 =
        rowAt(R.Kernels[0].Name == "scale" ? R.Kernels[0] : R.Kernels[1], 3);
    ASSERT_TRUE(L3) << R.Text;
    EXPECT_EQ(L3->C.Loads, 1u);
    EXPECT_EQ(L3->C.CacheLines, 2u);
    for (unsigned L = 0; L < kHierarchy.size(); ++L)
      EXPECT_EQ(L3->C.LevelMisses[L].Read, 1u) << kHierarchy[L].Name;
    // Every level's columns, named as cachegrind names them.
    EXPECT_NE(R.Text.find("Events shown:     Ld St Bytes Lines D1mr D1mw L2mr "
                          "L2mw LLmr LLmw\n"),
              std::string::npos)
        << R.Text;
  }
}

TEST(Annotate, MovedSourceComesFromTheMetadata) {
  std::string File = tempPath("moved.cc"); // never written
  AnnotateRun R = run(handTrace(File), options(), false, {}, File);
  EXPECT_EQ(R.Origin, SourceOrigin::MetadataCopy);
  EXPECT_NE(R.Reason.find("not found on disk"), std::string::npos) << R.Reason;
  EXPECT_NE(R.Text.find("source: the trace metadata's copy of the kernel "
                        "definitions (the file is not found on disk"),
            std::string::npos)
      << R.Text;
  // The copy's lines are at their place: the kernel at line 2.
  EXPECT_NE(R.Text.find("-- line 2 ---"), std::string::npos) << R.Text;
  EXPECT_NE(R.Text.find("  a[1] = b[0];"), std::string::npos);
  // The other kernel's file has no copy of this kernel and no text.
  EXPECT_NE(R.Text.find("[no source] o[0]"), std::string::npos) << R.Text;
}

// --source-dir: a tree that moved is found by the path's tails under each
// directory, in order; a changed copy there is passed over for a matching
// one; the listing says where it read the file.
TEST(Annotate, SourceDirFindsAMovedTree) {
  // The trace recorded <old>/src/scale.cc; the tree is now under <new>.
  std::string Old = tempPath("src/scale.cc"); // never written
  std::string New = tempPath("unused");
  New = New.substr(0, New.rfind('/'));
  std::string Changed = New + "/changed";
  std::string Moved = New + "/moved";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Changed + "/src"));
  ASSERT_FALSE(llvm::sys::fs::create_directories(Moved));
  std::string Text = scaleFile();
  writeFile(Moved + "/scale.cc", Text);
  Text.replace(Text.find("b[0] = t * 2;"), 13, "b[0] = t * 3;");
  writeFile(Changed + "/src/scale.cc", Text);

  AnnotateTool::Options O = options();
  O.SourceDirs = {Changed, Moved};
  AnnotateRun R = run(handTrace(Old), O, false, {}, Old);
  EXPECT_EQ(R.Origin, SourceOrigin::Disk) << R.Text;
  EXPECT_NE(R.Text.find("source: the file on disk found at " + Moved +
                        "/scale.cc (--source-dir)"),
            std::string::npos)
      << R.Text;
  EXPECT_NE(R.Text.find("b[0] = t * 2;"), std::string::npos);
  EXPECT_NE(R.Text.find("// nothing here\n"), std::string::npos);

  // Only the changed copy: the metadata's, saying why.
  O.SourceDirs = {Changed};
  R = run(handTrace(Old), O, false, {}, Old);
  EXPECT_EQ(R.Origin, SourceOrigin::MetadataCopy);
  EXPECT_EQ(R.Reason.find(Changed + "/src/scale.cc: changed since the trace "
                                    "(line 4 differs"),
            0u)
      << R.Reason;
  // Nowhere: said so.
  O.SourceDirs = {New + "/nowhere"};
  R = run(handTrace(Old), O, false, {}, Old);
  EXPECT_EQ(R.Reason, "not found on disk nor in --source-dir");

  // Through the command line, for annotate and html alike.
  std::string Trace = writeTrace("moved-tree.bin", handTrace(Old));
  ViewRun V =
      view("annotate --l1 256,2,64 --source-dir " + Moved + " " + Trace);
  EXPECT_EQ(V.Status, 0) << V.Err;
  EXPECT_NE(V.Out.find("found at " + Moved + "/scale.cc"), std::string::npos)
      << V.Out;
  std::string Page = tempPath("moved-tree.html");
  V = view("html --l1 256,2,64 --source-dir " + Moved + " " + Trace + " -o " +
           Page);
  EXPECT_EQ(V.Status, 0) << V.Err;
  EXPECT_NE(slurp(Page).find("b[0] = t * 2;"), std::string::npos);
}

TEST(Annotate, ChangedSourceComesFromTheMetadata) {
  std::string File = tempPath("changed.cc");
  std::string Text = scaleFile();
  Text.replace(Text.find("b[0] = t * 2;"), 13, "b[0] = t * 3;");
  writeFile(File, Text);
  AnnotateRun R = run(handTrace(File), options(), false, {}, File);
  EXPECT_EQ(R.Origin, SourceOrigin::MetadataCopy);
  EXPECT_NE(R.Reason.find("changed since the trace (line 4 differs"),
            std::string::npos)
      << R.Reason;
  EXPECT_NE(R.Text.find("b[0] = t * 2;"), std::string::npos);
  EXPECT_EQ(R.Text.find("b[0] = t * 3;"), std::string::npos);
}

TEST(Annotate, KernelFilter) {
  WorkgroupFilter F;
  F.Kernel = "oth*";
  AnnotateTool::Options O = options();
  AnnotateRun R = run(handTrace("/nowhere/scale.cc"), O, false, F);
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_EQ(R.Kernels[0].Name, "other");
  EXPECT_EQ(R.Totals.Stores, 1u);
  EXPECT_EQ(R.Totals.Loads, 0u);
  EXPECT_EQ(R.Text.find("Kernel: scale"), std::string::npos);
}

TEST(Annotate, ContextAndOrder) {
  std::string File = tempPath("scale.cc");
  writeFile(File, scaleFile());
  // One line of context: lines 2-5 and 7-9 are two chunks; line 8 (4
  // accesses) is hotter than 3 and 4 (2 each).
  AnnotateRun Hot = run(handTrace(File), options(1));
  size_t First = Hot.Text.find("-- line 7 ---");
  size_t Second = Hot.Text.find("-- line 2 ---");
  ASSERT_NE(First, std::string::npos) << Hot.Text;
  ASSERT_NE(Second, std::string::npos) << Hot.Text;
  EXPECT_LT(First, Second);
  EXPECT_EQ(Hot.Text.find("// nothing here either"), std::string::npos);
  EXPECT_NE(Hot.Text.find("// nothing here\n"), std::string::npos);

  AnnotateTool::Options O = options(1);
  O.FileOrder = true;
  AnnotateRun InFile = run(handTrace(File), O);
  EXPECT_LT(InFile.Text.find("-- line 2 ---"),
            InFile.Text.find("-- line 7 ---"));

  // No context: only the lines with accesses (3 and 4 together).
  AnnotateRun None = run(handTrace(File), options(0));
  EXPECT_NE(None.Text.find("-- line 3 ---"), std::string::npos);
  EXPECT_EQ(None.Text.find("-- line 4 ---"), std::string::npos);
  EXPECT_EQ(None.Text.find("// nothing here"), std::string::npos);

  // --top 1 --sort D1mw: only line 4 (2 write misses) is annotated.
  O = options(0);
  O.Order.Column = "D1mw";
  O.Order.Top = 1;
  AnnotateRun Top = run(handTrace(File), O);
  EXPECT_NE(Top.Text.find("-- line 4 ---"), std::string::npos) << Top.Text;
  EXPECT_EQ(Top.Text.find("-- line 8 ---"), std::string::npos);
  EXPECT_EQ(Top.Text.find("-- line 3 ---"), std::string::npos);
  // ... and the listing says how many it left out (lines 3 and 8), in text
  // and in JSON.
  EXPECT_NE(Top.Text.find("\n... 2 more lines with accesses not shown "
                          "(--top)\n"),
            std::string::npos)
      << Top.Text;
  AnnotateRun TopJson = run(handTrace(File), O, /*Json=*/true);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(TopJson.Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object &Scale =
      *(*V->getAsObject()->getArray("kernels"))[0].getAsObject();
  EXPECT_EQ(Scale.getObject("omitted")->getInteger("lines"), 2);
  EXPECT_EQ(Scale.getArray("lines")->size(), 3u);
  EXPECT_EQ(run(handTrace(File), options(0)).Text.find("more lines with"),
            std::string::npos);
}

TEST(Annotate, JsonFields) {
  std::string File = tempPath("moved.cc");
  AnnotateRun R = run(handTrace(File), options(1), /*Json=*/true);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Text);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  const llvm::json::Object &Root = *V->getAsObject();
  EXPECT_EQ(*Root.getString("schema"), "wgtrace-annotate/2");
  EXPECT_EQ(*Root.getString("order"), "hot");
  EXPECT_EQ(*Root.getInteger("context"), 1);
  const llvm::json::Object &Level =
      *(*Root.getObject("cache")->getArray("levels"))[0].getAsObject();
  EXPECT_EQ(*Level.getString("name"), "D1");
  EXPECT_EQ(*Level.getInteger("sets"), 4);
  EXPECT_EQ(*Root.getObject("totals")->getInteger("D1mr"), 4);
  EXPECT_EQ(*Root.getObject("totals")->getInteger("D1mw"), 3);
  const llvm::json::Object &K = *(*Root.getArray("kernels"))[0].getAsObject();
  EXPECT_EQ(*K.getString("kernel"), "scale");
  const llvm::json::Array &Lines = *K.getArray("lines");
  ASSERT_EQ(Lines.size(), 3u);
  const llvm::json::Object &L8 = *Lines[2].getAsObject();
  EXPECT_EQ(*L8.getString("file"), File);
  EXPECT_EQ(*L8.getInteger("line"), 8);
  EXPECT_EQ(*L8.getInteger("loads"), 2);
  EXPECT_EQ(*L8.getInteger("stores"), 2);
  EXPECT_EQ(*L8.getInteger("load_bytes"), 12);
  EXPECT_EQ(*L8.getInteger("store_bytes"), 8);
  EXPECT_EQ(*L8.getInteger("lines"), 4);
  EXPECT_EQ(*L8.getInteger("D1mr"), 1);
  EXPECT_EQ(*L8.getInteger("D1mw"), 0);
  EXPECT_EQ(L8.getArray("accesses")->size(), 2u);
  EXPECT_EQ(*K.getObject("no_line")->getInteger("loads"), 1);
  const llvm::json::Object &Chunk = *(*K.getArray("chunks"))[0].getAsObject();
  EXPECT_EQ(*Chunk.getInteger("first"), 7);
  EXPECT_EQ(*Chunk.getInteger("last"), 9);
  EXPECT_EQ(*(*Chunk.getArray("source"))[1].getAsString(), "  a[1] = b[0];");
  bool Said = false;
  for (const llvm::json::Value &F : *Root.getArray("files")) {
    const llvm::json::Object &O = *F.getAsObject();
    if (*O.getString("file") == File) {
      EXPECT_EQ(*O.getString("source"), "metadata");
      EXPECT_NE(O.getString("reason")->find("not found"),
                llvm::StringRef::npos);
      Said = true;
    }
  }
  EXPECT_TRUE(Said);
}

} // namespace
