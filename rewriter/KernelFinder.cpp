//===- KernelFinder.cpp - Kernels and dispatch sites of a file ------------===//

#include "KernelFinder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
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

const CXXRecordDecl *closureOf(const Expr *E) {
  if (!E)
    return nullptr;
  QualType T = E->getType().getNonReferenceType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->isLambda() ? RD : nullptr;
}

static std::string textOf(const ASTContext &Ctx, SourceRange R) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getExpansionLoc(R.getBegin()), SM.getExpansionLoc(R.getEnd()));
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

std::string lambdaText(const LambdaExpr *L) {
  return textOf(L->getLambdaClass()->getASTContext(), L->getSourceRange());
}

std::string lambdaCaptures(const LambdaExpr *L) {
  return textOf(L->getLambdaClass()->getASTContext(), L->getIntroducerRange());
}

namespace {

/// Where a kernel's text begins, for ordering.
SourceLocation kernelBegin(const KernelDef &K) {
  return K.Lambda ? K.Lambda->getBeginLoc() : K.Written->getBeginLoc();
}

/// Whether D is written inside a WGTRACE_DISPATCH function: a lambda
/// there is instrumented with that kernel.
bool isInsideKernel(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
      const FunctionDecl *Written = FD->getTemplateInstantiationPattern();
      if (hasAnnotation(Written ? Written : FD, "wgtrace.dispatch"))
        return true;
    }
  return false;
}

class Collector : public MatchFinder::MatchCallback {
public:
  explicit Collector(SourceManager &SM) : SM(SM) {}

  void run(const MatchFinder::MatchResult &Result) override {
    if (const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("kernel"))
      addKernel(FD);
    if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("dispatch"))
      addCall(Call);
    if (const auto *L = Result.Nodes.getNodeAs<LambdaExpr>("lambda"))
      LambdaOf[L->getLambdaClass()] = L;
  }

  FoundEntities take() {
    for (const CXXRecordDecl *Closure : DispatchedClosures)
      addLambdaKernel(Closure);
    auto Offset = [&](SourceLocation L) {
      return SM.getFileOffset(SM.getExpansionLoc(L));
    };
    llvm::sort(Found.Kernels, [&](const KernelDef &A, const KernelDef &B) {
      return Offset(kernelBegin(A)) < Offset(kernelBegin(B));
    });
    llvm::sort(Found.HeaderKernels,
               [&](const KernelDef &A, const KernelDef &B) {
                 return SM.isBeforeInTranslationUnit(A.Written->getBeginLoc(),
                                                     B.Written->getBeginLoc());
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
    // A kernel of a project header is instrumented where the main file
    // uses it (HelperCloner copies it); system headers are not the user's.
    bool InMain = inMainFile(Written->getLocation());
    if (!InMain &&
        SM.isInSystemHeader(SM.getExpansionLoc(Written->getLocation())))
      return;
    std::vector<KernelDef> &List = InMain ? Found.Kernels : Found.HeaderKernels;
    auto [It, Inserted] = KernelIndex.try_emplace(Written, List.size());
    if (Inserted)
      List.push_back({Written, {}, nullptr, {}, {}});
    KernelDef &K = List[It->second];
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
    bool InMain = inMainFile(Loc);
    // A launch written in a project header is not rewritten, only reported.
    if (!InMain &&
        (Loc.isInvalid() || SM.isInSystemHeader(SM.getExpansionLoc(Loc))))
      return;
    // Each instantiation of a template that dispatches a lambda has its own
    // closure type: all of them stand for the one lambda kernel.
    if (InMain)
      if (const CXXRecordDecl *Closure = closureOf(Call->getArg(0)))
        if (!llvm::is_contained(DispatchedClosures, Closure))
          DispatchedClosures.push_back(Closure);
    std::vector<DispatchCall> &List =
        InMain ? Found.Calls : Found.CallsInHeaders;
    auto [At, New] = CallAt.try_emplace(Loc, List.size());
    if (New)
      List.push_back({Call, Loc, {}});
    // Only a rewritten launch needs each instantiation's call.
    if (InMain)
      List[At->second].Instances.push_back(Call);
  }

  /// A lambda given to wgtrace::dispatch is a kernel: its call operator
  /// gets the prologue, its body's accesses are wrapped.
  void addLambdaKernel(const CXXRecordDecl *Closure) {
    auto It = LambdaOf.find(Closure);
    if (It == LambdaOf.end())
      return;
    const LambdaExpr *L = It->second;
    if (!inMainFile(L->getBeginLoc()))
      return;
    if (isInsideKernel(Closure)) {
      Found.LambdasInKernels.push_back(L->getBeginLoc());
      return;
    }
    SourceLocation Key = SM.getExpansionLoc(L->getBeginLoc());
    auto [Index, Inserted] =
        LambdaKernelIndex.try_emplace(Key, Found.Kernels.size());
    if (Inserted) {
      KernelDef K;
      K.Written = Closure->getLambdaCallOperator();
      K.Lambda = L;
      Found.Kernels.push_back(std::move(K));
    }
    KernelDef &K = Found.Kernels[Index->second];
    K.Closures.push_back(Closure);
    std::vector<const FunctionDecl *> Bodies;
    if (const FunctionTemplateDecl *Generic =
            Closure->getDependentLambdaCallOperator()) {
      for (const FunctionDecl *Spec : Generic->specializations())
        Bodies.push_back(Spec);
    } else {
      Bodies.push_back(Closure->getLambdaCallOperator());
    }
    for (const FunctionDecl *Body : Bodies)
      if (Body->hasBody() && !Body->isDependentContext() &&
          !llvm::is_contained(K.Bodies, Body))
        K.Bodies.push_back(Body);
  }

  SourceManager &SM;
  FoundEntities Found;
  llvm::DenseMap<const FunctionDecl *, size_t> KernelIndex;
  /// Where the launch at a location is, in Found.Calls (the main file's)
  /// or Found.CallsInHeaders.
  llvm::DenseMap<SourceLocation, size_t> CallAt;
  llvm::DenseMap<const CXXRecordDecl *, const LambdaExpr *> LambdaOf;
  std::vector<const CXXRecordDecl *> DispatchedClosures;
  llvm::DenseMap<SourceLocation, size_t> LambdaKernelIndex;
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
  Finder.addMatcher(lambdaExpr().bind("lambda"), &C);
  Finder.matchAST(Ctx);
  return C.take();
}

} // namespace rewriter
} // namespace wgtrace
