//===- InstanceGates.cpp - Accesses some instantiations make --------------===//

#include "InstanceGates.h"

#include "KernelInstances.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace clang;
using llvm::StringRef;

namespace wgtrace {
namespace rewriter {

/// Whether Tag, a class or enumeration an instantiation's argument names,
/// is declared before Before, where the template's text names it. A
/// specialization is named through its template (its own declaration may
/// come later: an implicit instantiation).
static bool declaredBefore(const TagDecl *Tag, SourceLocation Before) {
  const Decl *Named = Tag->getFirstDecl();
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Tag))
    Named = Spec->getSpecializedTemplate()->getCanonicalDecl();
  const SourceManager &SM = Tag->getASTContext().getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Named->getLocation());
  return At.isValid() && SM.isBeforeInTranslationUnit(At, Before);
}

std::optional<std::string>
instanceTest(const FunctionDecl *Pattern,
             llvm::ArrayRef<const FunctionDecl *> Making, SourceLocation Before,
             std::string &Why) {
  // Its own tag holds its own parameters only: the arguments of an
  // enclosing class template (a member template of one) would be missing.
  const DeclContext *Parent = Pattern->getDeclContext();
  if (Parent->isDependentContext()) {
    Why = "it is in a member of a class template, which the test cannot "
          "tell apart by the class's arguments";
    return std::nullopt;
  }
  const FunctionTemplateDecl *Template =
      Pattern->getDescribedFunctionTemplate();
  const auto *Class = dyn_cast<CXXRecordDecl>(Parent);
  if (!Template || (Class && Class->isLambda()) ||
      llvm::any_of(*Template->getTemplateParameters(),
                   [](const NamedDecl *P) { return P->isImplicit(); })) {
    Why = "it is in a generic lambda, or a template whose parameters the "
          "test cannot name";
    return std::nullopt;
  }
  std::optional<std::string> Own = instanceTagInPattern(Pattern);
  if (!Own) {
    Why = "it is in a template with an unnamed or template template "
          "parameter, which the test cannot name";
    return std::nullopt;
  }
  auto Named = [Before](const TemplateArgument &A) {
    return everyNamedTag(A, [Before](const TagDecl *Tag) {
      return declaredBefore(Tag, Before);
    });
  };
  std::vector<std::string> Tags;
  for (const FunctionDecl *Instance : Making) {
    const TemplateArgumentList *Args =
        Instance->getTemplateSpecializationArgs();
    std::optional<std::string> Tag = instanceTag(Instance);
    if (!Args || !Tag || !llvm::all_of(Args->asArray(), Named)) {
      std::string Name;
      llvm::raw_string_ostream OS(Name);
      Instance->getNameForDiagnostic(
          OS, Instance->getASTContext().getPrintingPolicy(),
          /*Qualified=*/true);
      Why = "an argument of '" + Name +
            "' cannot be named in the template's text (a local, unnamed or "
            "private type, a type declared after the template or its "
            "copy, a pointer or template template argument)";
      return std::nullopt;
    }
    Tags.push_back(std::move(*Tag));
  }
  // In one order whatever order the instantiations come in.
  llvm::sort(Tags);
  std::string Test = "::wgtrace::detail::kInstanceIn<" + *Own;
  for (const std::string &Tag : Tags)
    Test += ", " + Tag;
  return Test + ">";
}

std::string gatedOpen(StringRef Open, StringRef Test) {
  // The access forms of RewriteContext::accessMacro, and only those: the
  // others (a critical section's, a bit-field's, a table read's) have no
  // variant that tests.
  static constexpr StringRef Forms[] = {"LOAD",
                                        "STORE",
                                        "UPDATE",
                                        "LOAD_REF",
                                        "STORE_REF",
                                        "UPDATE_REF",
                                        "ATOMIC_LOAD",
                                        "ATOMIC_STORE",
                                        "ATOMIC_UPDATE",
                                        "ATOMIC_LOAD_REF",
                                        "ATOMIC_STORE_REF",
                                        "ATOMIC_UPDATE_REF"};
  StringRef Rest = Open;
  if (!Rest.consume_front("WGTRACE_"))
    return "";
  size_t At = Rest.find("_AT(");
  if (At == StringRef::npos || !llvm::is_contained(Forms, Rest.take_front(At)))
    return "";
  // `WGTRACE_LOAD_AT(3, ` : the site, then the test.
  size_t SiteEnd = Open.find(", ");
  if (SiteEnd == StringRef::npos)
    return "";
  SiteEnd += 2;
  return ("WGTRACE_WHEN_" + Rest.take_front(At) + "_AT(" +
          Open.slice(Open.find("_AT(") + 4, SiteEnd) + "(" + Test + "), " +
          Open.drop_front(SiteEnd))
      .str();
}

} // namespace rewriter
} // namespace wgtrace
