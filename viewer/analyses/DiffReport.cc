//===- DiffReport.cc ------------------------------------------------------===//

#include "analyses/DiffReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>
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

/// The measures of a row, by column name (diffColumns()).
struct MeasureColumns {
  const std::vector<CacheLevel> &Levels;

  std::vector<std::string> names() const {
    std::vector<std::string> N = {"accesses", "bytes", "lines"};
    for (const CacheLevel &L : Levels) {
      N.push_back(L.Name + "mr");
      N.push_back(L.Name + "mw");
    }
    N.push_back("races");
    return N;
  }
  /// Column \p I of names().
  uint64_t value(const Measures &M, size_t I) const {
    if (I < 3)
      return I == 0 ? M.Accesses : I == 1 ? M.Bytes : M.Lines;
    if (I - 3 < 2 * Levels.size())
      return M.Misses[I - 3];
    return M.Races;
  }
  size_t index(StringRef Column) const {
    std::vector<std::string> N = names();
    for (size_t I = 0; I < N.size(); ++I)
      if (Column == N[I])
        return I;
    return 0; // accesses
  }
};

json::Object measuresJson(const MeasureColumns &Cols, const Measures &M) {
  json::Object O;
  std::vector<std::string> Names = Cols.names();
  for (size_t I = 0; I < Names.size(); ++I)
    O[Names[I]] = Cols.value(M, I);
  return O;
}

json::Object changeJson(const MeasureColumns &Cols, const Measures &B,
                        const Measures &A) {
  json::Object O;
  std::vector<std::string> Names = Cols.names();
  for (size_t I = 0; I < Names.size(); ++I)
    O[Names[I]] = int64_t(Cols.value(A, I)) - int64_t(Cols.value(B, I));
  return O;
}

/// One key of a section in both runs.
struct DiffRow {
  std::string Key;
  bool InBefore = false, InAfter = false;
  Measures B, A;
};

/// The rows of section \p D: every key of either run, by key, or by the
/// size of the change of the --sort column (largest first) and cut to
/// --top.
std::vector<DiffRow> diffRows(ProfileTool::Dimension D, const DiffSide &Before,
                              const DiffSide &After, const RowOrder &Order,
                              const MeasureColumns &Cols,
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
  const size_t Column = Cols.index(Order.Column);
  Omitted.add(kSectionNames[D], Order.apply(Rows, [&](const DiffRow &R) {
    uint64_t X = Cols.value(R.B, Column), Y = Cols.value(R.A, Column);
    return X > Y ? X - Y : Y - X;
  }));
  return Rows;
}

} // namespace

std::vector<std::string> diffColumns(const std::vector<CacheLevel> &Levels) {
  return MeasureColumns{Levels}.names();
}

void printDiff(raw_ostream &OS, bool Json,
               const std::vector<CacheLevel> &Levels, StringRef Note,
               const DiffSide &Before, const DiffSide &After,
               const RowOrder &Order) {
  using Dimension = ProfileTool::Dimension;
  const MeasureColumns Cols{Levels};
  OmittedRows Omitted{kSectionNames[0], kSectionNames[1], kSectionNames[2],
                      kSectionNames[3]};
  if (Json) {
    json::Array LevelsJ;
    for (const CacheLevel &L : Levels)
      LevelsJ.push_back(json::Object{{"name", L.Name},
                                     {"size", L.Geometry.Size},
                                     {"ways", L.Geometry.Ways},
                                     {"line_size", L.Geometry.LineSize},
                                     {"sets", L.Geometry.sets()}});
    json::Object Root{{"schema", "wgtrace-diff/2"},
                      {"before", Before.Path},
                      {"after", After.Path},
                      {"levels", std::move(LevelsJ)},
                      {"note", Note}};
    for (unsigned D = 0; D < ProfileTool::Dimensions; ++D) {
      json::Array Rows;
      for (const DiffRow &R :
           diffRows(Dimension(D), Before, After, Order, Cols, Omitted))
        Rows.push_back(json::Object{{kKeyNames[D], R.Key},
                                    {"before", measuresJson(Cols, R.B)},
                                    {"after", measuresJson(Cols, R.A)},
                                    {"change", changeJson(Cols, R.B, R.A)}});
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
  std::string LevelsText;
  for (const CacheLevel &L : Levels)
    LevelsText += fmt::format(
        "{}{} {} bytes, {} ways, {}-byte lines", LevelsText.empty() ? "" : "; ",
        L.Name, L.Geometry.Size, L.Geometry.Ways, L.Geometry.LineSize);
  OS << fmt::format("before: {}\nafter:  {}\ncaches: {}\n  LRU, "
                    "write-allocate, the misses of a level looked up in the "
                    "next; shared by all workgroups in record order\n",
                    Before.Path.str(), After.Path.str(), LevelsText);
  if (!Note.empty())
    OS << "  note: " << Note << "\n";
  for (const DiffSide *S : {&Before, &After})
    if (S->Census) {
      SmallVector<StringRef, 2> Lines;
      std::string Text = runText(*S->Census);
      StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
      for (StringRef Line : Lines)
        OS << (S == &Before ? "before " : "after  ") << Line << "\n";
    }
  // One column per measure, each as wide as its widest cell.
  const std::vector<std::string> Names = Cols.names();
  for (unsigned D = 0; D < ProfileTool::Dimensions; ++D) {
    std::vector<DiffRow> Rows =
        diffRows(Dimension(D), Before, After, Order, Cols, Omitted);
    if (Rows.empty())
      continue;
    std::vector<std::vector<std::string>> Cells;
    std::vector<size_t> Widths(Names.size() + 1);
    Widths[0] = std::max<size_t>(24, std::string(kKeyNames[D]).size());
    for (size_t I = 0; I < Names.size(); ++I)
      Widths[I + 1] = Names[I].size();
    for (const DiffRow &R : Rows) {
      std::string Label = R.Key;
      if (!R.InBefore)
        Label += " (new)";
      else if (!R.InAfter)
        Label += " (gone)";
      std::vector<std::string> Row = {Label};
      for (size_t I = 0; I < Names.size(); ++I)
        Row.push_back(change(Cols.value(R.B, I), Cols.value(R.A, I)));
      for (size_t I = 0; I < Row.size(); ++I)
        Widths[I] = std::max(Widths[I], Row[I].size());
      Cells.push_back(std::move(Row));
    }
    auto Line = [&](const std::vector<std::string> &Row) {
      std::string Out = " ";
      for (size_t I = 0; I < Row.size(); ++I)
        Out += fmt::format(" {:<{}}", Row[I], Widths[I]);
      return StringRef(Out).rtrim().str() + "\n";
    };
    std::vector<std::string> Head = {kKeyNames[D]};
    Head.insert(Head.end(), Names.begin(), Names.end());
    OS << "\n" << kSectionNames[D] << "\n" << Line(Head);
    for (const std::vector<std::string> &Row : Cells)
      OS << Line(Row);
    OS << omittedText(Omitted.count(kSectionNames[D]), kSectionNames[D]);
  }
  for (const DiffSide *S : {&Before, &After}) {
    std::string Text = censusText(S->Census);
    if (!Text.empty())
      OS << "\n" << S->Path << ":" << Text;
  }
}

} // namespace wgtrace::viewer
