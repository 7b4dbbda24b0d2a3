//===- RewriteContext.h - State shared by the parts of one rewrite -*- C++ -*-//
//
// One translation unit is rewritten by several small parts (kernel finder,
// access collector, metadata emitter). They share the AST, the edits of one
// file and the way problems are reported, which this context holds. The
// file edited is the main file, or a project header whose helpers are
// copied, instrumented, into the main file (HelperCloner).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_REWRITECONTEXT_H
#define WGTRACE_REWRITER_REWRITECONTEXT_H

#include "EditSet.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <utility>

namespace wgtrace {
namespace rewriter {

class RewriteContext {
public:
  /// Edits go to Target (default: the main file).
  RewriteContext(clang::ASTContext &Ctx, EditSet &Edits,
                 clang::FileID Target = clang::FileID());

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  EditSet &Edits;
  /// The file whose text Edits changes.
  clang::FileID Target;
  /// Set when a call was redirected to <wgtrace/algorithms.h>, which the
  /// rewritten file must then include.
  bool UsesAlgorithms = false;

  /// Where an expression can be edited in the target file, as [begin, end)
  /// offsets. Accesses written entirely inside one macro argument map to
  /// their spelling; anything else that involves a macro has no edit range,
  /// and InMacro is set.
  std::optional<std::pair<unsigned, unsigned>> editRange(clang::SourceRange R,
                                                         bool &InMacro) const;

  /// Offset in the target file just after the token at Loc, if Loc is a
  /// file location there.
  std::optional<unsigned> offsetAfterToken(clang::SourceLocation Loc) const;

  bool isInTargetFile(clang::SourceLocation Loc) const {
    return Loc.isValid() && SM.getFileID(SM.getExpansionLoc(Loc)) == Target;
  }

  /// Reports a remark once per location (template instantiations and
  /// repeated macro arguments would otherwise repeat it).
  void remark(clang::SourceLocation Loc, llvm::StringRef Message);
  void error(clang::SourceLocation Loc, llvm::StringRef Message);

private:
  llvm::DenseSet<clang::SourceLocation> Remarked;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_REWRITECONTEXT_H
