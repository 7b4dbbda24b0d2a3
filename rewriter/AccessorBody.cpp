//===- AccessorBody.cpp - What an accessor's body touches -----------------===//

#include "AccessorBody.h"

#include "LibraryCalls.h"
#include "MemoryModel.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

namespace {

class BodyAccesses : public RecursiveASTVisitor<BodyAccesses> {
public:
  BodyAccesses(const FunctionDecl *Def)
      : Model(Def->getASTContext()),
        SM(Def->getASTContext().getSourceManager()) {
    Model.setScope(Def, /*IsKernel=*/false);
    Model.analyzeLocalPointers(Def->getBody());
  }

  /// Set at the first access of memory beyond the object and its
  /// parameters: the walk stops.
  bool Touches = false;
  /// Set at an access of what a reference or pointer parameter designates.
  bool TouchesParameters = false;
  /// Accesses of the object's own storage.
  ObjectUse Object;

  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    if (E->getCastKind() == CK_LValueToRValue ||
        E->getCastKind() == CK_LValueToRValueBitCast)
      access(E->getSubExpr(), /*Store=*/false);
    return !Touches;
  }
  bool VisitBinaryOperator(BinaryOperator *E) {
    if (E->isAssignmentOp())
      access(E->getLHS(), /*Store=*/true);
    return !Touches;
  }
  bool VisitUnaryOperator(UnaryOperator *E) {
    if (E->isIncrementDecrementOp())
      access(E->getSubExpr(), /*Store=*/true);
    return !Touches;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    const CXXConstructorDecl *Ctor = E->getConstructor();
    // A trivial copy (`S s = p[i];`, a by-value `return p_[i];` of a
    // struct) is a load of its source.
    if (Ctor->isCopyOrMoveConstructor() && Ctor->isTrivial() &&
        E->getNumArgs() > 0 && E->getArg(0)->isGLValue())
      access(E->getArg(0), /*Store=*/false);
    else
      libraryArguments(Ctor, E->arguments());
    return !Touches;
  }
  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *Callee = E->getDirectCallee();
    if (!Callee)
      return true; // Calls through pointers are the caller's concern.
    const auto *M = dyn_cast<CXXMethodDecl>(Callee);
    unsigned Offset =
        isa<CXXOperatorCallExpr>(E) && M && !M->isStatic() ? 1 : 0;
    if (M && M->isTrivial() &&
        (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator())) {
      // A trivial struct assignment: a store of the object, a load of the
      // source.
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E))
        access(Member->getImplicitObjectArgument(), /*Store=*/true);
      else if (E->getNumArgs() > 0)
        access(E->getArg(0), /*Store=*/true);
      if (E->getNumArgs() > Offset)
        access(E->getArg(Offset), /*Store=*/false);
      return !Touches;
    }
    libraryArguments(Callee,
                     llvm::make_range(E->arg_begin() + Offset, E->arg_end()));
    return !Touches;
  }

  // Unevaluated operands access nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc) { return true; }
  bool TraverseConstantExpr(ConstantExpr *) { return true; }
  bool TraverseStaticAssertDecl(StaticAssertDecl *) { return true; }

private:
  /// What storage an lvalue or a pointer is part of.
  enum class Root : uint8_t {
    /// The object's own storage: a field reached from `this` (`n_`,
    /// `this->v_[i]` of a member array, `pos_.x`, a member std::array's
    /// element), not what a field points to.
    Object,
    /// What a reference or pointer parameter designates (`o.x` of a
    /// `const Vec &o`, `p[k]`, `p->x`).
    Parameter,
    /// Anything else.
    Other,
  };

  /// An access of the lvalue E (a store, or a load): beyond the object
  /// when it is memory that is not the object's own storage.
  void access(const Expr *E, bool Store) {
    if (Touches || !Model.isMemory(E))
      return;
    switch (rootOf(E)) {
    case Root::Object:
      ++Object.Accesses;
      if (Store)
        ++Object.Stores;
      else if (!E->getType()->isPointerType())
        ++Object.DataLoads;
      break;
    case Root::Parameter:
      TouchesParameters = true;
      break;
    case Root::Other:
      Touches = true;
      break;
    }
  }

  /// The storage the lvalue E is part of.
  Root rootOf(const Expr *E) const {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      switch (Cast->getCastKind()) {
      case CK_NoOp:
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
      case CK_BaseToDerived:
      case CK_LValueBitCast:
        return rootOf(Cast->getSubExpr());
      default:
        return Root::Other;
      }
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
      return Param && Param->getType()->isReferenceType() ? Root::Parameter
                                                          : Root::Other;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (!Field || Field->getType()->isReferenceType())
        return Root::Other;
      return Member->isArrow() ? pointerRoot(Member->getBase())
                               : rootOf(Member->getBase());
    }
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E))
      return pointerRoot(Subscript->getBase());
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Deref)
        return pointerRoot(U->getSubExpr());
      if (U->isPrefix() && U->isIncrementDecrementOp())
        return rootOf(U->getSubExpr());
      return Root::Other;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() == BO_Comma)
        return rootOf(B->getRHS());
      if (B->isAssignmentOp())
        return rootOf(B->getLHS());
      return Root::Other;
    }
    if (const auto *C = dyn_cast<AbstractConditionalOperator>(E)) {
      Root True = rootOf(C->getTrueExpr());
      return True == rootOf(C->getFalseExpr()) ? True : Root::Other;
    }
    // A member of an object that holds its data inline (std::array's
    // operator[], at(), front()) returns part of that object.
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const Expr *Object = nullptr;
      if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
        Object = Member->getImplicitObjectArgument();
      else if (isa<CXXOperatorCallExpr>(Call) && Call->getNumArgs() > 0 &&
               isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee()))
        Object = Call->getArg(0);
      if (!Object)
        return Root::Other;
      QualType T = Object->getType();
      bool Pointer = T->isPointerType();
      if (Model.holdsPointers(Pointer ? T->getPointeeType() : T))
        return Root::Other;
      if (Pointer)
        return pointerRoot(Object);
      return Object->isGLValue() ? rootOf(Object) : Root::Other;
    }
    return Root::Other;
  }

  /// The storage the pointer P points into: `this`, a pointer parameter as
  /// it was passed, the address or the decayed array of some storage,
  /// moved by arithmetic.
  Root pointerRoot(const Expr *P) const {
    P = P->IgnoreParens();
    if (isa<CXXThisExpr>(P))
      return Root::Object;
    if (const auto *Cast = dyn_cast<CastExpr>(P)) {
      switch (Cast->getCastKind()) {
      case CK_ArrayToPointerDecay:
        return rootOf(Cast->getSubExpr());
      case CK_NoOp:
      case CK_BitCast:
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
      case CK_BaseToDerived:
        return pointerRoot(Cast->getSubExpr());
      case CK_LValueToRValue: {
        const auto *Ref =
            dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens());
        const auto *Param =
            Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
        return Param && Param->getType()->isPointerType() ? Root::Parameter
                                                          : Root::Other;
      }
      default:
        return Root::Other;
      }
    }
    if (const auto *U = dyn_cast<UnaryOperator>(P))
      return U->getOpcode() == UO_AddrOf ? rootOf(U->getSubExpr())
                                         : Root::Other;
    if (const auto *B = dyn_cast<BinaryOperator>(P);
        B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub))
      return B->getLHS()->getType()->isPointerType() ? pointerRoot(B->getLHS())
                                                     : pointerRoot(B->getRHS());
    return Root::Other;
  }

  /// The arguments of a call of Callee, a function of a system header (the
  /// standard or C library), that hand it memory beyond the object: by
  /// reference, by pointer (std::fill(p_, p_ + n_, 0), memcpy) or in an
  /// object that points elsewhere (an iterator). Library code reads or
  /// writes it where wgtrace sees nothing. A member function's object is
  /// not an argument here: a container's accessors and bookkeeping hand
  /// out access, and what is done with what they return is looked at.
  template <class Range>
  void libraryArguments(const FunctionDecl *Callee, Range Arguments) {
    const unsigned Builtin = Callee->getBuiltinID();
    const ASTContext &Ctx = Callee->getASTContext();
    if (Builtin && !Ctx.BuiltinInfo.isPredefinedLibFunction(Builtin))
      return;
    if (!Builtin &&
        !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
      return;
    // free() releases what a destructor owns: it reads or writes none of it.
    if (const IdentifierInfo *Id = Callee->getIdentifier())
      if (onlyNamesItsArgument(Id->getName()) ||
          onlyReleasesItsArgument(Id->getName()))
        return;
    for (const Expr *Arg : Arguments) {
      if (Touches)
        return;
      if (isa<CXXDefaultArgExpr>(Arg))
        continue;
      const Expr *Bare = Arg->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(Bare);
          U && U->getOpcode() == UO_Extension)
        Bare = U->getSubExpr()->IgnoreParenImpCasts();
      // String literals and __func__ (assert's arguments) are constants.
      if (isa<StringLiteral>(Bare) || isa<PredefinedExpr>(Bare))
        continue;
      if (Arg->isGLValue())
        access(Arg, /*Store=*/false);
      else if (Arg->getType()->isPointerType())
        Touches = Model.pointerTargetIsMemory(Arg) &&
                  pointerRoot(Arg) != Root::Object;
      else if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Bare);
               !Temporary && Arg->getType()->isRecordType())
        Touches = Model.holdsPointers(Arg->getType());
    }
  }

  MemoryModel Model;
  const SourceManager &SM;
};

} // namespace

BeyondObject memoryBeyondObject(const FunctionDecl *Def, ObjectUse *Object) {
  BodyAccesses Accesses(Def);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getInit() && !Accesses.Touches)
        Accesses.TraverseStmt(Init->getInit());
  if (!Accesses.Touches)
    Accesses.TraverseStmt(Def->getBody());
  if (Object)
    *Object = Accesses.Object;
  if (Accesses.Touches)
    return BeyondObject::Elsewhere;
  return Accesses.TouchesParameters ? BeyondObject::Parameters
                                    : BeyondObject::Nothing;
}

} // namespace rewriter
} // namespace wgtrace
