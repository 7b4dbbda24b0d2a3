//===- RowOrder.cc --------------------------------------------------------===//

#include "output/RowOrder.h"

#include <fmt/format.h>

#include <iterator>

namespace wgtrace::viewer {

llvm::ArrayRef<const char *> accessCountColumns() {
  static const char *const Names[] = {"workgroups", "loads",      "stores",
                                      "atomics",    "load_bytes", "store_bytes",
                                      "lines",      "values",     "prints"};
  return Names;
}

uint64_t AccessCounts::*accessCountField(llvm::StringRef Column) {
  static constexpr uint64_t AccessCounts::*Fields[] = {
      &AccessCounts::Workgroups, &AccessCounts::Loads,
      &AccessCounts::Stores,     &AccessCounts::Atomics,
      &AccessCounts::LoadBytes,  &AccessCounts::StoreBytes,
      &AccessCounts::Lines,      &AccessCounts::Values,
      &AccessCounts::Prints};
  llvm::ArrayRef<const char *> Names = accessCountColumns();
  static_assert(std::size(Fields) == 9);
  for (size_t I = 0; I < Names.size(); ++I)
    if (Column == Names[I])
      return Fields[I];
  return nullptr;
}

OmittedRows::OmittedRows(std::initializer_list<const char *> Tables) {
  for (const char *T : Tables)
    Counts.emplace_back(T, 0);
}

void OmittedRows::add(llvm::StringRef Table, uint64_t Rows) {
  for (auto &[Name, N] : Counts)
    if (Name == Table) {
      N += Rows;
      return;
    }
  Counts.emplace_back(Table.str(), Rows);
}

uint64_t OmittedRows::count(llvm::StringRef Table) const {
  for (const auto &[Name, N] : Counts)
    if (Name == Table)
      return N;
  return 0;
}

llvm::json::Object OmittedRows::json() const {
  llvm::json::Object O;
  for (const auto &[Name, N] : Counts)
    O[Name] = N;
  return O;
}

std::string omittedText(uint64_t Rows, llvm::StringRef What, unsigned Indent,
                        llvm::StringRef Options) {
  if (!Rows)
    return {};
  return fmt::format("{:{}}... {} more {} not shown ({})\n", "", Indent, Rows,
                     What.str(), Options.str());
}

} // namespace wgtrace::viewer
