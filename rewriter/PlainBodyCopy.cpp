//===- PlainBodyCopy.cpp - A kernel body as written, for unselected runs --===//

#include "PlainBodyCopy.h"

#include "MetadataEmitter.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace llvm;

namespace wgtrace {
namespace rewriter {
namespace {

/// What a second copy of a body would get wrong.
class CopyProblemFinder : public RecursiveASTVisitor<CopyProblemFinder> {
public:
  std::string Problem;
  bool VisitLabelStmt(LabelStmt *) {
    Problem = "it has a label, which a function may have only once";
    return false;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (!VD->isStaticLocal())
      return true;
    Problem =
        "its static local '" + VD->getName().str() + "' would be two variables";
    return false;
  }
};

/// Calls of wgtrace and OpenMP directives.
class WgtraceUseFinder : public RecursiveASTVisitor<WgtraceUseFinder> {
public:
  bool Found = false;
  bool VisitCallExpr(CallExpr *E) {
    if (const FunctionDecl *Callee = E->getDirectCallee())
      Found = StringRef(Callee->getQualifiedNameAsString())
                  .starts_with("wgtrace::");
    return !Found;
  }
  bool VisitOMPExecutableDirective(OMPExecutableDirective *) {
    Found = true;
    return false;
  }
};

} // namespace

bool callsWgtraceOrOpenMP(const Stmt *Body) {
  WgtraceUseFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  return Finder.Found;
}

std::optional<PlainBodyCopy>
plainBodyCopy(const CompoundStmt *Body, const RewriteContext &RC,
              StringRef LinePath, StringRef Condition, std::string &Why) {
  CopyProblemFinder Finder;
  Finder.TraverseStmt(const_cast<CompoundStmt *>(Body));
  if (!Finder.Problem.empty()) {
    Why = Finder.Problem;
    return std::nullopt;
  }
  const SourceManager &SM = RC.SM;
  std::optional<unsigned> Begin = RC.offsetAfterToken(Body->getLBracLoc());
  SourceLocation Close = SM.getExpansionLoc(Body->getRBracLoc());
  if (!Begin || !RC.isInTargetFile(Close)) {
    Why = "its braces are not both in the file";
    return std::nullopt;
  }
  unsigned End = SM.getFileOffset(Close);
  StringRef Text = SM.getBufferData(RC.Target).slice(*Begin, End);
  std::string Line = "#line " +
                     std::to_string(SM.getLineNumber(RC.Target, *Begin)) +
                     " \"" + escapeCString(LinePath) + "\"\n";
  PlainBodyCopy Copy;
  Copy.Open = " if (" + Condition.str() + ") {\n" + Line + Text.str() +
              "\n} else {\n" + Line;
  Copy.Close = "}";
  return Copy;
}

} // namespace rewriter
} // namespace wgtrace
