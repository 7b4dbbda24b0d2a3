//===- AlgorithmCalls.cpp - Standard algorithms over kernel memory --------===//

#include "AlgorithmCalls.h"

#include "HelperCloner.h"
#include "HelperFinder.h"
#include "KernelFinder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>

using namespace clang;

namespace wgtrace {
namespace rewriter {
namespace {

// A recorded algorithm (wgtrace/detail/recorded_algorithms.def, which says
// what the letters of its forms mean).
struct Algorithm {
  const char *Name;
  std::vector<const char *> Forms;
};

const std::vector<Algorithm> &standardAlgorithms() {
  static const std::vector<Algorithm> Table = {
#define WGTRACE_STD_ALGORITHM(NAME, ...) {#NAME, {__VA_ARGS__}},
#include "wgtrace/detail/recorded_algorithms.def"
  };
  return Table;
}

const std::vector<Algorithm> &rangesAlgorithms() {
  static const std::vector<Algorithm> Table = {
#define WGTRACE_RANGES_ALGORITHM(NAME, ...) {#NAME, {__VA_ARGS__}},
#include "wgtrace/detail/recorded_algorithms.def"
  };
  return Table;
}

const Algorithm *lookup(const std::vector<Algorithm> &Table, StringRef Name) {
  for (const Algorithm &A : Table)
    if (Name == A.Name)
      return &A;
  return nullptr;
}

/// A member (typedef, method) named Name of RD or of one of its bases.
const NamedDecl *findMember(const CXXRecordDecl *RD, StringRef Name) {
  if (!RD || !RD->hasDefinition())
    return nullptr;
  RD = RD->getDefinition();
  const IdentifierInfo &Id = RD->getASTContext().Idents.get(Name);
  for (const NamedDecl *D : RD->lookup(&Id))
    return D;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const NamedDecl *D =
            findMember(B.getType()->getAsCXXRecordDecl(), Name))
      return D;
  return nullptr;
}

/// The type a member typedef of RD names.
std::optional<QualType> memberType(const CXXRecordDecl *RD, StringRef Name) {
  if (const auto *T = dyn_cast_or_null<TypedefNameDecl>(findMember(RD, Name)))
    return T->getUnderlyingType();
  return std::nullopt;
}

/// Whether RD or one of its bases has an operator().
bool hasCallOperator(const CXXRecordDecl *RD) {
  if (!RD || !RD->hasDefinition())
    return false;
  RD = RD->getDefinition();
  if (RD->isLambda())
    return true;
  DeclarationName Call =
      RD->getASTContext().DeclarationNames.getCXXOperatorName(OO_Call);
  if (!RD->lookup(Call).empty())
    return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (hasCallOperator(B.getType()->getAsCXXRecordDecl()))
      return true;
  return false;
}

QualType plainType(const Expr *E) {
  return E->getType().getNonReferenceType().getUnqualifiedType();
}

bool isIteratorType(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *P = T->getAs<PointerType>())
    return !P->getPointeeType()->isFunctionType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return findMember(RD, "iterator_category") ||
         findMember(RD, "iterator_concept");
}

bool isRangeType(QualType T) {
  T = T.getNonReferenceType();
  if (T->isArrayType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return findMember(RD, "begin") && !isIteratorType(T);
}

bool isCallableType(QualType T) {
  T = T.getNonReferenceType();
  if (T->isFunctionType() || T->isFunctionPointerType() ||
      T->isMemberPointerType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && !isIteratorType(T) && !isRangeType(T) && hasCallOperator(RD);
}

/// The elements an iterator or a range of type T designates, if known.
std::optional<QualType> elementType(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *P = T->getAs<PointerType>())
    return P->getPointeeType();
  if (const ArrayType *A = T->getAsArrayTypeUnsafe())
    return A->getElementType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (std::optional<QualType> V = memberType(RD, "value_type"))
    return V;
  if (const auto *Begin =
          dyn_cast_or_null<CXXMethodDecl>(findMember(RD, "begin")))
    if (!Begin->getReturnType()->isDependentType())
      return elementType(Begin->getReturnType());
  return std::nullopt;
}

/// Whether `*it` of an iterator type gives a real lvalue reference (an
/// inserter's does not).
bool dereferencesToLvalue(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return true;
  std::optional<QualType> Ref =
      memberType(T->getAsCXXRecordDecl(), "reference");
  return Ref && (*Ref)->isLValueReferenceType();
}

/// Whether the elements an iterator or a range designates are kernel
/// memory. A temporary range (`x.first(4)`, `std::span(p, n)`) refers to
/// memory when it holds pointers; a temporary std::array holds its own.
bool rangeIsMemory(const MemoryModel &Model, const Expr *Arg) {
  const Expr *E = Arg->IgnoreImplicit()->IgnoreParens();
  if (E->getType()->isPointerType())
    return Model.pointerTargetIsMemory(E);
  if (E->isGLValue())
    return Model.rangeElementsAreMemory(E);
  return Model.holdsPointers(E->getType());
}

bool matches(StringRef Form, ArrayRef<const Expr *> Args) {
  if (Form.size() != Args.size())
    return false;
  for (size_t I = 0; I < Args.size(); ++I) {
    QualType T = Args[I]->getType();
    switch (Form[I]) {
    case 'I':
    case 'O':
    case 'S':
      if (!isIteratorType(T))
        return false;
      break;
    case 'R':
      if (!isRangeType(T))
        return false;
      break;
    case 'F':
    case 'P':
      if (!isCallableType(T))
        return false;
      break;
    default:
      break;
    }
  }
  return true;
}

/// Whether D is written inside Scope (the function being rewritten, or a
/// lambda in it).
bool isWrittenIn(const Decl *D, const FunctionDecl *Scope) {
  const FunctionDecl *Pattern = Scope->getTemplateInstantiationPattern();
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *FD = dyn_cast<FunctionDecl>(DC))
      if (FD == Scope || FD == Pattern ||
          FD->getTemplateInstantiationPattern() == Scope)
        return true;
  return false;
}

/// The role of a callable argument (see <wgtrace/algorithms.h>): whether
/// the callable records its own accesses to the elements it is handed
/// (a lambda written in Scope, for its reference parameters).
char callableRole(const Expr *Arg, const FunctionDecl *Scope,
                  std::string &Writes) {
  const Expr *E = Arg->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    if (Construct->getNumArgs() == 1)
      E = Construct->getArg(0)->IgnoreImplicit();
  if (const CXXRecordDecl *Closure = closureOf(E)) {
    const CXXMethodDecl *Call = Closure->getLambdaCallOperator();
    if (Call && isWrittenIn(Closure, Scope)) {
      bool First = Call->getNumParams() > 0 &&
                   Call->getParamDecl(0)->getType()->isReferenceType();
      bool Second = Call->getNumParams() > 1 &&
                    Call->getParamDecl(1)->getType()->isReferenceType();
      if (Call->getNumParams() <= 1)
        return First ? 'R' : 'L';
      if (First && Second)
        return 'R';
      if (!First && !Second)
        return 'L';
      return First ? 'A' : 'B';
    }
  }
  // Anything else is not instrumented: what it is handed is recorded as
  // loads. Say so when it could write through what it is handed.
  auto WritesThrough = [](const FunctionDecl *FD) {
    for (const ParmVarDecl *P : FD->parameters()) {
      QualType T = P->getType();
      if (T->isLValueReferenceType() &&
          !T.getNonReferenceType().isConstQualified())
        return true;
    }
    return false;
  };
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *FD = dyn_cast<FunctionDecl>(Ref->getDecl()))
      if (WritesThrough(FD))
        Writes = FD->getNameAsString();
  if (const CXXRecordDecl *RD = plainType(Arg)->getAsCXXRecordDecl())
    if (!RD->isInStdNamespace() && RD->hasDefinition())
      for (const CXXMethodDecl *M : RD->getDefinition()->methods())
        if (M->getOverloadedOperator() == OO_Call && WritesThrough(M))
          Writes = RD->isLambda() ? "the lambda" : RD->getNameAsString();
  return 'L';
}

/// The algorithm a call names, its arguments as written and the text to
/// replace with the recording function's name.
struct AlgorithmCallee {
  const Algorithm *Algo = nullptr;
  bool Ranges = false;
  const Expr *CalleeExpr = nullptr;
  const FunctionDecl *Function = nullptr;
  bool ExplicitTemplateArguments = false;
  SmallVector<const Expr *, 8> Args;
};

std::optional<AlgorithmCallee> identify(const CallExpr *E) {
  AlgorithmCallee C;
  unsigned FirstArg = 0;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    // std::ranges::sort(r) calls operator() of the object std::ranges::sort.
    if (Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
      return std::nullopt;
    const auto *Ref = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreImpCasts());
    const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!VD || !VD->getIdentifier())
      return std::nullopt;
    PrintingPolicy Policy(VD->getASTContext().getLangOpts());
    Policy.SuppressInlineNamespace = true;
    std::string Qualified;
    llvm::raw_string_ostream OS(Qualified);
    VD->printQualifiedName(OS, Policy);
    if (Qualified != "std::ranges::" + VD->getName().str())
      return std::nullopt;
    C.Algo = lookup(rangesAlgorithms(), VD->getName());
    C.Ranges = true;
    C.CalleeExpr = Op->getArg(0);
    C.Function = Op->getDirectCallee();
    FirstArg = 1;
  } else {
    const FunctionDecl *FD = E->getDirectCallee();
    if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() ||
        !FD->getPrimaryTemplate())
      return std::nullopt;
    C.Algo = lookup(standardAlgorithms(), FD->getName());
    C.CalleeExpr = E->getCallee()->IgnoreImpCasts();
    C.Function = FD;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(C.CalleeExpr))
      C.ExplicitTemplateArguments = Ref->hasExplicitTemplateArgs();
  }
  if (!C.Algo)
    return std::nullopt;
  for (unsigned I = FirstArg; I < E->getNumArgs(); ++I) {
    // Default arguments (a ranges algorithm's comparison and projection)
    // are not written: they keep their defaults.
    if (isa<CXXDefaultArgExpr>(E->getArg(I)))
      break;
    C.Args.push_back(E->getArg(I));
  }
  return C;
}

bool isExecutionPolicy(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return false;
  std::string Name = RD->getQualifiedNameAsString();
  return StringRef(Name).contains("execution") &&
         StringRef(Name).ends_with("_policy");
}

/// Whether the iterator or range argument Arg designates kernel memory.
/// An iterator that a container hands out designates the container's
/// elements: `v.begin()` is memory when v's elements are.
bool designatesMemory(const MemoryModel &Model, const Expr *Arg) {
  if (const auto *Member =
          dyn_cast<CXXMemberCallExpr>(Arg->IgnoreImplicit()->IgnoreParens()))
    if (const Expr *Object = Member->getImplicitObjectArgument())
      return rangeIsMemory(Model, Object);
  return rangeIsMemory(Model, Arg);
}

/// Whether the algorithm C reads its argument \p I, a value it takes by
/// reference, exactly once and before any element, whatever the range:
/// std::fill of a scalar, which libstdc++ copies into a local before its
/// loop (`const _Tp __tmp = __value;`, for the byte types' memset too).
/// Not std::fill_n, which reads nothing for a count <= 0, nor the ranges
/// forms, nor values of class type, which are assigned from per element.
bool readsOnceFirst(const AlgorithmCallee &C, unsigned I) {
  if (C.Ranges || StringRef(C.Algo->Name) != "fill" || I != 2 ||
      I >= C.Function->getNumParams())
    return false;
  // libstdc++'s __is_scalar: arithmetic types and pointers, not enums.
  QualType T = C.Function->getParamDecl(I)
                   ->getType()
                   .getNonReferenceType()
                   .getCanonicalType()
                   .getUnqualifiedType();
  return !T->isEnumeralType() &&
         (T->isIntegerType() || T->isRealFloatingType() || T->isPointerType());
}

/// The form of C's algorithm that its arguments match, if any.
const char *matchedForm(const AlgorithmCallee &C) {
  for (const char *F : C.Algo->Forms)
    if (matches(F, C.Args))
      return F;
  return nullptr;
}

/// Whether the algorithm only assigns elements: `*out = *in` (copy, move
/// and their _n and _backward forms), `*out = value` (fill, fill_n).
bool assignsOnly(StringRef Name) {
  return Name == "copy" || Name == "copy_n" || Name == "copy_backward" ||
         Name == "move" || Name == "move_backward" || Name == "fill" ||
         Name == "fill_n";
}

} // namespace

ElementAssignment elementAssignment(const CallExpr *E) {
  ElementAssignment Out;
  std::optional<AlgorithmCallee> C = identify(E);
  if (!C || C->Ranges || !assignsOnly(C->Algo->Name) ||
      (StringRef(C->Algo->Name) == "move" && C->Args.size() != 3))
    return Out;
  const char *Form = matchedForm(*C);
  if (!Form)
    return Out;
  // The type of the elements of every iterator, and of fill's value.
  std::optional<QualType> Type;
  bool Same = true;
  for (size_t I = 0; I < C->Args.size(); ++I) {
    std::optional<QualType> T;
    if (Form[I] == 'I' || Form[I] == 'O')
      T = elementType(C->Args[I]->getType());
    else if (Form[I] == 'V')
      T = plainType(C->Args[I]);
    else
      continue;
    if (!T || (*T)->isDependentType())
      return Out;
    QualType Canonical = T->getCanonicalType().getUnqualifiedType();
    if (!Type)
      Type = Canonical;
    else if (*Type != Canonical)
      Same = false;
  }
  const ASTContext &Ctx = C->Function->getASTContext();
  if (!Type)
    return Out;
  const CXXRecordDecl *RD = (*Type)->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Type->isTriviallyCopyableType(Ctx))
    return Out;
  RD = RD->getDefinition();
  std::string Class = RD->getQualifiedNameAsString();
  if (!Same) {
    Out.Why = "the algorithm assigns values of another type to them";
    return Out;
  }
  SmallVector<const CXXMethodDecl *, 2> Copies;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->isCopyAssignmentOperator())
      Copies.push_back(M);
  const CXXMethodDecl *M = Copies.size() == 1 ? Copies.front() : nullptr;
  if (!M || !M->isUserProvided() || M->isDeleted()) {
    Out.Why = "'" + Class +
              "' has no copy assignment operator of its own that wgtrace "
              "could instrument";
    return Out;
  }
  QualType Param = M->getParamDecl(0)->getType();
  if (!Param->isLValueReferenceType() ||
      !Param.getNonReferenceType().isConstQualified()) {
    Out.Why = "'" + Class + "::operator=' does not take a const reference";
    return Out;
  }
  StringRef Name = C->Algo->Name;
  if ((Name == "move" || Name == "move_backward") && RD->hasMoveAssignment()) {
    Out.Why = "'" + Class +
              "' has a move assignment operator, which the algorithm runs "
              "and wgtrace does not";
    return Out;
  }
  const auto *Def = dyn_cast_or_null<CXXMethodDecl>(M->getDefinition());
  if (!Def || !Def->doesThisDeclarationHaveABody()) {
    Out.Why = "'" + Class + "::operator=' is not defined in this file";
    return Out;
  }
  const FunctionDecl *Written = Def;
  if (const FunctionDecl *Pattern = Def->getTemplateInstantiationPattern())
    Written = Pattern;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(Written->getLocation());
  if (SM.isInSystemHeader(Loc) || isOptedOut(Def) || Written->isConstexpr() ||
      !recordsAsHelper(Written, Def)) {
    Out.Why = "wgtrace does not instrument '" + Class + "::operator='";
    return Out;
  }
  Out.InMainFile = SM.isInMainFile(Loc);
  if (!Out.InMainFile) {
    // The copy of a class template's member is a function template, which
    // the recording algorithm's call does not name.
    if (Written != Def || Written->isTemplated()) {
      Out.Why = "'" + Class +
                "' is an instance of a class template of a header, whose "
                "operator='s instrumented copy the call cannot name";
      return Out;
    }
    std::string Why = whyNotCopyable(Written);
    if (!Why.empty()) {
      Out.Why = "'" + Class +
                "::operator=' cannot be copied into this file, instrumented "
                "(" +
                Why + ")";
      return Out;
    }
  }
  Out.Operator = Def;
  return Out;
}

bool isIteratorIntoMemory(const MemoryModel &Model, const Expr *Arg) {
  const CXXRecordDecl *RD =
      Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return RD && memberType(RD, "iterator_category") &&
         designatesMemory(Model, Arg);
}

bool redirectAlgorithmCall(RewriteContext &RC, const MemoryModel &Model,
                           const CallExpr *E, const FunctionDecl *Scope,
                           SmallVectorImpl<const Expr *> &ReadOnce) {
  std::optional<AlgorithmCallee> C = identify(E);
  if (!C)
    return false;
  std::string Spelled =
      (C->Ranges ? "std::ranges::" : "std::") + std::string(C->Algo->Name);
  // std::move(x) is the cast, not the algorithm.
  if (!C->Ranges && StringRef(C->Algo->Name) == "move" && C->Args.size() != 3)
    return false;
  if (!C->Args.empty() && isExecutionPolicy(C->Args.front()->getType())) {
    if (llvm::any_of(llvm::drop_begin(C->Args), [&](const Expr *Arg) {
          return designatesMemory(Model, Arg);
        }))
      RC.untraced(E,
                  "it has an execution policy, and the algorithm may run on "
                  "other threads: the element accesses it makes itself are "
                  "not recorded, and those of an instrumented callable only "
                  "where it runs on the kernel's thread",
                  AccessKind::Call);
    return true;
  }
  const char *Form = matchedForm(*C);
  if (!Form)
    return false;
  // Elements of a class whose own operator= the algorithm runs: that
  // operator, instrumented, assigns them and records what it does.
  ElementAssignment Assignment = elementAssignment(E);

  std::string Roles;
  bool AnyMemory = false;
  std::string Problem;
  for (size_t I = 0; I < C->Args.size(); ++I) {
    const Expr *Arg = C->Args[I];
    char Kind = Form[I];
    char Role = '-';
    switch (Kind) {
    case 'I':
    case 'O':
    case 'S':
    case 'R': {
      if (!(Kind == 'R' ? rangeIsMemory(Model, Arg)
                        : designatesMemory(Model, Arg)))
        break;
      if (Kind != 'R' && !dereferencesToLvalue(Arg->getType())) {
        Problem = "it writes through an iterator of type '" +
                  plainType(Arg).getAsString(RC.Ctx.getPrintingPolicy()) +
                  "', which does not designate elements of memory";
        break;
      }
      std::optional<QualType> Element = elementType(Arg->getType());
      if (Element && !(*Element)->isDependentType() &&
          !Element->isTriviallyCopyableType(RC.Ctx) && !Assignment.Operator) {
        Problem = "its elements, of type '" +
                  Element->getAsString(RC.Ctx.getPrintingPolicy()) + "', " +
                  (Assignment.Why.empty()
                       ? "are not trivially copyable (wgtrace records "
                         "elements by copying them, where the algorithm may "
                         "move them)"
                       : "are not trivially copyable, and their assignment "
                         "cannot be recorded: " +
                             Assignment.Why);
        break;
      }
      Role = 'M';
      AnyMemory = true;
      break;
    }
    case 'F':
    case 'P': {
      std::string Writes;
      Role = callableRole(Arg, Scope, Writes);
      if (!Writes.empty())
        RC.untraced(Arg->getBeginLoc(),
                    llvm::formatv("what '{0}' writes to the elements of '{1}'",
                                  Writes, Spelled)
                        .str(),
                    "it takes them by non-const reference but is not "
                    "instrumented (each element it is handed is recorded "
                    "as one load)");
      break;
    }
    default:
      // fill's value is read by the element's operator=, which records it.
      if (Kind == 'V' && Assignment.Operator)
        break;
      // A value the algorithm takes by reference is read (maybe once per
      // element) inside the library.
      if (C->Function && I < C->Function->getNumParams() &&
          C->Function->getParamDecl(I)->getType()->isReferenceType() &&
          Arg->isGLValue() && Model.isMemory(Arg)) {
        if (readsOnceFirst(*C, I)) {
          ReadOnce.push_back(Arg);
          break;
        }
        RC.untraced(Arg,
                    "'" + Spelled +
                        "' reads it through a reference, inside the library "
                        "(pass a local copy to record one load)",
                    AccessKind::Load);
      }
      break;
    }
    Roles += Role;
  }
  // The operator= is instrumented where it writes an Element: the target
  // of every assignment must be one.
  if (const char *Out = std::strchr(Form, 'O');
      Problem.empty() && Assignment.Operator && AnyMemory && Out &&
      Roles[Out - Form] != 'M')
    Problem = "it assigns elements of class type '" +
              Assignment.Operator->getParent()->getQualifiedNameAsString() +
              "' to elements that are not kernel memory, where wgtrace does "
              "not run the instrumented operator=";
  if (!Problem.empty()) {
    RC.untraced(E, Problem + ": its element accesses are not recorded",
                AccessKind::Call);
    return true;
  }
  if (!AnyMemory)
    return true;
  if (C->ExplicitTemplateArguments) {
    RC.untraced(E,
                "it names its template arguments, which wgtrace's recording "
                "version of '" +
                    Spelled +
                    "' cannot take: its element accesses are not "
                    "recorded",
                AccessKind::Call);
    return true;
  }
  bool InMacro = false;
  auto Range = RC.editRange(C->CalleeExpr->getSourceRange(), InMacro);
  if (!Range) {
    if (RC.isInTargetFile(E->getBeginLoc()))
      RC.untraced(E,
                  "'" + Spelled +
                      "' is spelled in a macro, where it cannot be "
                      "redirected: its element accesses are not recorded",
                  AccessKind::Call);
    return true;
  }
  // A braced argument (`{}` for a ranges algorithm's default comparison)
  // cannot be forwarded: it gets its type's name.
  for (const Expr *Arg : C->Args) {
    bool ArgInMacro = false;
    auto ArgRange = RC.editRange(Arg->getSourceRange(), ArgInMacro);
    StringRef Text = RC.SM.getBufferData(RC.Target);
    if (!ArgRange || ArgRange->first >= Text.size() ||
        Text[ArgRange->first] != '{')
      continue;
    PrintingPolicy Policy(RC.Ctx.getLangOpts());
    Policy.FullyQualifiedName = true;
    Policy.SuppressScope = false;
    std::string Type =
        Arg->getType().getNonReferenceType().getUnqualifiedType().getAsString(
            Policy);
    RC.Edits.insert(ArgRange->first, Type);
  }
  std::string Name = "::wgtrace::detail::recorded::";
  if (C->Ranges)
    Name += "ranges::";
  Name += C->Algo->Name;
  Name += "<";
  for (size_t I = 0; I < Roles.size(); ++I) {
    if (I)
      Name += ", ";
    Name += "'";
    Name += Roles[I];
    Name += "'";
  }
  Name += ">(";
  // The elements' operator=: instrumented in place, or the instrumented
  // copy of a header's, whose name HelperCloner fills in for the
  // placeholder once the copies are placed.
  std::string Assign;
  std::string Placeholder;
  if (Assignment.Operator && Assignment.InMainFile) {
    Assign = ", ::wgtrace::detail::recorded::OwnAssignment()";
  } else if (Assignment.Operator) {
    Placeholder = "/*wgtrace: the copy of " +
                  Assignment.Operator->getQualifiedNameAsString() + "*/";
    Assign = ", " + Placeholder;
  }
  // The call is an access site of kind Call, as memcpy is: every record
  // the algorithm makes names the call (its place, its text).
  unsigned CallSite = RC.replaceCallee(
      E, AccessKind::Call,
      [&](unsigned Site) {
        return Name + RewriteContext::siteArgument(Site) + Assign + ")";
      },
      C->CalleeExpr,
      "the instantiations of the template it is in need different roles "
      "for the arguments of '" +
          Spelled + "', and one call cannot be redirected for each");
  if (CallSite)
    RC.UsesAlgorithms = true;
  if (CallSite && !Placeholder.empty() &&
      llvm::none_of(RC.PendingAssignments,
                    [&](const RewriteContext::PendingAssignment &P) {
                      return P.Begin == Range->first && P.End == Range->second;
                    })) {
    const FunctionDecl *Caller = Scope;
    if (const FunctionDecl *Pattern = Scope->getTemplateInstantiationPattern())
      Caller = Pattern;
    const FunctionDecl *Operator = Assignment.Operator;
    if (const FunctionDecl *Pattern =
            Operator->getTemplateInstantiationPattern())
      Operator = Pattern;
    RC.PendingAssignments.push_back(
        {E, Operator, Caller, Range->first, Range->second, Placeholder});
  }
  return true;
}

} // namespace rewriter
} // namespace wgtrace
