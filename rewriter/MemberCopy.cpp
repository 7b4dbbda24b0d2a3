//===- MemberCopy.cpp - A header's member function copied as a free one ---===//

#include "MemberCopy.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

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
    if (D->getAccess() == AS_private || D->getAccess() == AS_protected)
      Why = "it uses the non-public member '" + D->getNameAsString() + "'";
    return Why.empty();
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    // A member operator called in operator syntax (`*this *= 1 / t`) is
    // referred to by its call; its copy is called as a free one.
    if (const auto *M = dyn_cast<CXXMethodDecl>(D); M && !M->isStatic())
      return true;
    if (!isa<ParmVarDecl>(D) && declaredIn(D, Class) && !E->hasQualifier())
      Why = "it names '" + D->getNameAsString() + "' of its class's scope";
    return Why.empty();
  }
  bool VisitTypeLoc(TypeLoc TL) {
    const TagDecl *Tag = TL.getType()->getAsTagDecl();
    if (const auto *TD = TL.getType()->getAs<TypedefType>())
      if (declaredIn(TD->getDecl(), Class))
        Why = "it names the type '" + TD->getDecl()->getNameAsString() +
              "' of its class's scope";
    if (Tag && Tag != Class && declaredIn(Tag, Class))
      Why = "it names the type '" + Tag->getNameAsString() +
            "' of its class's scope";
    return Why.empty();
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
  ThisUses(const SourceManager &SM, const LangOptions &LO, EditSet &Edits)
      : SM(SM), LO(LO), Edits(Edits) {}

  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    unsigned Begin, End;
    const auto *Callee = dyn_cast<MemberExpr>(Call->getCallee());
    if (Callee && Callee->isImplicitAccess() &&
        memberCallThroughThis(*Call, Begin, End)) {
      Calls.insert(Callee);
      Edits.replace(Begin, End,
                    "self." + Callee->getMemberNameInfo().getAsString() + "(");
    }
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (!E->isImplicitAccess() || Calls.count(E))
      return true;
    SourceLocation Name = E->getMemberLoc();
    if (Name.isMacroID())
      return true;
    unsigned Offset = SM.getFileOffset(Name);
    Edits.replace(Offset, Offset + Lexer::MeasureTokenLength(Name, SM, LO),
                  "self." + E->getMemberNameInfo().getAsString());
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
  const SourceManager &SM;
  const LangOptions &LO;
  EditSet &Edits;
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

void makeFreeFunction(const CXXMethodDecl *M, EditSet &Edits) {
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
  ThisUses Uses(SM, LO, Edits);
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
