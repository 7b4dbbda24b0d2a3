//===- ValarrayCalls.cpp - std::valarray operations that record -----------===//

#include "ValarrayCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

/// The name of T's class (by value or reference) when it is a class of
/// namespace std, else "".
StringRef stdClassName(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() ? RD->getName()
                                                             : "";
}
/// std::valarray<T>.
bool isValarray(QualType T) { return stdClassName(T) == "valarray"; }
/// std::valarray<T> or libstdc++'s std::_Expr<...> (a valarray
/// expression).
bool isValarrayExpression(QualType T) {
  StringRef Name = stdClassName(T);
  return Name == "valarray" || Name == "_Expr";
}

/// The math functions std::valarray has overloads of.
bool isMathFunction(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("abs", "exp", "log", "log10", "sqrt", "sin", "cos", true)
      .Cases("tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", true)
      .Cases("pow", "atan2", true)
      .Default(false);
}

/// The member functions of std::valarray that read its elements and that
/// the recording version has.
bool isRecordedMember(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("sum", "min", "max", "apply", "shift", "cshift", true)
      .Default(false);
}

/// A valarray of the kernel's that can be wrapped: a glvalue (not a
/// temporary, which is not memory: it is read unrecorded).
bool isWrappable(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  return E->isGLValue() && isValarray(E->getType()) &&
         !isa<MaterializeTemporaryExpr>(E);
}

} // namespace

bool redirectValarrayCall(RewriteContext &RC, const MemoryModel &Model,
                          const CallExpr *E) {
  const FunctionDecl *Callee = E->getDirectCallee();
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  if (!Callee || !(Method ? Method->getParent()->isInStdNamespace()
                          : Callee->isInStdNamespace()))
    return false;
  llvm::SmallVector<const Expr *, 3> Operands;
  bool Math = false;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    // A.sum(), A.min(), A.max(), A.apply(f), A.shift(n), A.cshift(n).
    const auto *M = dyn_cast<CXXMethodDecl>(Callee);
    const Expr *Object = Member->getImplicitObjectArgument();
    if (!M || !Object || !isValarray(Object->getType()) ||
        !M->getIdentifier() || !isRecordedMember(M->getName()))
      return false;
    Operands.push_back(Object);
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    // A op= X, A = X (members of std::valarray); X op Y, op X (std's
    // operators over valarrays and expressions). Slices and masks are
    // other classes.
    if (const auto *M = dyn_cast<CXXMethodDecl>(Callee)) {
      if (!isValarray(M->getThisType()->getPointeeType()) ||
          Op->getOperator() == OO_Subscript)
        return false;
    } else if (!llvm::any_of(E->arguments(), [](const Expr *Arg) {
                 return isValarrayExpression(Arg->getType());
               })) {
      return false;
    }
    for (const Expr *Arg : E->arguments())
      Operands.push_back(Arg);
  } else {
    // std::sqrt(A), std::pow(A, 2.0), ...: sent to their versions.
    if (!Callee->getIdentifier() || !isMathFunction(Callee->getName()) ||
        !llvm::any_of(E->arguments(), [](const Expr *Arg) {
          return isValarrayExpression(Arg->getType());
        }))
      return false;
    Math = true;
    for (const Expr *Arg : E->arguments())
      Operands.push_back(Arg);
  }
  bool Wrapped = false;
  bool ObjectWrapped = false;
  for (const Expr *Operand : Operands) {
    if (!isWrappable(Operand))
      continue;
    // Each valarray is an access site of kind call, named by the
    // operation (its place and text): every read and write of the
    // valarray's elements that the operation makes carries it.
    unsigned Site = RC.wrapAccess(
        Operand->IgnoreParenImpCasts(), AccessKind::Call,
        [](unsigned Site) {
          return AccessWrap{"::wgtrace::detail::va::recorded(" +
                                RewriteContext::siteArgument(Site) + ", ",
                            ")"};
        },
        {/*Stackable=*/true, nullptr, E});
    Wrapped = Wrapped || Site;
    ObjectWrapped = ObjectWrapped || (Site && Operand == Operands.front());
  }
  // A scalar of kernel memory taken by reference (`scalar * C`, `A +=
  // scalar` with a captured `scalar`): libstdc++ reads it for every
  // element, so it is wrapped too. Not when the valarray a member operator
  // is called on was not wrapped: std::valarray's own operator would get
  // it.
  bool MemberOperator = isa<CXXOperatorCallExpr>(E) && Method;
  for (const Expr *Operand : Operands) {
    const Expr *Scalar = Operand->IgnoreParenImpCasts();
    if (isValarrayExpression(Operand->getType()) || !Scalar->isGLValue() ||
        !Scalar->getType()->isArithmeticType() || !Model.isMemory(Scalar) ||
        (MemberOperator && !ObjectWrapped))
      continue;
    unsigned Site = RC.wrapAccess(
        Scalar, AccessKind::Call,
        [](unsigned Site) {
          return AccessWrap{"::wgtrace::detail::va::scalar(" +
                                RewriteContext::siteArgument(Site) + ", ",
                            ")"};
        },
        {/*Stackable=*/true, nullptr, E});
    Wrapped = Wrapped || Site;
  }
  if (Math) {
    const Expr *Name = E->getCallee()->IgnoreParenImpCasts();
    bool InMacro = false;
    auto Range = RC.editRange(Name->getSourceRange(), InMacro);
    if (!Range) {
      RC.untraced(E,
                  "'std::" + Callee->getName().str() +
                      "' of a std::valarray is spelled in a macro, where it "
                      "cannot be sent to wgtrace's recording version",
                  AccessKind::Call);
      return true;
    }
    RC.Edits.replace(Range->first, Range->second,
                     "::wgtrace::detail::va::" + Callee->getName().str());
    Wrapped = true;
  }
  if (Wrapped)
    RC.UsesValarrays = true;
  return true;
}

} // namespace rewriter
} // namespace wgtrace
