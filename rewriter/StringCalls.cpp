//===- StringCalls.cpp - std::basic_string members that record ------------===//

#include "StringCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

bool isStdClass(QualType T, StringRef Name) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         RD->getName() == Name;
}

/// The character type of std::basic_string<C, std::char_traits<C>,
/// std::allocator<C>> when RD is one.
std::optional<QualType> stringCharacter(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      Spec->getName() != "basic_string" || Spec->getTemplateArgs().size() != 3)
    return std::nullopt;
  for (unsigned I = 0; I < 3; ++I)
    if (Spec->getTemplateArgs()[I].getKind() != TemplateArgument::Type)
      return std::nullopt;
  QualType C = Spec->getTemplateArgs()[0].getAsType().getCanonicalType();
  if (!C->isAnyCharacterType() ||
      !isStdClass(Spec->getTemplateArgs()[1].getAsType(), "char_traits") ||
      !isStdClass(Spec->getTemplateArgs()[2].getAsType(), "allocator"))
    return std::nullopt;
  return C;
}

/// One letter per parameter of a member: 'S' a string (by const
/// reference), 'P' a pointer to constant characters, 'D' a pointer to
/// characters, 'N' a count or a position, 'C' a character, 'I' an
/// iterator; '?' anything else.
std::string signature(const CXXMethodDecl *M, QualType Char) {
  std::string Letters;
  for (const ParmVarDecl *P : M->parameters()) {
    QualType T = P->getType().getCanonicalType();
    char L = '?';
    if (T->isLValueReferenceType() && T->getPointeeType().isConstQualified() &&
        T->getPointeeType()->getAsCXXRecordDecl() == M->getParent())
      L = 'S';
    else if (T->isPointerType() &&
             T->getPointeeType().getUnqualifiedType() == Char)
      L = T->getPointeeType().isConstQualified() ? 'P' : 'D';
    else if (T.getUnqualifiedType() == Char)
      L = 'C';
    else if (T->isIntegerType())
      L = 'N';
    else if (T->getAsCXXRecordDecl() &&
             T->getAsCXXRecordDecl()->getIdentifier() &&
             T->getAsCXXRecordDecl()->getName() == "__normal_iterator")
      L = 'I';
    Letters += L;
  }
  return Letters;
}

/// Whether a member of this name with these parameters is recorded.
bool recordedForm(StringRef Name, StringRef Signature) {
  auto OneOf = [&](std::initializer_list<StringRef> Forms) {
    return llvm::is_contained(Forms, Signature);
  };
  if (Name == "append" || Name == "assign")
    return OneOf({"S", "SNN", "PN", "P", "NC"});
  if (Name == "operator+=" || Name == "operator=")
    return OneOf({"S", "P", "C"});
  if (Name == "push_back")
    return Signature == "C";
  if (Name == "resize")
    return OneOf({"N", "NC"});
  if (Name == "insert")
    return OneOf({"NS", "NPN", "NP", "NNC", "IC", "INC"});
  if (Name == "replace")
    return OneOf({"NNS", "NNPN", "NNP", "NNNC"});
  if (Name == "copy")
    return Signature == "DNN";
  if (Name == "compare")
    return Signature == "S";
  return false;
}

} // namespace

bool redirectStringMember(RewriteContext &RC, const MemoryModel &Model,
                          const CallExpr *E, const CXXMethodDecl *M,
                          const Expr *Object) {
  std::optional<QualType> Char = stringCharacter(M->getParent());
  if (!Char)
    return false;
  std::string Name = M->getNameAsString();
  std::string Signature = signature(M, *Char);
  if (!recordedForm(Name, Signature))
    return false;
  // A member operator's object is its first argument.
  const unsigned Offset = isa<CXXOperatorCallExpr>(E) ? 1 : 0;
  if (E->getNumArgs() != Signature.size() + Offset)
    return false;
  std::string Roles;
  for (size_t I = 0; I < Signature.size(); ++I) {
    char Role = '-';
    // A string literal is the program's constant text, not a buffer.
    const Expr *Arg = E->getArg(unsigned(I) + Offset);
    if (Signature[I] == 'P' &&
        !isa<clang::StringLiteral>(Arg->IgnoreParenImpCasts()) &&
        Model.pointerTargetIsMemory(Arg)) {
      // A null-terminated string of kernel memory: strlen measures it,
      // and what it reads is not shown by the library.
      if (I + 1 == Signature.size() || Signature[I + 1] != 'N')
        return false;
      Role = 'M';
    }
    Roles += Role;
  }
  return RC.wrapRecordedObject(Object, E, "string", Roles);
}

} // namespace rewriter
} // namespace wgtrace
