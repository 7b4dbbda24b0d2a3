//===- ComplexCalls.cpp - std::complex operations on kernel memory --------===//
//
// The operators and functions of <complex> take their complex operands by
// reference and read or write them in library code, where no macro can
// wrap them. What they touch is fixed by the standard, though: a
// std::complex<T> of a floating type is two T, and each operation reads
// its operands whole and, for the assignments, writes its object whole
// (libstdc++ 12's specializations for float, double and long double keep
// one `__complex__ T` and copy it in and out). So each operand of kernel
// memory is wrapped as the kernel's own read of it would be (its whole
// value, one record), the object of a compound assignment as an update,
// and the library runs on the same object. `real()` and `imag()` touch one
// part: <wgtrace/detail/complex.h> records sizeof(T) at its offset.
//
//===----------------------------------------------------------------------===//

#include "AccessCollector.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

/// Whether T (a reference to it, a pointer to it) is std::complex<float>,
/// <double> or <long double>: the specializations libstdc++ stores as one
/// `__complex__ T`. Other element types use the primary template, whose
/// members touch the parts one by one.
bool isFloatingComplex(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *P = T->getAs<PointerType>())
    T = P->getPointeeType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      Spec->getName() != "complex" || Spec->getTemplateArgs().size() != 1)
    return false;
  const TemplateArgument &Arg = Spec->getTemplateArgs()[0];
  return Arg.getKind() == TemplateArgument::Type &&
         Arg.getAsType()->isRealFloatingType();
}

/// A parameter through which a <complex> function reads its argument once,
/// whole: a complex, or one of its parts' type, taken by const reference.
bool readsWhole(QualType Param) {
  if (!Param->isLValueReferenceType())
    return false;
  QualType Referenced = Param.getNonReferenceType();
  return Referenced.isConstQualified() &&
         (isFloatingComplex(Referenced) || Referenced->isRealFloatingType());
}

} // namespace

bool AccessCollector::complexCall(const CallExpr *E,
                                  const FunctionDecl *Callee) {
  // `z.real()`, `p->imag(x)`, `std::real(z)`: one part of Object read or
  // written through detail::cx::part.
  auto WrapPart = [&](const Expr *Object, StringRef Name, bool Store,
                      bool Referenced) {
    const std::string Flags = std::string(Name == "real" ? "0" : "1") +
                              (Store ? ", true, " : ", false, ") +
                              (Referenced ? "true" : "false");
    wrapWithSite(Object, Store ? AccessKind::Store : AccessKind::Load,
                 "::wgtrace::detail::cx::part<" + Flags + ">(", ", ", ")",
                 /*Stackable=*/false, E);
  };
  const auto *M = dyn_cast<CXXMethodDecl>(Callee);
  if (M && !M->isStatic()) {
    if (!isFloatingComplex(RC.Ctx.getRecordType(M->getParent())))
      return false;
    const Expr *Object = nullptr;
    unsigned FirstArg = 0;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
      Object = Member->getImplicitObjectArgument();
    } else if (isa<CXXOperatorCallExpr>(E) && E->getNumArgs() > 0) {
      Object = E->getArg(0);
      FirstArg = 1;
    }
    if (!Object)
      return false;
    if (M->getIdentifier() &&
        (M->getName() == "real" || M->getName() == "imag")) {
      const bool Store = M->getNumParams() == 1;
      const bool Arrow = Object->getType()->isPointerType();
      if (Arrow ? !Model.pointerTargetIsMemory(Object)
                : !Model.isMemory(Object->IgnoreParenImpCasts()))
        return true;
      // Through a pointer the target may be the kernel's own stack only
      // as far as the runtime can tell.
      WrapPart(Object->IgnoreImpCasts(), M->getName(), Store,
               Arrow || Model.mayBeKernelStack(Object->IgnoreParenImpCasts()));
      return true;
    }
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
    if (!Op || E->getNumArgs() != 2)
      return false;
    switch (Op->getOperator()) {
    case OO_Equal:
      // From a part's type or another complex (a trivial copy is recorded
      // before this, as any class's): the whole object is stored.
      use(E->getArg(1), AccessKind::Load);
      use(Object, AccessKind::Store);
      return true;
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
      // The operand is sequenced before the object (C++17); the library
      // reads the operand, then the object, then writes it.
      if (readsWhole(M->getParamDecl(0)->getType()))
        use(E->getArg(FirstArg), AccessKind::Load);
      use(Object, AccessKind::Update);
      return true;
    default:
      return false;
    }
  }
  // A function of <complex>: it takes or makes a complex (std::polar).
  if (M || !Callee->isInStdNamespace() ||
      (!isFloatingComplex(Callee->getReturnType()) &&
       llvm::none_of(Callee->parameters(), [](const ParmVarDecl *P) {
         return isFloatingComplex(P->getType());
       })))
    return false;
  const OverloadedOperatorKind Op = Callee->getOverloadedOperator();
  // A comparison reads the imaginary parts only when the real ones are
  // equal (`x.real() == y.real() && ...`); a stream reads or writes
  // through its own code. Both stay reported.
  if (Op == OO_EqualEqual || Op == OO_ExclaimEqual || Op == OO_LessLess ||
      Op == OO_GreaterGreater)
    return false;
  const bool Part = Callee->getIdentifier() && (Callee->getName() == "real" ||
                                                Callee->getName() == "imag");
  if (Part && E->getNumArgs() == 1) {
    const Expr *Arg = E->getArg(0)->IgnoreParenImpCasts();
    if (!Model.isMemory(Arg))
      return true;
    WrapPart(Arg, Callee->getName(), /*Store=*/false,
             Model.mayBeKernelStack(Arg));
    return true;
  }
  const unsigned Params = std::min(E->getNumArgs(), Callee->getNumParams());
  for (unsigned I = 0; I < Params; ++I) {
    QualType Param = Callee->getParamDecl(I)->getType();
    if (!Param->isReferenceType())
      continue; // By value: the kernel's own read, recorded as any other.
    if (!readsWhole(Param))
      return false;
  }
  for (unsigned I = 0; I < Params; ++I)
    if (Callee->getParamDecl(I)->getType()->isReferenceType())
      use(E->getArg(I), AccessKind::Load);
  return true;
}

bool AccessCollector::complexConstruction(const CXXConstructExpr *E) {
  // complex<double>(f[i]) from a complex<float>: the library copies the
  // whole operand in (a trivial copy is recorded as any class's).
  const CXXConstructorDecl *Ctor = E->getConstructor();
  if (!Ctor || !isFloatingComplex(RC.Ctx.getRecordType(Ctor->getParent())))
    return false;
  const unsigned Params = std::min(E->getNumArgs(), Ctor->getNumParams());
  if (!Ctor->isTrivial())
    for (unsigned I = 0; I < Params; ++I)
      if (readsWhole(Ctor->getParamDecl(I)->getType()))
        use(E->getArg(I), AccessKind::Load);
  return true;
}

} // namespace rewriter
} // namespace wgtrace
