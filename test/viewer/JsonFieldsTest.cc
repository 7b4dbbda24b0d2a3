//===- JsonFieldsTest.cc - docs/VIEWER.md documents every JSON field ------===//
//
// Each `--json` report's fields, as docs/VIEWER.md's "JSON output, field by
// field" lists them, against what the reports emit on sample traces: a
// field emitted but not documented fails, and so does a documented field
// of a report that none of the runs emits, so that the documentation and
// the output cannot drift apart. The `run`, `loss` and `selection` objects,
// whose fields depend on how a run ended (crashes, wrapped rings, kernels that
// are not instrumented), are checked one way: what the sample traces and
// the committed corpus emit is documented.
//
//===----------------------------------------------------------------------===//

#include "CliRun.h"
#include "TraceBuilder.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

using Fields = std::set<std::string>;

/// Schema name ("wgtrace-summary/1", or "run" and "loss") to the field
/// paths of its table in docs/VIEWER.md.
std::map<std::string, Fields> documentedFields() {
  std::string Doc = slurp(std::string(WGTRACE_SOURCE_DIR) + "/docs/VIEWER.md");
  llvm::StringRef Rest(Doc);
  size_t Start = Rest.find("\n## JSON output, field by field\n");
  EXPECT_NE(Start, llvm::StringRef::npos) << "docs/VIEWER.md has no section "
                                             "'JSON output, field by field'";
  Rest = Rest.drop_front(Start + 1);
  Rest = Rest.take_front(Rest.find("\n## ", 1));
  std::map<std::string, Fields> Out;
  std::string Current;
  llvm::SmallVector<llvm::StringRef> Lines;
  Rest.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (L.consume_front("### `")) {
      Current = L.take_until([](char C) { return C == '`'; }).str();
      continue;
    }
    if (!Current.empty() && L.consume_front("| `"))
      Out[Current].insert(L.take_until([](char C) { return C == '`'; }).str());
  }
  return Out;
}

/// Whether documented path \p Doc ("kernels.*.loads") names emitted path
/// \p Path ("kernels.matmul.loads").
bool matches(llvm::StringRef Doc, llvm::StringRef Path) {
  while (!Doc.empty() && !Path.empty()) {
    auto [DocHead, DocTail] = Doc.split('.');
    auto [PathHead, PathTail] = Path.split('.');
    if (DocHead != "*" && DocHead != PathHead)
      return false;
    Doc = DocTail;
    Path = PathTail;
  }
  return Doc.empty() && Path.empty();
}

/// Every member's path: object members by name, the members of objects in
/// an array as "name[].member"; arrays of numbers or arrays are leaves. Members
/// of the shared run, loss and selection objects go to \p Shared by name
/// (by their path inside them), the files wrapper's reports are not
/// entered (each is checked as a report of its own).
void collect(const llvm::json::Value &V, const std::string &Path, Fields &Out,
             std::map<std::string, Fields> &Shared, const Fields &Documented,
             const std::string &Schema) {
  if (const llvm::json::Object *O = V.getAsObject()) {
    for (const auto &[Key, Member] : *O) {
      std::string Name = Key.str();
      // A map keyed by names (kernels.*).
      if (!Path.empty() && Documented.count(Path + ".*"))
        Name = "*";
      std::string Child = Path.empty() ? Name : Path + "." + Name;
      if (Path.empty() &&
          (Name == "run" || Name == "loss" || Name == "selection")) {
        Out.insert(Child);
        // The object's own fields, by their path inside it.
        auto Enter = [&](const llvm::json::Value &Object) {
          std::map<std::string, Fields> None;
          if (const llvm::json::Object *SO = Object.getAsObject())
            for (const auto &[K, M] : *SO) {
              Shared[Name].insert(K.str());
              collect(M, K.str(), Shared[Name], None, {}, "");
            }
        };
        if (Schema == "wgtrace-diff/2") {
          for (const char *Side : {"before", "after"}) {
            Out.insert(Child + "." + Side);
            if (const llvm::json::Value *S = Member.getAsObject()->get(Side))
              Enter(*S);
          }
        } else {
          Enter(Member);
        }
        continue;
      }
      Out.insert(Child);
      if (Schema == "wgtrace-files/1" && Name == "report")
        continue;
      collect(Member, Child, Out, Shared, Documented, Schema);
    }
    return;
  }
  if (const llvm::json::Array *A = V.getAsArray())
    for (const llvm::json::Value &E : *A)
      if (E.getAsObject())
        collect(E, Path + "[]", Out, Shared, Documented, Schema);
}

/// A kernel `sum` whose workgroups add to one total (a race, in buffer
/// `total`, with access sites, values and prints), and a kernel `tile` that
/// walks a 4 x 8 panel row by row (a 2d stream) and a column (strided).
std::vector<uint8_t> sampleTrace(uint32_t Workgroups) {
  ExtensionSpec X;
  X.FunctionParams = {{{"in", "const float *", 1, 0, 4, true},
                       {"total", "float *", 2, 0, 4, false}},
                      {{"a", "const float *", 1, 0, 4, false}}};
  X.SiteLocations = {{"sum.cc", 20}, {"tile.cc", 40}};
  X.AccessSites = {{"sum.cc", 9, 5, 2, "sum", "*total += s"},
                   {"sum.cc", 7, 12, 0, "sum", "in[i]"},
                   {"tile.cc", 11, 9, 0, "tile", "a[i * 8 + k]"}};
  X.RunRecord = true;
  TraceBuilder B;
  B.metadata({{"sum", {}, {}, {}}, {"tile", {}, {}, {}}}, {0, 1}, &X);
  RingBuilder Ring(1 << 16, /*Fill=*/0);
  for (uint32_t W = 0; W < Workgroups; ++W) {
    Ring.workgroup(0, {W, 0, 0}, {Workgroups, 1, 1}, W % 2);
    Ring.value(format::ValueType::BufferBase, 0, 0x10000);
    Ring.value(format::ValueType::BufferExtent, 0, 4096);
    Ring.value(format::ValueType::BufferBase, 1, 0x20000);
    for (uint32_t I = 0; I < 4; ++I)
      Ring.load((0x10000 + 16 * W + 4 * I) | format::accessSiteBits(2), 4);
    Ring.load(0x20000 | format::accessSiteBits(1), 4);
    Ring.store(0x20000 | format::accessSiteBits(1), 4);
    Ring.value(format::ValueType::Float32, 0, 0x3FC00000);
    Ring.print("partial sum");
  }
  Ring.workgroup(1, {0, 0, 0}, {1, 1, 1}, 0);
  Ring.value(format::ValueType::BufferBase, 0, 0x40000);
  for (uint32_t I = 0; I < 4; ++I)
    for (uint32_t K = 0; K < 4; ++K)
      Ring.load((0x40000 + 32 * I + 4 * K) | format::accessSiteBits(3), 4);
  for (uint32_t I = 0; I < 8; ++I)
    Ring.load(0x48000 + 64 * I, 8);
  // wgtrace's writer (which writes run records) ends each ring with a
  // trailer and zeroes what no record holds.
  format::RingTrailer Trailer = {};
  Trailer.RingSize = 1 << 16;
  Ring.trailer(Trailer);
  B.ring(Ring);
  format::RunRecord Run = {};
  Run.End = uint16_t(format::RunEnd::Exit);
  Run.Workgroups = Workgroups + 1;
  Run.MaxProcessorId = 1;
  B.runRecord(Run, {{"main.cc", 30, "untraced_kernel", 1, 2}});
  return B.bytes();
}

TEST(JsonFields, EveryFieldIsDocumentedAndEveryDocumentedFieldEmitted) {
  std::map<std::string, Fields> Documented = documentedFields();
  for (const char *Schema :
       {"wgtrace-summary/1", "wgtrace-races/1", "wgtrace-footprint/1",
        "wgtrace-cache/2", "wgtrace-annotate/2", "wgtrace-diff/2",
        "wgtrace-files/1", "run", "loss", "selection"})
    EXPECT_TRUE(Documented.count(Schema)) << Schema << " is not documented";

  std::string Before = writeTrace("fields-before.bin", sampleTrace(8));
  std::string After = writeTrace("fields-after.bin", sampleTrace(4));
  std::vector<std::string> Traces = {Before};
  for (const auto &Entry : std::filesystem::directory_iterator(
           std::string(WGTRACE_SOURCE_DIR) + "/test/viewer/corpus"))
    Traces.push_back(Entry.path().string());
  std::vector<std::string> Runs;
  for (const std::string &T : Traces) {
    for (const char *By : {"workgroup", "site", "kernel", "line", "buffer"}) {
      Runs.push_back(std::string("summary --by ") + By + " " + T);
      // Three levels given: the machine's may have two (no L2 fields).
      Runs.push_back(
          std::string(
              "cache --l1 32k,8,64 --l2 256k,8,64 --ll 8m,16,64 --by ") +
          By + " " + T);
    }
    Runs.push_back("races " + T);
    Runs.push_back("footprint " + T);
    // The same levels as cache: every level's fields.
    Runs.push_back("annotate --l1 32k,8,64 --l2 256k,8,64 --ll 8m,16,64 " + T);
  }
  Runs.push_back("diff --l1 32k,8,64 --l2 256k,8,64 --ll 8m,16,64 " + Before +
                 " " + After);
  Runs.push_back("summary " + Before + " " + After);

  std::map<std::string, Fields> Emitted;
  std::map<std::string, Fields> Shared;
  for (const std::string &Args : Runs) {
    ViewRun R = view(Args.substr(0, Args.find(' ')) + " --json" +
                     Args.substr(Args.find(' ')));
    if (R.Out.empty())
      continue; // nothing to analyse in this corpus file (exit 2)
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(R.Out);
    ASSERT_TRUE(bool(V)) << Args << ": " << llvm::toString(V.takeError());
    const llvm::json::Object *Root = V->getAsObject();
    ASSERT_TRUE(Root && Root->getString("schema")) << Args;
    std::string Schema = Root->getString("schema")->str();
    collect(*V, "", Emitted[Schema], Shared, Documented[Schema], Schema);
    if (Schema == "wgtrace-files/1")
      for (const llvm::json::Value &F : *Root->getArray("files")) {
        const llvm::json::Value *Report = F.getAsObject()->get("report");
        std::string Inner = Report->getAsObject()->getString("schema")->str();
        collect(*Report, "", Emitted[Inner], Shared, Documented[Inner], Inner);
      }
  }

  auto Check = [&](const std::string &Schema, const Fields &Got,
                   bool BothWays) {
    const Fields &Doc = Documented[Schema];
    for (const std::string &Path : Got) {
      bool Found = false;
      for (const std::string &D : Doc)
        Found |= matches(D, Path);
      EXPECT_TRUE(Found) << Schema << ": field '" << Path
                         << "' is emitted but docs/VIEWER.md does not "
                            "document it";
    }
    if (!BothWays)
      return;
    for (const std::string &D : Doc) {
      bool Found = false;
      for (const std::string &Path : Got)
        Found |= matches(D, Path);
      EXPECT_TRUE(Found) << Schema << ": docs/VIEWER.md documents '" << D
                         << "' but no sample report emits it";
    }
  };
  for (const char *Schema :
       {"wgtrace-summary/1", "wgtrace-races/1", "wgtrace-footprint/1",
        "wgtrace-cache/2", "wgtrace-annotate/2", "wgtrace-diff/2",
        "wgtrace-files/1"})
    Check(Schema, Emitted[Schema], /*BothWays=*/true);
  for (const char *Object : {"run", "loss", "selection"})
    Check(Object, Shared[Object], /*BothWays=*/false);
  for (const auto &[Schema, Got] : Emitted)
    EXPECT_TRUE(Documented.count(Schema))
        << "schema " << Schema << " is not documented";
}

} // namespace
