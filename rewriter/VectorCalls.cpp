//===- VectorCalls.cpp - std::vector members that record ------------------===//

#include "VectorCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

/// The element type of std::vector<T, std::allocator<T>> when RD is one,
/// and T is a scalar type other than bool.
std::optional<QualType> recordedVectorElement(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      Spec->getName() != "vector" || Spec->getTemplateArgs().size() != 2)
    return std::nullopt;
  const TemplateArgument &Element = Spec->getTemplateArgs()[0];
  const TemplateArgument &Allocator = Spec->getTemplateArgs()[1];
  if (Element.getKind() != TemplateArgument::Type ||
      Allocator.getKind() != TemplateArgument::Type)
    return std::nullopt;
  QualType T = Element.getAsType().getCanonicalType();
  if (!T->isScalarType() || T->isBooleanType())
    return std::nullopt;
  const auto *Alloc = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Allocator.getAsType()->getAsCXXRecordDecl());
  if (!Alloc || !Alloc->isInStdNamespace() || !Alloc->getIdentifier() ||
      Alloc->getName() != "allocator")
    return std::nullopt;
  return T;
}

/// Whether T is a std::vector's iterator over elements of type Element
/// (libstdc++'s __gnu_cxx::__normal_iterator<Element *, std::vector<...>>).
bool isVectorIterator(QualType T, QualType Element) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->getIdentifier() ||
      Spec->getName() != "__normal_iterator" ||
      Spec->getTemplateArgs().size() != 2)
    return false;
  const TemplateArgument &Pointer = Spec->getTemplateArgs()[0];
  const TemplateArgument &Container = Spec->getTemplateArgs()[1];
  if (Pointer.getKind() != TemplateArgument::Type ||
      Container.getKind() != TemplateArgument::Type ||
      !Pointer.getAsType()->isPointerType())
    return false;
  std::optional<QualType> Held =
      recordedVectorElement(Container.getAsType()->getAsCXXRecordDecl());
  return Held && Pointer.getAsType()
                         ->getPointeeType()
                         .getCanonicalType()
                         .getUnqualifiedType() == Element;
}

bool isInitializerList(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         RD->getName() == "initializer_list";
}

} // namespace

bool redirectVectorMember(RewriteContext &RC, const MemoryModel &Model,
                          const CXXMemberCallExpr *E, const Expr *Object) {
  const CXXMethodDecl *M = E->getMethodDecl();
  if (!M || !M->getIdentifier())
    return false;
  std::optional<QualType> Element = recordedVectorElement(M->getParent());
  if (!Element)
    return false;
  StringRef Name = M->getName();
  if (Name == "swap")
    return true; // The two vectors exchange their storage.
  if (!llvm::StringSwitch<bool>(Name)
           .Cases("push_back", "emplace_back", "resize", "reserve", "assign",
                  "insert", "emplace", true)
           .Default(false))
    return false;
  const bool HasPosition = Name == "insert" || Name == "emplace";
  std::string Roles;
  for (unsigned I = 0; I < E->getNumArgs(); ++I) {
    const Expr *Arg = E->getArg(I);
    QualType Param =
        I < M->getNumParams() ? M->getParamDecl(I)->getType() : Arg->getType();
    char Role = '-';
    if ((HasPosition && I == 0) || Param->isIntegralOrEnumerationType() ||
        isInitializerList(Param)) {
      Role = '-';
    } else if (Param->isReferenceType()) {
      // A value the new elements are made from: libstdc++ reads it once,
      // before it stores them.
      if (Arg->isGLValue() && Model.isMemory(Arg)) {
        if (Arg->isXValue() ||
            Arg->getType().getCanonicalType().getUnqualifiedType() != *Element)
          return false;
        Role = 'M';
      }
    } else if (Param->isPointerType()) {
      // A range of elements copied in.
      if (Param->getPointeeType().getCanonicalType().getUnqualifiedType() !=
          *Element)
        return false;
      if (Model.pointerTargetIsMemory(Arg))
        Role = 'M';
    } else if (isVectorIterator(Param, *Element)) {
      Role = 'M'; // A vector's elements are on the heap: memory.
    } else {
      return false;
    }
    Roles += Role;
  }
  return RC.wrapRecordedObject(Object, E, "vector", Roles);
}

/// The arguments of E from the first to the last written (a defaulted
/// allocator left out) wrapped in `::wgtrace::detail::recorded::<Wrapper>
/// <Roles>(<site>, ...)`.
static void wrapConstructorArguments(RewriteContext &RC,
                                     const CXXConstructExpr *E,
                                     unsigned Written, StringRef Wrapper,
                                     StringRef Roles) {
  SourceRange Range(E->getArg(0)->getBeginLoc(),
                    E->getArg(Written - 1)->getEndLoc());
  std::string Open = ("::wgtrace::detail::recorded::" + Wrapper + "<").str();
  for (size_t I = 0; I < Roles.size(); ++I)
    Open += (I ? ", '" : "'") + std::string(1, Roles[I]) + "'";
  Open += ">(";
  if (RC.wrapTextWithSite(Range, E, AccessKind::Call, [&Open](unsigned Site) {
        return AccessWrap{Open + RewriteContext::siteArgument(Site) + ", ",
                          ")"};
      }))
    RC.UsesAlgorithms = true;
}

/// vector(size_type n) and vector(size_type n, const value_type &x), the
/// allocator left to its default: handed over as vectorFilled.
static bool redirectFilledVector(RewriteContext &RC, const MemoryModel &Model,
                                 const CXXConstructExpr *E,
                                 const CXXConstructorDecl *Ctor,
                                 QualType Element) {
  const unsigned Params = Ctor->getNumParams();
  if (Params < 2 || Params > 3 || E->getNumArgs() != Params ||
      !isa<CXXDefaultArgExpr>(E->getArg(Params - 1)) ||
      isa<CXXDefaultArgExpr>(E->getArg(Params - 2)) ||
      !Ctor->getParamDecl(0)->getType()->isIntegerType())
    return false;
  std::string Roles;
  if (Params == 3) {
    QualType Value = Ctor->getParamDecl(1)->getType();
    if (!Value->isLValueReferenceType() ||
        Value.getNonReferenceType().getCanonicalType().getUnqualifiedType() !=
            Element)
      return false;
    const Expr *Arg = E->getArg(1);
    if (Arg->isXValue())
      return false; // Reported as a value given by reference.
    const bool Memory = Arg->isGLValue() && Model.isMemory(Arg);
    // A value of another type is converted into a temporary first (the
    // kernel's own read of it is recorded where it is written).
    Roles = Memory ? "M" : "-";
  }
  wrapConstructorArguments(RC, E, Params - 1, "vectorFilled", Roles);
  return true;
}

/// Whether the copy E is written where a call may take its place: a
/// declaration's initializer (not a range-for's variable, whose source is
/// the range), a value returned, an argument given by value. A lambda's
/// capture (`[v]`) or an element of a braced list is not.
static bool copyIsWrittenAlone(ASTContext &Ctx, const CXXConstructExpr *E) {
  const Stmt *Child = E;
  DynTypedNodeList Parents = Ctx.getParents(*E);
  while (Parents.size() == 1 && (Parents[0].get<CXXBindTemporaryExpr>() ||
                                 Parents[0].get<ExprWithCleanups>())) {
    Child = Parents[0].get<Stmt>();
    Parents = Ctx.getParents(*Child);
  }
  if (Parents.size() != 1)
    return false;
  if (const auto *VD = Parents[0].get<VarDecl>())
    return !VD->isImplicit() && !VD->isCXXForRangeDecl() && VD->getInit() &&
           VD->getInit()->IgnoreImplicit() == E;
  if (Parents[0].get<ReturnStmt>())
    return true;
  if (const auto *Call = Parents[0].get<CallExpr>())
    return llvm::any_of(Call->arguments(),
                        [Child](const Expr *Arg) { return Arg == Child; });
  return false;
}

bool redirectVectorConstruction(RewriteContext &RC, const MemoryModel &Model,
                                const CXXConstructExpr *E) {
  const CXXConstructorDecl *Ctor = E->getConstructor();
  if (!Ctor)
    return false;
  std::optional<QualType> Element = recordedVectorElement(Ctor->getParent());
  if (!Element)
    return false;
  // vector(const vector &): the source's elements are on the heap, kernel
  // memory, wherever the vector is.
  if (Ctor->isCopyConstructor()) {
    if (E->getNumArgs() != 1 || !E->getArg(0)->isLValue() ||
        !copyIsWrittenAlone(RC.Ctx, E))
      return false;
    wrapConstructorArguments(RC, E, 1, "vectorCopy", "");
    return true;
  }
  if (!Ctor->getPrimaryTemplate())
    return redirectFilledVector(RC, Model, E, Ctor, *Element);
  // vector(InputIt first, InputIt last, const allocator_type & = {}), with
  // the allocator left to its default.
  const unsigned Args = E->getNumArgs();
  if (Args < 2 || Ctor->getNumParams() != 3 ||
      (Args == 3 && !isa<CXXDefaultArgExpr>(E->getArg(2))))
    return false;
  QualType Param = Ctor->getParamDecl(0)->getType();
  char Role = '-';
  if (Param->isPointerType()) {
    if (Param->getPointeeType().getCanonicalType().getUnqualifiedType() !=
        *Element)
      return false;
    if (Model.pointerTargetIsMemory(E->getArg(0)))
      Role = 'M';
  } else if (isVectorIterator(Param, *Element)) {
    Role = 'M'; // A vector's elements are on the heap: memory.
  } else {
    return false;
  }
  wrapConstructorArguments(RC, E, 2, "vectorFrom", StringRef(&Role, 1));
  return true;
}

} // namespace rewriter
} // namespace wgtrace
