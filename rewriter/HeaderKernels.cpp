//===- HeaderKernels.cpp - Kernels of project headers used here -----------===//

#include "HeaderKernels.h"

#include "IndirectTargets.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

/// The function D is, as written (a template for one of its
/// instantiations: IndirectTargets.h); null when D is no function.
const FunctionDecl *functionAsWritten(const ValueDecl *D) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
  return FD ? writtenFunction(FD) : nullptr;
}

/// The function E names, as written; null when E names no function.
const FunctionDecl *namedFunction(const DeclRefExpr *E) {
  return functionAsWritten(E->getDecl());
}

/// The member calls of a list of functions that a body makes, with the
/// names of the operator() calls among them, which are no references of
/// their own.
class MemberCalls {
public:
  MemberCalls(bool Enabled,
              const llvm::DenseMap<const FunctionDecl *, size_t> &Index)
      : Enabled(Enabled), Index(Index) {}

  /// The index of the function Call calls, if it is a call to take.
  std::optional<size_t> take(const CallExpr *Call) {
    if (!Enabled)
      return std::nullopt;
    auto It = Index.find(calledMember(Call));
    if (It == Index.end())
      return std::nullopt;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
      Names.insert(Op->getCallee()->IgnoreParenImpCasts());
    return It->second;
  }
  bool isCallName(const DeclRefExpr *E) const { return Names.count(E) != 0; }
  /// The index of the constructor E runs, if it is one to take: a use
  /// that names no function and that no copy can take the place of.
  std::optional<size_t> take(const CXXConstructExpr *E) {
    if (!Enabled)
      return std::nullopt;
    auto It = Index.find(functionAsWritten(E->getConstructor()));
    if (It == Index.end())
      return std::nullopt;
    return It->second;
  }

private:
  bool Enabled;
  const llvm::DenseMap<const FunctionDecl *, size_t> &Index;
  llvm::SmallPtrSet<const Expr *, 8> Names;
};

class ReferenceFinder : public RecursiveASTVisitor<ReferenceFinder> {
  using Base = RecursiveASTVisitor<ReferenceFinder>;

public:
  ReferenceFinder(ASTContext &Ctx, const std::vector<KernelDef> &Kernels,
                  bool TakeMemberCalls)
      : SM(Ctx.getSourceManager()), Calls(TakeMemberCalls, Index) {
    for (size_t I = 0; I < Kernels.size(); ++I)
      Index[Kernels[I].Written] = I;
  }

  // Uses in template instantiations carry the pattern's locations: each is
  // a use of the instantiated kernel.
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    // Only what the main file writes (and the translation unit around it).
    if (!isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
        !SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      return true;
    Enclosing.push_back(D);
    bool Result = Base::TraverseDecl(D);
    Enclosing.pop_back();
    return Result;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (Enclosing.size() < 2)
      return true;
    if (std::optional<size_t> Callee = Calls.take(Call))
      Found.push_back({nullptr, Enclosing.back(), *Callee, Call});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (Enclosing.size() < 2)
      return true;
    if (std::optional<size_t> Callee = Calls.take(E))
      Found.push_back({nullptr, Enclosing.back(), *Callee});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    auto It = Index.find(namedFunction(E));
    if (It == Index.end() || Enclosing.size() < 2 || Calls.isCallName(E))
      return true;
    Found.push_back({E, Enclosing.back(), It->second});
    return true;
  }

  std::vector<KernelReference> Found;

private:
  SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, size_t> Index;
  MemberCalls Calls;
  std::vector<const Decl *> Enclosing;
};

/// The functions outside the main file whose bodies refer to one of a list
/// of functions.
class OutsideReferrers : public RecursiveASTVisitor<OutsideReferrers> {
  using Base = RecursiveASTVisitor<OutsideReferrers>;

public:
  OutsideReferrers(ASTContext &Ctx, const std::vector<KernelDef> &Functions)
      : SM(Ctx.getSourceManager()), Found(Functions.size()) {
    for (size_t I = 0; I < Functions.size(); ++I)
      Index[Functions[I].Written] = I;
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return Base::TraverseDecl(D);
    const FunctionDecl *Saved = Enclosing;
    Enclosing = FD;
    bool Result = Base::TraverseDecl(D);
    Enclosing = Saved;
    return Result;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) { return refers(E->getDecl()); }
  // A member function called through an object (`a.f()`).
  bool VisitMemberExpr(MemberExpr *E) { return refers(E->getMemberDecl()); }
  // A constructor, which is run where an object is made.
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    return refers(E->getConstructor());
  }

  bool refers(const ValueDecl *D) {
    if (!Enclosing)
      return true;
    auto It = Index.find(functionAsWritten(D));
    if (It == Index.end())
      return true;
    const FunctionDecl *Caller =
        Enclosing->getTemplateInstantiationPattern()
            ? Enclosing->getTemplateInstantiationPattern()
            : Enclosing;
    if (Caller == It->first ||
        SM.isInMainFile(SM.getExpansionLoc(Caller->getLocation())))
      return true;
    if (!llvm::is_contained(Found[It->second], Caller))
      Found[It->second].push_back(Caller);
    return true;
  }

  const SourceManager &SM;
  std::vector<std::vector<const FunctionDecl *>> Found;

private:
  llvm::DenseMap<const FunctionDecl *, size_t> Index;
  const FunctionDecl *Enclosing = nullptr;
};

/// The references a function's body makes to a list of functions.
class BodyReferences : public RecursiveASTVisitor<BodyReferences> {
public:
  BodyReferences(const std::vector<KernelDef> &Functions, bool TakeMemberCalls)
      : Calls(TakeMemberCalls, Index) {
    for (size_t I = 0; I < Functions.size(); ++I)
      Index[Functions[I].Written] = I;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (std::optional<size_t> Callee = Calls.take(Call))
      Found.push_back({nullptr, Caller, *Callee, Call});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (std::optional<size_t> Callee = Calls.take(E))
      Found.push_back({nullptr, Caller, *Callee});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    auto It = Index.find(namedFunction(E));
    if (It != Index.end() && !Calls.isCallName(E))
      Found.push_back({E, Caller, It->second});
    return true;
  }

  const FunctionDecl *Caller = nullptr;
  std::vector<KernelReference> Found;

private:
  llvm::DenseMap<const FunctionDecl *, size_t> Index;
  MemberCalls Calls;
};

/// The calls a body makes at given places (their closing parentheses,
/// which no two calls share: `f(x).g()` begins where `f(x)` does).
class CallsAt : public RecursiveASTVisitor<CallsAt> {
public:
  bool VisitCallExpr(CallExpr *Call) {
    if (Places.count(Call->getRParenLoc()))
      Found.emplace_back(Caller, Call);
    return true;
  }

  llvm::DenseSet<SourceLocation> Places;
  const FunctionDecl *Caller = nullptr;
  std::vector<std::pair<const FunctionDecl *, const CallExpr *>> Found;
};

/// Each body of Caller as written: a template's instantiations.
std::vector<const FunctionDecl *> bodiesOf(const FunctionDecl *Caller) {
  std::vector<const FunctionDecl *> Bodies;
  if (const FunctionTemplateDecl *T = Caller->getDescribedFunctionTemplate())
    for (const FunctionDecl *Instance : T->specializations())
      Bodies.push_back(Instance);
  else if (const auto *M = dyn_cast<CXXMethodDecl>(Caller);
           M && M->getParent()->getDescribedClassTemplate())
    // A class template's member: its specializations' members.
    for (const ClassTemplateSpecializationDecl *Spec :
         M->getParent()->getDescribedClassTemplate()->specializations())
      for (const Decl *D : Spec->decls())
        if (const auto *FD = dyn_cast<FunctionDecl>(D);
            FD && FD->getTemplateInstantiationPattern() == Caller)
          Bodies.push_back(FD);
  if (Bodies.empty())
    Bodies.push_back(Caller);
  return Bodies;
}

} // namespace

const FunctionDecl *calledMember(const CallExpr *Call) {
  const ValueDecl *Called = nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Called = Member->getMethodDecl();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
           Op && Op->getOperator() == OO_Call)
    Called = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  // A static member called through an object (`g.f(a)`): a member call's
  // form, without an object parameter.
  else if (const auto *Static =
               dyn_cast<MemberExpr>(Call->getCallee()->IgnoreParenImpCasts()))
    Called = Static->getMemberDecl();
  return functionAsWritten(Called);
}

std::vector<KernelReference>
findReferencesFrom(ArrayRef<const FunctionDecl *> Callers,
                   const std::vector<KernelDef> &Functions, bool MemberCalls) {
  BodyReferences Finder(Functions, MemberCalls);
  for (const FunctionDecl *Caller : Callers) {
    Finder.Caller = Caller;
    // A template's calls name functions in its instantiations only.
    for (const FunctionDecl *Body : bodiesOf(Caller))
      if (Body->hasBody())
        Finder.TraverseStmt(const_cast<Stmt *>(Body->getBody()));
  }
  return std::move(Finder.Found);
}

std::vector<std::pair<const FunctionDecl *, const CallExpr *>>
findMemberCallsAt(ArrayRef<const FunctionDecl *> Callers,
                  ArrayRef<KernelReference> At) {
  CallsAt Finder;
  for (const KernelReference &R : At)
    if (R.Call)
      Finder.Places.insert(R.Call->getRParenLoc());
  for (const FunctionDecl *Caller : Callers) {
    Finder.Caller = Caller;
    for (const FunctionDecl *Body : bodiesOf(Caller))
      if (Body->hasBody())
        Finder.TraverseStmt(const_cast<Stmt *>(Body->getBody()));
  }
  return std::move(Finder.Found);
}

std::vector<std::vector<const FunctionDecl *>>
findReferencesOutsideMainFile(ASTContext &Ctx,
                              const std::vector<KernelDef> &Functions) {
  if (Functions.empty())
    return {};
  OutsideReferrers Finder(Ctx, Functions);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Finder.Found);
}

std::vector<KernelReference>
findKernelReferences(ASTContext &Ctx, const std::vector<KernelDef> &Kernels,
                     bool MemberCalls) {
  if (Kernels.empty())
    return {};
  ReferenceFinder Finder(Ctx, Kernels, MemberCalls);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Finder.Found);
}

std::string sharedModuleName(StringRef File, unsigned Line, StringRef Kernel) {
  // FNV-1a over the place: a name no user writes, the same in every file.
  uint64_t Hash = 0xcbf29ce484222325ull;
  auto Mix = [&](StringRef Text) {
    for (unsigned char C : Text) {
      Hash ^= C;
      Hash *= 0x100000001b3ull;
    }
    Hash ^= 0xff;
    Hash *= 0x100000001b3ull;
  };
  Mix(File);
  Mix(std::to_string(Line));
  Mix(Kernel);
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  OS << "wgtrace_kernel_" << llvm::format_hex_no_prefix(Hash, 16) << "_";
  return Name;
}

} // namespace rewriter
} // namespace wgtrace
