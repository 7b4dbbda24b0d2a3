//===- DiffReport.cc ------------------------------------------------------===//

#include "analyses/DiffReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <set>

using namespace llvm;

namespace wgtrace::viewer {

namespace {

using Measures = ProfileTool::Measures;

const char *const kSectionNames[] = {"kernels", "sites", "buffers", "lines"};
const char *const kKeyNames[] = {"kernel", "site", "buffer", "line"};

/// "1200 -> 800 (-33.3%)", "0 -> 50 (new)", "= 80" when unchanged.
std::string change(uint64_t B, uint64_t A) {
  if (A == B)
    return fmt::format("= {}", A);
  if (B == 0)
    return fmt::format("{} -> {} (new)", B, A);
  double Percent = 100.0 * (double(A) - double(B)) / double(B);
  return fmt::format("{} -> {} ({:+.1f}%)", B, A, Percent);
}

json::Object measuresJson(const Measures &M) {
  return json::Object{{"accesses", M.Accesses},
                      {"bytes", M.Bytes},
                      {"lines", M.Lines},
                      {"misses", M.Misses},
                      {"races", M.Races}};
}

json::Object changeJson(const Measures &B, const Measures &A) {
  auto D = [](uint64_t X, uint64_t Y) { return int64_t(Y) - int64_t(X); };
  return json::Object{{"accesses", D(B.Accesses, A.Accesses)},
                      {"bytes", D(B.Bytes, A.Bytes)},
                      {"lines", D(B.Lines, A.Lines)},
                      {"misses", D(B.Misses, A.Misses)},
                      {"races", D(B.Races, A.Races)}};
}

} // namespace

void printDiff(raw_ostream &OS, bool Json, const CacheGeometry &G,
               const DiffSide &Before, const DiffSide &After) {
  using Dimension = ProfileTool::Dimension;
  if (Json) {
    json::Object Root{{"schema", "wgtrace-diff/1"},
                      {"before", Before.Path},
                      {"after", After.Path},
                      {"cache", json::Object{{"size", G.Size},
                                             {"line_size", G.LineSize},
                                             {"ways", G.Ways}}}};
    for (unsigned D = 0; D < ProfileTool::Dimensions; ++D) {
      const auto &MB = Before.Profile->measures(Dimension(D));
      const auto &MA = After.Profile->measures(Dimension(D));
      std::set<std::string> Keys;
      for (const auto &KV : MB)
        Keys.insert(KV.first);
      for (const auto &KV : MA)
        Keys.insert(KV.first);
      json::Array Rows;
      for (const std::string &K : Keys) {
        Measures B, A;
        if (auto It = MB.find(K); It != MB.end())
          B = It->second;
        if (auto It = MA.find(K); It != MA.end())
          A = It->second;
        Rows.push_back(json::Object{{kKeyNames[D], K},
                                    {"before", measuresJson(B)},
                                    {"after", measuresJson(A)},
                                    {"change", changeJson(B, A)}});
      }
      Root[kSectionNames[D]] = std::move(Rows);
    }
    Root["run"] = json::Object{{"before", runJson(Before.Census)},
                               {"after", runJson(After.Census)}};
    Root["loss"] = json::Object{{"before", censusJson(Before.Census)},
                                {"after", censusJson(After.Census)}};
    OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
    return;
  }
  OS << fmt::format("before: {}\nafter:  {}\ncache model: {} bytes, {}-byte "
                    "lines, {} ways, LRU, in record order\n",
                    Before.Path.str(), After.Path.str(), G.Size, G.LineSize,
                    G.Ways);
  for (const DiffSide *S : {&Before, &After})
    if (S->Census) {
      SmallVector<StringRef, 2> Lines;
      std::string Text = runText(*S->Census);
      StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
      for (StringRef Line : Lines)
        OS << (S == &Before ? "before " : "after  ") << Line << "\n";
    }
  for (unsigned D = 0; D < ProfileTool::Dimensions; ++D) {
    const auto &MB = Before.Profile->measures(Dimension(D));
    const auto &MA = After.Profile->measures(Dimension(D));
    std::set<std::string> Keys;
    for (const auto &KV : MB)
      Keys.insert(KV.first);
    for (const auto &KV : MA)
      Keys.insert(KV.first);
    if (Keys.empty())
      continue;
    OS << fmt::format("\n{}\n  {:<24} {:<28} {:<30} {:<26} {:<26} {}\n",
                      kSectionNames[D], kKeyNames[D], "accesses", "bytes",
                      "distinct lines", "misses", "racing pairs");
    for (const std::string &K : Keys) {
      Measures B, A;
      auto InB = MB.find(K), InA = MA.find(K);
      if (InB != MB.end())
        B = InB->second;
      if (InA != MA.end())
        A = InA->second;
      std::string Label = K;
      if (InB == MB.end())
        Label += " (new)";
      else if (InA == MA.end())
        Label += " (gone)";
      OS << fmt::format("  {:<24} {:<28} {:<30} {:<26} {:<26} {}\n", Label,
                        change(B.Accesses, A.Accesses),
                        change(B.Bytes, A.Bytes), change(B.Lines, A.Lines),
                        change(B.Misses, A.Misses), change(B.Races, A.Races));
    }
  }
  for (const DiffSide *S : {&Before, &After}) {
    std::string Text = censusText(S->Census);
    if (!Text.empty())
      OS << "\n" << S->Path << ":" << Text;
  }
}

} // namespace wgtrace::viewer
