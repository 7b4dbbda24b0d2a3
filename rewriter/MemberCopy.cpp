//===- MemberCopy.cpp - A header's member function copied as a free one ---===//

#include "MemberCopy.h"

#include "PrivateAccess.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstring>

using namespace clang;

namespace wgtrace {
namespace rewriter {

namespace {

/// Whether D is a member of the class RD (or of a class nested in it),
/// not a local of one of its functions.
bool declaredIn(const Decl *D, const CXXRecordDecl *RD) {
  for (const DeclContext *DC = D->getDeclContext(); isa<CXXRecordDecl>(DC);
       DC = DC->getParent())
    if (cast<CXXRecordDecl>(DC)->getCanonicalDecl() == RD->getCanonicalDecl())
      return true;
  return false;
}

/// The class in whose scope an unqualified name finds D: its class, or
/// for an enumerator of an unscoped enumeration, the enumeration's class;
/// null for another name.
const CXXRecordDecl *scopeClass(const ValueDecl *D) {
  const DeclContext *DC = D->getDeclContext();
  if (const auto *Enum = dyn_cast<EnumDecl>(DC)) {
    if (Enum->isScoped())
      return nullptr;
    DC = Enum->getDeclContext();
  }
  return dyn_cast<CXXRecordDecl>(DC);
}

/// The qualifier before a name of Scope's that a member of Class uses
/// unqualified (a static member, an enumerator), from the global scope
/// (`::ns::Grid::`, `::Pack<T, N>::`); empty if a free copy cannot name
/// it (a class nested in Class, a base that is a template's).
std::string scopeQualifier(const CXXRecordDecl *Scope,
                           const CXXRecordDecl *Class) {
  if (Scope->getCanonicalDecl() == Class->getCanonicalDecl())
    return PrivateAccess::currentInstantiation(Class) + "::";
  if (Scope->isTemplated() || isa<ClassTemplateSpecializationDecl>(Scope) ||
      !Scope->getIdentifier() ||
      !Scope->getDeclContext()->getRedeclContext()->isFileContext())
    return "";
  return PrivateAccess::currentInstantiation(Scope) + "::";
}

/// Whether a member is private or protected where an expression finds
/// it (Found) or in its own class.
bool isNonPublic(AccessSpecifier Found, const Decl *D) {
  return needsPrivateAccess(Found) || needsPrivateAccess(D->getAccess());
}

/// The class of the object a member expression names its member on, as
/// written: a base's member reached through `this` is the derived class's
/// object converted (implicitly) to the base.
const CXXRecordDecl *objectClass(const MemberExpr &E) {
  QualType T = E.getBase()->IgnoreParenImpCasts()->getType();
  if (E.isArrow())
    T = T->getPointeeType();
  return T->getAsCXXRecordDecl();
}

/// Whether E names its member on an object of the class template whose
/// pattern is Class, the current instantiation (`o.v` of a `const Box &o`
/// or `const Box<T> &o` in `Box<T>`'s member).
bool onCurrentInstantiation(const MemberExpr &E, const CXXRecordDecl *Class) {
  QualType T = E.getBase()->IgnoreParenImpCasts()->getType();
  if (E.isArrow())
    T = T->getPointeeType();
  const ASTContext &Ctx = Class->getASTContext();
  return !T.isNull() && Ctx.hasSameUnqualifiedType(T, Ctx.getRecordType(Class));
}

/// Whether the member function that E names is called with its name
/// followed by '(' (`helper(i)`), the text a copy's call replaces.
bool calledByName(const MemberExpr &E) {
  const ASTContext &Ctx = E.getMemberDecl()->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = E.getEndLoc();
  if (End.isMacroID())
    return false;
  std::optional<Token> Paren = Lexer::findNextToken(End, SM, Ctx.getLangOpts());
  return Paren && Paren->is(tok::l_paren);
}

/// For a member named through an implicit `this` and called (a MemberExpr
/// or an UnresolvedMemberExpr): the text from its name to its '('
/// included, as [Begin, End) offsets in its file; false if it is in a
/// macro.
template <typename MemberName>
bool callThroughThis(const MemberName &E, const SourceManager &SM,
                     const LangOptions &LO, unsigned &Begin, unsigned &End) {
  SourceLocation Name = E.getMemberLoc();
  SourceLocation NameEnd = E.getEndLoc();
  if (Name.isMacroID() || NameEnd.isMacroID())
    return false;
  std::optional<Token> Paren = Lexer::findNextToken(NameEnd, SM, LO);
  if (!Paren || Paren->isNot(tok::l_paren) ||
      SM.getFileID(Paren->getLocation()) != SM.getFileID(Name))
    return false;
  Begin = SM.getFileOffset(Name);
  End = SM.getFileOffset(Paren->getLocation()) + 1;
  return true;
}

/// What in a member's definition a free function could not say: a
/// private or protected member, a name of the class's scope used without
/// qualification (a nested type, a static member, an enumerator), a lambda.
class Unreachable : public RecursiveASTVisitor<Unreachable> {
public:
  Unreachable(const CXXRecordDecl *Class, bool Static)
      : Class(Class), Static(Static) {}
  std::string Why;

  bool VisitMemberExpr(MemberExpr *E) {
    if (!acceptsMemberOutsideMacros(E))
      return false;
    // A static member's body names an object's member through `this` only
    // where nothing is evaluated (`sizeof(v)`): its copy has no object.
    if (Static && E->isImplicitAccess()) {
      Why = "it is a static member function and names the member '" +
            E->getMemberDecl()->getNameAsString() + "' of no object";
      return false;
    }
    const ValueDecl *D = E->getMemberDecl();
    if (!isNonPublic(E->getFoundDecl().getAccess(), D))
      return true;
    // A class template's own member on its own object (`v`, `o.v` of a
    // `const Box &o`): through the tag template of PrivateAccess.h.
    if (Class->isTemplated() &&
        (D->getDeclContext() != Class ||
         (!E->isImplicitAccess() && !onCurrentInstantiation(*E, Class)))) {
      Why = "it uses the non-public member '" + D->getNameAsString() +
            "' of a class template on an object of another class";
      return false;
    }
    // Reached through an explicit instantiation (PrivateAccess.h), on
    // the object as `.*`'s left operand.
    std::string Name = "'" + D->getNameAsString() + "'";
    std::string Reason = PrivateAccess::whyNotReachable(D, objectClass(*E));
    if (Reason.empty() && !D->isCXXInstanceMember())
      Reason = "the non-public static member " + Name + " through an object";
    else if (Reason.empty() && isa<CXXMethodDecl>(D) && !E->isImplicitAccess())
      Reason = "the non-public member function " + Name +
               " on an object other than its own";
    else if (Reason.empty() && !E->isImplicitAccess() &&
             (E->getBase()->getBeginLoc().isMacroID() ||
              E->getOperatorLoc().isMacroID() || E->getMemberLoc().isMacroID()))
      Reason = "the non-public member " + Name + " in a macro expansion";
    else if (Reason.empty() && isa<CXXMethodDecl>(D) && !calledByName(*E))
      Reason = "the non-public member function " + Name +
               " otherwise than by a call of its name";
    if (!Reason.empty())
      Why = "it uses " + Reason;
    return Why.empty();
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    std::string Name = "'" + D->getNameAsString() + "'";
    bool NonPublic = isa<CXXRecordDecl>(D->getDeclContext()) &&
                     needsPrivateAccess(D->getAccess());
    // A member operator called in operator syntax (`*this *= 1 / t`) is
    // referred to by its call; its copy is called as a free one.
    if (const auto *M = dyn_cast<CXXMethodDecl>(D); M && !M->isStatic()) {
      if (NonPublic)
        Why = "it calls the non-public member function " + Name +
              " in operator syntax or takes its address";
      return Why.empty();
    }
    if (NonPublic) {
      // A static member: its plain pointer, through an explicit
      // instantiation (PrivateAccess.h).
      std::string Reason = PrivateAccess::whyNotReachable(D, nullptr);
      if (Reason.empty() && !isa<VarDecl>(D) && !isa<CXXMethodDecl>(D))
        Reason = "a pointer to the non-public member " + Name;
      else if (Reason.empty() && E->hasExplicitTemplateArgs())
        Reason = "the non-public member template " + Name;
      else if (Reason.empty() &&
               (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID()))
        Reason = "the non-public member " + Name + " in a macro expansion";
      if (!Reason.empty())
        Why = "it uses " + Reason;
      return Why.empty();
    }
    // A class template's parameter (`N`) is the copy's too. A static
    // member or an enumerator of its class (or of a base) named without
    // qualification is qualified from the global scope in the copy
    // (ThisUses), what is declared in a class nested in it is not.
    if (isa<ParmVarDecl>(D) || isa<NonTypeTemplateParmDecl>(D) ||
        E->hasQualifier())
      return true;
    if (const CXXRecordDecl *Scope = scopeClass(D)) {
      if (scopeQualifier(Scope, Class).empty())
        Why = "it names " + Name + " of its class's scope";
      else if (isa<EnumConstantDecl>(D) &&
               needsPrivateAccess(cast<Decl>(D->getDeclContext())->getAccess()))
        Why =
            "it names the enumerator " + Name + " of a non-public enumeration";
      else if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
        Why = "it names " + Name + " of its class's scope in a macro expansion";
      else if (Class->isTemplated() && E->hasExplicitTemplateArgs())
        Why = "it names the member template " + Name +
              " of its class's scope with template arguments";
    } else if (declaredIn(D, Class)) {
      Why = "it names " + Name + " of its class's scope";
    }
    return Why.empty();
  }
  bool VisitTypeLoc(TypeLoc TL) {
    const NamedDecl *Named = nullptr;
    if (const TagDecl *Tag = TL.getType()->getAsTagDecl();
        Tag && Tag != Class && declaredIn(Tag, Class))
      Named = Tag;
    else if (const auto *TD = TL.getType()->getAs<TypedefType>();
             TD && declaredIn(TD->getDecl(), Class))
      Named = TD->getDecl();
    if (!Named)
      return true;
    Why = "it names the type '" + Named->getNameAsString() +
          "' of its class's scope";
    // An explicit instantiation names members, not types.
    if (isNonPublic(Named->getAccess(), Named))
      Why += " (a non-public type: no code outside its class can name it)";
    return false;
  }
  // `self.` cannot be put in front of a name a macro spells.
  bool VisitCXXThisExpr(CXXThisExpr *E) {
    if (E->getLocation().isMacroID())
      Why = "its object is named in a macro expansion";
    return Why.empty();
  }
  bool acceptsMemberOutsideMacros(const MemberExpr *E) {
    if (E->isImplicitAccess() && E->getMemberLoc().isMacroID())
      Why = "its object is named in a macro expansion";
    return Why.empty();
  }
  bool VisitLambdaExpr(LambdaExpr *) {
    Why = "it has a lambda";
    return false;
  }
  // In a class template's member: a call of an overloaded member through
  // `this` (becomes `self.name(`), a name a dependent base may declare.
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *E) {
    if (E->isImplicitAccess() && E->getMemberLoc().isMacroID())
      Why = "its object is named in a macro expansion";
    for (const NamedDecl *D : E->decls())
      if (Why.empty() && isNonPublic(D->getAccess(), D))
        Why = "it uses the non-public member '" + D->getNameAsString() +
              "' of a class template";
    return Why.empty();
  }
  // In a class template's member, an overloaded static member called by
  // its name alone with arguments that depend on the parameters: which
  // overload is a class member is known only in the instantiation.
  bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
    if (E->getQualifier())
      return true;
    for (const NamedDecl *D : E->decls())
      if (const auto *V = dyn_cast<ValueDecl>(D->getUnderlyingDecl());
          Why.empty() && V && scopeClass(V))
        Why = "it calls the overloaded member '" + V->getNameAsString() +
              "' of its class's scope by its name alone in a template";
    return Why.empty();
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    if (E->isImplicitAccess())
      Why = "it names '" + E->getMember().getAsString() +
            "' of a dependent base without 'this->'";
    return Why.empty();
  }
  // The class template's own name without arguments becomes the
  // template-id, which a macro's text cannot be given.
  bool VisitInjectedClassNameTypeLoc(InjectedClassNameTypeLoc TL) {
    if (TL.getNameLoc().isMacroID())
      Why = "it names its class in a macro expansion";
    return Why.empty();
  }

private:
  const CXXRecordDecl *Class;
  /// The member is a static one.
  bool Static;
};

/// What an instantiation of a class template's member (of the
/// specialization Spec) uses that the copy's tag templates cannot name:
/// a non-public member of another class that the pattern reached through
/// a name depending on the parameters (`this->b` of a protected member of
/// a base `Base<T>`), or one whose pointer no code can spell for this
/// specialization (a field whose type names a private type).
class InstanceUnreachable : public RecursiveASTVisitor<InstanceUnreachable> {
public:
  explicit InstanceUnreachable(const CXXRecordDecl *Spec) : Spec(Spec) {}
  std::string Why;

  bool VisitMemberExpr(MemberExpr *E) {
    const ValueDecl *D = E->getMemberDecl();
    if (isNonPublic(E->getFoundDecl().getAccess(), D))
      check(D, objectClass(*E));
    return Why.empty();
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    if (isa<CXXRecordDecl>(D->getDeclContext()) &&
        needsPrivateAccess(D->getAccess()))
      check(D, nullptr);
    return Why.empty();
  }

private:
  void check(const ValueDecl *D, const CXXRecordDecl *Object) {
    if (cast<Decl>(D->getDeclContext())->getCanonicalDecl() !=
        Spec->getCanonicalDecl()) {
      Why = "it uses the non-public member '" + D->getNameAsString() +
            "' of another class through a name that depends on the "
            "template's parameters";
      return;
    }
    std::string Reason = PrivateAccess::whyNotReachable(D, Object);
    if (!Reason.empty())
      Why = "it uses " + Reason + " in '" +
            Spec->getASTContext().getRecordType(Spec).getAsString() + "'";
  }

  const CXXRecordDecl *Spec;
};

/// The object expressions of the body: implicit member accesses and
/// explicit `this`.
class ThisUses : public RecursiveASTVisitor<ThisUses> {
public:
  ThisUses(const SourceManager &SM, const LangOptions &LO, EditSet &Edits,
           PrivateAccess &Access, std::vector<const ValueDecl *> &Private,
           const CXXRecordDecl *Owner, const CXXRecordDecl *Class)
      : SM(SM), LO(LO), Edits(Edits), Access(Access), Private(Private),
        Owner(Owner), Class(Class) {}

  // A member call through `this`; in a class template's member also one
  // whose arguments depend on its parameters (a CallExpr) or that names
  // an overload set (UnresolvedMemberExpr).
  bool VisitCallExpr(CallExpr *Call) {
    const Expr *Callee = Call->getCallee()->IgnoreParens();
    unsigned Begin, End;
    // A member template called with its arguments (`extent<0>()`) keeps
    // them as written: only its name gains the object (VisitMemberExpr,
    // VisitUnresolvedMemberExpr).
    if (const auto *Member = dyn_cast<MemberExpr>(Callee);
        Member && Member->isImplicitAccess() &&
        !(Member->hasExplicitTemplateArgs() && !nonPublic(*Member)) &&
        callThroughThis(*Member, SM, LO, Begin, End)) {
      Calls.insert(Member);
      UsesSelf = true;
      Edits.replace(
          Begin, End,
          (nonPublic(*Member)
               ? "(self.*" + pointer(Member) + ")"
               : "self." + Member->getMemberNameInfo().getAsString()) +
              "(");
    } else if (const auto *Overloads = dyn_cast<UnresolvedMemberExpr>(Callee);
               Overloads && Overloads->isImplicitAccess() &&
               !Overloads->hasExplicitTemplateArgs() &&
               callThroughThis(*Overloads, SM, LO, Begin, End)) {
      UsesSelf = true;
      Edits.replace(Begin, End,
                    "self." + Overloads->getMemberNameInfo().getAsString() +
                        "(");
    }
    return true;
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *E) {
    if (!E->hasExplicitTemplateArgs() || E->getMemberLoc().isMacroID())
      return true;
    if (!E->isImplicitAccess()) {
      nameTemplateExplicitly(*E);
      return true;
    }
    UsesSelf = true;
    unsigned Offset = SM.getFileOffset(E->getMemberLoc());
    Edits.replace(
        Offset, Offset + Lexer::MeasureTokenLength(E->getMemberLoc(), SM, LO),
        "self." + templateKeyword(*E) + E->getMemberNameInfo().getAsString());
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    if (!E->isImplicitAccess())
      nameTemplateExplicitly(*E);
    return true;
  }
  // `Box` in `Box<T>`'s member is the template-id in the free copy.
  bool VisitInjectedClassNameTypeLoc(InjectedClassNameTypeLoc TL) {
    SourceLocation Name = TL.getNameLoc();
    if (Name.isMacroID() || !Class)
      return true;
    unsigned Offset = SM.getFileOffset(Name);
    for (auto [Begin, End] : QualifiedNames)
      if (Offset >= Begin && Offset < End)
        return true;
    Edits.replace(Offset, Offset + Lexer::MeasureTokenLength(Name, SM, LO),
                  Class->getName().str() + templateParameterArguments(Class));
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (Calls.count(E))
      return true;
    SourceLocation Name = E->getMemberLoc();
    if (Name.isMacroID())
      return true;
    unsigned Offset = SM.getFileOffset(Name);
    unsigned NameEnd = Offset + Lexer::MeasureTokenLength(Name, SM, LO);
    if (!nonPublic(*E)) {
      UsesSelf |= E->isImplicitAccess();
      if (E->isImplicitAccess())
        Edits.replace(Offset, NameEnd,
                      "self." + templateKeyword(*E) +
                          E->getMemberNameInfo().getAsString());
      else
        nameTemplateExplicitly(*E);
      return true;
    }
    if (E->isImplicitAccess()) {
      UsesSelf = true;
      Edits.replace(Offset, NameEnd, "(self.*" + pointer(E) + ")");
      return true;
    }
    // `v.e[0]` becomes `(v.*P)[0]`: `.*` binds looser than `[]`.
    Edits.wrap(SM.getFileOffset(E->getBase()->getBeginLoc()), NameEnd, "(", ")",
               /*Stackable=*/true);
    Edits.replace(SM.getFileOffset(E->getOperatorLoc()), NameEnd,
                  (E->isArrow() ? "->*" : ".*") + pointer(E));
    return true;
  }
  // A non-public static member, through its plain pointer; a public one or
  // an enumerator named without qualification, qualified from the global
  // scope (`stride` is `::geo::Grid::stride`). A static member function's
  // name is replaced, not prefixed: a call of its copy takes its place
  // (HelperCloner).
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    // A public static member of this class template named through its own
    // name (`Pack::sumAll`): the qualifier is spelled from the global scope
    // as one replacement, which a call of the member's copy retexts
    // (HelperCloner), so the injected name in it is not replaced too.
    if (const auto *Method = dyn_cast<CXXMethodDecl>(D);
        Method && Method->isStatic() && Class && E->hasQualifier() &&
        !needsPrivateAccess(D->getAccess()) && !E->getBeginLoc().isMacroID() &&
        !E->getLocation().isMacroID()) {
      const clang::Type *Qualifier = E->getQualifier()->getAsType();
      if (Qualifier && Qualifier->getAsCXXRecordDecl() &&
          Qualifier->getAsCXXRecordDecl()->getCanonicalDecl() ==
              Class->getCanonicalDecl()) {
        unsigned Begin = SM.getFileOffset(E->getBeginLoc());
        unsigned Offset = SM.getFileOffset(E->getLocation());
        Edits.replace(
            Begin, Offset + Lexer::MeasureTokenLength(E->getLocation(), SM, LO),
            PrivateAccess::currentInstantiation(Class) +
                "::" + (E->hasExplicitTemplateArgs() ? "template " : "") +
                E->getNameInfo().getAsString());
        QualifiedNames.push_back({Begin, Offset});
      }
      return true;
    }
    if (const CXXRecordDecl *Scope = scopeClass(D);
        Scope && !E->hasQualifier() && !D->isCXXInstanceMember() &&
        !(isa<CXXRecordDecl>(D->getDeclContext()) &&
          needsPrivateAccess(D->getAccess())) &&
        !isa<ParmVarDecl>(D) && !isa<NonTypeTemplateParmDecl>(D) &&
        !E->getLocation().isMacroID()) {
      std::string Qualifier = scopeQualifier(Scope, Owner);
      if (Qualifier.empty())
        return true;
      unsigned Offset = SM.getFileOffset(E->getLocation());
      Edits.replace(
          Offset, Offset + Lexer::MeasureTokenLength(E->getLocation(), SM, LO),
          Qualifier +
              (E->hasExplicitTemplateArgs() && Class ? "template " : "") +
              E->getNameInfo().getAsString());
      return true;
    }
    if (!isa<CXXRecordDecl>(D->getDeclContext()) || D->isCXXInstanceMember() ||
        !needsPrivateAccess(D->getAccess()) || E->getEndLoc().isMacroID())
      return true;
    Private.push_back(D);
    std::string Pointer = Access.pointer(D);
    SourceLocation Last = E->getEndLoc();
    Edits.replace(SM.getFileOffset(E->getBeginLoc()),
                  SM.getFileOffset(Last) +
                      Lexer::MeasureTokenLength(Last, SM, LO),
                  isa<VarDecl>(D) ? "(*" + Pointer + ")" : Pointer);
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *E) {
    if (E->isImplicit() || E->getLocation().isMacroID())
      return true;
    unsigned Offset = SM.getFileOffset(E->getLocation());
    UsesSelf = true;
    Edits.replace(Offset, Offset + 4, "(&self)");
    return true;
  }
  // The member call's callee is visited after the call.
  bool shouldTraversePostOrder() const { return false; }

  /// Whether an edit names the object (`self.`, `(&self)`).
  bool UsesSelf = false;

private:
  /// "template " before a member template named with its arguments in a
  /// class template's copy (`self.template extent<0>()`, `o.template
  /// f<1>()`): the object is of a dependent type there, no longer the
  /// current instantiation.
  template <typename MemberName>
  std::string templateKeyword(const MemberName &E) const {
    return Class && E.hasExplicitTemplateArgs() && !E.hasTemplateKeyword()
               ? "template "
               : "";
  }
  /// `this->extent<1>()`, `o.extent<0>(2)`: the keyword before the name.
  template <typename MemberName>
  void nameTemplateExplicitly(const MemberName &E) {
    std::string Keyword = templateKeyword(E);
    if (!Keyword.empty() && !E.getMemberLoc().isMacroID())
      Edits.insert(SM.getFileOffset(E.getMemberLoc()), Keyword);
  }
  static bool nonPublic(const MemberExpr &E) {
    return isNonPublic(E.getFoundDecl().getAccess(), E.getMemberDecl());
  }
  /// The pointer to E's member (PrivateAccess.h), which the copy needs.
  std::string pointer(const MemberExpr *E) {
    Private.push_back(E->getMemberDecl());
    return Access.pointer(E->getMemberDecl());
  }

  const SourceManager &SM;
  const LangOptions &LO;
  EditSet &Edits;
  PrivateAccess &Access;
  std::vector<const ValueDecl *> &Private;
  /// The class of the member copied.
  const CXXRecordDecl *Owner;
  /// The class template whose injected name is replaced, or null.
  const CXXRecordDecl *Class;
  llvm::SmallPtrSet<const MemberExpr *, 4> Calls;
  /// The qualifiers, [Begin, End) offsets, that a static member's name
  /// replaced with it.
  std::vector<std::pair<unsigned, unsigned>> QualifiedNames;
};

} // namespace

std::string whyMemberNotCopyable(const CXXMethodDecl *M, bool CallOperator) {
  // A static member is copied as a free function without an object, but
  // a static operator (C++23) is called in operator syntax on an object.
  if (M->isStatic() && M->isOverloadedOperator())
    return "it is a static member operator";
  if (isa<CXXConstructorDecl>(M) || isa<CXXDestructorDecl>(M) ||
      isa<CXXConversionDecl>(M))
    return "it is a member function";
  // Called as `f(a)`, `v[i]`, `p->x`: no copy's call takes their place
  // with the operator's token replaced.
  OverloadedOperatorKind Op = M->getOverloadedOperator();
  if ((Op == OO_Call && !CallOperator) || Op == OO_Subscript || Op == OO_Arrow)
    return "it is a member operator(), operator[] or operator->";
  if (M->isVirtual())
    return "it is a virtual member function";
  const CXXRecordDecl *Class = M->getParent();
  if (M->getDescribedFunctionTemplate() || M->getPrimaryTemplate())
    return "it is a member function template";
  // A member of a class template is copied as a function template over
  // the class's parameters; a partial specialization's or a nested
  // class's member is not.
  if (M->isTemplated() && !Class->getDescribedClassTemplate())
    return "it is a member function of a class template's partial "
           "specialization or of a class nested in a template";
  if (const ClassTemplateDecl *T = Class->getDescribedClassTemplate())
    for (const NamedDecl *P : *T->getTemplateParameters())
      if (!P->getIdentifier() || P->getBeginLoc().isMacroID() ||
          P->getLocation().isMacroID())
        return "it is a member function of a class template whose "
               "parameters are not all named outside macros";
  if (M->getRefQualifier() != RQ_None || M->isVolatile())
    return "it is a member function with a reference or volatile qualifier";
  if (!Class->getIdentifier() || Class->isLambda() ||
      !Class->getDeclContext()->getRedeclContext()->isFileContext())
    return "it is a member function of a class that is not named at "
           "namespace scope";
  // Defined after its class (Quicksilver's `inline void ParticleVault::
  // pushParticle(MC_Particle &particle) {...}`): its body has the access
  // and the lookup of one written in the class, so it is copied the same
  // way (the copy's name replaces `ParticleVault::pushParticle`), where the
  // copy, which goes in the namespaces the definition is written in, finds
  // what the definition finds: in its class's namespace. A class
  // template's member is not: its definition has its own template head,
  // whose parameters may be named otherwise than the class's.
  if (M->getLexicalDeclContext() != Class) {
    if (Class->getDescribedClassTemplate())
      return "it is a member function of a class template defined outside "
             "its class";
    if (!M->getLexicalDeclContext()->getRedeclContext()->Equals(
            Class->getDeclContext()->getRedeclContext()))
      return "it is a member function defined outside its class's namespace";
    if (M->getQualifierLoc().getBeginLoc().isMacroID())
      return "it is a member function whose class is named by a macro where "
             "it is defined";
  }
  Unreachable Find(Class, M->isStatic());
  Find.TraverseDecl(const_cast<CXXMethodDecl *>(M));
  if (!Find.Why.empty())
    return "it is a member function and " + Find.Why +
           ", which a free copy cannot";
  // A class template's member: what its instantiations resolve.
  if (const ClassTemplateDecl *T = Class->getDescribedClassTemplate())
    for (const ClassTemplateSpecializationDecl *Spec : T->specializations()) {
      const auto *Instance =
          dyn_cast_or_null<FunctionDecl>(PrivateAccess::instantiated(M, Spec));
      if (!Instance || !Instance->doesThisDeclarationHaveABody())
        continue;
      InstanceUnreachable FindIn(Spec);
      FindIn.TraverseStmt(Instance->getBody());
      if (!FindIn.Why.empty())
        return "it is a member function of a class template and " + FindIn.Why +
               ", which a free copy cannot";
    }
  return "";
}

std::string templateParameterArguments(const CXXRecordDecl *Class) {
  const ClassTemplateDecl *T = Class->getDescribedClassTemplate();
  if (!T)
    return "";
  std::string Out = "<";
  for (const NamedDecl *P : *T->getTemplateParameters()) {
    if (Out.size() > 1)
      Out += ", ";
    Out += P->getNameAsString();
    if (P->isParameterPack())
      Out += "...";
  }
  return Out + ">";
}

std::string copyTemplateHead(const CXXMethodDecl *M) {
  const ClassTemplateDecl *T = M->getParent()->getDescribedClassTemplate();
  if (!T)
    return "";
  const ASTContext &Ctx = M->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  // Each parameter as written up to its name: its default argument stays
  // with the class (a copy declared before its definition may not repeat
  // it).
  std::string Out = "template <";
  for (const NamedDecl *P : *T->getTemplateParameters()) {
    if (Out.size() > 10)
      Out += ", ";
    Out += Lexer::getSourceText(CharSourceRange::getTokenRange(
                                    P->getBeginLoc(), P->getLocation()),
                                SM, Ctx.getLangOpts())
               .str();
  }
  return Out + "> ";
}

std::string copyTemplateArguments(const CXXMethodDecl *Called,
                                  bool WithDefaults) {
  const auto *Spec =
      dyn_cast<ClassTemplateSpecializationDecl>(Called->getParent());
  if (!Spec || !Called->getTemplateInstantiationPattern())
    return "";
  const ASTContext &Ctx = Called->getASTContext();
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  Policy.SuppressDefaultTemplateArgs = !WithDefaults;
  // `::ns::Box<float>`: a class at namespace scope, whose qualifier has no
  // '<'.
  std::string Class = TypeName::getFullyQualifiedName(
      Ctx.getRecordType(Spec), Ctx, Policy, /*WithGlobalNsPrefix=*/true);
  size_t Open = Class.find('<');
  return Open == std::string::npos ? "" : Class.substr(Open);
}

bool deducesFromObject(const CXXMethodDecl *Called,
                       ArrayRef<const Expr *> Args) {
  const FunctionDecl *Pattern = Called->getTemplateInstantiationPattern();
  if (!Pattern || Pattern->getNumParams() != Called->getNumParams())
    return false;
  const ASTContext &Ctx = Called->getASTContext();
  for (size_t I = 0; I < Args.size() && I < Pattern->getNumParams(); ++I) {
    const ParmVarDecl *Written = Pattern->getParamDecl(I);
    if (Written->isParameterPack())
      return false;
    // A default argument is not written in the call: it deduces nothing.
    if (!Written->getType()->isDependentType() ||
        isa<CXXDefaultArgExpr>(Args[I]))
      continue;
    // The argument as written, before the conversions that make it the
    // parameter's type: the copy deduces from that (`scaled(2)` of a
    // `Vec<double>` would deduce `T = int` from the 2, whose conversion to
    // double the call's instantiation shows).
    QualType Parameter =
        Called->getParamDecl(I)->getType().getNonReferenceType();
    if (!Ctx.hasSameUnqualifiedType(
            Args[I]->IgnoreUnlessSpelledInSource()->getType(), Parameter))
      return false;
  }
  return true;
}

std::string selfParameter(const CXXMethodDecl *M) {
  return std::string(M->isConst() ? "const " : "") +
         PrivateAccess::currentInstantiation(M->getParent()) + " &self";
}

void makeFreeFunction(const CXXMethodDecl *M, EditSet &Edits,
                      PrivateAccess &Access,
                      std::vector<const ValueDecl *> &Private) {
  const ASTContext &Ctx = M->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  FunctionTypeLoc FTL = M->getFunctionTypeLoc();
  unsigned LParen = SM.getFileOffset(FTL.getLParenLoc());
  // The cv-qualifier after the parameters: the copy is no member.
  SourceLocation At = FTL.getRParenLoc();
  unsigned BodyBegin = SM.getFileOffset(M->getBody()->getBeginLoc());
  while (std::optional<Token> T = Lexer::findNextToken(At, SM, LO)) {
    if (SM.getFileOffset(T->getLocation()) >= BodyBegin)
      break;
    if (T->is(tok::raw_identifier) && T->getRawIdentifier() == "const") {
      unsigned Offset = SM.getFileOffset(T->getLocation());
      Edits.replace(Offset, Offset + T->getLength(), "");
    }
    At = T->getLocation();
  }
  const CXXRecordDecl *Template =
      M->getParent()->getDescribedClassTemplate() ? M->getParent() : nullptr;
  ThisUses Uses(SM, LO, Edits, Access, Private, M->getParent(), Template);
  // The signature may name the class template too (`Vec3 operator-()
  // const`, `const Vec3 &o`).
  if (Template)
    Uses.TraverseTypeLoc(M->getTypeSourceInfo()->getTypeLoc());
  Uses.TraverseStmt(M->getBody());
  // A static member has no object: its copy's parameters are its own.
  if (M->isStatic())
    return;
  // A body that does not use its object (a functor's operator() working
  // on its arguments only) leaves the parameter unnamed: -Wunused-parameter.
  std::string Self = selfParameter(M);
  if (!Uses.UsesSelf)
    Self.resize(Self.size() - std::strlen("self"));
  // `int size(void) const`: the C spelling of no parameters is one `void`
  // that must go, or the copy's list reads `const Comm &selfvoid`.
  if (M->getNumParams() == 0) {
    std::optional<Token> T = Lexer::findNextToken(FTL.getLParenLoc(), SM, LO);
    if (T && T->is(tok::raw_identifier) && T->getRawIdentifier() == "void" &&
        SM.getFileOffset(T->getLocation()) <
            SM.getFileOffset(FTL.getRParenLoc())) {
      unsigned Offset = SM.getFileOffset(T->getLocation());
      Edits.replace(Offset, Offset + T->getLength(), "");
    }
  }
  Edits.insert(LParen + 1, Self + (M->getNumParams() > 0 ? ", " : ""));
}

bool memberCallThroughThis(const CXXMemberCallExpr &Call, unsigned &Begin,
                           unsigned &End) {
  const auto *Callee = dyn_cast<MemberExpr>(Call.getCallee());
  if (!Callee)
    return false;
  const ASTContext &Ctx = Callee->getMemberDecl()->getASTContext();
  return callThroughThis(*Callee, Ctx.getSourceManager(), Ctx.getLangOpts(),
                         Begin, End);
}

} // namespace rewriter
} // namespace wgtrace
