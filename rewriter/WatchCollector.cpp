//===- WatchCollector.cpp - Records of WGTRACE_WATCH variables ------------===//

#include "WatchCollector.h"

#include "clang/AST/Attr.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

/// Whether a VALUE record can hold a T (format value types 0-12).
static bool isRecordableValue(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isIntegralOrEnumerationType() || T->isPointerType())
    return true;
  if (const auto *B = T->getAs<BuiltinType>())
    switch (B->getKind()) {
    case BuiltinType::Float:
    case BuiltinType::Double:
    case BuiltinType::Float16:
    case BuiltinType::BFloat16:
      return true;
    default:
      return false;
    }
  return false;
}

/// The ordinal of a WGTRACE_WATCH annotation: its one argument, an integer
/// constant from 0 to 255.
static std::optional<unsigned> watchOrdinal(const AnnotateAttr *A,
                                            const ASTContext &Ctx) {
  if (A->args_size() != 1)
    return std::nullopt;
  const Expr *Arg = *A->args_begin();
  // Not getIntegerConstantExpr(): clang-tidy 19's analyzer reports a double
  // free wherever a std::optional<APSInt> is destroyed (llvm-project#119415).
  if (!Arg->isIntegerConstantExpr(Ctx))
    return std::nullopt;
  llvm::APSInt Value = Arg->EvaluateKnownConstInt(Ctx);
  if (Value.isNegative() || Value.getExtValue() > 255)
    return std::nullopt;
  return static_cast<unsigned>(Value.getExtValue());
}

void WatchCollector::collect(const FunctionDecl *FD) {
  if (Stmt *Body = FD->getBody())
    TraverseStmt(Body);
}

std::optional<unsigned> WatchCollector::ordinalOf(const VarDecl *VD) {
  auto Known = Ordinals.find(VD);
  if (Known != Ordinals.end())
    return Known->second;
  std::optional<unsigned> Ordinal;
  for (const auto *A : VD->specific_attrs<AnnotateAttr>()) {
    if (A->getAnnotation() != "wgtrace.watch")
      continue;
    Ordinal = watchOrdinal(A, RC.Ctx);
    if (!Ordinal) {
      RC.error(VD->getLocation(), "WGTRACE_WATCH of '" + VD->getName().str() +
                                      "' needs an ordinal from 0 to 255");
      break;
    }
    if (!isRecordableValue(VD->getType())) {
      RC.error(VD->getLocation(),
               "watched variable '" + VD->getName().str() + "' has type '" +
                   VD->getType().getAsString() +
                   "', which a VALUE record cannot hold (integers, enums, "
                   "pointers, float, double, _Float16, __bf16)");
      Ordinal.reset();
      break;
    }
    bool Listed = false;
    for (const WatchedVariable &W : Watched)
      Listed = Listed || (W.Ordinal == *Ordinal && W.Name == VD->getName());
    if (!Listed)
      Watched.push_back({*Ordinal, VD->getName().str()});
    break;
  }
  Ordinals[VD] = Ordinal;
  return Ordinal;
}

bool WatchCollector::VisitCompoundStmt(CompoundStmt *S) {
  // The initial value is recorded by a statement after the declaration,
  // which only a block can hold (not a for-init or an if condition).
  for (Stmt *Child : S->body()) {
    auto *DS = dyn_cast<DeclStmt>(Child);
    if (!DS)
      continue;
    std::string Records;
    for (Decl *D : DS->decls()) {
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->hasInit())
        continue;
      std::optional<unsigned> Ordinal = ordinalOf(VD);
      if (!Ordinal)
        continue;
      Initialised.insert(VD);
      Records += " WGTRACE_VALUE(" + std::to_string(*Ordinal) + ", " +
                 VD->getName().str() + ");";
    }
    if (Records.empty())
      continue;
    if (std::optional<unsigned> After = RC.offsetAfterToken(DS->getEndLoc()))
      RC.Edits.insert(*After, Records);
    else
      RC.warning(DS->getBeginLoc(), "initial value of a watched variable "
                                    "declared in a macro not recorded");
  }
  return true;
}

bool WatchCollector::VisitVarDecl(VarDecl *VD) {
  if (ordinalOf(VD) && VD->hasInit() && !Initialised.contains(VD))
    RC.warning(VD->getLocation(),
               "initial value of watched variable '" + VD->getName().str() +
                   "' not recorded: it is not declared in a block");
  return true;
}

bool WatchCollector::VisitBinaryOperator(BinaryOperator *E) {
  if (E->isAssignmentOp())
    changed(E, E->getLHS());
  return true;
}

bool WatchCollector::VisitUnaryOperator(UnaryOperator *E) {
  if (E->isIncrementDecrementOp())
    changed(E, E->getSubExpr());
  return true;
}

/// The variable an lvalue designates, through the lvalue results of
/// `++x`, `x = v`, `x += v` and `(a, x)`.
static const VarDecl *designatedVariable(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_PreInc || U->getOpcode() == UO_PreDec)
      return designatedVariable(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAssignmentOp())
      return designatedVariable(B->getLHS());
    if (B->getOpcode() == BO_Comma)
      return designatedVariable(B->getRHS());
  }
  return nullptr;
}

void WatchCollector::changed(const Expr *E, const Expr *Target) {
  const VarDecl *VD = designatedVariable(Target);
  if (!VD)
    return;
  std::optional<unsigned> Ordinal = ordinalOf(VD);
  if (!Ordinal)
    return;
  bool InMacro = false;
  auto Range = RC.editRange(E->getSourceRange(), InMacro);
  if (!Range) {
    RC.warning(E->getBeginLoc(), "change of watched variable '" +
                                     VD->getName().str() +
                                     "' in a macro expansion not recorded");
    return;
  }
  if (!RC.Edits.wrap(Range->first, Range->second,
                     "::wgtrace::detail::watched(" + std::to_string(*Ordinal) +
                         ", __builtin_addressof(" + VD->getName().str() + "), ",
                     ")"))
    RC.warning(E->getBeginLoc(), "change of watched variable '" +
                                     VD->getName().str() + "' not recorded");
}

} // namespace rewriter
} // namespace wgtrace
