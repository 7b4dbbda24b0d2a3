//===- DiffReport.h - Two runs side by side ---------------------*- C++ -*-===//
//
// `wgtrace-view diff BEFORE AFTER`: per kernel, dispatch site, buffer and
// source line, the accesses, bytes, distinct cache lines, modelled misses
// and racing pairs of both runs and the change (ProfileTool.h measures
// them). "Did my tiling change reduce misses on B?" is the row of buffer
// b.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_DIFFREPORT_H
#define WGTRACE_VIEWER_DIFFREPORT_H

#include "analyses/ProfileTool.h"
#include "output/RowOrder.h"
#include "reader/TraceCensus.h"
#include "simulator/CacheModel.h"

#include "llvm/Support/raw_ostream.h"

namespace wgtrace::viewer {

struct DiffSide {
  llvm::StringRef Path;
  const ProfileTool *Profile = nullptr;
  const TraceCensus *Census = nullptr;
};

/// The columns --sort takes: rows whose measure changed the most (in
/// either direction) first.
llvm::ArrayRef<const char *> diffColumns();

void printDiff(llvm::raw_ostream &OS, bool Json, const CacheGeometry &G,
               const DiffSide &Before, const DiffSide &After,
               const RowOrder &Order = {});

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_DIFFREPORT_H
