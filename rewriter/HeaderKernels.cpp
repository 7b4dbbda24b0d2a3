//===- HeaderKernels.cpp - Kernels of project headers used here -----------===//

#include "HeaderKernels.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

/// The function E names, as written (a template for one of its
/// instantiations); null when E names no function.
const FunctionDecl *namedFunction(const DeclRefExpr *E) {
  const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
  if (!FD)
    return nullptr;
  const FunctionDecl *Written = FD->getTemplateInstantiationPattern();
  return Written ? Written : FD;
}

class ReferenceFinder : public RecursiveASTVisitor<ReferenceFinder> {
  using Base = RecursiveASTVisitor<ReferenceFinder>;

public:
  ReferenceFinder(ASTContext &Ctx, const std::vector<KernelDef> &Kernels)
      : SM(Ctx.getSourceManager()) {
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

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    auto It = Index.find(namedFunction(E));
    if (It == Index.end() || Enclosing.size() < 2)
      return true;
    Found.push_back({E, Enclosing.back(), It->second});
    return true;
  }

  std::vector<KernelReference> Found;

private:
  SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, size_t> Index;
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

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (!Enclosing)
      return true;
    auto It = Index.find(namedFunction(E));
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
  explicit BodyReferences(const std::vector<KernelDef> &Functions) {
    for (size_t I = 0; I < Functions.size(); ++I)
      Index[Functions[I].Written] = I;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    auto It = Index.find(namedFunction(E));
    if (It != Index.end())
      Found.push_back({E, Caller, It->second});
    return true;
  }

  const FunctionDecl *Caller = nullptr;
  std::vector<KernelReference> Found;

private:
  llvm::DenseMap<const FunctionDecl *, size_t> Index;
};

} // namespace

std::vector<KernelReference>
findReferencesFrom(ArrayRef<const FunctionDecl *> Callers,
                   const std::vector<KernelDef> &Functions) {
  BodyReferences Finder(Functions);
  for (const FunctionDecl *Caller : Callers) {
    Finder.Caller = Caller;
    // A template's calls name functions in its instantiations only.
    std::vector<const FunctionDecl *> Bodies;
    if (const FunctionTemplateDecl *T = Caller->getDescribedFunctionTemplate())
      for (const FunctionDecl *Instance : T->specializations())
        Bodies.push_back(Instance);
    else
      Bodies.push_back(Caller);
    for (const FunctionDecl *Body : Bodies)
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
findKernelReferences(ASTContext &Ctx, const std::vector<KernelDef> &Kernels) {
  if (Kernels.empty())
    return {};
  ReferenceFinder Finder(Ctx, Kernels);
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
