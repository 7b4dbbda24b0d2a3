//===- HtmlTest.cc - `html`: the page's data, and the page in Chromium ----===//

#include "CliRun.h"
#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/CacheTool.h"
#include "analyses/LineReuseTool.h"
#include "output/HtmlReportTool.h"
#include "reader/TraceReader.h"
#include "support/ScratchDirectory.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

std::string html(const std::vector<uint8_t> &Bytes, uint64_t MaxPoints,
                 const std::string &Title = "trace.bin") {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  HtmlReportTool Tool(OS, Title, MaxPoints);
  decodeWith(Tool, Bytes);
  OS.flush();
  return Out;
}

/// The JSON between <script type="application/json" id="data"> and
/// </script>.
llvm::json::Value embedded(const std::string &Page) {
  const std::string Open = "<script type=\"application/json\" id=\"data\">";
  size_t Begin = Page.find(Open);
  EXPECT_NE(Begin, std::string::npos);
  Begin += Open.size();
  size_t End = Page.find("</script>", Begin);
  llvm::Expected<llvm::json::Value> V =
      llvm::json::parse(Page.substr(Begin, End - Begin));
  EXPECT_TRUE(bool(V)) << llvm::toString(V.takeError());
  return V ? std::move(*V) : llvm::json::Value(nullptr);
}

/// C = A x B, 32 x 32 floats, 8 x 8 tiles (a 4 x 4 grid) on two
/// processors: each workgroup reads its panels of A and B and writes its
/// tile of C. 16 workgroups x (2 x 8 x 32 loads + 64 stores) = 9216
/// accesses.
std::vector<uint8_t> matmulTrace() {
  const uint64_t A = 0x7f0000010000, B = 0x7f0000020000, C = 0x7f0000030000;
  RingBuilder W0(1 << 20), W1(1 << 20);
  for (uint32_t T = 0; T < 16; ++T) {
    uint32_t Tx = T % 4, Ty = T / 4;
    RingBuilder &R = T % 2 ? W1 : W0;
    R.workgroup(0, {Tx, Ty, 0}, {4, 4, 1}, T % 2);
    for (uint32_t I = 0; I < 8; ++I)
      for (uint32_t K = 0; K < 32; ++K) {
        R.load(A + 128 * (8 * Ty + I) + 4 * K, 4);
        R.load(B + 128 * K + 4 * (8 * Tx + I), 4);
      }
    for (uint32_t I = 0; I < 8; ++I)
      for (uint32_t J = 0; J < 8; ++J)
        R.store(C + 128 * (8 * Ty + I) + 4 * (8 * Tx + J), 4);
  }
  TraceBuilder Builder;
  addSimpleMetadata(Builder).ring(W0).ring(W1);
  return Builder.bytes();
}

TEST(Html, EmbedsListingWorkgroupsAndPoints) {
  std::string Page = html(matmulTrace(), HtmlReportTool::DefaultMaxPoints);
  EXPECT_EQ(Page.rfind("<!DOCTYPE html>", 0), 0u);
  // Self-contained: no external resources.
  EXPECT_EQ(Page.find("src="), std::string::npos);
  EXPECT_EQ(Page.find("http"), std::string::npos);
  llvm::json::Value V = embedded(Page);
  const llvm::json::Object *D = V.getAsObject();
  ASSERT_TRUE(D);
  EXPECT_EQ(D->getInteger("total_accesses"), 9216);
  EXPECT_EQ(D->getInteger("shown"), 9216);
  EXPECT_EQ(D->get("grid"), nullptr);
  // Two processors: two lanes, each beginning a launch at its first record.
  ASSERT_EQ(D->getArray("lanes")->size(), 2u);
  EXPECT_EQ(D->getArray("launches")->size(), 2u);
  // Three plots, inline SVG.
  EXPECT_EQ(llvm::StringRef(Page).count("<figure class=\"plot\"><svg "), 3u);
  EXPECT_EQ(D->getArray("workgroups")->size(), 16u);
  EXPECT_EQ(D->getArray("segments")->size(), 3u);
  const llvm::json::Array *Seg0 = (*D->getArray("segments"))[0].getAsArray();
  EXPECT_EQ((*Seg0)[0].getAsString(), "7f0000010000");
  EXPECT_EQ((*Seg0)[1].getAsInteger(), 4096);
  const llvm::json::Object *Site = (*D->getArray("sites"))[0].getAsObject();
  EXPECT_EQ(Site->getString("function"), "simple_mul");
  EXPECT_EQ(Site->getInteger("workgroups"), 16);
  EXPECT_EQ(Site->getInteger("stores"), 16 * 64);
  // The first point: record 1 of lane 0 (after the WORKGROUP record),
  // segment 0, offset 0, a 4-byte load (4 * 2 + 0), workgroup 0.
  const llvm::json::Object *P = D->getObject("points");
  EXPECT_EQ((*P->getArray("n"))[0].getAsInteger(), 0);
  EXPECT_EQ((*P->getArray("x"))[0].getAsInteger(), 1);
  EXPECT_EQ((*P->getArray("s"))[0].getAsInteger(), 0);
  EXPECT_EQ((*P->getArray("l"))[0].getAsInteger(), 8);
  EXPECT_EQ((*P->getArray("l")).back().getAsInteger(), 9); // a store
}

/// Kernel `sum` on three processors whose rings come 2, 0, 1: each
/// workgroup loads its 4 floats of `in` (line 7) and adds them to `*total`
/// (line 9: a load and a store, racing with every other workgroup).
std::vector<uint8_t> racingSum() {
  ExtensionSpec X;
  X.FunctionParams = {{{"in", "const float *", 1, 0, 4, true},
                       {"total", "float *", 2, 0, 4, false}}};
  X.SiteLocations = {{"sum.cc", 20}};
  X.AccessSites = {{"sum.cc", 9, 5, 2, "sum", "*total += s"},
                   {"sum.cc", 7, 12, 0, "sum", "in[i]"}};
  TraceBuilder B;
  B.metadata({{"sum", {}, {}, {}}}, {0}, &X);
  uint32_t W = 0;
  for (uint32_t Processor : {2u, 0u, 1u}) {
    RingBuilder Ring(1 << 16, /*Fill=*/0);
    for (uint32_t I = 0; I < 3; ++I, ++W) {
      Ring.workgroup(0, {W, 0, 0}, {9, 1, 1}, Processor);
      Ring.value(format::ValueType::BufferBase, 0, 0x10000);
      Ring.value(format::ValueType::BufferExtent, 0, 4096);
      Ring.value(format::ValueType::BufferBase, 1, 0x20000);
      for (uint32_t K = 0; K < 4 + W; ++K)
        Ring.load((0x10000 + 256 * W + 4 * K) | format::accessSiteBits(2), 4);
      Ring.load(0x20000 | format::accessSiteBits(1), 4);
      Ring.store(0x20000 | format::accessSiteBits(1), 4);
    }
    B.ring(Ring);
  }
  return B.bytes();
}

llvm::json::Object jsonOf(const std::string &Out) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Out);
  EXPECT_TRUE(bool(V)) << llvm::toString(V.takeError()) << Out;
  return V && V->getAsObject() ? *V->getAsObject() : llvm::json::Object();
}

// Every number on the page is the command line's, from all records: the
// sites and workgroups `summary`'s, the races `races`', the misses per
// line `annotate`'s (with the same levels); lanes in processor order;
// numbers without exponents.
TEST(Html, EveryNumberIsTheCommandLines) {
  const std::string Trace = writeTrace("racing-sum.bin", racingSum());
  const std::string Page = tempPath("racing-sum.html");
  const std::string Levels = " --l1 1k,2,64 --l2 none --ll 4k,4,64 ";
  ViewRun R = view("html" + Levels + Trace + " -o " + Page);
  ASSERT_EQ(R.Status, 0) << R.Err;
  const std::string Text = slurp(Page);
  llvm::json::Value V = embedded(Text);
  const llvm::json::Object &D = *V.getAsObject();

  // Lanes 0, 1, 2 (the rings came 2, 0, 1).
  std::vector<int64_t> Lanes;
  for (const llvm::json::Value &L : *D.getArray("lanes"))
    Lanes.push_back(*(*L.getAsArray())[0].getAsInteger());
  EXPECT_EQ(Lanes, (std::vector<int64_t>{0, 1, 2}));

  // Sites and workgroups: summary's.
  llvm::json::Object Summary = jsonOf(view("summary --json " + Trace).Out);
  const llvm::json::Object &Site =
      *(*Summary.getArray("sites"))[0].getAsObject();
  const llvm::json::Object &PageSite = *(*D.getArray("sites"))[0].getAsObject();
  for (const char *Field : {"workgroups", "loads", "stores"})
    EXPECT_EQ(PageSite.getInteger(Field),
              Site.getObject("totals")->getInteger(Field))
        << Field;
  std::map<int64_t, std::array<int64_t, 4>> Cli, Shown;
  for (const llvm::json::Value &W : *Site.getArray("workgroups")) {
    const llvm::json::Object &O = *W.getAsObject();
    Cli[*(*O.getArray("id"))[0].getAsInteger()] = {
        *O.getInteger("loads"), *O.getInteger("stores"),
        *O.getInteger("load_bytes"), *O.getInteger("store_bytes")};
  }
  for (const llvm::json::Value &W : *D.getArray("workgroups")) {
    const llvm::json::Array &A = *W.getAsArray();
    Shown[*A[1].getAsInteger()] = {*A[5].getAsInteger(), *A[6].getAsInteger(),
                                   *A[7].getAsInteger(), *A[8].getAsInteger()};
  }
  EXPECT_EQ(Shown, Cli);

  // Races: races' counts and its groups, each with both source lines.
  llvm::json::Object Races = jsonOf(view("races --json " + Trace).Out);
  const int64_t Groups = *Races.getInteger("groups");
  EXPECT_NE(Text.find(fmt::format(
                "{} racing workgroup pairs in {} group{} of racing accesses",
                *Races.getInteger("races"), Groups, Groups == 1 ? "" : "s")),
            std::string::npos);
  EXPECT_EQ(*Races.getInteger("races"), 36); // 9 workgroups, every two
  size_t Begin = Text.find("<table id=\"races\">");
  ASSERT_NE(Begin, std::string::npos);
  const std::string Table =
      Text.substr(Begin, Text.find("</table>", Begin) - Begin);
  const llvm::json::Array &Listed = *Races.getArray("listed");
  EXPECT_EQ(llvm::StringRef(Table).count("<tr><td"), Listed.size());
  for (const llvm::json::Value &G : Listed) {
    const llvm::json::Object &O = *G.getAsObject();
    std::string A = O.getObject("a")->getString("source")->str();
    std::string B = O.getObject("b")->getString("source")->str();
    EXPECT_NE(Table.find(fmt::format(
                  "<td>{}</td><td>{}</td><td class=\"l\">total</td><td "
                  "class=\"l\"><code>{}</code></td><td "
                  "class=\"l\"><code>{}</code></td>",
                  *O.getInteger("pairs"), *O.getInteger("overlap_bytes"),
                  htmlEscape(A), htmlEscape(B))),
              std::string::npos)
        << Table;
  }

  // Misses per line: annotate's, level by level.
  llvm::json::Object Annotate =
      jsonOf(view("annotate --json" + Levels + Trace).Out);
  size_t Rows = 0;
  for (const llvm::json::Value &K : *Annotate.getArray("kernels"))
    for (const llvm::json::Value &L : *K.getAsObject()->getArray("lines")) {
      const llvm::json::Object &O = *L.getAsObject();
      std::string Row = fmt::format(
          "<tr><td class=\"l\">sum</td><td class=\"l\">{}:{}</td><td>{}</td>"
          "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
          O.getString("file")->str(), *O.getInteger("line"),
          *O.getInteger("loads"), *O.getInteger("stores"),
          *O.getInteger("D1mr"), *O.getInteger("D1mw"), *O.getInteger("LLmr"),
          *O.getInteger("LLmw"));
      EXPECT_NE(Text.find(Row), std::string::npos) << Row;
      ++Rows;
    }
  EXPECT_EQ(Rows, 2u);
  // Both lines annotated, the hotter (line 7) first.
  EXPECT_LT(Text.find("<b>sum.cc:7</b>"), Text.find("<b>sum.cc:9</b>"));

  // No number in exponent notation on the page's axes.
  EXPECT_EQ(Text.find("e+"), std::string::npos);
  EXPECT_EQ(readableNumber(229400), "229k");
  EXPECT_EQ(readableNumber(1.2e6), "1.2M");
  EXPECT_EQ(readableNumber(950), "950");
  EXPECT_EQ(readableNumber(999999), "1M");
}

// The page's statistics are `cache`'s: every line access counted (a
// sample of one line in 16, scaled, once gave distance 0 for what `cache`
// counted at distance 1 and nothing from 1 to 15).
TEST(Html, ReuseDistancesAreTheCacheToolsExactly) {
  std::vector<uint8_t> Bytes = matmulTrace();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  HtmlReportTool Html(OS, "trace.bin", HtmlReportTool::DefaultMaxPoints);
  decodeWith(Html, Bytes);
  std::string Report;
  llvm::raw_string_ostream ReportOS(Report);
  CacheTool Cache(ReportOS, /*Json=*/false, CacheGeometry{}, /*Cold=*/false);
  decodeWith(Cache, Bytes);
  EXPECT_EQ(Html.reuseHistogram(), Cache.histogram());
  EXPECT_EQ(Html.coldLineAccesses(), Cache.coldAccesses());
  uint64_t Counted = Html.coldLineAccesses();
  for (uint64_t V : Html.reuseHistogram())
    Counted += V;
  EXPECT_EQ(Counted, Cache.lineAccesses());
  // Distances 1 to 15 are there: a panel of B is reread after one line of
  // A, and rows of A after a few lines.
  EXPECT_GT(Html.reuseHistogram()[1] + Html.reuseHistogram()[2] +
                Html.reuseHistogram()[3] + Html.reuseHistogram()[4],
            0u);
  uint64_t WorkingLines = 0;
  for (uint64_t V : Html.workingSet())
    WorkingLines += V;
  EXPECT_GT(WorkingLines, 0u);
}

// wgtrace-view html counts the reuse distances in the thread that reads
// the file for the races and per-line sections: the page is the one the
// report makes when it counts them itself, and so is the aggregated one.
TEST(Html, ReuseDistancesCountedElsewhereMakeTheSamePage) {
  std::vector<uint8_t> Bytes = matmulTrace();
  for (uint64_t MaxPoints :
       {HtmlReportTool::DefaultMaxPoints, uint64_t(1000)}) {
    LineReuseTool Reuse;
    decodeWith(Reuse, Bytes);
    EXPECT_EQ(Reuse.histogram().lineAccesses(), 9216u);
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    HtmlReportTool Html(OS, "trace.bin", MaxPoints);
    Html.attach(nullptr, nullptr, &Reuse);
    decodeWith(Html, Bytes);
    OS.flush();
    EXPECT_EQ(Out, html(Bytes, MaxPoints)) << MaxPoints;
  }
}

TEST(Html, AggregatesEveryAccessAboveMaxPoints) {
  std::string Page = html(matmulTrace(), 1000);
  llvm::json::Value V = embedded(Page);
  const llvm::json::Object *D = V.getAsObject();
  EXPECT_EQ(D->getInteger("shown"), 0);
  const llvm::json::Object *G = D->getObject("grid");
  ASSERT_TRUE(G);
  int64_t Counted = 0;
  for (const char *Column : {"loads", "stores"})
    for (const llvm::json::Value &N : *G->getArray(Column))
      Counted += *N.getAsInteger();
  EXPECT_EQ(Counted, 9216);
  EXPECT_NE(Page.find("Aggregated: all "), std::string::npos);
}

/// A kernel whose accesses cycle through 30: 29 to buffer "a" (walked
/// with a stride that a 1-in-30 sample would always miss or always hit),
/// one to buffer "rare"; with parameter names from the rewriter.
std::vector<uint8_t> rareBufferTrace() {
  ExtensionSpec X;
  X.WithAccessSites = false;
  X.FunctionParams = {{{"a", "const float *", 1, 0, 4, true},
                       {"rare", "float *", 2, 0, 4, true}}};
  TraceBuilder B;
  B.metadata({{"k", {}, {}, {}}}, {0}, &X);
  RingBuilder R(1 << 20);
  const uint64_t A = 0x100000, Rare = 0x100000 + 64 * 1024;
  for (uint32_t W = 0; W < 8; ++W) {
    R.workgroup(0, {W, 0, 0}, {8, 1, 1});
    R.value(format::ValueType::BufferBase, 0, A);
    R.value(format::ValueType::BufferExtent, 0, 64 * 1024);
    R.value(format::ValueType::BufferBase, 1, Rare);
    R.value(format::ValueType::BufferExtent, 1, 4096);
    for (uint32_t I = 0; I < 600; ++I) {
      if (I % 30 == 29)
        R.store(Rare + 4 * (I / 30) + 128 * W, 4);
      else
        R.load(A + 4 * ((I * 37 + W * 600) % 16384), 4);
    }
  }
  B.ring(R);
  return B.bytes();
}

TEST(Html, BufferTouchedByOneAccessInThirtyStillAppears) {
  // 4800 accesses, at most 160 embedded one by one: aggregated, and the
  // rare buffer has cells of its own, labelled with its name.
  std::string Page = html(rareBufferTrace(), 160);
  llvm::json::Value V = embedded(Page);
  const llvm::json::Object *D = V.getAsObject();
  const llvm::json::Object *G = D->getObject("grid");
  ASSERT_TRUE(G);
  double Y = -1, Size = 0, Span = *D->getNumber("yspan");
  for (const llvm::json::Value &S : *D->getArray("segments")) {
    const llvm::json::Array &Seg = *S.getAsArray();
    if (Seg[2].getAsString() == llvm::StringRef("rare")) {
      Y = *Seg[3].getAsNumber();
      Size = double(*Seg[1].getAsInteger());
    }
  }
  ASSERT_GE(Y, 0) << "no segment labelled rare";
  int64_t RareStores = 0;
  const llvm::json::Array &Rows = *G->getArray("r");
  const int64_t NumRows = *G->getInteger("rows");
  for (size_t I = 0; I < Rows.size(); ++I) {
    double Lo = double(*Rows[I].getAsInteger()) * Span / double(NumRows);
    double Hi = Lo + Span / double(NumRows);
    if (Hi > Y && Lo < Y + Size)
      RareStores += *(*G->getArray("stores"))[I].getAsInteger();
  }
  EXPECT_EQ(RareStores, 8 * 20);
}

/// The error line that wgtrace-view printed last on standard error, as
/// the page shows it: without the program's name, HTML-escaped.
std::string damageLineInPage(const std::string &Err) {
  const std::string Prefix = "wgtrace-view: error: ";
  size_t At = Err.rfind(Prefix);
  EXPECT_NE(At, std::string::npos) << Err;
  if (At == std::string::npos)
    return "(no error line)";
  At += Prefix.size() - std::string("error: ").size();
  return htmlEscape(Err.substr(At, Err.find('\n', At) - At));
}

/// The workgroup ids ("x,y,z") of the page's data, in its order.
std::vector<std::string> pageWorkgroups(const std::string &Page) {
  std::vector<std::string> Ids;
  // No page (it was not written): no workgroups, not an exception.
  if (Page.find("id=\"data\">") == std::string::npos)
    return Ids;
  llvm::json::Value V = embedded(Page);
  const llvm::json::Array *Rows =
      V.getAsObject() ? V.getAsObject()->getArray("workgroups") : nullptr;
  if (!Rows)
    return Ids;
  for (const llvm::json::Value &W : *Rows)
    Ids.push_back(fmt::format("{},{},{}", *(*W.getAsArray())[1].getAsInteger(),
                              *(*W.getAsArray())[2].getAsInteger(),
                              *(*W.getAsArray())[3].getAsInteger()));
  return Ids;
}

/// Where runRecordTrace()'s ring chunk begins: after its metadata chunk.
uint64_t ringChunkOf(const std::vector<uint8_t> &Bytes) {
  format::ChunkHeader H;
  std::memcpy(&H, Bytes.data(), sizeof(H));
  return format::nextChunkOffset(0, H.ContentLength);
}

// A trace cut inside a ring chunk (a copy interrupted, a full disk): the
// page is written from what decoded, the workgroups summary shows, with the
// error line's message at its top; standard error and the exit status are
// summary's.
TEST(Html, CutTraceWritesThePageOfWhatDecoded) {
  const format::RunRecord Record = endedRun(format::RunEnd::Exit, 0, 0);
  std::vector<uint8_t> Bytes = runRecordTrace(&Record);
  const uint64_t RingAt = ringChunkOf(Bytes);
  // Records at ring offsets 0 (workgroup 0,0,0), 32, 48 (workgroup 1,0,0)
  // and 80: cut inside the second workgroup record.
  Bytes.resize(RingAt + format::kChunkHeaderSize + 60);
  const std::string Path = writeTrace("cut.bin", Bytes);
  ViewRun Summary = view("summary " + Path);
  ASSERT_EQ(Summary.Status, 2) << Summary.Err;
  ASSERT_NE(Summary.Out.find("0,0,0"), std::string::npos) << Summary.Out;
  ASSERT_EQ(Summary.Out.find("1,0,0"), std::string::npos) << Summary.Out;

  const std::string Page = tempPath("cut.html");
  std::ofstream(Page) << "previous";
  ViewRun R = view("html " + Path + " -o " + Page);
  EXPECT_EQ(R.Status, Summary.Status);
  EXPECT_EQ(R.Err, Summary.Err);
  EXPECT_NE(R.Err.find(fmt::format(
                ": offset {:#x}: chunk 1 (ring): truncated: content_length",
                RingAt + 8)),
            std::string::npos)
      << R.Err;
  const std::string Text = wgtrace::testing::slurp(Page);
  ASSERT_NE(Text, "previous");
  // Whole: the temporary file was renamed when complete.
  EXPECT_EQ(Text.substr(Text.size() - 8), "</html>\n");
  EXPECT_NE(Text.find("<div id=\"damage\""), std::string::npos);
  EXPECT_NE(Text.find(damageLineInPage(R.Err)), std::string::npos);
  EXPECT_EQ(pageWorkgroups(Text), std::vector<std::string>{"0,0,0"});
}

// A flipped byte in the header of a ring chunk between two others: the
// page has the first ring's workgroup and says where the damage is, from a
// file, from standard input and to standard output alike.
TEST(Html, DamagedChunkHeaderInTheMiddle) {
  TraceBuilder B;
  addSimpleMetadata(B);
  for (uint32_t I = 0; I < 3; ++I) {
    RingBuilder Ring(4096);
    Ring.workgroup(0, {I, 0, 0}, {3, 1, 1}, I);
    Ring.load(0x1000 + 64 * uint64_t(I), 4);
    B.ring(Ring);
  }
  std::vector<uint8_t> Bytes = B.bytes();
  Bytes[B.chunkOffset(2) + 1] ^= 0xFF;
  const std::string Path = writeTrace("flipped.bin", Bytes);
  ViewRun Summary = view("summary " + Path);
  ASSERT_EQ(Summary.Status, 2);
  const std::string Where = fmt::format(
      ": offset {:#x}: chunk 2 (unknown): bad magic", B.chunkOffset(2));
  ASSERT_NE(Summary.Err.find(Where), std::string::npos) << Summary.Err;

  const std::string Page = tempPath("flipped.html");
  ViewRun R = view("html " + Path + " -o " + Page);
  EXPECT_EQ(R.Status, 2);
  EXPECT_EQ(R.Err, Summary.Err);
  std::string Text = wgtrace::testing::slurp(Page);
  EXPECT_NE(Text.find(damageLineInPage(R.Err)), std::string::npos) << Text;
  EXPECT_EQ(pageWorkgroups(Text), std::vector<std::string>{"0,0,0"});

  // Through a pipe: the page names the file as the error line does ("-").
  R = view("html - -o " + Page, Path);
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("error: -" + Where), std::string::npos) << R.Err;
  Text = wgtrace::testing::slurp(Page);
  EXPECT_NE(Text.find(damageLineInPage(R.Err)), std::string::npos);
  EXPECT_EQ(pageWorkgroups(Text), std::vector<std::string>{"0,0,0"});
  R = view("html " + Path);
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Out.find(damageLineInPage(R.Err)), std::string::npos);
  EXPECT_EQ(pageWorkgroups(R.Out), std::vector<std::string>{"0,0,0"});
}

// Where nothing decodes there is nothing to analyse, as for summary and
// the others: no page, the previous file stays, exit status 2.
TEST(Html, NothingDecodedWritesNoPage) {
  const std::vector<uint8_t> Whole = runRecordTrace(nullptr);
  const std::vector<uint8_t> HeaderOnly(
      Whole.begin(), Whole.begin() + format::kChunkHeaderSize);
  for (const std::vector<uint8_t> &Bytes :
       {std::vector<uint8_t>{}, HeaderOnly}) {
    const std::string Path = writeTrace("nothing.bin", Bytes);
    const std::string Page = tempPath("nothing.html");
    std::ofstream(Page) << "previous";
    ViewRun R = view("html " + Path + " -o " + Page);
    EXPECT_EQ(R.Status, 2);
    EXPECT_NE(R.Err.find("wgtrace-view: error: " + Path + ": "),
              std::string::npos)
        << R.Err;
    EXPECT_NE(R.Err.find("note: " + Page + ": not written\n"),
              std::string::npos)
        << R.Err;
    EXPECT_EQ(wgtrace::testing::slurp(Page), "previous");
  }
}

// A compressed ring chunk whose frame is damaged is skipped and the chunks
// after it are read: the page has the other rings' workgroups and the
// damaged chunk's line (a build without zstd writes no compressed trace).
TEST(Html, DamagedCompressedChunkLosesOnlyItsWorkgroups) {
  TraceBuilder B;
  addSimpleMetadata(B);
  for (uint32_t I = 0; I < 3; ++I) {
    RingBuilder Ring(16384, 0);
    Ring.workgroup(0, {I, 0, 0}, {3, 1, 1}, I);
    for (uint64_t L = 0; L < 300; ++L)
      Ring.load(0x10000 + 0x1000 * uint64_t(I) + 4 * L, 4);
    B.ring(Ring);
  }
  const std::string Raw = writeTrace("zraw.bin", B.bytes());
  const std::string Zst = tempPath("z.bin");
  if (view("compress " + Raw + " " + Zst).Status != 0)
    GTEST_SKIP() << "no compressed traces in this build";
  const std::string Compressed = wgtrace::testing::slurp(Zst);
  std::vector<uint8_t> Bytes(Compressed.begin(), Compressed.end());
  // Chunks: metadata, then the three rings compressed; a byte in the middle
  // of the second ring's frame.
  uint64_t At = 0;
  for (int Chunk = 0; Chunk < 2; ++Chunk) {
    format::ChunkHeader H;
    std::memcpy(&H, Bytes.data() + At, sizeof(H));
    At = format::nextChunkOffset(At, H.ContentLength);
  }
  Bytes[At + 16 + 32 + 20] ^= 0x10;
  const std::string Path = writeTrace("zdamaged.bin", Bytes);
  ViewRun Summary = view("summary " + Path);
  ASSERT_EQ(Summary.Status, 2);
  ASSERT_NE(Summary.Err.find(
                fmt::format(": offset {:#x}: chunk 2 (compressed): ", At)),
            std::string::npos)
      << Summary.Err;
  const std::string Page = tempPath("zdamaged.html");
  ViewRun R = view("html " + Path + " -o " + Page);
  EXPECT_EQ(R.Status, 2);
  EXPECT_EQ(R.Err, Summary.Err);
  const std::string Text = wgtrace::testing::slurp(Page);
  EXPECT_NE(Text.find(damageLineInPage(R.Err)), std::string::npos);
  EXPECT_EQ(pageWorkgroups(Text), (std::vector<std::string>{"0,0,0", "2,0,0"}));
}

TEST(Html, TitleAndNamesCannotBreakThePage) {
  TraceBuilder B;
  B.metadata({{"k</script><script>alert(1)</script>", {}, {}, {}}}, {0});
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.load(0x1000, 4);
  B.ring(Ring);
  std::string Page = html(B.bytes(), 100, "<b>x</b>");
  EXPECT_EQ(Page.find("alert(1)</script>"), std::string::npos);
  EXPECT_NE(Page.find("<title>&lt;b&gt;x&lt;/b&gt;</title>"),
            std::string::npos);
  llvm::json::Value V = embedded(Page);
  EXPECT_EQ((*V.getAsObject()->getArray("sites"))[0].getAsObject()->getString(
                "function"),
            "k</script><script>alert(1)</script>");
}

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// Opens the report in headless Chromium (Debian's `chromium` package) and
/// checks from the DOM that the map was drawn and no script failed.
TEST(Html, RendersInHeadlessChromium) {
  const char *Chromium = "/usr/bin/chromium";
  if (access(Chromium, X_OK) != 0)
    GTEST_SKIP() << Chromium << " is not installed (apt-get install chromium)";
  std::string Dir = scratchSubdirectory("html-test");
  std::string Profile = Dir + "/profile";
  ASSERT_EQ(std::system(("rm -rf " + Dir + " && mkdir -p " + Profile).c_str()),
            0);
  std::string Page = Dir + "/report.html", Dom = Dir + "/dom.html";
  std::ofstream(Page) << html(matmulTrace(), HtmlReportTool::DefaultMaxPoints);
  // As root (CI containers) Chromium needs --no-sandbox; the other flags
  // keep it off the network and away from the user's profile.
  std::string Cmd = std::string(Chromium) +
                    " --headless --no-sandbox --disable-gpu --disable-quic"
                    " --no-first-run --disable-background-networking"
                    " --disable-component-update --disable-sync"
                    " --window-size=1200,1600 --user-data-dir=" +
                    Profile + " --dump-dom file://" + Page + " >" + Dom +
                    " 2>" + Dir + "/stderr.txt";
  int Raw = std::system(Cmd.c_str());
  ASSERT_TRUE(WIFEXITED(Raw) && WEXITSTATUS(Raw) == 0)
      << slurp(Dir + "/stderr.txt");
  std::string Text = slurp(Dom);
  size_t Marker = Text.find("data-rendered=\"");
  ASSERT_NE(Marker, std::string::npos) << Text.substr(0, 2000);
  // Every one of the 9216 points lies in the initial view.
  EXPECT_EQ(Text.find("data-rendered=\"9216 points\""), Marker);
  EXPECT_NE(Text.find("<pre id=\"errors\"></pre>"), std::string::npos)
      << Text.substr(0, 2000);
}

/// Headless Chromium: the aggregated map of a trace whose buffer "rare" has
/// one access in thirty draws cells in that buffer's segment, and a
/// screenshot of the page is a picture of the window's size.
TEST(Html, AggregatedMapAndScreenshotInHeadlessChromium) {
  const char *Chromium = "/usr/bin/chromium";
  if (access(Chromium, X_OK) != 0)
    GTEST_SKIP() << Chromium << " is not installed (apt-get install chromium)";
  std::string Dir = scratchSubdirectory("html-shot");
  std::string Profile = Dir + "/profile";
  ASSERT_EQ(std::system(("rm -rf " + Dir + " && mkdir -p " + Profile).c_str()),
            0);
  std::string Page = Dir + "/report.html", Dom = Dir + "/dom.html",
              Png = Dir + "/report.png";
  std::ofstream(Page) << html(rareBufferTrace(), 160);
  const std::string Flags =
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
      " --disable-background-networking --disable-component-update"
      " --disable-sync --hide-scrollbars --window-size=1000,900"
      " --user-data-dir=" +
      Profile;
  int Raw = std::system((std::string(Chromium) + Flags + " --dump-dom file://" +
                         Page + " >" + Dom + " 2>" + Dir + "/stderr.txt")
                            .c_str());
  ASSERT_TRUE(WIFEXITED(Raw) && WEXITSTATUS(Raw) == 0)
      << slurp(Dir + "/stderr.txt");
  std::string Text = slurp(Dom);
  EXPECT_NE(Text.find(" cells\""), std::string::npos) << Text.substr(0, 2000);
  size_t Segments = Text.find("data-segments=\"");
  ASSERT_NE(Segments, std::string::npos) << Text.substr(0, 2000);
  std::string Drawn =
      Text.substr(Segments, Text.find('"', Segments + 15) - Segments);
  EXPECT_NE(Drawn.find("rare:"), std::string::npos) << Drawn;
  EXPECT_NE(Drawn.find("a:"), std::string::npos) << Drawn;
  EXPECT_NE(Text.find("<pre id=\"errors\"></pre>"), std::string::npos);

  Raw =
      std::system((std::string(Chromium) + Flags + " --screenshot=" + Png +
                   " file://" + Page + " >/dev/null 2>>" + Dir + "/stderr.txt")
                      .c_str());
  ASSERT_TRUE(WIFEXITED(Raw) && WEXITSTATUS(Raw) == 0)
      << slurp(Dir + "/stderr.txt");
  std::string Shot = slurp(Png);
  ASSERT_GT(Shot.size(), 24u);
  EXPECT_EQ(Shot.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  auto BigEndian = [&](size_t At) {
    return (uint32_t(uint8_t(Shot[At])) << 24) |
           (uint32_t(uint8_t(Shot[At + 1])) << 16) |
           (uint32_t(uint8_t(Shot[At + 2])) << 8) | uint8_t(Shot[At + 3]);
  };
  EXPECT_EQ(BigEndian(16), 1000u); // IHDR width
  EXPECT_EQ(BigEndian(20), 900u);  // and height
  // A drawn page compresses to more than a blank one.
  EXPECT_GT(Shot.size(), 20000u);
}

} // namespace
