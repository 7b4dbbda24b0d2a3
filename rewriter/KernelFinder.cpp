//===- KernelFinder.cpp - Kernels and dispatch sites of a file ------------===//

#include "KernelFinder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace wgtrace {
namespace rewriter {

bool hasAnnotation(const FunctionDecl *FD, StringRef Annotation) {
  for (const auto *A : FD->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Annotation)
      return true;
  return false;
}

std::string kernelName(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->printQualifiedName(OS, Policy);
  return Name;
}

namespace {

class Collector : public MatchFinder::MatchCallback {
public:
  explicit Collector(SourceManager &SM) : SM(SM) {}

  void run(const MatchFinder::MatchResult &Result) override {
    if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("kernel"))
      addKernel(FD);
    if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("dispatch"))
      addCall(Call);
  }

  FoundEntities take() {
    auto Offset = [&](SourceLocation L) {
      return SM.getFileOffset(SM.getExpansionLoc(L));
    };
    llvm::sort(Found.Kernels, [&](const KernelDef &A, const KernelDef &B) {
      return Offset(A.Written->getBeginLoc()) <
             Offset(B.Written->getBeginLoc());
    });
    llvm::sort(Found.Calls, [&](const DispatchCall &A, const DispatchCall &B) {
      return Offset(A.Loc) < Offset(B.Loc);
    });
    return std::move(Found);
  }

private:
  bool inMainFile(SourceLocation L) const {
    return L.isValid() && SM.isInMainFile(SM.getExpansionLoc(L));
  }

  void addKernel(const FunctionDecl *FD) {
    if (!hasAnnotation(FD, "wgtrace.dispatch") ||
        !FD->doesThisDeclarationHaveABody())
      return;
    const FunctionDecl *Written = FD->getTemplateInstantiationPattern();
    if (!Written)
      Written = FD;
    if (!inMainFile(Written->getLocation()))
      return;
    auto [It, Inserted] =
        KernelIndex.try_emplace(Written, Found.Kernels.size());
    if (Inserted)
      Found.Kernels.push_back({Written, {}});
    KernelDef &K = Found.Kernels[It->second];
    // A dependent body has no implicit casts to tell loads apart; the
    // instantiations do.
    if (FD->isDependentContext())
      return;
    if (!llvm::is_contained(K.Bodies, FD))
      K.Bodies.push_back(FD);
  }

  void addCall(const CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Callee->getNumParams() == 0)
      return;
    // The overload that takes a SiteRef is the one the rewriter targets
    // (and the one the other overload forwards to).
    QualType First = Callee->getParamDecl(0)->getType();
    if (const auto *RD = First->getAsCXXRecordDecl())
      if (RD->getQualifiedNameAsString() == "wgtrace::detail::SiteRef")
        return;
    SourceLocation Loc = Call->getBeginLoc();
    if (!inMainFile(Loc) || !SeenCalls.insert(Loc).second)
      return;
    Found.Calls.push_back({Call, Loc});
  }

  SourceManager &SM;
  FoundEntities Found;
  llvm::DenseMap<const FunctionDecl *, size_t> KernelIndex;
  llvm::DenseSet<SourceLocation> SeenCalls;
};

} // namespace

FoundEntities findKernelsAndCalls(ASTContext &Ctx) {
  Collector C(Ctx.getSourceManager());
  MatchFinder Finder;
  Finder.addMatcher(
      functionDecl(isDefinition(), hasAttr(attr::Annotate)).bind("kernel"), &C);
  Finder.addMatcher(
      callExpr(callee(functionDecl(hasName("::wgtrace::dispatch"))))
          .bind("dispatch"),
      &C);
  Finder.matchAST(Ctx);
  return C.take();
}

} // namespace rewriter
} // namespace wgtrace
