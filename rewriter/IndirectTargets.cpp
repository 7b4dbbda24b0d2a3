//===- IndirectTargets.cpp - What calls through pointers reach ------------===//

#include "IndirectTargets.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/TemplateBase.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

const FunctionDecl *writtenFunction(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    return Pattern;
  return FD;
}

/// How the end of the file spells things: fully qualified, without the
/// scopes nobody can write (an anonymous namespace's members are found
/// without it).
static PrintingPolicy endOfFilePolicy(const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.FullyQualifiedName = true;
  Policy.SuppressScope = false;
  Policy.SuppressUnwrittenScope = true;
  Policy.PrintCanonicalTypes = true;
  return Policy;
}

/// `<float, 4>` for an instantiation of a template, "" otherwise.
static std::string templateArguments(const FunctionDecl *FD,
                                     const PrintingPolicy &Policy) {
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args)
    return "";
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printTemplateArgumentList(OS, Args->asArray(), Policy);
  return Out;
}

FunctionSpelling spellFunction(ASTContext &Ctx, const FunctionDecl *FD,
                               bool Member) {
  PrintingPolicy Policy = endOfFilePolicy(Ctx);
  FunctionSpelling Out;
  llvm::raw_string_ostream OS(Out.Name);
  OS << "::";
  writtenFunction(FD)->printQualifiedName(OS, Policy);
  Out.Arguments = templateArguments(FD, Policy);
  // `struct model (bool)`: the type is written inside function bodies too
  // (definedElsewhere's check), where a variable may shadow a class's name
  // (CloverLeaf's `auto model = create_context(...)` of a `struct model`);
  // an elaborated type specifier looks up types only. A member pointer's
  // class is a nested name specifier, which takes no keyword (`struct
  // G::*` is no type): it is written as the declarator of the member's
  // function type, `float (G::*)(struct V) const`.
  std::string Declarator;
  if (Member)
    Declarator = Ctx.getRecordType(cast<CXXMethodDecl>(FD)->getParent())
                     .getAsString(Policy) +
                 "::*";
  Policy.SuppressTagKeyword = false;
  llvm::raw_string_ostream TypeOS(Out.Type);
  FD->getType().print(TypeOS, Policy, Declarator);
  return Out;
}

std::vector<IndirectTargetMeta>
indirectTargets(ASTContext &Ctx, const FoundHelpers &Helpers,
                const HelperCloner &Cloner,
                const llvm::DenseSet<const FunctionDecl *> &Partial) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<IndirectTargetMeta> Out;
  for (const IndirectTarget &T : Helpers.IndirectTargets) {
    const FunctionDecl *Written = writtenFunction(T.Function);
    FunctionSpelling Spelled = spellFunction(Ctx, T.Function, T.Member);
    IndirectTargetMeta Meta;
    Meta.Member = T.Member;
    Meta.Partial = Partial.contains(Written);
    Meta.Plain = Spelled.Name + Spelled.Arguments;
    if (SM.isInMainFile(SM.getExpansionLoc(Written->getLocation()))) {
      Meta.Instrumented = Meta.Plain;
    } else {
      std::string Copy = Cloner.copyName(Written);
      if (Copy.empty())
        continue;
      Meta.Instrumented = Copy + Spelled.Arguments;
    }
    Meta.Type = std::move(Spelled.Type);
    Out.push_back(std::move(Meta));
  }
  return Out;
}

} // namespace rewriter
} // namespace wgtrace
