//===- PlainBodyCopy.h - A kernel body as written, for unselected runs -*- C++
//-*-===//
//
// With --selectable, a kernel's body runs in one of two forms: instrumented
// for the workgroups WGTRACE_FILTER selects, and as written (no access
// recorded, at the cost of a plain build) for the others:
//
//   { WGTRACE_WORKGROUP(wg, 0); if (!WGTRACE_SELECTED()) {
//   #line 12 "kernel.cc"
//     <the body as written>
//   } else {
//   #line 12 "kernel.cc"
//     <the body, instrumented> }}
//
// #line directives give both forms the original line numbers, and every
// line after the kernel keeps its own.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_PLAINBODYCOPY_H
#define WGTRACE_REWRITER_PLAINBODYCOPY_H

#include "RewriteContext.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace wgtrace {
namespace rewriter {

struct PlainBodyCopy {
  /// Goes right after the prologue: the test, the body as written, and the
  /// opening of the instrumented branch.
  std::string Open;
  /// Goes just before the body's closing brace.
  std::string Close;
};

/// The two halves for \p Body, whose lines #line names \p LinePath, the
/// copy as written running when \p Condition holds (a kernel's:
/// `!WGTRACE_SELECTED()`); none, with the reason in \p Why, when a second
/// copy of the body would not mean the same (a label, which must be unique
/// in a function; a static local, which the copy would not share).
std::optional<PlainBodyCopy> plainBodyCopy(const clang::CompoundStmt *Body,
                                           const RewriteContext &RC,
                                           llvm::StringRef LinePath,
                                           llvm::StringRef Condition,
                                           std::string &Why);

/// Whether \p Body calls wgtrace itself (a launch, a value, a print) or
/// holds OpenMP directives, whose edits a copy as written would miss.
bool callsWgtraceOrOpenMP(const clang::Stmt *Body);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_PLAINBODYCOPY_H
