//===- DiffReport.h - Two runs side by side ---------------------*- C++ -*-===//
//
// `wgtrace-view diff BEFORE AFTER`: per kernel, dispatch site, buffer and
// source line, the accesses, bytes, distinct cache lines, modelled misses
// (read and write apart, per level of cache's hierarchy) and racing pairs
// of both runs and the change (ProfileTool.h measures them). "Did my tiling
// change reduce misses on B?" is the row of buffer b.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_DIFFREPORT_H
#define WGTRACE_VIEWER_DIFFREPORT_H

#include "analyses/ProfileTool.h"
#include "output/RowOrder.h"
#include "reader/TraceCensus.h"
#include "simulator/CacheHierarchy.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace wgtrace::viewer {

struct DiffSide {
  llvm::StringRef Path;
  const ProfileTool *Profile = nullptr;
  const TraceCensus *Census = nullptr;
};

/// The columns --sort takes (rows whose measure changed the most, in
/// either direction, first): accesses, bytes, lines, each level's misses
/// (D1mr, D1mw, ...), races.
std::vector<std::string> diffColumns(const std::vector<CacheLevel> &Levels);

/// Both sides' profiles model the same \p Levels.
void printDiff(llvm::raw_ostream &OS, bool Json,
               const std::vector<CacheLevel> &Levels, llvm::StringRef Note,
               const DiffSide &Before, const DiffSide &After,
               const RowOrder &Order = {});

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_DIFFREPORT_H
