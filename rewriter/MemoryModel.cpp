//===- MemoryModel.cpp - Which lvalues are memory the trace records -------===//

#include "MemoryModel.h"
#include "ThreadOwnership.h"

#include "llvm/ADT/StringSwitch.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

bool MemoryModel::isWorkgroupType(QualType T) {
  T = T.getNonReferenceType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->getQualifiedNameAsString() == "wgtrace::Workgroup";
}

bool MemoryModel::holdsPointers(QualType T) const {
  T = T.getCanonicalType();
  if (T->isPointerType() || T->isReferenceType() || T->isMemberPointerType())
    return true;
  if (const auto *AT = Ctx.getAsArrayType(T))
    return holdsPointers(AT->getElementType());
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  RD = RD->getDefinition();
  if (!RD)
    return true; // Unknown layout: assume it refers elsewhere.
  auto It = PointerCache.find(T.getTypePtr());
  if (It != PointerCache.end())
    return It->second;
  // Break cycles through self-referential types before recursing.
  PointerCache[T.getTypePtr()] = true;
  bool Holds = false;
  for (const CXXBaseSpecifier &B : RD->bases())
    Holds = Holds || holdsPointers(B.getType());
  for (const FieldDecl *F : RD->fields())
    Holds = Holds || holdsPointers(F->getType());
  PointerCache[T.getTypePtr()] = Holds;
  return Holds;
}

/// Whether T is a standard container that keeps its elements in storage
/// of its own on the heap, freed with it.
static bool isOwningContainer(QualType T) {
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(RD->getName())
      .Cases("vector", "basic_string", "valarray", "deque", true)
      .Default(false);
}

bool MemoryModel::isWorkgroupOwned(const Expr *E) const {
  // Down to the container whose storage holds what E designates, through
  // its element accessors and pointer arithmetic on what they return.
  // A container constructed in place (`std::vector<double> tmp(8)`, whose
  // construction is recorded: VectorCalls.h) makes new storage of its own.
  if (const auto *C = dyn_cast<CXXConstructExpr>(E))
    return constructsOwnedLocal(C);
  const Expr *X = E;
  const Expr *Container = nullptr;
  while (X && !Container) {
    X = X->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(X)) {
      X = A->getBase();
    } else if (const auto *U = dyn_cast<UnaryOperator>(X);
               U &&
               (U->getOpcode() == UO_Deref || U->isIncrementDecrementOp())) {
      X = U->getSubExpr();
    } else if (const auto *B = dyn_cast<BinaryOperator>(X);
               B && B->isAdditiveOp()) {
      X = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(X)) {
      const OverloadedOperatorKind K = Op->getOperator();
      if (K != OO_Subscript && K != OO_Star && K != OO_Arrow)
        return false;
      const Expr *Object = Op->getArg(0)->IgnoreParenImpCasts();
      if (K == OO_Subscript && isOwningContainer(Object->getType()))
        Container = Object;
      else
        X = Object; // an iterator's *it
    } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(X)) {
      const Expr *Object = Call->getImplicitObjectArgument();
      const auto *Method = Call->getMethodDecl();
      if (!Object || !Method || !Method->getIdentifier() ||
          !isOwningContainer(Object->getType()))
        return false;
      if (!llvm::StringSwitch<bool>(Method->getName())
               .Cases("data", "begin", "end", "rbegin", "rend", true)
               .Cases("cbegin", "cend", "front", "back", "at", true)
               .Cases("push_back", "emplace_back", "pop_back", true)
               .Default(false))
        return false;
      Container = Object->IgnoreParenImpCasts();
    } else if (isOwningContainer(X->getType()) && X->isGLValue()) {
      Container = X; // a recorded call's range: the container itself
    } else {
      return false;
    }
  }
  if (!Container)
    return false;
  // The container is a local by value, or a member (through `.`) of one.
  const Expr *Root = Container;
  while (const auto *M = dyn_cast<MemberExpr>(Root)) {
    if (M->isArrow())
      return false;
    Root = M->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Root);
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  // A lambda kernel's captures are the launcher's, one closure for every
  // workgroup.
  return VD && !Ref->refersToEnclosingVariableOrCapture() && isOwnedLocal(VD);
}

bool MemoryModel::isOwnedLocal(const VarDecl *VD) const {
  if (!VD->hasLocalStorage() || VD->getType()->isReferenceType())
    return false;
  // Declared in the function analysed, and not shared by an OpenMP loop's
  // iterations.
  if (!Scope || !Scope->Encloses(VD->getDeclContext()))
    return false;
  return !(Omp && Omp->Shared.count(VD));
}

bool MemoryModel::constructsOwnedLocal(const CXXConstructExpr *C) const {
  // Only the initializer of a local by value: a temporary's storage may
  // move into another container (`shared[i] = std::vector<int>(3)`).
  if (!isOwningContainer(C->getType()))
    return false;
  // Through the cleanups of a defaulted allocator's temporary.
  DynTypedNodeList Parents = Ctx.getParents(*C);
  if (Parents.size() == 1)
    if (const auto *Cleanups = Parents[0].get<ExprWithCleanups>())
      Parents = Ctx.getParents(*Cleanups);
  const auto *VD = Parents.size() == 1 ? Parents[0].get<VarDecl>() : nullptr;
  return VD && VD->getInit() && VD->getInit()->IgnoreImplicit() == C &&
         isOwnedLocal(VD);
}

bool MemoryModel::isThreadOwned(const Expr *E) const {
  static const VarSet None;
  return dependsOnThread(E, Omp ? Omp->ThreadValued : None);
}

bool MemoryModel::pointerTargetIsMemory(const Expr *P) const {
  P = P->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(P)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return isMemory(Cast->getSubExpr());
    case CK_NoOp:
    case CK_BitCast:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_BaseToDerived:
      return pointerTargetIsMemory(Cast->getSubExpr());
    case CK_LValueToRValue:
      return !isLocalPointer(Cast->getSubExpr());
    default:
      // A pointer loaded from anywhere may point anywhere.
      return true;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(P)) {
    if (U->getOpcode() == UO_AddrOf)
      return isMemory(U->getSubExpr());
    // p++ and p-- yield the pointer's old value.
    if (U->isIncrementDecrementOp())
      return !isLocalPointer(U->getSubExpr());
  }
  // `acc.data()`, `acc.begin()` on a local that holds its elements inline
  // (std::array) point into that local. Any other call may return any
  // pointer (malloc, a member of a global).
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(P)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    if (Object && Object->isGLValue() && !isMemory(Object) &&
        !holdsPointers(Object->getType()))
      return false;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(P)) {
    if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) {
      if (B->getLHS()->getType()->isPointerType())
        return pointerTargetIsMemory(B->getLHS());
      if (B->getRHS()->getType()->isPointerType())
        return pointerTargetIsMemory(B->getRHS());
    }
    if (B->getOpcode() == BO_Comma)
      return pointerTargetIsMemory(B->getRHS());
  }
  return true;
}

/// The lvalue a pointer variable's ++, -- or assignment yields is that
/// variable: the expression under them (`p` of `(p += 2)++`), or null for
/// an operator that yields some other lvalue.
static const Expr *pointerVariableLValue(const Expr *E) {
  for (E = E->IgnoreParens();; E = E->IgnoreParens()) {
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (!U->isIncrementDecrementOp())
        return nullptr;
      E = U->getSubExpr();
    } else if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      if (!B->isAssignmentOp())
        return nullptr;
      E = B->getLHS();
    } else {
      return E;
    }
  }
}

bool MemoryModel::isLocalPointer(const Expr *E) const {
  E = pointerVariableLValue(E);
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && LocalPointers.contains(VD);
}

namespace {
/// Collects the uses of local pointer variables and sorts out the harmless
/// ones (reads, ++/--, +=/-=, plain assignment, whose value is checked).
class PointerUses : public RecursiveASTVisitor<PointerUses> {
public:
  llvm::DenseSet<const DeclRefExpr *> Harmless;
  std::vector<const DeclRefExpr *> Uses;
  std::vector<std::pair<const VarDecl *, const Expr *>> Values;
  std::vector<const VarDecl *> Candidates;

  static const VarDecl *pointerVar(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        VD->getType()->isPointerType())
      return VD;
    return nullptr;
  }
  void harmless(const Expr *E) {
    if (pointerVar(E))
      Harmless.insert(cast<DeclRefExpr>(E->IgnoreParens()));
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        VD->getType()->isPointerType() && VD->getInit()) {
      Candidates.push_back(VD);
      Values.push_back({VD, VD->getInit()});
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (pointerVar(E))
      Uses.push_back(E);
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    if (E->getCastKind() == CK_LValueToRValue)
      harmless(E->getSubExpr());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *E) {
    if (E->isIncrementDecrementOp())
      harmless(E->getSubExpr());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *E) {
    BinaryOperatorKind Op = E->getOpcode();
    if (Op == BO_AddAssign || Op == BO_SubAssign) {
      harmless(E->getLHS());
    } else if (Op == BO_Assign) {
      if (const VarDecl *VD = pointerVar(E->getLHS())) {
        harmless(E->getLHS());
        Values.push_back({VD, E->getRHS()});
      }
    }
    return true;
  }
};
} // namespace

void MemoryModel::analyzeLocalPointers(const Stmt *Body) {
  LocalPointers.clear();
  if (!Body)
    return;
  PointerUses Uses;
  Uses.TraverseStmt(const_cast<Stmt *>(Body));
  for (const VarDecl *VD : Uses.Candidates)
    LocalPointers.insert(VD);
  // Any other use (address taken, bound to a reference, passed by
  // reference) may change the pointer behind our back.
  for (const DeclRefExpr *Use : Uses.Uses)
    if (!Uses.Harmless.contains(Use))
      LocalPointers.erase(cast<VarDecl>(Use->getDecl()));
  // Values may come from other candidates: shrink to a fixpoint.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto [VD, Value] : Uses.Values)
      if (LocalPointers.contains(VD) && pointerTargetIsMemory(Value)) {
        LocalPointers.erase(VD);
        Changed = true;
      }
  }
  // A pointer whose address escapes may be given anything; one given a
  // value that may point into the kernel's stack may too: grow to a
  // fixpoint.
  StackPointers.clear();
  for (const DeclRefExpr *Use : Uses.Uses)
    if (!Uses.Harmless.contains(Use))
      StackPointers.insert(cast<VarDecl>(Use->getDecl()));
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto [VD, Value] : Uses.Values)
      if (!LocalPointers.contains(VD) && !StackPointers.contains(VD) &&
          pointerMayBeKernelStack(Value)) {
        StackPointers.insert(VD);
        Changed = true;
      }
  }
}

bool MemoryModel::isCapturedByCopy(const VarDecl *VD) const {
  for (auto It = Lambdas.rbegin(), E = Lambdas.rend(); It != E; ++It)
    for (const LambdaCapture &C : (*It)->captures())
      if (C.capturesVariable() && C.getCapturedVar() == VD)
        return C.getCaptureKind() == LCK_ByCopy;
  return false;
}

std::optional<bool>
MemoryModel::kernelCaptureIsMemory(const VarDecl *VD) const {
  if (!KernelClosure)
    return std::nullopt;
  for (const LambdaCapture &C : KernelClosure->captures()) {
    if (!C.capturesVariable() || C.getCapturedVar() != VD)
      continue;
    if (C.getCaptureKind() == LCK_ByCopy)
      return VD->getType()->isReferenceType() && VD->isInitCapture();
    // By reference: the enclosing function's variable, outside the kernel.
    return VD->getType()->isReferenceType() || !VD->getType()->isPointerType();
  }
  return std::nullopt;
}

bool MemoryModel::declRefIsMemory(const ValueDecl *D, const Expr *Ref) const {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Ref))
    if (DRE->isNonOdrUse() != NOUR_None)
      return false; // A constant the compiler folds: nothing is loaded.
  if (isWorkgroupType(D->getType()))
    return false;
  if (const auto *BD = dyn_cast<BindingDecl>(D)) {
    // A structured binding names a part of its hidden holding variable.
    if (const Expr *Binding = BD->getBinding())
      return isMemory(Binding);
    return true;
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return false;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Ref))
    if (DRE->refersToEnclosingVariableOrCapture()) {
      if (isCapturedByCopy(VD))
        return false;
      if (std::optional<bool> Captured = kernelCaptureIsMemory(VD))
        return *Captured;
    }
  // A variable an OpenMP loop's iterations share is memory they all see,
  // a pointer too: each load of it the source writes is a load of shared
  // memory (as a global pointer's is in a kernel), and a store to it races
  // with the other iterations' loads.
  if (Omp && Omp->Shared.contains(VD))
    return true;
  // `reduction(+ : total)` of a global: the body's `total` is the thread's
  // copy, which no other iteration of another thread sees.
  if (Omp && Omp->PrivateStatics.contains(VD->getCanonicalDecl()))
    return false;
  if (VD->getType()->isReferenceType()) {
    // `for (float &x : range)`: x is an element of the range. Its implicit
    // initializer (`*__begin`) says nothing about where the range lives.
    auto Range = RangeLoopVars.find(VD);
    if (Range != RangeLoopVars.end())
      return rangeElementsAreMemory(Range->second);
    if (isa<ParmVarDecl>(VD) || !VD->hasLocalStorage())
      return true;
    // A local reference is memory when what it was bound to is.
    const Expr *Init = VD->getInit();
    if (!Init)
      return true;
    Init = Init->IgnoreParens();
    if (isa<MaterializeTemporaryExpr>(Init) || Init->isPRValue())
      return false; // Bound to a temporary that lives on the stack.
    return isMemory(Init);
  }
  return !VD->hasLocalStorage();
}

bool MemoryModel::sourceIsMemory(const Expr *Arg) const {
  Arg = Arg->IgnoreParens();
  if (isa<CXXDefaultArgExpr>(Arg))
    return false;
  // A temporary is the kernel's own, as a local is; what it refers to
  // outside itself (a std::vector's elements, on the heap) is memory:
  // `make()[i]`, `std::vector<int>(a, a + n)[2]` read it.
  if (isa<MaterializeTemporaryExpr>(Arg))
    return holdsPointers(Arg->getType());
  if (Arg->isGLValue())
    return isMemory(Arg) || holdsPointers(Arg->getType());
  if (Arg->getType()->isPointerType())
    return pointerTargetIsMemory(Arg);
  return holdsPointers(Arg->getType());
}

/// Whether a call of std::get<I>(t) (or std::get<T>(t)) returns what a
/// reference member of t refers to rather than a member of t, or may: the
/// element type is a reference, or unknown.
static bool getsReferenceMember(const CallExpr *Call) {
  const FunctionDecl *Get = Call->getDirectCallee();
  const TemplateArgumentList *GetArgs =
      Get ? Get->getTemplateSpecializationArgs() : nullptr;
  const auto *Object = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Call->getArg(0)->getType()->getAsCXXRecordDecl());
  if (!GetArgs || GetArgs->size() == 0 || !Object)
    return true;
  const TemplateArgument &Which = GetArgs->get(0);
  if (Which.getKind() == TemplateArgument::Type)
    return Which.getAsType()->isReferenceType();
  if (Which.getKind() != TemplateArgument::Integral)
    return true;
  StringRef Class = Object->getName();
  if (Class == "array")
    return false;
  if (Class != "pair" && Class != "tuple")
    return true;
  // The element types, packs expanded: pair<T1, T2>, tuple<Ts...>.
  llvm::SmallVector<QualType, 4> Elements;
  for (const TemplateArgument &A : Object->getTemplateArgs().asArray()) {
    if (A.getKind() == TemplateArgument::Pack) {
      for (const TemplateArgument &P : A.pack_elements())
        Elements.push_back(P.getAsType());
    } else if (A.getKind() == TemplateArgument::Type) {
      Elements.push_back(A.getAsType());
    }
  }
  uint64_t Index = Which.getAsIntegral().getZExtValue();
  return Index >= Elements.size() || Elements[Index]->isReferenceType();
}

bool MemoryModel::callResultIsMemory(const CallExpr *Call) const {
  // std::move and std::forward only change the value category.
  if (unsigned ID = Call->getBuiltinCallee())
    if ((ID == Builtin::BImove || ID == Builtin::BIforward ||
         ID == Builtin::BIforward_like || ID == Builtin::BIas_const) &&
        Call->getNumArgs() == 1)
      return isMemory(Call->getArg(0));

  const FunctionDecl *Callee = Call->getDirectCallee();
  // std::get of a pair, a tuple or an array (what a structured binding of
  // one names) returns one of the object's own members: memory when the
  // object is, unless that member is a reference.
  if (Callee && Callee->isInStdNamespace() && Callee->getIdentifier() &&
      Callee->getName() == "get" && Call->getNumArgs() == 1 &&
      !getsReferenceMember(Call))
    return Call->getArg(0)->isGLValue() && isMemory(Call->getArg(0));
  // Assignment operators return their left operand; so do a class's
  // compound assignments and prefix increments and decrements when they
  // return a reference of its own type (`++it` on a local iterator is the
  // local).
  if (Callee && Call->getNumArgs() >= 1 && isa<CXXOperatorCallExpr>(Call)) {
    OverloadedOperatorKind K = Callee->getOverloadedOperator();
    if (K == OO_Equal)
      return isMemory(Call->getArg(0));
    bool ReturnsItself = false;
    switch (K) {
    case OO_PlusPlus:
    case OO_MinusMinus:
      ReturnsItself = Call->getNumArgs() == 1; // prefix
      break;
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
    case OO_PercentEqual:
    case OO_CaretEqual:
    case OO_AmpEqual:
    case OO_PipeEqual:
    case OO_LessLessEqual:
    case OO_GreaterGreaterEqual:
      ReturnsItself = true;
      break;
    default:
      break;
    }
    QualType Result = Callee->getReturnType();
    if (ReturnsItself && Result->isLValueReferenceType() &&
        Ctx.hasSameUnqualifiedType(Result.getNonReferenceType(),
                                   Call->getArg(0)->getType()))
      return isMemory(Call->getArg(0));
  }

  // A reference returned by a call refers into one of its sources (the
  // object, a reference argument, or what a pointer argument points to) or
  // to something non-local. It is a local only if every source is a local
  // that holds its data inline (std::array, a scalar).
  bool HasSource = false;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    if (const Expr *Object = Member->getImplicitObjectArgument()) {
      HasSource = true;
      if (Object->getType()->isPointerType() ? pointerTargetIsMemory(Object)
                                             : sourceIsMemory(Object))
        return true;
    }
  }
  for (const Expr *Arg : Call->arguments()) {
    HasSource = true;
    if (sourceIsMemory(Arg))
      return true;
  }
  return !HasSource;
}

bool MemoryModel::isMemory(const Expr *E) const {
  E = E->IgnoreParens();
  if (!E->isGLValue())
    return false;
  if (E->getType()->isFunctionType())
    return false;

  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = Sub->getBase();
    if (Base->getType()->isVectorType())
      return false; // Vector elements have no address.
    return pointerTargetIsMemory(Base);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    switch (U->getOpcode()) {
    case UO_Deref:
      return pointerTargetIsMemory(U->getSubExpr());
    case UO_PreInc:
    case UO_PreDec:
    case UO_Real:
    case UO_Imag:
    case UO_Extension:
      return isMemory(U->getSubExpr());
    default:
      return false;
    }
  }
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    const ValueDecl *Member = M->getMemberDecl();
    if (isa<VarDecl>(Member))
      return declRefIsMemory(Member, nullptr); // A static data member.
    if (!isa<FieldDecl>(Member))
      return false;
    // A reference member refers to memory wherever the object is.
    if (Member->getType()->isReferenceType())
      return true;
    if (M->isArrow())
      return pointerTargetIsMemory(M->getBase());
    return isMemory(M->getBase());
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return declRefIsMemory(DRE->getDecl(), DRE);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return callResultIsMemory(Call);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_NoOp:
    case CK_LValueBitCast:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_BaseToDerived:
      return isMemory(Cast->getSubExpr());
    default:
      return false;
    }
  }
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(E))
    return isMemory(C->getTrueExpr()) || isMemory(C->getFalseExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Comma)
      return isMemory(B->getRHS());
    if (B->isAssignmentOp())
      return isMemory(B->getLHS());
    // A data member named by a pointer to member: `o.*pm` is in o,
    // `p->*pm` in *p.
    if (B->getOpcode() == BO_PtrMemD)
      return isMemory(B->getLHS());
    if (B->getOpcode() == BO_PtrMemI)
      return pointerTargetIsMemory(B->getLHS());
    return false;
  }
  if (isa<clang::StringLiteral>(E) || isa<PredefinedExpr>(E))
    return true;
  if (const auto *CL = dyn_cast<CompoundLiteralExpr>(E))
    return CL->isFileScope();
  return false;
}

/// The object (a glvalue) whose member function or operator E calls, if E
/// is such a call.
static const Expr *calledObject(const Expr *E) {
  const Expr *Object = nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E))
    Object = Member->getImplicitObjectArgument();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
           Op && Op->getNumArgs() > 0 &&
           isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()))
    Object = Op->getArg(0);
  if (!Object || !Object->isGLValue())
    return nullptr;
  return Object;
}

/// The std::basic_string object (a glvalue) whose member function or
/// operator E calls, if E is such a call.
static const Expr *stringObjectOf(const Expr *E) {
  const Expr *Object = calledObject(E);
  if (!Object)
    return nullptr;
  const auto *RD = Object->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier() ||
      RD->getName() != "basic_string")
    return nullptr;
  return Object;
}

bool MemoryModel::mayBeKernelStack(const Expr *E) const {
  // The object E is part of: through its members (`s.x`), the elements of
  // an array (`r[i]` of `float (&r)[4]`) and casts that keep the object.
  for (;;) {
    E = E->IgnoreParens();
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow())
        return pointerMayBeKernelStack(M->getBase());
      E = M->getBase();
    } else if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
      return pointerMayBeKernelStack(Sub->getBase());
    } else if (const auto *U = dyn_cast<UnaryOperator>(E);
               U && U->getOpcode() == UO_Deref) {
      return pointerMayBeKernelStack(U->getSubExpr());
    } else if (const auto *Cast = dyn_cast<CastExpr>(E);
               Cast && (Cast->getCastKind() == CK_NoOp ||
                        Cast->getCastKind() == CK_LValueBitCast ||
                        Cast->getCastKind() == CK_DerivedToBase ||
                        Cast->getCastKind() == CK_UncheckedDerivedToBase ||
                        Cast->getCastKind() == CK_BaseToDerived)) {
      E = Cast->getSubExpr();
    } else {
      break;
    }
  }
  // A character a std::string hands out (`s[i]`, `s.at(i)`, `s.front()`)
  // is in the string object itself while the string is short (libstdc++
  // keeps up to 15 characters inline): on the kernel's stack when the
  // string is a local, or what a helper's reference designates.
  if (const Expr *Object = stringObjectOf(E))
    return !isMemory(Object) || mayBeKernelStack(Object);
  // What a temporary hands out (`make()[i]`, `std::span<float>(t).front()`)
  // is where the temporary's storage is: a std::vector's elements are on
  // the heap, but a view's may be a local array of the kernel's.
  if (const Expr *Object = calledObject(E);
      Object && isa<MaterializeTemporaryExpr>(Object->IgnoreParens()))
    return !isOwningContainer(Object->getType());
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Ref)
    return false;
  if (const auto *BD = dyn_cast<BindingDecl>(Ref->getDecl())) {
    // A binding of a tuple-like object names what its get() returned.
    const Expr *Binding = BD->getBinding();
    return Binding && (isa<CallExpr>(Binding->IgnoreImplicit()) ||
                       mayBeKernelStack(Binding));
  }
  const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
  if (!VD || !VD->hasLocalStorage())
    return false;
  if (const auto *Param = dyn_cast<ParmVarDecl>(VD))
    return !isOwnKernelParameter(Param);
  // A local reference: bound to a range's element, to what its initializer
  // designates, or to a call's result, which may be a temporary or a local
  // (`const int &m = std::max(a[i], t)`).
  if (!VD->getType()->isReferenceType() || RangeLoopVars.count(VD))
    return false;
  const Expr *Init = VD->getInit();
  if (!Init)
    return true;
  Init = Init->IgnoreParens();
  return isa<CallExpr>(Init) || mayBeKernelStack(Init);
}

bool MemoryModel::pointerMayBeKernelStack(const Expr *P) const {
  P = P->IgnoreParens();
  if (isa<CXXThisExpr>(P))
    return !ScopeIsKernel;
  if (const auto *Cast = dyn_cast<CastExpr>(P)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return mayBeKernelStack(Cast->getSubExpr());
    case CK_NoOp:
    case CK_BitCast:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_BaseToDerived:
      return pointerMayBeKernelStack(Cast->getSubExpr());
    case CK_LValueToRValue:
      return pointerVariableMayBeKernelStack(Cast->getSubExpr());
    default:
      return false;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(P)) {
    if (U->getOpcode() == UO_AddrOf)
      return mayBeKernelStack(U->getSubExpr());
    // `*begin++ = v`: pointer arithmetic stays inside the object.
    if (U->isIncrementDecrementOp())
      return pointerVariableMayBeKernelStack(U->getSubExpr());
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(P))
    return pointerMayBeKernelStack(C->getTrueExpr()) ||
           pointerMayBeKernelStack(C->getFalseExpr());
  // `acc.data()` of a std::array the kernel handed over by reference.
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(P)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    if (Object && Object->isGLValue() && !holdsPointers(Object->getType()))
      return mayBeKernelStack(Object);
  }
  // `s.data()`, `s.c_str()` of a short std::string point into the object.
  if (const Expr *Object = stringObjectOf(P))
    return !isMemory(Object) || mayBeKernelStack(Object);
  if (const auto *B = dyn_cast<BinaryOperator>(P)) {
    if (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) {
      if (B->getLHS()->getType()->isPointerType())
        return pointerMayBeKernelStack(B->getLHS());
      if (B->getRHS()->getType()->isPointerType())
        return pointerMayBeKernelStack(B->getRHS());
    }
    if (B->getOpcode() == BO_Comma)
      return pointerMayBeKernelStack(B->getRHS());
  }
  return false;
}

bool MemoryModel::pointerVariableMayBeKernelStack(const Expr *E) const {
  E = pointerVariableLValue(E);
  if (!E)
    return false;
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return pointerVariableMayBeKernelStack(C->getTrueExpr()) ||
           pointerVariableMayBeKernelStack(C->getFalseExpr());
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  if (!Ref)
    return false;
  // A pointer parameter of a helper may point to the kernel's locals, and
  // so may a local pointer given one's value.
  if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()))
    return !isOwnKernelParameter(Param);
  const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
  return VD && StackPointers.contains(VD);
}

bool MemoryModel::isOwnKernelParameter(const ParmVarDecl *Param) const {
  // The kernel's own parameters; not those of a lambda written in it.
  return ScopeIsKernel && Param->getDeclContext() == Scope;
}

} // namespace rewriter
} // namespace wgtrace
