//===- PrivateAccess.cpp - Non-public members named by generated code -----===//

#include "PrivateAccess.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/CXXInheritance.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/QualTypeNames.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

namespace {

/// A type of T's spelling that code at namespace scope cannot name: a
/// private or protected nested type, a local or unnamed one (canonical
/// types: the typedefs are gone, their private names with them).
const TagDecl *hiddenType(QualType T) {
  // clang:: spelled out: the unity build (GCC's half of the tests) puts
  // this file after one that uses namespace llvm, whose IR has these names.
  const clang::Type *Ty = T.getCanonicalType().getTypePtr();
  if (const auto *P = dyn_cast<clang::PointerType>(Ty))
    return hiddenType(P->getPointeeType());
  if (const auto *R = dyn_cast<ReferenceType>(Ty))
    return hiddenType(R->getPointeeType());
  if (const auto *A = dyn_cast<clang::ArrayType>(Ty))
    return hiddenType(A->getElementType());
  if (const auto *MP = dyn_cast<MemberPointerType>(Ty)) {
    if (const TagDecl *Hidden = hiddenType(MP->getPointeeType()))
      return Hidden;
    return hiddenType(QualType(MP->getClass(), 0));
  }
  if (const auto *F = dyn_cast<clang::FunctionProtoType>(Ty)) {
    if (const TagDecl *Hidden = hiddenType(F->getReturnType()))
      return Hidden;
    for (QualType P : F->param_types())
      if (const TagDecl *Hidden = hiddenType(P))
        return Hidden;
    return nullptr;
  }
  const auto *Tag = dyn_cast<TagType>(Ty);
  if (!Tag)
    return nullptr;
  for (const Decl *D = Tag->getDecl(); !isa<TranslationUnitDecl>(D);
       D = cast<Decl>(D->getDeclContext())) {
    const auto *TD = dyn_cast<TagDecl>(D);
    if (D->getDeclContext()->isFunctionOrMethod() ||
        (TD && !TD->getIdentifier() && !TD->getTypedefNameForAnonDecl()))
      return Tag->getDecl();
    if (isa<CXXRecordDecl>(D->getDeclContext()) &&
        (D->getAccess() == AS_private || D->getAccess() == AS_protected))
      return Tag->getDecl();
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D))
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
        if (Arg.getKind() == TemplateArgument::Type)
          if (const TagDecl *Hidden = hiddenType(Arg.getAsType()))
            return Hidden;
  }
  return nullptr;
}

/// T as code at namespace scope spells it, every name from the global
/// scope (`::std::vector<double, ::std::allocator<double> >`).
std::string spelled(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  Policy.PrintCanonicalTypes = true;
  return TypeName::getFullyQualifiedName(T.getCanonicalType(), Ctx, Policy,
                                         /*WithGlobalNsPrefix=*/true);
}

/// The class template whose pattern or specialization owns D, or null.
const ClassTemplateDecl *ownerTemplate(const ValueDecl *D) {
  const auto *Owner = dyn_cast<CXXRecordDecl>(D->getDeclContext());
  if (!Owner)
    return nullptr;
  if (const ClassTemplateDecl *T = Owner->getDescribedClassTemplate())
    return T;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Owner))
    if (Spec->getTemplateSpecializationKind() != TSK_ExplicitSpecialization)
      return Spec->getSpecializedTemplate();
  return nullptr;
}

} // namespace

std::string PrivateAccess::currentInstantiation(const CXXRecordDecl *Pattern) {
  const ASTContext &Ctx = Pattern->getASTContext();
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.FullyQualifiedName = true;
  Policy.SuppressScope = false;
  return "::" + Ctx.getRecordType(Pattern).getAsString(Policy);
}

const ValueDecl *PrivateAccess::instantiated(const ValueDecl *Pattern,
                                             const CXXRecordDecl *Spec) {
  for (const NamedDecl *D : Spec->lookup(Pattern->getDeclName())) {
    if (const auto *M = dyn_cast<CXXMethodDecl>(D)) {
      if (M->getInstantiatedFromMemberFunction() == Pattern)
        return M;
    } else if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (V->getInstantiatedFromStaticDataMember() == Pattern)
        return V;
    } else if (isa<FieldDecl>(D) && isa<FieldDecl>(Pattern)) {
      return cast<FieldDecl>(D);
    }
  }
  return nullptr;
}

bool needsPrivateAccess(AccessSpecifier Found) {
  return Found == AS_private || Found == AS_protected;
}

std::string PrivateAccess::whyNotReachable(const ValueDecl *D,
                                           const CXXRecordDecl *Object) {
  std::string Name = "'" + D->getNameAsString() + "'";
  const auto *Owner = dyn_cast<CXXRecordDecl>(D->getDeclContext());
  if (!Owner || isa<IndirectFieldDecl>(D) || Owner->isAnonymousStructOrUnion())
    return "the non-public member " + Name +
           " of an anonymous struct or union (no pointer to member names it)";
  if (const auto *F = dyn_cast<FieldDecl>(D)) {
    if (F->isBitField())
      return "the non-public bit-field " + Name +
             " (no pointer to member names a bit-field)";
    if (F->getType()->isReferenceType())
      return "the non-public reference member " + Name +
             " (no pointer to member names a reference)";
  }
  if (const auto *M = dyn_cast<CXXMethodDecl>(D)) {
    if (M->getPrimaryTemplate() || M->getDescribedFunctionTemplate())
      return "the non-public member template " + Name;
    if (isa<CXXConstructorDecl>(M) || isa<CXXDestructorDecl>(M) ||
        isa<CXXConversionDecl>(M))
      return "the non-public member " + Name;
  }
  const ASTContext &Ctx = D->getASTContext();
  // `double t[N]` needs N's value as a constant, and a `static const int
  // N = 2;` may have no definition a pointer could take.
  if (const auto *V = dyn_cast<VarDecl>(D);
      V && V->isUsableInConstantExpressions(Ctx))
    return "the non-public static constant " + Name +
           " (a pointer gives neither its value as a constant nor, "
           "without its definition, an address)";
  for (QualType T : {Ctx.getRecordType(Owner), D->getType()})
    if (const TagDecl *Hidden = hiddenType(T))
      return "the non-public member " + Name + " (its type names '" +
             Hidden->getNameAsString() +
             "', a type that no code outside its class can name)";
  // `object.*pointer` needs the member's class to be a public base of the
  // object's class (or that class itself).
  if (Object && Object->getCanonicalDecl() != Owner->getCanonicalDecl()) {
    CXXBasePaths Paths(/*FindAmbiguities=*/true, /*RecordPaths=*/true,
                       /*DetectVirtual=*/false);
    if (!Object->isDerivedFrom(Owner, Paths) ||
        Paths.isAmbiguous(Ctx.getCanonicalType(Ctx.getRecordType(Owner))) ||
        Paths.front().Access != AS_public)
      return "the non-public member " + Name + " of '" +
             Owner->getNameAsString() +
             "' (not a public base of its object's class)";
  }
  return "";
}

StringRef PrivateAccess::tag(const ValueDecl *D) {
  // A class template's members share the tag template of their pattern's.
  if (const auto *Spec =
          dyn_cast<ClassTemplateSpecializationDecl>(D->getDeclContext());
      Spec && ownerTemplate(D))
    if (const CXXRecordDecl *Pattern = Spec->getTemplateInstantiationPattern())
      for (const NamedDecl *P : Pattern->lookup(D->getDeclName()))
        if (const auto *V = dyn_cast<ValueDecl>(P);
            V && instantiated(V, Spec) == D)
          return tag(V);
  std::string &Tag = Tags[D];
  if (!Tag.empty())
    return Tag;
  // An identifier: `ns::Domain` and `operator+=` spelled with single
  // underscores (a double one is reserved).
  std::string Base;
  for (char C :
       cast<NamedDecl>(D->getDeclContext())->getQualifiedNameAsString() + "_" +
           D->getNameAsString()) {
    if (!llvm::isAlnum(C))
      C = '_';
    if (C != '_' || Base.empty() || Base.back() != '_')
      Base += C;
  }
  Tag = Base;
  for (unsigned N = 2; !Used.insert(Tag).second; ++N)
    Tag = Base + "_" + std::to_string(N);
  return Tag;
}

std::string PrivateAccess::pointer(const ValueDecl *D) {
  // A class template's member: the tag template, by the class (the copy's
  // parameters), specialized for each specialization the file uses.
  if (const ClassTemplateDecl *T = ownerTemplate(D);
      T && T->getTemplatedDecl() == D->getDeclContext())
    return "wgtrace_member(::wgtrace_access::" + tag(D).str() + "<" +
           currentInstantiation(T->getTemplatedDecl()) + ">{})";
  return "wgtrace_member(::wgtrace_access::" + tag(D).str() + "{})";
}

std::string PrivateAccess::declarations(ArrayRef<const ValueDecl *> Needed) {
  std::string Out;
  for (const ValueDecl *D : Needed) {
    if (!Emitted.insert(D).second)
      continue;
    const ASTContext &Ctx = D->getASTContext();
    const auto *Owner = cast<CXXRecordDecl>(D->getDeclContext());
    std::string Class = spelled(Ctx.getRecordType(Owner), Ctx);
    std::string Type = spelled(D->getType(), Ctx);
    bool Static = isa<VarDecl>(D) ||
                  (isa<CXXMethodDecl>(D) && cast<CXXMethodDecl>(D)->isStatic());
    std::string Tag = tag(D).str();
    const std::string Pointer =
        Static ? (Twine("WgtracePointer<") + Type + ">").str()
               : (Twine("WgtraceMember<") + Type + ", " + Class + ">").str();
    std::string Head = "struct " + Tag;
    // A class template's member (of one of its specializations): the tag
    // template, declared once, specialized for the class.
    if (ownerTemplate(D)) {
      if (TagTemplates.insert(Tag).second)
        Out += "template <typename C> struct " + Tag + ";\n";
      Head = (Twine("template <> struct ") + Tag + "<" + Class + ">").str();
      Tag = (Twine(Tag) + "<" + Class + ">").str();
    }
    Out += (Twine(Head) + " { using type = " + Pointer +
            "; friend type wgtrace_member(" + Tag + "); };\n")
               .str();
    Out += (Twine("template struct WgtraceAccess<") + Tag + ", &" + Class +
            "::" + D->getNameAsString() + ">;\n")
               .str();
  }
  if (Out.empty())
    return "";
  std::string Templates;
  if (!TemplatesEmitted) {
    TemplatesEmitted = true;
    Templates =
        "template <typename T, typename C> using WgtraceMember = T C::*;\n"
        "template <typename T> using WgtracePointer = T *;\n"
        "template <typename Tag, typename Tag::type Pointer> struct "
        "WgtraceAccess {\n"
        "  friend typename Tag::type wgtrace_member(Tag) { return Pointer; }\n"
        "};\n";
  }
  return "namespace wgtrace_access { namespace {\n" + Templates + Out + "} }\n";
}

} // namespace rewriter
} // namespace wgtrace
