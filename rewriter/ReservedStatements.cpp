//===- ReservedStatements.cpp - One room check per statement --------------===//

#include "ReservedStatements.h"

#include "EditSet.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

/// What the runtime takes at most in one reservation
/// (detail::kMaxReservedRecords): far less than a part of a ring.
constexpr unsigned kMaxReservedRecords = 32;

/// A record's length field (format::kMaxAccessLength): a longer access
/// takes the checked slow path, which would use up the reserved room.
constexpr uint64_t kMaxAccessLength = 0xFFFF;

/// Whether \p S, or anything in it, could record something other than its
/// own plain access forms, or make them more than once, or is a node this
/// pass does not know to be harmless: a call of any kind (a helper, an
/// operator of a class, a conversion, a library function), a constructor
/// or destructor, new and delete, a lambda, a statement expression, an
/// atomic or OpenMP construct, inline assembly, a nested statement (loops,
/// branches, blocks), a dynamic_cast or throw, anything template-dependent
/// or written by a macro.
bool mayRecordMore(const Stmt *S) {
  if (!S)
    return false;
  if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID())
    return true;
  if (isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, LambdaExpr,
          StmtExpr, BlockExpr, CXXThrowExpr, AtomicExpr, CoroutineSuspendExpr,
          CXXBindTemporaryExpr, ExprWithCleanups, CXXDynamicCastExpr,
          CXXInheritedCtorInitExpr, ArrayInitLoopExpr, PseudoObjectExpr,
          CXXStdInitializerListExpr, CXXDefaultArgExpr, CXXDefaultInitExpr,
          CXXFoldExpr, PackExpansionExpr, AsmStmt, OMPExecutableDirective,
          CapturedStmt, CompoundStmt, IfStmt, ForStmt, WhileStmt, DoStmt,
          CXXForRangeStmt, SwitchStmt, SwitchCase, LabelStmt, GotoStmt,
          IndirectGotoStmt, CXXTryStmt, CoroutineBodyStmt>(S))
    return true;
  if (const auto *E = dyn_cast<Expr>(S))
    if (E->isTypeDependent() || E->isValueDependent() ||
        E->isInstantiationDependent() || E->containsErrors())
      return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      // A static or thread_local local is initialised once, under a guard
      // (a call); a variable-length array's size is computed at run time.
      if (!V || !V->hasLocalStorage() || V->getType()->isDependentType() ||
          V->getType()->isVariablyModifiedType())
        return true;
    }
  for (const Stmt *Child : S->children())
    if (mayRecordMore(Child))
      return true;
  return false;
}

/// The plain access forms a wrap may be, and the records each makes.
unsigned recordsOfForm(llvm::StringRef Open, llvm::StringRef Close) {
  if (Close != ")")
    return 0;
  unsigned Records = 0;
  llvm::StringRef Rest = Open;
  if (Rest.consume_front("WGTRACE_LOAD_AT(") ||
      Rest.consume_front("WGTRACE_STORE_AT("))
    Records = 1;
  else if (Rest.consume_front("WGTRACE_UPDATE_AT("))
    Records = 2; // a load, then a store
  else
    return 0;
  // The site, then ", ".
  unsigned Site = 0;
  if (Rest.consumeInteger(10, Site) || Rest != ", ")
    return 0;
  return Records;
}

class StatementReserver : public RecursiveASTVisitor<StatementReserver> {
public:
  StatementReserver(ASTContext &Ctx, EditSet &Edits)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Edits(Edits) {}

  bool VisitCompoundStmt(CompoundStmt *CS) {
    for (Stmt *Child : CS->body())
      if (isa<Expr, DeclStmt, ReturnStmt>(Child))
        reserve(Child, /*AsStatement=*/true);
    return true;
  }
  bool VisitForStmt(ForStmt *S) { return body(S->getBody()); }
  bool VisitWhileStmt(WhileStmt *S) { return body(S->getBody()); }
  bool VisitDoStmt(DoStmt *S) { return body(S->getBody()); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { return body(S->getBody()); }
  bool VisitIfStmt(IfStmt *S) {
    body(S->getThen());
    return body(S->getElse());
  }

private:
  /// A loop's body or a branch that is one expression statement: reserved
  /// with a comma, which keeps it one statement.
  bool body(Stmt *S) {
    if (isa_and_nonnull<Expr>(S))
      reserve(S, /*AsStatement=*/false);
    return true;
  }

  /// The offset in the main file of \p Loc, or ~0u.
  unsigned offsetOf(SourceLocation Loc) const {
    if (Loc.isInvalid() || !Loc.isFileID() ||
        SM.getFileID(Loc) != SM.getMainFileID())
      return ~0u;
    return SM.getFileOffset(Loc);
  }

  /// [begin, end) of \p S's text in the main file.
  std::pair<unsigned, unsigned> rangeOf(const Stmt *S) const {
    unsigned Begin = offsetOf(S->getBeginLoc());
    SourceLocation EndLoc =
        Lexer::getLocForEndOfToken(S->getEndLoc(), 0, SM, Ctx.getLangOpts());
    unsigned End = offsetOf(EndLoc);
    return {Begin, End};
  }

  /// Notes the size of every glvalue in \p S by its text's range: the
  /// wraps name their operands by range.
  void noteSizes(
      const Stmt *S,
      llvm::DenseMap<std::pair<unsigned, unsigned>, uint64_t> &Sizes) const {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S); E && E->isGLValue()) {
      QualType T = E->getType();
      std::pair<unsigned, unsigned> R = rangeOf(E);
      uint64_t Size = kMaxAccessLength + 1; // unknown: too long to reserve
      if (!T->isDependentType() && !T->isIncompleteType() &&
          !T->isFunctionType() && T->isConstantSizeType() &&
          !T->isSizelessType())
        Size = uint64_t(Ctx.getTypeSizeInChars(T).getQuantity());
      uint64_t &Noted = Sizes[R];
      Noted = std::max(Noted, Size);
    }
    for (const Stmt *Child : S->children())
      noteSizes(Child, Sizes);
  }

  void reserve(Stmt *S, bool AsStatement) {
    auto [Begin, End] = rangeOf(S);
    if (Begin == ~0u || End == ~0u || Begin >= End)
      return;
    std::optional<std::vector<EditSet::WrapText>> Wraps =
        Edits.onlyWrapsWithin(Begin, End);
    if (!Wraps || Wraps->empty())
      return;
    unsigned Records = 0;
    for (const EditSet::WrapText &W : *Wraps) {
      unsigned Made = recordsOfForm(W.Open, W.Close);
      if (Made == 0)
        return;
      Records += Made;
    }
    if (Records > kMaxReservedRecords || mayRecordMore(S))
      return;
    llvm::DenseMap<std::pair<unsigned, unsigned>, uint64_t> Sizes;
    noteSizes(S, Sizes);
    for (const EditSet::WrapText &W : *Wraps) {
      auto It = Sizes.find({W.Begin, W.End});
      if (It == Sizes.end() || It->second > kMaxAccessLength)
        return;
    }
    for (const EditSet::WrapText &W : *Wraps) {
      std::string Open = W.Open;
      Open.insert(Open.find("_AT("), "_RESERVED");
      Edits.retextWrap(W.Begin, W.End, W.Open, W.Close, Open, W.Close);
    }
    Edits.insert(Begin, "WGTRACE_RESERVE_AT(" + std::to_string(Records) +
                            (AsStatement ? "); " : "), "));
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  EditSet &Edits;
};

} // namespace

void reserveStatements(ASTContext &Ctx, EditSet &Edits) {
  const SourceManager &SM = Ctx.getSourceManager();
  StatementReserver Reserver(Ctx, Edits);
  // The main file's own declarations only: the headers' are not rewritten
  // here, and walking them would cost what the rewriter's speed budget
  // does not allow.
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (SM.isInMainFile(SM.getExpansionLoc(D->getBeginLoc())))
      Reserver.TraverseDecl(D);
}

} // namespace rewriter
} // namespace wgtrace
