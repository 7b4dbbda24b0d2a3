//===- ThreadOwnership.cpp - Storage each thread has its own --------------===//

#include "ThreadOwnership.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

bool hasThreadStorage(const VarDecl *VD) {
  if (VD->getTLSKind() != VarDecl::TLS_None)
    return true;
  // The attribute goes on the declaration the pragma names, which need not
  // be the one an expression refers to.
  return llvm::any_of(VD->redecls(), [](const VarDecl *R) {
    return R->hasAttr<OMPThreadPrivateDeclAttr>();
  });
}

namespace {

bool isThreadNumberCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && FD->getIdentifier() && FD->getName() == "omp_get_thread_num" &&
         FD->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

/// A variable that may hold a thread's own value: a scalar or pointer local
/// (a parameter's first value comes from the caller).
bool isCandidate(const VarDecl *VD, const VarSet &Shared) {
  if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || Shared.contains(VD))
    return false;
  QualType T = VD->getType();
  return T->isIntegralOrEnumerationType() || T->isPointerType();
}

/// The values each local is given, and the locals whose address escapes
/// (to a pointer, a reference, a data-sharing clause that gives it values
/// the body does not show).
class ValueCollector : public RecursiveASTVisitor<ValueCollector> {
public:
  explicit ValueCollector(const VarSet &Shared) : Shared(Shared) {}

  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Expr *, 2>> Values;
  VarSet Escaped;

  bool VisitVarDecl(VarDecl *VD) {
    if (isCandidate(VD, Shared) && VD->getInit())
      Values[VD].push_back(VD->getInit());
    // `int &r = v;`
    if (VD->getType()->isReferenceType() && VD->getInit())
      escapes(VD->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    // `p += n` moves p from where it was: its value stays the thread's.
    if (B->getOpcode() == BO_Assign)
      if (const auto *VD = local(B->getLHS()))
        Values[VD].push_back(B->getRHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->getOpcode() == UO_AddrOf)
      escapes(U->getSubExpr());
    return true;
  }
  /// An argument bound to a reference parameter: the callee may assign it.
  bool VisitCallExpr(CallExpr *Call) {
    for (const Expr *Arg : Call->arguments())
      escapes(Arg);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    for (const Expr *Arg : Construct->arguments())
      escapes(Arg);
    return true;
  }
  /// Reduction, lastprivate, linear, copyprivate and copyin clauses give
  /// the variable values the body does not show; private and firstprivate
  /// copies hold what it holds.
  bool TraverseOMPClause(OMPClause *C) {
    switch (C->getClauseKind()) {
    case llvm::omp::OMPC_reduction:
    case llvm::omp::OMPC_task_reduction:
    case llvm::omp::OMPC_in_reduction:
    case llvm::omp::OMPC_lastprivate:
    case llvm::omp::OMPC_linear:
    case llvm::omp::OMPC_copyprivate:
    case llvm::omp::OMPC_copyin:
      for (const Stmt *Child : C->children())
        if (const auto *E = dyn_cast_or_null<Expr>(Child))
          escapes(E);
      return true;
    default:
      return true;
    }
  }

private:
  const VarDecl *local(const Expr *E) const {
    const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return VD && isCandidate(VD, Shared) ? VD : nullptr;
  }
  /// E used as a glvalue, not read: the variable it names escapes.
  void escapes(const Expr *E) {
    if (const auto *VD = local(E))
      Escaped.insert(VD);
  }

  const VarSet &Shared;
};

} // namespace

bool dependsOnThread(const Expr *E, const VarSet &ThreadValued) {
  llvm::SmallVector<const Stmt *, 16> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S || isa<UnaryExprOrTypeTraitExpr>(S)) // sizeof: not evaluated
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()))
        if (hasThreadStorage(VD) || ThreadValued.contains(VD))
          return true;
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && isThreadNumberCall(Call))
      return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

VarSet threadValuedVariables(const Stmt *FunctionBody, const VarSet &Shared) {
  VarSet Result;
  if (!FunctionBody)
    return Result;
  ValueCollector Collector(Shared);
  Collector.TraverseStmt(const_cast<Stmt *>(FunctionBody));
  // The least fixpoint: a variable joins once every value it is given is
  // computed from the thread's own, knowing those that joined before.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[VD, Values] : Collector.Values) {
      if (Result.contains(VD) || Collector.Escaped.contains(VD))
        continue;
      if (llvm::all_of(Values, [&](const Expr *V) {
            return dependsOnThread(V, Result);
          })) {
        Result.insert(VD);
        Changed = true;
      }
    }
  }
  return Result;
}

} // namespace rewriter
} // namespace wgtrace
