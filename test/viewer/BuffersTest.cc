//===- BuffersTest.cc - Accesses by kernel parameter and source line -----===//
//
// With the rewriter's buffer parameters (BufferBase / BufferExtent values)
// and access sites, reports speak of "a", "b", "c" and of file:line.
//
//===----------------------------------------------------------------------===//

#include "CliRun.h"
#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/CacheTool.h"
#include "analyses/DiffReport.h"
#include "analyses/FootprintTool.h"
#include "analyses/SummaryTool.h"
#include "output/RecordTableTool.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <tuple>

#include <map>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

// simple_mul(wg, const float *a, const float *b, float *c, int n): three
// buffers 256 bytes apart (closer than any address-gap rule separates),
// a and b with extents, c a plain pointer.
constexpr uint64_t kA = 0x10000, kB = 0x10100, kC = 0x10200;

ExtensionSpec simpleMulExtension() {
  ExtensionSpec X;
  X.FunctionParams = {{{"a", "const float *", 1, 0, 4, true},
                       {"b", "const float *", 2, 0, 4, true},
                       {"c", "float *", 3, 0, 4, false}}};
  X.AccessSites = {{"simple_mul.cc", 7, 12, 0, "simple_mul", "a[i]"},
                   {"simple_mul.cc", 7, 19, 0, "simple_mul", "b[i]"},
                   {"simple_mul.cc", 7, 5, 1, "simple_mul", "c[i]"}};
  X.Untraced = {{"simple_mul.cc", 9, 3, "simple_mul", "M(c)",
                 "access inside a macro expansion"}};
  return X;
}

std::vector<uint8_t> simpleMul(unsigned Workgroups = 4) {
  ExtensionSpec X = simpleMulExtension();
  TraceBuilder B;
  B.metadata({{"simple_mul", {}, {}, {}}}, {0}, &X);
  RingBuilder R(1 << 16);
  for (uint32_t W = 0; W < Workgroups; ++W) {
    R.workgroup(0, {W, 0, 0}, {Workgroups, 1, 1}, W % 2);
    R.value(format::ValueType::BufferBase, 0, kA);
    R.value(format::ValueType::BufferExtent, 0, 256);
    R.value(format::ValueType::BufferBase, 1, kB);
    R.value(format::ValueType::BufferExtent, 1, 256);
    R.value(format::ValueType::BufferBase, 2, kC);
    for (uint32_t I = 0; I < 16; ++I) {
      const uint64_t At = 4 * (16 * W + I);
      R.load((kA + At) | format::accessSiteBits(1), 4);
      R.load((kB + At) | format::accessSiteBits(2), 4);
      R.store((kC + At) | format::accessSiteBits(3), 4);
    }
  }
  B.ring(R);
  return B.bytes();
}

TEST(Buffers, SummaryByBufferNamesTheParameters) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  SummaryTool Summary(OS, false, 64, GroupBy::Buffer);
  decodeWith(Summary, simpleMul());
  ASSERT_EQ(Summary.groups().size(), 3u) << Out;
  EXPECT_EQ(Summary.groups()[0].Label, "a");
  EXPECT_EQ(Summary.groups()[0].Counts.Loads, 64u);
  EXPECT_EQ(Summary.groups()[0].Counts.Lines, 4u);
  EXPECT_EQ(Summary.groups()[1].Label, "b");
  EXPECT_EQ(Summary.groups()[2].Label, "c");
  EXPECT_EQ(Summary.groups()[2].Counts.Stores, 64u);
  EXPECT_EQ(Summary.groups()[2].Counts.StoreBytes, 256u);
  EXPECT_NE(Out.find("by buffer"), std::string::npos);
  // The values that named the buffers are not the kernel's values.
  EXPECT_EQ(Summary.sites()[0].Totals.Values, 0u);
  // Untraced accesses are said.
  EXPECT_NE(Out.find("1 access in the source is not traced"), std::string::npos)
      << Out;
  EXPECT_NE(Out.find("simple_mul.cc:9:3: M(c) in simple_mul: access inside a "
                     "macro expansion"),
            std::string::npos)
      << Out;
}

TEST(Buffers, SummaryByLineJoinsTheSitesOfOneLine) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  SummaryTool Summary(OS, true, 64, GroupBy::Line);
  decodeWith(Summary, simpleMul());
  ASSERT_EQ(Summary.groups().size(), 1u);
  EXPECT_EQ(Summary.groups()[0].Label, "simple_mul.cc:7");
  EXPECT_EQ(Summary.groups()[0].Counts.Loads, 128u);
  EXPECT_EQ(Summary.groups()[0].Texts,
            (std::vector<std::string>{"a[i]", "b[i]", "c[i]"}));
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  EXPECT_EQ(*V->getAsObject()->getString("by"), "line");
  const llvm::json::Object *G =
      (*V->getAsObject()->getArray("groups"))[0].getAsObject();
  EXPECT_EQ(*G->getString("source"), "simple_mul.cc:7");
}

TEST(Buffers, FootprintSeparatesBuffersCloserThanAnyGap) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  FootprintTool Footprint(OS, false);
  decodeWith(Footprint, simpleMul());
  // No address clusters: every access is in a parameter.
  EXPECT_TRUE(Footprint.buffers().empty());
  const auto &W = Footprint.workgroups()[1];
  ASSERT_EQ(W.Buffers.size(), 3u) << Out;
  ASSERT_EQ(W.Streams.size(), 3u) << Out;
  for (const FootprintTool::Stream &S : W.Streams)
    EXPECT_EQ(S.Pattern.describe(), "contiguous") << Out;
  EXPECT_NE(Out.find("  a loads:  0x10040+64 (1 range, 64 bytes)"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("stream load  4 B b at simple_mul.cc:7 b[i]: 16 accesses"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("c (float * of simple_mul): 0x10200 (size not recorded)"),
            std::string::npos)
      << Out;
}

// A script reading the export wants each access's line and buffer
// without joining tables.
TEST(Buffers, ExportRowsNameSourceLineAndBuffer) {
  for (auto F :
       {RecordTableTool::Format::Csv, RecordTableTool::Format::JsonLines}) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    RecordTableTool Tool(OS, F);
    decodeWith(Tool, simpleMul(1));
    OS.flush();
    if (F == RecordTableTool::Format::Csv) {
      EXPECT_NE(Out.find(",atomic,beginning_lost,source,buffer,atomic_op\n"),
                std::string::npos);
      EXPECT_NE(Out.find(",65536,4,,,0,,0,,simple_mul.cc:7,a,none\n"),
                std::string::npos)
          << Out;
      EXPECT_NE(Out.find(",66048,4,,,0,,0,,simple_mul.cc:7,c,none\n"),
                std::string::npos)
          << Out;
    } else {
      EXPECT_NE(
          Out.find("\"address\":65536,\"length\":4,\"workgroup\":0,"
                   "\"file\":\"\",\"atomic\":false,\"atomic_op\":\"none\","
                   "\"source\":"
                   "\"simple_mul.cc:7\",\"buffer\":\"a\"}"),
          std::string::npos)
          << Out;
    }
  }
}

TEST(Buffers, CacheMissesByLineAndBuffer) {
  llvm::raw_null_ostream Null;
  CacheTool ByBuffer(Null, false, CacheGeometry{}, false, GroupBy::Buffer);
  decodeWith(ByBuffer, simpleMul());
  ASSERT_EQ(ByBuffer.groups().size(), 3u);
  uint64_t Misses = 0;
  for (const CacheTool::GroupCounts &G : ByBuffer.groups()) {
    // 256 bytes: four 64-byte lines
    EXPECT_EQ(G.C.Misses[0].Read + G.C.Misses[0].Write, 4u) << G.Label;
    Misses += G.C.Misses[0].Read + G.C.Misses[0].Write;
  }
  EXPECT_EQ(Misses, ByBuffer.totals().Misses[0].Read +
                        ByBuffer.totals().Misses[0].Write);
  CacheTool ByLine(Null, true, CacheGeometry{}, false, GroupBy::Line);
  decodeWith(ByLine, simpleMul());
  ASSERT_EQ(ByLine.groups().size(), 1u);
  EXPECT_EQ(ByLine.groups()[0].C.Misses[0].Read +
                ByLine.groups()[0].C.Misses[0].Write,
            12u);
}

TEST(Buffers, PointerWithoutExtentEndsAtTheNextParameter) {
  // c is last: it reaches up to 64 GiB, not the whole address space; an
  // access far beyond (a stack address) is in no buffer.
  ExtensionSpec X = simpleMulExtension();
  TraceBuilder B;
  B.metadata({{"simple_mul", {}, {}, {}}}, {0}, &X);
  RingBuilder R(4096);
  R.workgroup(0, {0, 0, 0}, {1, 1, 1});
  R.value(format::ValueType::BufferBase, 0, kA);
  R.value(format::ValueType::BufferBase, 2, kC);
  R.load(kA + 0x100, 4); // past a's missing extent, below c: still a
  R.load(0x7FFF00000000, 4);
  B.ring(R);
  SummaryTool Summary(llvm::nulls(), false, 64, GroupBy::Buffer);
  decodeWith(Summary, B.bytes());
  ASSERT_EQ(Summary.groups().size(), 2u)
      << Summary.groups()[0].Label << " " << Summary.groups()[0].Counts.Loads;
  EXPECT_EQ(Summary.groups()[0].Label, "(no buffer)");
  EXPECT_EQ(Summary.groups()[1].Label, "a");
}

/// Workgroup W reads 64 floats of b: down a column of a 256-float-wide
/// matrix (every load a new cache line), or along a row once tiled. With
/// \p Stores each workgroup also writes a's element W and, straddling two
/// lines, 8 bytes of b that no load reads (0x8000 + 60 + 64 W: write
/// misses at every level).
std::vector<uint8_t> readsOfB(bool Tiled, bool Stores = false) {
  ExtensionSpec X;
  const char *Type = Stores ? "float *" : "const float *";
  X.FunctionParams = {
      {{"a", Type, 1, 0, 4, !Stores}, {"b", Type, 2, 0, 4, !Stores}}};
  X.AccessSites = {{"mm.cc", 12, 9, 0, "mm", "a[k]"},
                   {"mm.cc", 13, 9, 0, "mm", "b[k * n + j]"}};
  if (Stores)
    X.AccessSites.push_back({"mm.cc", 15, 5, 1, "mm", "a[w] = s"});
  TraceBuilder B;
  B.metadata({{"mm", {}, {}, {}}}, {0}, &X);
  RingBuilder R(1 << 16);
  constexpr uint64_t A = 0x100000, Bm = 0x200000;
  for (uint32_t W = 0; W < 4; ++W) {
    R.workgroup(0, {W, 0, 0}, {4, 1, 1});
    R.value(format::ValueType::BufferBase, 0, A);
    R.value(format::ValueType::BufferExtent, 0, 1024);
    R.value(format::ValueType::BufferBase, 1, Bm);
    R.value(format::ValueType::BufferExtent, 1, 256 * 256 * 4);
    for (uint32_t K = 0; K < 64; ++K) {
      R.load((A + 4 * K) | format::accessSiteBits(1), 4);
      const uint64_t Offset = Tiled ? 4 * (64 * W + K) : 4 * (256 * K + W);
      R.load((Bm + Offset) | format::accessSiteBits(2), 4);
    }
    if (Stores) {
      R.store((A + 4 * W) | format::accessSiteBits(3), 4);
      R.store(Bm + 0x8000 + 60 + 64 * W, 8);
    }
  }
  B.ring(R);
  return B.bytes();
}

TEST(Diff, TilingReducesMissesOnB) {
  std::vector<uint8_t> Before = readsOfB(false), After = readsOfB(true);
  const std::vector<CacheLevel> Levels = {{"D1", CacheGeometry()}};
  ProfileTool PB(Levels), PA(Levels);
  decodeWith(PB, Before);
  decodeWith(PA, After);
  const auto &BufB = PB.measures(ProfileTool::Buffer);
  const auto &BufA = PA.measures(ProfileTool::Buffer);
  ASSERT_TRUE(BufB.count("b") && BufA.count("b"));
  EXPECT_EQ(BufB.at("b").Accesses, 256u);
  EXPECT_EQ(BufA.at("b").Accesses, 256u);
  // 64 rows; the four workgroups' columns of a row share its line.
  EXPECT_EQ(BufB.at("b").Lines, 64u);
  EXPECT_EQ(BufA.at("b").Lines, 16u);
  // Reads only: D1's read misses.
  EXPECT_GT(BufB.at("b").Misses[0], BufA.at("b").Misses[0]);
  EXPECT_EQ(BufB.at("b").Misses[1], 0u);
  // a is read the same way in both (the column walk evicts some of it).
  EXPECT_EQ(BufB.at("a").Accesses, BufA.at("a").Accesses);
  EXPECT_TRUE(PA.measures(ProfileTool::Line).count("mm.cc:13"));

  std::string Text, Json;
  llvm::raw_string_ostream TS(Text), JS(Json);
  TraceCensus Empty;
  printDiff(TS, false, Levels, "", {"before.bin", &PB, &Empty},
            {"after.bin", &PA, &Empty});
  printDiff(JS, true, Levels, "", {"before.bin", &PB, &Empty},
            {"after.bin", &PA, &Empty});
  EXPECT_NE(Text.find("  b                        = 256"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("64 -> 16 (-75.0%)"), std::string::npos) << Text;
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError());
  bool Found = false;
  for (const llvm::json::Value &Row : *V->getAsObject()->getArray("buffers")) {
    const llvm::json::Object *O = Row.getAsObject();
    if (O->getString("buffer") != llvm::StringRef("b"))
      continue;
    Found = true;
    EXPECT_LT(*O->getObject("change")->getInteger("D1mr"), 0);
  }
  EXPECT_TRUE(Found);
}

TEST(Diff, CommandLine) {
  std::string Before = writeTrace("before.bin", readsOfB(false));
  std::string After = writeTrace("after.bin", readsOfB(true));
  ViewRun R = view("diff " + Before + " " + After);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("\nbuffers\n"), std::string::npos) << R.Out;
  R = view("diff --json --buffer-is-not-an-option " + Before + " " + After);
  EXPECT_EQ(R.Status, 1);
  R = view("diff " + Before);
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Err.find("diff takes two trace files"), std::string::npos);
  R = view("diff " + Before + " " + writeTrace("empty.bin", {}));
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("empty.bin: the file is empty"), std::string::npos)
      << R.Err;
  // diff models cache's hierarchy: the single-level options are gone.
  R = view("diff --level l2 " + Before + " " + After);
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Err.find("diff --level is gone"), std::string::npos) << R.Err;
}

// diff's misses, per level, read and write apart, are cache's: of a trace
// against itself and against another, per kernel (the totals), per buffer
// and per source line, shared and --cold, with levels small enough that
// each misses.
TEST(Diff, PerLevelMissesAreCaches) {
  std::string Before =
      writeTrace("levels-before.bin", readsOfB(false, /*Stores=*/true));
  std::string After =
      writeTrace("levels-after.bin", readsOfB(true, /*Stores=*/true));
  const std::string Levels = " --l1 1k,2,64 --l2 2k,2,64 --ll 4k,4,64 ";
  const char *const Names[] = {"D1mr", "D1mw", "L2mr", "L2mw", "LLmr", "LLmw"};
  auto Parse = [](const std::string &Out) {
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(Out);
    EXPECT_TRUE(bool(V)) << llvm::toString(V.takeError()) << Out;
    return V ? *V->getAsObject() : llvm::json::Object();
  };
  // cache --by G's rows, by their label.
  auto CacheRows = [&](const std::string &Path, const char *By, const char *Key,
                       const std::string &Extra) {
    ViewRun R =
        view("cache --json --by " + std::string(By) + Levels + Extra + Path);
    EXPECT_EQ(R.Status, 0) << R.Err;
    std::map<std::string, llvm::json::Object> Rows;
    llvm::json::Object Report = Parse(R.Out);
    for (const llvm::json::Value &G : *Report.getArray("groups"))
      Rows[G.getAsObject()->getString(Key)->str()] = *G.getAsObject();
    return Rows;
  };
  for (const std::string Extra : {"", "--cold "}) {
    for (const auto &[One, Other] :
         {std::pair(Before, Before), std::pair(Before, After)}) {
      ViewRun R = view("diff --json" + Levels + Extra + One + " " + Other);
      ASSERT_EQ(R.Status, 0) << R.Err;
      llvm::json::Object Diff = Parse(R.Out);
      EXPECT_EQ(Diff.getArray("levels")->size(), 3u);
      const std::tuple<const char *, const char *, const char *> Sections[] = {
          {"kernels", "kernel", "kernel"},
          {"buffers", "buffer", "buffer"},
          {"lines", "line", "source"}};
      for (const auto &[Section, DiffKey, CacheKey] : Sections) {
        std::map<std::string, llvm::json::Object> B =
            CacheRows(One, DiffKey, CacheKey, Extra);
        std::map<std::string, llvm::json::Object> A =
            CacheRows(Other, DiffKey, CacheKey, Extra);
        const llvm::json::Array &Rows = *Diff.getArray(Section);
        EXPECT_EQ(Rows.size(), std::max(B.size(), A.size())) << Section;
        uint64_t Misses = 0;
        for (const llvm::json::Value &Row : Rows) {
          const llvm::json::Object &O = *Row.getAsObject();
          std::string Key = O.getString(DiffKey)->str();
          for (const char *N : Names) {
            EXPECT_EQ(O.getObject("before")->getInteger(N),
                      B[Key].getInteger(N))
                << Extra << Section << " " << Key << " " << N;
            EXPECT_EQ(O.getObject("after")->getInteger(N), A[Key].getInteger(N))
                << Extra << Section << " " << Key << " " << N;
            Misses += *O.getObject("after")->getInteger(N);
          }
        }
        // Every level misses: the comparison compared something.
        EXPECT_GT(Misses, 0u) << Section;
      }
    }
  }
  // Reads and writes apart: both kinds miss.
  ViewRun R = view("diff --json" + Levels + Before + " " + After);
  llvm::json::Object Diff = Parse(R.Out);
  for (const llvm::json::Value &Row : *Diff.getArray("kernels")) {
    const llvm::json::Object &After = *Row.getAsObject()->getObject("after");
    EXPECT_GT(*After.getInteger("D1mr"), 0);
    EXPECT_GT(*After.getInteger("LLmw"), 0);
  }
}

} // namespace
