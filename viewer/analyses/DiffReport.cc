//===- DiffReport.cc ------------------------------------------------------===//

#include "analyses/DiffReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <iterator>
#include <set>
#include <vector>

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

/// One key of a section in both runs.
struct DiffRow {
  std::string Key;
  bool InBefore = false, InAfter = false;
  Measures B, A;
};

uint64_t Measures::*measureField(StringRef Column) {
  static constexpr uint64_t Measures::*Fields[] = {
      &Measures::Accesses, &Measures::Bytes, &Measures::Lines,
      &Measures::Misses, &Measures::Races};
  ArrayRef<const char *> Names = diffColumns();
  static_assert(std::size(Fields) == 5);
  for (size_t I = 0; I < Names.size(); ++I)
    if (Column == Names[I])
      return Fields[I];
  return &Measures::Accesses;
}

/// The rows of section \p D: every key of either run, by key, or by the
/// size of the change of the --sort column (largest first) and cut to
/// --top.
std::vector<DiffRow> diffRows(ProfileTool::Dimension D, const DiffSide &Before,
                              const DiffSide &After, const RowOrder &Order,
                              OmittedRows &Omitted) {
  const auto &MB = Before.Profile->measures(D);
  const auto &MA = After.Profile->measures(D);
  std::set<std::string> Keys;
  for (const auto &KV : MB)
    Keys.insert(KV.first);
  for (const auto &KV : MA)
    Keys.insert(KV.first);
  std::vector<DiffRow> Rows;
  for (const std::string &K : Keys) {
    DiffRow R;
    R.Key = K;
    if (auto It = MB.find(K); It != MB.end()) {
      R.InBefore = true;
      R.B = It->second;
    }
    if (auto It = MA.find(K); It != MA.end()) {
      R.InAfter = true;
      R.A = It->second;
    }
    Rows.push_back(std::move(R));
  }
  uint64_t Measures::*Field = measureField(Order.Column);
  Omitted.add(kSectionNames[D], Order.apply(Rows, [Field](const DiffRow &R) {
    uint64_t X = R.B.*Field, Y = R.A.*Field;
    return X > Y ? X - Y : Y - X;
  }));
  return Rows;
}

} // namespace

ArrayRef<const char *> diffColumns() {
  static const char *const Names[] = {"accesses", "bytes", "lines", "misses",
                                      "races"};
  return Names;
}

void printDiff(raw_ostream &OS, bool Json, const CacheGeometry &G,
               const DiffSide &Before, const DiffSide &After,
               const RowOrder &Order) {
  using Dimension = ProfileTool::Dimension;
  OmittedRows Omitted{kSectionNames[0], kSectionNames[1], kSectionNames[2],
                      kSectionNames[3]};
  if (Json) {
    json::Object Root{{"schema", "wgtrace-diff/1"},
                      {"before", Before.Path},
                      {"after", After.Path},
                      {"cache", json::Object{{"size", G.Size},
                                             {"line_size", G.LineSize},
                                             {"ways", G.Ways}}}};
    for (unsigned D = 0; D < ProfileTool::Dimensions; ++D) {
      json::Array Rows;
      for (const DiffRow &R :
           diffRows(Dimension(D), Before, After, Order, Omitted))
        Rows.push_back(json::Object{{kKeyNames[D], R.Key},
                                    {"before", measuresJson(R.B)},
                                    {"after", measuresJson(R.A)},
                                    {"change", changeJson(R.B, R.A)}});
      Root[kSectionNames[D]] = std::move(Rows);
    }
    Root["run"] = json::Object{{"before", runJson(Before.Census)},
                               {"after", runJson(After.Census)}};
    Root["loss"] = json::Object{{"before", censusJson(Before.Census)},
                                {"after", censusJson(After.Census)}};
    Root["omitted"] = Omitted.json();
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
    std::vector<DiffRow> Rows =
        diffRows(Dimension(D), Before, After, Order, Omitted);
    if (Rows.empty())
      continue;
    OS << fmt::format("\n{}\n  {:<24} {:<28} {:<30} {:<26} {:<26} {}\n",
                      kSectionNames[D], kKeyNames[D], "accesses", "bytes",
                      "distinct lines", "misses", "racing pairs");
    for (const DiffRow &R : Rows) {
      const Measures &B = R.B, &A = R.A;
      std::string Label = R.Key;
      if (!R.InBefore)
        Label += " (new)";
      else if (!R.InAfter)
        Label += " (gone)";
      OS << fmt::format("  {:<24} {:<28} {:<30} {:<26} {:<26} {}\n", Label,
                        change(B.Accesses, A.Accesses),
                        change(B.Bytes, A.Bytes), change(B.Lines, A.Lines),
                        change(B.Misses, A.Misses), change(B.Races, A.Races));
    }
    OS << omittedText(Omitted.count(kSectionNames[D]), kSectionNames[D]);
  }
  for (const DiffSide *S : {&Before, &After}) {
    std::string Text = censusText(S->Census);
    if (!Text.empty())
      OS << "\n" << S->Path << ":" << Text;
  }
}

} // namespace wgtrace::viewer
