//===- HelperFinder.cpp - Functions that kernels call ---------------------===//

#include "HelperFinder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

bool isOptedOut(const FunctionDecl *FD) {
  for (const FunctionDecl *R : FD->redecls())
    if (hasAnnotation(R, "wgtrace.no_instrument"))
      return true;
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    if (Pattern != FD)
      return isOptedOut(Pattern);
  return false;
}

namespace {

/// The functions a body calls, outside unevaluated operands.
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  std::vector<std::pair<const FunctionDecl *, SourceLocation>> Callees;

  bool VisitCallExpr(CallExpr *E) {
    if (const FunctionDecl *FD = E->getDirectCallee())
      Callees.push_back({FD, E->getBeginLoc()});
    return true;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc) { return true; }
};

bool isAccessorOrBookkeeping(const FunctionDecl *FD) {
  if (isa<CXXConstructorDecl>(FD) || isa<CXXDestructorDecl>(FD) ||
      isa<CXXConversionDecl>(FD) || FD->isOverloadedOperator())
    return true;
  const auto *M = dyn_cast<CXXMethodDecl>(FD);
  if (!M || M->isStatic())
    return false;
  QualType R = M->getReturnType();
  if (R->isReferenceType() || R->isPointerType())
    return true;
  // A const member whose body is one return statement is a getter (size(),
  // empty()): it reads the object's bookkeeping, not the kernel's data.
  if (M->isConst())
    if (const auto *Body = dyn_cast_or_null<CompoundStmt>(M->getBody()))
      return Body->size() == 1 && isa<ReturnStmt>(Body->body_front());
  return false;
}

class Finder {
public:
  Finder(ASTContext &Ctx, std::vector<UnrewrittenHelper> &InHeaders)
      : SM(Ctx.getSourceManager()), InHeaders(InHeaders) {}

  std::vector<KernelDef> run(const std::vector<KernelDef> &Kernels) {
    for (const KernelDef &K : Kernels)
      for (const FunctionDecl *Body : K.Bodies)
        scan(Body);
    while (!Work.empty()) {
      const FunctionDecl *FD = Work.back();
      Work.pop_back();
      scan(FD);
    }
    llvm::sort(Helpers, [&](const KernelDef &A, const KernelDef &B) {
      return SM.isBeforeInTranslationUnit(A.Written->getBeginLoc(),
                                          B.Written->getBeginLoc());
    });
    return std::move(Helpers);
  }

private:
  void scan(const FunctionDecl *FD) {
    CallCollector Calls;
    Calls.TraverseStmt(FD->getBody());
    for (auto [Callee, CallLoc] : Calls.Callees)
      consider(Callee, CallLoc);
  }

  void consider(const FunctionDecl *Callee, SourceLocation CallLoc) {
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->doesThisDeclarationHaveABody())
      return;
    const FunctionDecl *Written = Def->getTemplateInstantiationPattern();
    if (!Written)
      Written = Def;
    SourceLocation Loc = SM.getExpansionLoc(Written->getLocation());
    if (SM.isInSystemHeader(Loc))
      return;
    if (hasAnnotation(Written, "wgtrace.dispatch") || isOptedOut(Def) ||
        Written->isConstexpr() || isAccessorOrBookkeeping(Written) ||
        Written->isImplicit())
      return;
    if (!SM.isInMainFile(Loc)) {
      if (Reported.insert(Written).second)
        InHeaders.push_back({Written, CallLoc});
      return;
    }
    // Lambdas are instrumented where they are written: inside a kernel
    // with the kernel, elsewhere not at all.
    if (const auto *M = dyn_cast<CXXMethodDecl>(Written))
      if (M->getParent()->isLambda())
        return;
    auto [It, Inserted] = Index.try_emplace(Written, Helpers.size());
    if (Inserted)
      Helpers.push_back({Written, {}});
    if (Def->isDependentContext())
      return;
    KernelDef &H = Helpers[It->second];
    if (llvm::is_contained(H.Bodies, Def))
      return;
    H.Bodies.push_back(Def);
    Work.push_back(Def);
  }

  SourceManager &SM;
  std::vector<UnrewrittenHelper> &InHeaders;
  llvm::DenseSet<const FunctionDecl *> Reported;
  std::vector<KernelDef> Helpers;
  llvm::DenseMap<const FunctionDecl *, size_t> Index;
  std::vector<const FunctionDecl *> Work;
};

} // namespace

std::vector<KernelDef> findHelpers(ASTContext &Ctx,
                                   const std::vector<KernelDef> &Kernels,
                                   std::vector<UnrewrittenHelper> &InHeaders) {
  return Finder(Ctx, InHeaders).run(Kernels);
}

} // namespace rewriter
} // namespace wgtrace
