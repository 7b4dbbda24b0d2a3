//===- KernelInstances.cpp - Template kernels, one export each ------------===//

#include "KernelInstances.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/PrettyPrinter.h"
#include "clang/AST/TemplateBase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace clang;
using llvm::function_ref;

namespace wgtrace {
namespace rewriter {

std::optional<std::string> instanceTagInPattern(const FunctionDecl *Pattern) {
  const FunctionTemplateDecl *Template =
      Pattern->getDescribedFunctionTemplate();
  if (!Template)
    return std::nullopt;
  std::string Tag = "::wgtrace::detail::InstanceTag<";
  bool First = true;
  for (const NamedDecl *P : *Template->getTemplateParameters()) {
    if (!P->getIdentifier())
      return std::nullopt;
    std::string Name = P->getName().str();
    std::string Item;
    if (const auto *Type = dyn_cast<TemplateTypeParmDecl>(P))
      Item = Name + (Type->isParameterPack() ? "..." : "");
    else if (const auto *Value = dyn_cast<NonTypeTemplateParmDecl>(P))
      Item = "::wgtrace::detail::Value<" + Name + ">" +
             (Value->isParameterPack() ? "..." : "");
    else
      return std::nullopt;
    Tag += (First ? "" : ", ") + Item;
    First = false;
  }
  return Tag + ">";
}

bool everyNamedTag(QualType T, function_ref<bool(const TagDecl *)> Check) {
  T = T.getCanonicalType();
  while (true) {
    if (const auto *P = T->getAs<PointerType>())
      T = P->getPointeeType().getCanonicalType();
    else if (const auto *R = T->getAs<ReferenceType>())
      T = R->getPointeeType().getCanonicalType();
    else if (const ArrayType *A = T->getAsArrayTypeUnsafe())
      T = A->getElementType().getCanonicalType();
    else
      break;
  }
  if (const auto *M = T->getAs<MemberPointerType>())
    return everyNamedTag(QualType(M->getClass(), 0), Check) &&
           everyNamedTag(M->getPointeeType(), Check);
  if (const auto *F = T->getAs<FunctionProtoType>())
    return everyNamedTag(F->getReturnType(), Check) &&
           llvm::all_of(F->getParamTypes(),
                        [&](QualType P) { return everyNamedTag(P, Check); });
  const TagDecl *Tag = T->getAsTagDecl();
  if (!Tag)
    return true;
  if (!Check(Tag))
    return false;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Tag))
    return llvm::all_of(
        Spec->getTemplateArgs().asArray(),
        [&](const TemplateArgument &A) { return everyNamedTag(A, Check); });
  return true;
}

bool everyNamedTag(const TemplateArgument &A,
                   function_ref<bool(const TagDecl *)> Check) {
  switch (A.getKind()) {
  case TemplateArgument::Type:
    return everyNamedTag(A.getAsType(), Check);
  case TemplateArgument::Integral:
    return everyNamedTag(A.getIntegralType(), Check);
  case TemplateArgument::Null:
    return true;
  case TemplateArgument::Pack:
    return llvm::all_of(A.pack_elements(), [&](const TemplateArgument &P) {
      return everyNamedTag(P, Check);
    });
  default:
    return false;
  }
}

/// Whether the end of the file can name T: no local, unnamed or lambda
/// class, no member type that is not public, in T or its template
/// arguments.
static bool nameableAtEnd(QualType T) {
  return everyNamedTag(T, [](const TagDecl *Tag) {
    // The translation unit has no context: dyn_cast_or_null ends the walk.
    for (const Decl *D = Tag; D;
         D = dyn_cast_or_null<Decl>(D->getDeclContext())) {
      const auto *Named = dyn_cast<TagDecl>(D);
      if (Named &&
          (!Named->getIdentifier() ||
           (isa<CXXRecordDecl>(Named) &&
            cast<CXXRecordDecl>(Named)->isLambda()) ||
           (Named->getAccess() != AS_none && Named->getAccess() != AS_public)))
        return false;
      if (isa<FunctionDecl>(D))
        return false;
    }
    return true;
  });
}

std::optional<std::string> instanceTag(const FunctionDecl *Instance) {
  const TemplateArgumentList *Args = Instance->getTemplateSpecializationArgs();
  if (!Args)
    return std::nullopt;
  const ASTContext &Ctx = Instance->getASTContext();
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.FullyQualifiedName = true;
  Policy.SuppressScope = false;
  Policy.SuppressUnwrittenScope = true;
  Policy.PrintCanonicalTypes = true;
  std::string Tag = "::wgtrace::detail::InstanceTag<";
  bool First = true;
  std::function<bool(const TemplateArgument &)> Add =
      [&](const TemplateArgument &A) {
        std::string Item;
        switch (A.getKind()) {
        case TemplateArgument::Type:
          if (!nameableAtEnd(A.getAsType()))
            return false;
          Item = A.getAsType().getAsString(Policy);
          break;
        case TemplateArgument::Integral: {
          QualType Type = A.getIntegralType();
          if (!nameableAtEnd(Type))
            return false;
          Item = "::wgtrace::detail::Value<static_cast<" +
                 Type.getAsString(Policy) + ">(" +
                 toString(A.getAsIntegral(), 10) + ")>";
          break;
        }
        case TemplateArgument::Pack:
          for (const TemplateArgument &P : A.pack_elements())
            if (!Add(P))
              return false;
          return true;
        default:
          return false;
        }
        Tag += (First ? "" : ", ") + Item;
        First = false;
        return true;
      };
  for (const TemplateArgument &A : Args->asArray())
    if (!Add(A))
      return std::nullopt;
  return Tag + ">";
}

std::string instanceName(const FunctionDecl *Instance,
                         const std::string &Base) {
  const TemplateArgumentList *Args = Instance->getTemplateSpecializationArgs();
  if (!Args)
    return Base;
  std::string Out = Base;
  llvm::raw_string_ostream OS(Out);
  printTemplateArgumentList(
      OS, Args->asArray(),
      PrintingPolicy(Instance->getASTContext().getLangOpts()));
  return Out;
}

} // namespace rewriter
} // namespace wgtrace
