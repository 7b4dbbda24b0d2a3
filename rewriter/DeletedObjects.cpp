//===- DeletedObjects.cpp - What delete does to its object ---------------===//

#include "DeletedObjects.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

namespace {

/// The classes of the translation unit derived from Base.
class DerivedClasses : public RecursiveASTVisitor<DerivedClasses> {
public:
  explicit DerivedClasses(const CXXRecordDecl *Base) : Base(Base) {}
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->isThisDeclarationADefinition() && !RD->isDependentContext() &&
        RD->isDerivedFrom(Base))
      Found.push_back(RD);
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return true; }

  const CXXRecordDecl *Base;
  std::vector<const CXXRecordDecl *> Found;
};

/// Whether the compiler stores the class's virtual table pointer when its
/// destructor D starts: a dynamic class, not final, unless the body is
/// empty and no member has a destructor to run (clang's
/// CanSkipVTablePointerInitialization).
bool storesTablePointer(const CXXDestructorDecl *D) {
  const CXXRecordDecl *Class = D->getParent();
  if (!Class->isDynamicClass() || Class->isEffectivelyFinal())
    return false;
  if (!D->hasTrivialBody())
    return true;
  for (const FieldDecl *Field : Class->fields()) {
    const CXXRecordDecl *Member =
        Field->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
    if (Member && Member->hasDefinition() && !Member->hasTrivialDestructor())
      return true;
  }
  return false;
}

/// Whether the body of D touches only its object's own fields (what it
/// reads goes through `this`, and it dereferences nothing else): then it
/// is bookkeeping, not instrumented, and what it reads of a heap object is
/// lost.
class OwnFieldsOnly : public RecursiveASTVisitor<OwnFieldsOnly> {
public:
  bool VisitMemberExpr(MemberExpr *E) {
    if (isa<FieldDecl>(E->getMemberDecl()) &&
        isa<CXXThisExpr>(E->getBase()->IgnoreParenImpCasts()))
      Fields = true;
    else if (E->isArrow())
      Beyond = true;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *E) {
    Beyond = Beyond || E->getOpcode() == UO_Deref;
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *) {
    Beyond = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *) {
    Beyond = true;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *Var = dyn_cast<VarDecl>(E->getDecl()))
      Beyond = Beyond || !Var->hasLocalStorage();
    return true;
  }

  bool Fields = false;
  bool Beyond = false;
};

/// What D does to its object that is not recorded, as a phrase, or "".
std::string lost(const CXXDestructorDecl *D, const SourceManager &SM) {
  const FunctionDecl *Def = nullptr;
  if (!D->isDefined(Def))
    return "";
  const auto *Defined = cast<CXXDestructorDecl>(Def);
  std::string Out;
  if (storesTablePointer(Defined))
    Out = "stores the object's virtual table pointer";
  const Stmt *Body = Defined->getBody();
  if (!Body || Defined->isImplicit() || Defined->isDefaulted() ||
      Defined->hasTrivialBody())
    return Out;
  SourceLocation Loc = SM.getExpansionLoc(Defined->getLocation());
  if (SM.isInSystemHeader(Loc))
    return Out;
  const char *Why = nullptr;
  if (!SM.isInMainFile(Loc)) {
    Why = "runs its body, defined in a header that is not rewritten";
  } else {
    OwnFieldsOnly Scan;
    Scan.TraverseStmt(const_cast<Stmt *>(Body));
    if (Scan.Fields && !Scan.Beyond)
      Why = "touches the object's fields in a body that touches nothing "
            "else (bookkeeping, not instrumented)";
  }
  if (Why)
    Out += (Out.empty() ? "" : " and ") + std::string(Why);
  return Out;
}

} // namespace

bool deleteReadsTablePointer(const CXXDeleteExpr *E) {
  if (E->isArrayForm() || E->getArgument()->isTypeDependent())
    return false;
  const CXXRecordDecl *Class = E->getDestroyedType()->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition() || Class->hasTrivialDestructor())
    return false;
  const CXXDestructorDecl *D = Class->getDestructor();
  return D && D->isVirtual() && !Class->isEffectivelyFinal() &&
         !D->hasAttr<FinalAttr>();
}

std::string deletedObjectUntraced(const CXXDeleteExpr *E, ASTContext &Ctx) {
  if (E->getArgument()->isTypeDependent())
    return "";
  const CXXRecordDecl *Class = E->getDestroyedType()->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition() || Class->hasTrivialDestructor())
    return "";
  Class = Class->getDefinition();
  // The destroyed class's destructor, and with a virtual one every
  // derived class's, each followed by its bases'.
  std::vector<const CXXRecordDecl *> Runs = {Class};
  if (deleteReadsTablePointer(E)) {
    DerivedClasses Derived(Class);
    Derived.TraverseDecl(Ctx.getTranslationUnitDecl());
    Runs.insert(Runs.end(), Derived.Found.begin(), Derived.Found.end());
  }
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I = 0; I < Runs.size(); ++I) {
    const CXXRecordDecl *RD = Runs[I];
    for (const CXXBaseSpecifier &B : RD->bases())
      if (const CXXRecordDecl *Base = B.getType()->getAsCXXRecordDecl();
          Base && Base->hasDefinition() && !Base->hasTrivialDestructor() &&
          std::find(Runs.begin(), Runs.end(), Base->getDefinition()) ==
              Runs.end())
        Runs.push_back(Base->getDefinition());
    const CXXDestructorDecl *D = RD->getDestructor();
    if (!D)
      continue;
    std::string Lost = lost(D, SM);
    if (!Lost.empty())
      return "the destructor '" + D->getQualifiedNameAsString() +
             "' that it may run " + Lost + ", which wgtrace does not record";
  }
  return "";
}

} // namespace rewriter
} // namespace wgtrace
