//===- MemberCopy.cpp - A header's member function copied as a free one ---===//

#include "MemberCopy.h"

#include "PrivateAccess.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

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

/// What in a member's definition a free function could not say: a
/// private or protected member, a name of the class's scope used without
/// qualification (a nested type, a static member, an enumerator), a lambda.
class Unreachable : public RecursiveASTVisitor<Unreachable> {
public:
  explicit Unreachable(const CXXRecordDecl *Class) : Class(Class) {}
  std::string Why;

  bool VisitMemberExpr(MemberExpr *E) {
    if (!acceptsMemberOutsideMacros(E))
      return false;
    const ValueDecl *D = E->getMemberDecl();
    if (!isNonPublic(E->getFoundDecl().getAccess(), D))
      return true;
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
    if (!isa<ParmVarDecl>(D) && declaredIn(D, Class) && !E->hasQualifier())
      Why = "it names " + Name + " of its class's scope";
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

private:
  const CXXRecordDecl *Class;
};

/// The object expressions of the body: implicit member accesses and
/// explicit `this`.
class ThisUses : public RecursiveASTVisitor<ThisUses> {
public:
  ThisUses(const SourceManager &SM, const LangOptions &LO, EditSet &Edits,
           PrivateAccess &Access, std::vector<const ValueDecl *> &Private)
      : SM(SM), LO(LO), Edits(Edits), Access(Access), Private(Private) {}

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    unsigned Begin, End;
    const auto *Callee = dyn_cast<MemberExpr>(Call->getCallee());
    if (Callee && Callee->isImplicitAccess() &&
        memberCallThroughThis(*Call, Begin, End)) {
      Calls.insert(Callee);
      Edits.replace(
          Begin, End,
          (nonPublic(*Callee)
               ? "(self.*" + pointer(Callee) + ")"
               : "self." + Callee->getMemberNameInfo().getAsString()) +
              "(");
    }
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
      if (E->isImplicitAccess())
        Edits.replace(Offset, NameEnd,
                      "self." + E->getMemberNameInfo().getAsString());
      return true;
    }
    if (E->isImplicitAccess()) {
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
  // A non-public static member, through its plain pointer.
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
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
    Edits.replace(Offset, Offset + 4, "(&self)");
    return true;
  }
  // The member call's callee is visited after the call.
  bool shouldTraversePostOrder() const { return false; }

private:
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
  llvm::SmallPtrSet<const MemberExpr *, 4> Calls;
};

} // namespace

std::string whyMemberNotCopyable(const CXXMethodDecl *M) {
  if (M->isStatic())
    return "it is a static member function";
  if (isa<CXXConstructorDecl>(M) || isa<CXXDestructorDecl>(M) ||
      isa<CXXConversionDecl>(M))
    return "it is a member function";
  // Called as `f(a)`, `v[i]`, `p->x`: no copy's call takes their place
  // with the operator's token replaced.
  OverloadedOperatorKind Op = M->getOverloadedOperator();
  if (Op == OO_Call || Op == OO_Subscript || Op == OO_Arrow)
    return "it is a member operator(), operator[] or operator->";
  if (M->isVirtual())
    return "it is a virtual member function";
  const CXXRecordDecl *Class = M->getParent();
  if (M->isTemplated())
    return "it is a member function of a template";
  if (M->getRefQualifier() != RQ_None || M->isVolatile())
    return "it is a member function with a reference or volatile qualifier";
  if (!Class->getIdentifier() || Class->isLambda() ||
      !Class->getDeclContext()->getRedeclContext()->isFileContext())
    return "it is a member function of a class that is not named at "
           "namespace scope";
  if (M->getLexicalDeclContext() != Class)
    return "it is a member function defined outside its class";
  Unreachable Find(Class);
  Find.TraverseDecl(const_cast<CXXMethodDecl *>(M));
  if (!Find.Why.empty())
    return "it is a member function and " + Find.Why +
           ", which a free copy cannot";
  return "";
}

std::string selfParameter(const CXXMethodDecl *M) {
  PrintingPolicy Policy(M->getASTContext().getLangOpts());
  Policy.FullyQualifiedName = true;
  Policy.SuppressScope = false;
  std::string Class =
      M->getASTContext().getRecordType(M->getParent()).getAsString(Policy);
  return std::string(M->isConst() ? "const " : "") + "::" + Class + " &self";
}

void makeFreeFunction(const CXXMethodDecl *M, EditSet &Edits,
                      PrivateAccess &Access,
                      std::vector<const ValueDecl *> &Private) {
  const ASTContext &Ctx = M->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  FunctionTypeLoc FTL = M->getFunctionTypeLoc();
  unsigned LParen = SM.getFileOffset(FTL.getLParenLoc());
  Edits.insert(LParen + 1,
               selfParameter(M) + (M->getNumParams() > 0 ? ", " : ""));
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
  ThisUses Uses(SM, LO, Edits, Access, Private);
  Uses.TraverseStmt(M->getBody());
}

bool memberCallThroughThis(const CXXMemberCallExpr &Call, unsigned &Begin,
                           unsigned &End) {
  const auto *Callee = dyn_cast<MemberExpr>(Call.getCallee());
  if (!Callee)
    return false;
  const SourceManager &SM =
      Callee->getMemberDecl()->getASTContext().getSourceManager();
  const LangOptions &LO =
      Callee->getMemberDecl()->getASTContext().getLangOpts();
  SourceLocation Name = Callee->getMemberLoc();
  SourceLocation NameEnd = Callee->getEndLoc();
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

} // namespace rewriter
} // namespace wgtrace
