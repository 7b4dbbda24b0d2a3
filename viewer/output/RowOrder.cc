//===- RowOrder.cc --------------------------------------------------------===//

#include "output/RowOrder.h"

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

} // namespace wgtrace::viewer
