//===- RowOrder.h - --sort COLUMN and --top N of the table reports -*- C++
//-*-===//
//
// What cg_annotate and every profiler give: the rows with the most of a
// column first, and only the first few. A report names its columns (the
// same names as its JSON fields); the order and the cut apply to each of
// its tables, while its totals stay those of all rows.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_ROWORDER_H
#define WGTRACE_VIEWER_ROWORDER_H

#include "analyses/AccessCounts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wgtrace::viewer {

struct RowOrder {
  /// The column to sort by, largest first; empty: the report's own order.
  std::string Column;
  /// Rows kept per table after sorting; 0: all.
  uint64_t Top = 0;

  bool active() const { return !Column.empty() || Top; }

  /// Sorts \p Rows by \p ValueOf (largest first; ties keep their order)
  /// when a column is set, then keeps the first Top. Returns the number of
  /// rows left out.
  template <class Row, class ValueFn>
  uint64_t apply(std::vector<Row> &Rows, ValueFn ValueOf) const {
    if (!Column.empty()) {
      // Stable by the index (std::stable_sort's temporary buffer is
      // deprecated in the library clang and GCC build against here).
      std::vector<std::pair<decltype(ValueOf(Rows[0])), size_t>> Keys;
      Keys.reserve(Rows.size());
      for (size_t I = 0; I < Rows.size(); ++I)
        Keys.emplace_back(ValueOf(Rows[I]), I);
      std::sort(Keys.begin(), Keys.end(), [](const auto &A, const auto &B) {
        return A.first != B.first ? A.first > B.first : A.second < B.second;
      });
      std::vector<Row> Sorted;
      Sorted.reserve(Rows.size());
      for (const auto &K : Keys)
        Sorted.push_back(std::move(Rows[K.second]));
      Rows = std::move(Sorted);
    }
    if (!Top || Rows.size() <= Top)
      return 0;
    const uint64_t Omitted = Rows.size() - Top;
    Rows.erase(Rows.begin() + static_cast<std::ptrdiff_t>(Top), Rows.end());
    return Omitted;
  }
};

/// The rows --top (or races' --limit) left out of a report's tables, said
/// the one way every report says it: under each cut table a line
/// omittedText() writes, and in JSON an `omitted` object with one count
/// per table, named by the table's JSON field (0 when nothing was cut), so
/// that a reader never mistakes the rows shown for all of them.
class OmittedRows {
public:
  /// \p Tables: the JSON names of the report's tables that --top cuts.
  explicit OmittedRows(std::initializer_list<const char *> Tables);
  void add(llvm::StringRef Table, uint64_t Rows);
  uint64_t count(llvm::StringRef Table) const;
  llvm::json::Object json() const;

private:
  std::vector<std::pair<std::string, uint64_t>> Counts;
};

/// "... 12 more workgroups not shown (--top)" and a newline; "" for none.
/// \p Indent: spaces before it (a table's rows are indented by two).
std::string omittedText(uint64_t Rows, llvm::StringRef What,
                        unsigned Indent = 2, llvm::StringRef Options = "--top");

/// The columns of AccessCounts, by their JSON names ("loads",
/// "load_bytes", ...).
llvm::ArrayRef<const char *> accessCountColumns();
/// The field of AccessCounts that column \p Column names; null for a name
/// accessCountColumns() does not list.
uint64_t AccessCounts::*accessCountField(llvm::StringRef Column);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_ROWORDER_H
