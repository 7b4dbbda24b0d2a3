//===- FileRewriter.h - Rewrites one translation unit -----------*- C++ -*-===//
//
// The frontend action that parses one source file and, if it parses without
// errors, computes its instrumented text: module block at the top, workgroup
// prologue in each kernel, site ids in dispatch calls, access macros around
// memory accesses. Nothing is written here; the caller decides where the
// result goes once every file has succeeded.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_FILEREWRITER_H
#define WGTRACE_REWRITER_FILEREWRITER_H

#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

struct RewriteResult {
  /// Parsed without errors and rewritten (possibly to the same text).
  bool Ok = false;
  bool Changed = false;
  /// The main file's name as the compiler opened it (absolute).
  std::string OpenedPath;
  std::string Original;
  std::string Rewritten;
  clang::tooling::Replacements Replacements;
  /// Every file the compiler read for this translation unit (the source
  /// first, then the headers it includes), as absolute paths.
  std::vector<std::string> Dependencies;
};

struct RewriteOptions {
  /// Accesses and kernels that cannot be instrumented are errors (the file
  /// is not rewritten), not warnings.
  bool Strict = false;
  /// The directory lambda kernels' names give their file relative to
  /// (empty: the current directory).
  std::string ProjectRoot;
  /// Trace OpenMP worksharing loops as dispatches (--openmp).
  bool OpenMP = false;
  /// The file is one of a target whose every source is rewritten
  /// (--whole-target): the functions other files may call are instrumented
  /// and registered, and calls of other files' functions are checked at
  /// run time.
  bool WholeTarget = false;
  /// Reserve room for a statement's records with one check before it
  /// (--reserve-records: ReservedStatements.h).
  bool ReserveRecords = false;
};

/// Creates actions that rewrite the file given on the command line as
/// GivenPath (the name that #line and the site locations show) into Result.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newRewriteActionFactory(std::string GivenPath, RewriteResult &Result,
                        RewriteOptions Options = RewriteOptions());

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_FILEREWRITER_H
