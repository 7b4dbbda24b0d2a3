//===- HelperFinder.cpp - Functions that kernels call ---------------------===//

#include "HelperFinder.h"

#include "HelperCloner.h"

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
  std::vector<const CallExpr *> Calls;

  bool VisitCallExpr(CallExpr *E) {
    if (E->getDirectCallee())
      Calls.push_back(E);
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

/// The function as written: a template's pattern, or FD itself.
const FunctionDecl *written(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    return Pattern;
  return FD;
}

class Finder {
public:
  explicit Finder(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}

  FoundHelpers run(const std::vector<KernelDef> &Kernels) {
    for (const KernelDef &K : Kernels)
      for (const FunctionDecl *Body : K.Bodies)
        scan(Body, K.Written);
    while (!Work.empty()) {
      auto [FD, Written] = Work.back();
      Work.pop_back();
      scan(FD, Written);
    }
    auto InOrder = [&](const KernelDef &A, const KernelDef &B) {
      return SM.isBeforeInTranslationUnit(A.Written->getBeginLoc(),
                                          B.Written->getBeginLoc());
    };
    llvm::sort(Found.InMainFile, InOrder);
    llvm::sort(Found.InHeaders, InOrder);
    return std::move(Found);
  }

private:
  void scan(const FunctionDecl *FD, const FunctionDecl *Written) {
    CallCollector Calls;
    Calls.TraverseStmt(FD->getBody());
    for (const CallExpr *Call : Calls.Calls) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = Callee->getDefinition();
      Found.Calls.push_back({Written, written(Def ? Def : Callee), Call});
      consider(Callee, Call->getBeginLoc(), Written);
    }
  }

  void consider(const FunctionDecl *Callee, SourceLocation CallLoc,
                const FunctionDecl *Caller) {
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->doesThisDeclarationHaveABody()) {
      noteUndefined(Callee, CallLoc, Caller);
      return;
    }
    const FunctionDecl *Written = written(Def);
    SourceLocation Loc = SM.getExpansionLoc(Written->getLocation());
    if (SM.isInSystemHeader(Loc))
      return;
    if (hasAnnotation(Written, "wgtrace.dispatch") || isOptedOut(Def) ||
        Written->isConstexpr() || isAccessorOrBookkeeping(Written) ||
        Written->isImplicit())
      return;
    // Lambdas are instrumented where they are written: inside a kernel
    // with the kernel, elsewhere not at all.
    if (const auto *M = dyn_cast<CXXMethodDecl>(Written))
      if (M->getParent()->isLambda())
        return;
    bool InMain = SM.isInMainFile(Loc);
    if (!InMain) {
      if (Reported.contains(Written))
        return;
      std::string Why = whyNotCopyable(Written);
      if (!Why.empty()) {
        Reported.insert(Written);
        Found.Unrewritten.push_back({Written, CallLoc, Why, Caller});
        return;
      }
    }
    std::vector<KernelDef> &List = InMain ? Found.InMainFile : Found.InHeaders;
    auto [It, Inserted] = Index.try_emplace(Written, List.size());
    if (Inserted)
      List.push_back({Written, {}, nullptr, {}});
    if (Def->isDependentContext())
      return;
    KernelDef &H = List[It->second];
    if (llvm::is_contained(H.Bodies, Def))
      return;
    H.Bodies.push_back(Def);
    Work.push_back({Def, Written});
  }

  /// A function of the project that this translation unit only declares:
  /// its body, in another file, is not instrumented from here.
  void noteUndefined(const FunctionDecl *Callee, SourceLocation CallLoc,
                     const FunctionDecl *Caller) {
    SourceLocation Loc = SM.getExpansionLoc(Callee->getLocation());
    if (Callee->getBuiltinID() || SM.isInSystemHeader(Loc) ||
        hasAnnotation(Callee, "wgtrace.dispatch") || isOptedOut(Callee) ||
        Callee->isImplicit() || Callee->isDeleted() ||
        StringRef(Callee->getQualifiedNameAsString())
            .starts_with("wgtrace::") ||
        !Reported.insert(Callee->getCanonicalDecl()).second)
      return;
    Found.Undefined.push_back(
        {Callee, CallLoc,
         "it is not defined in this file, so wgtrace cannot instrument "
         "it from here (helpers are instrumented in the file of the kernel "
         "that calls them)",
         Caller});
  }

  SourceManager &SM;
  FoundHelpers Found;
  llvm::DenseSet<const FunctionDecl *> Reported;
  llvm::DenseMap<const FunctionDecl *, size_t> Index;
  std::vector<std::pair<const FunctionDecl *, const FunctionDecl *>> Work;
};

} // namespace

FoundHelpers findHelpers(ASTContext &Ctx,
                         const std::vector<KernelDef> &Kernels) {
  return Finder(Ctx).run(Kernels);
}

} // namespace rewriter
} // namespace wgtrace
