//===- ValueCalls.cpp - Library calls on values of kernel memory ----------===//

#include "ValueCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

enum class ValueFunction : uint8_t { Min, Max, Minmax, Clamp, Swap, Exchange };

/// A call of one of the functions above, as the rewriter redirects it.
struct ValueCall {
  ValueFunction Function;
  /// The text replaced by the recording copy: the function's name, or the
  /// customization point object (std::ranges::swap).
  const Expr *CalleeExpr;
  llvm::SmallVector<const Expr *, 3> Args;
};

/// Whether a swap or an exchange of objects of type T is recorded: the
/// copy makes the accesses by copying, which is what moving a trivially
/// copyable object (or an array of them) does.
bool swappable(QualType T, ASTContext &Ctx) {
  T = T.getNonReferenceType();
  if (T->isDependentType() || T.isConstQualified())
    return false;
  while (const clang::ArrayType *A = Ctx.getAsArrayType(T))
    T = A->getElementType();
  return T.isTriviallyCopyableType(Ctx);
}

/// std::ranges::swap: the customization point object the call names, if
/// it is that one.
const Expr *rangesSwapObject(const CallExpr *E) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() != 3)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreImpCasts());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->getIdentifier() || VD->getName() != "swap")
    return nullptr;
  PrintingPolicy Policy(VD->getASTContext().getLangOpts());
  Policy.SuppressInlineNamespace = true;
  std::string Qualified;
  llvm::raw_string_ostream OS(Qualified);
  VD->printQualifiedName(OS, Policy);
  return Qualified == "std::ranges::swap" ? Op->getArg(0) : nullptr;
}

std::optional<ValueCall> identifyValueCall(const CallExpr *E, ASTContext &Ctx) {
  if (const Expr *Object = rangesSwapObject(E)) {
    // Only where no swap of the user's own can be found by its argument
    // types (which ranges::swap would call): numbers, pointers, enums and
    // arrays of them.
    QualType T = E->getArg(1)->getType();
    while (const clang::ArrayType *A = Ctx.getAsArrayType(T))
      T = A->getElementType();
    if (!E->getArg(1)->isLValue() || !E->getArg(2)->isLValue() ||
        !(T->isScalarType() && !T->isMemberPointerType()) ||
        !swappable(E->getArg(1)->getType(), Ctx) ||
        !Ctx.hasSameType(E->getArg(1)->getType(), E->getArg(2)->getType()))
      return std::nullopt;
    return ValueCall{ValueFunction::Swap, Object, {E->getArg(1), E->getArg(2)}};
  }
  const FunctionDecl *Callee = E->getDirectCallee();
  if (!Callee || !Callee->isInStdNamespace() || !Callee->getIdentifier() ||
      isa<CXXMethodDecl>(Callee))
    return std::nullopt;
  std::optional<ValueFunction> Function =
      llvm::StringSwitch<std::optional<ValueFunction>>(Callee->getName())
          .Case("min", ValueFunction::Min)
          .Case("max", ValueFunction::Max)
          .Case("minmax", ValueFunction::Minmax)
          .Case("clamp", ValueFunction::Clamp)
          .Case("swap", ValueFunction::Swap)
          .Case("exchange", ValueFunction::Exchange)
          .Default(std::nullopt);
  if (!Function)
    return std::nullopt;
  // The callee as written: a name that can be replaced, without template
  // arguments (the copies cannot take them).
  const Expr *CalleeExpr = E->getCallee()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(CalleeExpr);
  if (!Ref || Ref->hasExplicitTemplateArgs())
    return std::nullopt;
  const unsigned Arity = *Function == ValueFunction::Clamp ? 3 : 2;
  if (E->getNumArgs() != Arity || Callee->getNumParams() != Arity)
    return std::nullopt;
  ValueCall Call{*Function, CalleeExpr, {}};
  for (unsigned I = 0; I < Arity; ++I)
    Call.Args.push_back(E->getArg(I));
  switch (*Function) {
  case ValueFunction::Swap:
  case ValueFunction::Exchange: {
    // swap(T &, T &) and exchange(T &, U &&) of objects the copy can
    // swap; not the library's overloads for its own classes.
    QualType Object = Callee->getParamDecl(0)->getType();
    if (!Object->isLValueReferenceType() || !E->getArg(0)->isLValue() ||
        !swappable(Object, Ctx))
      return std::nullopt;
    if (*Function == ValueFunction::Swap &&
        (!E->getArg(1)->isLValue() ||
         !Ctx.hasSameType(Object, Callee->getParamDecl(1)->getType())))
      return std::nullopt;
    return Call;
  }
  default:
    // The forms over two (three) numbers by const reference; not those
    // with a comparison or over an initializer list.
    for (unsigned I = 0; I < Arity; ++I) {
      QualType Param = Callee->getParamDecl(I)->getType();
      if (!Param->isReferenceType() ||
          !Param.getNonReferenceType()->isArithmeticType())
        return std::nullopt;
    }
    return Call;
  }
}

const char *copyName(ValueFunction Function) {
  switch (Function) {
  case ValueFunction::Min:
    return "tracedMin";
  case ValueFunction::Max:
    return "tracedMax";
  case ValueFunction::Minmax:
    return "tracedMinmax";
  case ValueFunction::Clamp:
    return "tracedClamp";
  case ValueFunction::Swap:
    return "tracedSwap";
  case ValueFunction::Exchange:
    return "tracedExchange";
  }
  return "";
}

/// Which arguments are kernel memory, one flag each.
llvm::SmallVector<bool, 3> memoryArguments(const MemoryModel &Model,
                                           const ValueCall &Call) {
  llvm::SmallVector<bool, 3> Memory;
  for (const Expr *Arg : Call.Args)
    Memory.push_back(Arg->isGLValue() && Model.isMemory(Arg));
  return Memory;
}

} // namespace

bool returnsMemoryOnlySometimes(const MemoryModel &Model, const CallExpr *E) {
  std::optional<ValueCall> Call = identifyValueCall(E, Model.context());
  if (!Call || (Call->Function != ValueFunction::Min &&
                Call->Function != ValueFunction::Max &&
                Call->Function != ValueFunction::Clamp))
    return false;
  llvm::SmallVector<bool, 3> Memory = memoryArguments(Model, *Call);
  return llvm::is_contained(Memory, true) && llvm::is_contained(Memory, false);
}

bool wrapChosenRead(RewriteContext &RC, const CallExpr *E,
                    const Expr *Spelled) {
  return RC.wrapAccess(E, AccessKind::Load,
                       [](unsigned Site) {
                         return AccessWrap{
                             "::wgtrace::detail::readChosen(" +
                                 RewriteContext::siteArgument(Site) + ", ",
                             ")"};
                       },
                       {/*Stackable=*/false, Spelled, nullptr}) != 0;
}

bool redirectValueCall(RewriteContext &RC, const MemoryModel &Model,
                       const CallExpr *E, bool ChosenRead) {
  std::optional<ValueCall> Call = identifyValueCall(E, RC.Ctx);
  if (!Call)
    return false;
  llvm::SmallVector<bool, 3> Memory = memoryArguments(Model, *Call);
  if (!llvm::is_contained(Memory, true))
    return true;
  std::string Name =
      "::wgtrace::detail::" + std::string(copyName(Call->Function)) + "<";
  for (size_t I = 0; I < Memory.size(); ++I)
    Name += (I ? ", " : "") + std::string(Memory[I] ? "true" : "false");
  Name += ">(";
  RC.replaceCallee(
      E, AccessKind::Call,
      [&](unsigned Site) {
        return Name + RewriteContext::siteArgument(Site) + ")" +
               (ChosenRead ? ".choose" : "");
      },
      Call->CalleeExpr,
      "its arguments are kernel memory in some instantiations of the "
      "template it is in and not in others");
  return true;
}

} // namespace rewriter
} // namespace wgtrace
