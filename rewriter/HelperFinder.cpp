//===- HelperFinder.cpp - Functions that kernels call ---------------------===//

#include "HelperFinder.h"

#include "AccessorBody.h"
#include "AlgorithmCalls.h"
#include "HelperCloner.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace clang;

namespace wgtrace {
namespace rewriter {

bool isOptedOut(const FunctionDecl *FD) {
  for (const FunctionDecl *R : FD->redecls())
    if (hasAnnotation(R, "wgtrace.no_instrument"))
      return true;
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    if (Pattern != FD)
      return isOptedOut(Pattern);
  return false;
}

const MemberExpr *virtualDispatch(const Expr *Call) {
  const auto *E = dyn_cast<CallExpr>(Call);
  if (!E || !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(E))
    return nullptr;
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(E->getDirectCallee());
  if (!M || !M->isVirtual())
    return nullptr;
  const auto *ME = dyn_cast<MemberExpr>(E->getCallee()->IgnoreParens());
  if (isa<CXXOperatorCallExpr>(E) || !ME || ME->hasQualifier())
    return nullptr;
  // Nor one the compiler calls directly, knowing the object's class (a
  // variable or member of class type, not a reference: `g.f()`).
  if (M->getDevirtualizedMethod(ME->getBase(), /*IsAppleKext=*/false))
    return nullptr;
  return ME;
}

bool isVirtualDispatch(const Expr *Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    return M && M->isVirtual() && Op->getNumArgs() > 0 &&
           !M->getDevirtualizedMethod(Op->getArg(0), /*IsAppleKext=*/false);
  }
  return virtualDispatch(Call) != nullptr;
}

namespace {

/// The functions a body calls, outside unevaluated operands, and the types
/// of the calls it makes through pointers.
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  std::vector<const CallExpr *> Calls;
  /// Function types called through function pointers or std::function,
  /// and member function pointer types.
  std::vector<QualType> IndirectTypes;
  /// Objects built by a constructor the class declares (its body may do
  /// work, as a function's does).
  std::vector<const CXXConstructExpr *> Constructions;

  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (!E->getConstructor()->isImplicit())
      Constructions.push_back(E);
    return true;
  }

  /// Where a destructor the class declares runs without a call written:
  /// at the end of a local's scope (its declaration stands for the call),
  /// of a temporary's full-expression, at a delete-expression. The
  /// destructors of its members and bases run there too, after it, or in
  /// its place when the class's own is implicit or defaulted.
  struct Destruction {
    SourceLocation Loc;
    const CXXDestructorDecl *Destructor;
  };
  std::vector<Destruction> Destructions;

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
      destroys(VD->getLocation(), VD->getType());
    return true;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *E) {
    destroys(E->getBeginLoc(), E->getType());
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    if (!E->getArgument()->isTypeDependent())
      destroys(E->getBeginLoc(), E->getDestroyedType());
    return true;
  }

  bool VisitCallExpr(CallExpr *E) {
    if (E->getDirectCallee()) {
      Calls.push_back(E);
      if (std::optional<QualType> Held = heldFunctionType(E))
        IndirectTypes.push_back(*Held);
      return true;
    }
    const Expr *Callee = E->getCallee()->IgnoreParens();
    if (const auto *B = dyn_cast<BinaryOperator>(Callee); B && B->isPtrMemOp())
      IndirectTypes.push_back(B->getRHS()->getType());
    else if (Callee->getType()->isFunctionPointerType())
      IndirectTypes.push_back(Callee->getType()->getPointeeType());
    return true;
  }

  /// `f(args)` on a std::function<R(A...)>: R(A...), the type of the
  /// functions it may hold.
  static std::optional<QualType> heldFunctionType(const CallExpr *E) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
    if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
      return std::nullopt;
    const auto *Function = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        Op->getArg(0)->getType()->getAsCXXRecordDecl());
    if (!Function || !Function->isInStdNamespace() ||
        Function->getName() != "function" ||
        Function->getTemplateArgs().size() != 1 ||
        Function->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return std::nullopt;
    return Function->getTemplateArgs()[0].getAsType();
  }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc) { return true; }

private:
  void destroys(SourceLocation Loc, QualType T) {
    if (T.isNull() || T->isDependentType())
      return;
    const auto *RD = T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
    if (!RD || !RD->hasDefinition())
      return;
    const CXXDestructorDecl *D = RD->getDestructor();
    if (!D || D->isTrivial() || D->isDeleted())
      return;
    if (!D->isImplicit() && !D->isDefaulted())
      Destructions.push_back({Loc, D});
    // A library class's members are its own business (and not helpers);
    // a union destroys none of its members.
    const SourceManager &SM = RD->getASTContext().getSourceManager();
    if (RD->isUnion() ||
        SM.isInSystemHeader(SM.getExpansionLoc(RD->getLocation())))
      return;
    for (const FieldDecl *F : RD->fields())
      destroys(Loc, F->getType());
    for (const CXXBaseSpecifier &Base : RD->bases())
      destroys(Loc, Base.getType());
  }
};

/// Every function definition outside system headers, template
/// instantiations included.
class DefinitionCollector : public RecursiveASTVisitor<DefinitionCollector> {
public:
  DefinitionCollector(const SourceManager &SM,
                      std::vector<const FunctionDecl *> &Out)
      : SM(SM), Out(Out) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext() &&
        !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      Out.push_back(FD);
    return true;
  }

private:
  const SourceManager &SM;
  std::vector<const FunctionDecl *> &Out;
};

bool isAccessorOrBookkeeping(const FunctionDecl *FD, const FunctionDecl *Def,
                             llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen);

/// Whether a call of Callee is work that wgtrace traces or reports when a
/// kernel makes it: a function of the project (not of a system header)
/// that is not a kernel, opted out, constexpr, implicit, a lambda or
/// itself an accessor.
bool isProjectWork(const FunctionDecl *Callee,
                   llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  const SourceManager &SM = Callee->getASTContext().getSourceManager();
  const FunctionDecl *Def = Callee->getDefinition();
  const FunctionDecl *Written =
      Def ? (Def->getTemplateInstantiationPattern()
                 ? Def->getTemplateInstantiationPattern()
                 : Def)
          : Callee;
  if (Callee->getBuiltinID() ||
      SM.isInSystemHeader(SM.getExpansionLoc(Written->getLocation())) ||
      hasAnnotation(Written, "wgtrace.dispatch") || isOptedOut(Callee) ||
      Written->isConstexpr() || Written->isImplicit() || Callee->isDeleted() ||
      StringRef(Callee->getQualifiedNameAsString()).starts_with("wgtrace::"))
    return false;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Written))
    if (M->getParent()->isLambda())
      return false;
  // A function only declared here is reported when a kernel calls it.
  if (!Def || !Def->doesThisDeclarationHaveABody())
    return true;
  return !isAccessorOrBookkeeping(Written, Def, Seen);
}

const FunctionDecl *written(const FunctionDecl *FD);

/// What a function is to the kernels that call it, as a class's accessor.
enum class AccessorRole : uint8_t {
  /// No accessor by its form: a helper if it is one otherwise.
  None,
  /// An accessor or bookkeeping that only names memory: not a helper.
  Bookkeeping,
  /// An accessor that reads or writes only what its reference and pointer
  /// parameters designate: a helper, but not at a call that hands those
  /// temporaries.
  ReadsParameters,
  /// An accessor that does work: a helper.
  Work,
  /// An accessor whose work is on its object's data (usesObjectData), and
  /// that reads nothing beyond it but what its reference and pointer
  /// parameters designate: a helper, but not at a call on an object of the
  /// kernel's stack (a local, a temporary) that hands those temporaries.
  ObjectWork,
};

/// Whether the accessor Written, whose body accesses Object of its own
/// storage, works on the object's data: called on an object in kernel
/// memory (`out[i] *= 2.0`, `pts[i].x()`), those accesses are the
/// kernel's. It does when it stores to its object (`e[0] *= t` of a
/// `vec3 &operator*=(double t)`, a user-written operator=), or loads a
/// field's value (not a pointer, whose load only computes an address)
/// for a result it returns by value (`double x() const { return e[0]; }`,
/// `vec3 operator-() const`). Constructors and destructors build and
/// release the object: what they do to its own fields is not followed.
/// One load alone (`x()`, `size()`) is work too: in the main file it is
/// instrumented in place, in a project header copied when it can be
/// (MemberCopy.h; LULESH's Domain getters, their private fields named
/// through explicit instantiations; a class template's, as a function
/// template), and reported at each call when it cannot (a bit-field's
/// getter), never lost in silence.
bool usesObjectData(const FunctionDecl *Written, const ObjectUse &Object) {
  if (isa<CXXConstructorDecl>(Written) || isa<CXXDestructorDecl>(Written) ||
      !isa<CXXMethodDecl>(Written))
    return false;
  if (Object.Stores > 0)
    return true;
  QualType Result = Written->getReturnType();
  return Object.DataLoads > 0 && !Result->isReferenceType() &&
         !Result->isPointerType() && !Result->isVoidType();
}

/// The calls, constructions and destructions of Def's body and member
/// initializers.
CallCollector callsOf(const FunctionDecl *Def) {
  CallCollector Calls;
  Calls.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Calls.TraverseStmt(Init->getInit());
  return Calls;
}

/// Whether Calls go through a pointer or reach project work by a call or
/// a construction.
bool callsWork(const CallCollector &Calls,
               llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  return !Calls.IndirectTypes.empty() ||
         llvm::any_of(Calls.Calls,
                      [&](const CallExpr *Call) {
                        return isProjectWork(Call->getDirectCallee(), Seen);
                      }) ||
         llvm::any_of(Calls.Constructions, [&](const CXXConstructExpr *E) {
           return isProjectWork(E->getConstructor(), Seen);
         });
}

/// Written's role (a template's pattern, or the function itself; Def its
/// definition that a call reaches, an instantiation for a template). Seen
/// guards accessors that call each other.
AccessorRole accessorRole(const FunctionDecl *Written, const FunctionDecl *Def,
                          llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  // By its form: a constructor, a destructor, a conversion, an operator
  // (a member or not: `Vec operator+(const Vec &, const Vec &)`), a member
  // returning a reference or a pointer, a const member whose body is one
  // return statement (a getter: size(), empty()). Destructors run where
  // no call is written: the construction of the object stands for the
  // call (Finder::scanStatement).
  const auto *M = dyn_cast<CXXMethodDecl>(Written);
  bool ByForm = Written->isOverloadedOperator();
  if (!ByForm && (!M || M->isStatic()))
    return AccessorRole::None;
  if (!ByForm)
    ByForm = isa<CXXConstructorDecl>(M) || isa<CXXDestructorDecl>(M) ||
             isa<CXXConversionDecl>(M) ||
             M->getReturnType()->isReferenceType() ||
             M->getReturnType()->isPointerType();
  // A getter returns a value: one computed from loads of the object's
  // fields (`return x * x + y * y;`, `return e[0];`) is work whose loads
  // are the kernel's data when the object is kernel memory
  // (usesObjectData).
  if (!ByForm) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(M->getBody());
    ByForm = M->isConst() && Body && Body->size() == 1 &&
             isa<ReturnStmt>(Body->body_front());
  }
  if (!ByForm)
    return AccessorRole::None;
  // A defaulted member copies or builds the fields; a template's pattern
  // is only known through its instantiations.
  if (!Def || Written->isDefaulted() || Def->isDefaulted() ||
      !Def->doesThisDeclarationHaveABody() || Def->isDependentContext())
    return AccessorRole::Bookkeeping;
  if (!Seen.insert(Def).second)
    return AccessorRole::Bookkeeping;
  // But only while it names memory: the body computes what it returns (an
  // element's address, a field's value) from the object's own fields and
  // its parameters. One that calls work (octave2D_01() returning
  // remap(octave2D(x, y))), calls through a pointer, or reads or writes
  // memory beyond the object (`&list_[start_[i]]` loads an element of
  // start_; a functor's loop over an array; a constructor filling the
  // buffer it is given) is a helper: skipping it would lose what it
  // touches in silence. The calls are those of the definition the call
  // reaches (a template's pattern does not resolve calls that depend on
  // its parameters).
  CallCollector Calls = callsOf(Def);
  if (callsWork(Calls, Seen))
    return AccessorRole::Work;
  ObjectUse Object;
  BeyondObject Beyond = memoryBeyondObject(Def, &Object);
  if (Beyond != BeyondObject::Elsewhere && usesObjectData(Written, Object))
    return AccessorRole::ObjectWork;
  switch (Beyond) {
  case BeyondObject::Nothing:
    return AccessorRole::Bookkeeping;
  case BeyondObject::Parameters:
    return AccessorRole::ReadsParameters;
  case BeyondObject::Elsewhere:
    break;
  }
  return AccessorRole::Work;
}

bool isAccessorOrBookkeeping(
    const FunctionDecl *Written, const FunctionDecl *Def,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  return accessorRole(Written, Def, Seen) == AccessorRole::Bookkeeping;
}

bool isAccessorOrBookkeeping(const FunctionDecl *Written,
                             const FunctionDecl *Def) {
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  return isAccessorOrBookkeeping(Written, Def, Seen);
}

/// Whether a call of Def, a definition of a project header that cannot be
/// copied, loses nothing: its body reads and writes no memory (only its
/// by-value parameters and locals, which are no memory of the trace, as a
/// kernel's are not) and calls no project work, directly, through a
/// pointer, or by a constructor or destructor (PRK's
/// `template <> inline double abs(double x) { return __builtin_fabs(x); }`).
/// Reporting its calls as untraced would say that counts miss what they
/// do not.
bool touchesNoMemory(const FunctionDecl *Def) {
  // A member function works on its object, whatever its body shows.
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && !M->isStatic())
    return false;
  if (!Def->doesThisDeclarationHaveABody() || Def->isDependentContext())
    return false;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  Seen.insert(Def);
  CallCollector Calls = callsOf(Def);
  if (callsWork(Calls, Seen) ||
      llvm::any_of(Calls.Destructions,
                   [&](const CallCollector::Destruction &D) {
                     return isProjectWork(D.Destructor, Seen);
                   }))
    return false;
  ObjectUse Object;
  return memoryBeyondObject(Def, &Object) == BeyondObject::Nothing &&
         Object.Accesses == 0;
}

/// Whether the object of a member call (null: none) is a local variable
/// or a temporary of the calling function, whose storage is its stack.
bool onKernelStack(const Expr *Object) {
  if (!Object)
    return false;
  Object = Object->IgnoreParenImpCasts();
  if (Object->isPRValue() || isa<MaterializeTemporaryExpr>(Object))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(Object->IgnoreParenImpCasts());
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  return Var && Var->hasLocalStorage() && !Var->getType()->isReferenceType();
}

/// Whether the call E of an accessor that reads or writes only what its
/// reference and pointer parameters designate hands them temporaries
/// only (`nearest = nearestFacet(...)` with a user-written operator=):
/// then it touches nothing beyond the objects of the call.
bool handsOnlyTemporaries(const Expr *E, const FunctionDecl *Callee) {
  const FunctionDecl *Def = Callee->getDefinition();
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  AccessorRole Role =
      Def ? accessorRole(written(Def), Def, Seen) : AccessorRole::None;
  if (Role != AccessorRole::ReadsParameters && Role != AccessorRole::ObjectWork)
    return false;
  llvm::ArrayRef<const Expr *> Args;
  const Expr *Object = nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
    // An operator's object is its first argument.
    if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) &&
        !Args.empty()) {
      Object = Args.front();
      Args = Args.drop_front();
    } else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      // `p->f()`'s object is what the pointer designates.
      const auto *Callee = dyn_cast<MemberExpr>(Member->getCallee());
      if (Callee && !Callee->isArrow())
        Object = Member->getImplicitObjectArgument();
    }
  } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  }
  // Work on the object's data touches the kernel's stack when the object
  // is a local or a temporary (`s = p[0].scaled(3)`, `local += v`).
  if (Role == AccessorRole::ObjectWork && !onKernelStack(Object))
    return false;
  for (unsigned I = 0; I < Args.size() && I < Callee->getNumParams(); ++I) {
    QualType T = Callee->getParamDecl(I)->getType();
    if (T->isPointerType())
      return false;
    if (T->isReferenceType() &&
        !isa<MaterializeTemporaryExpr>(Args[I]->IgnoreParens()))
      return false;
  }
  return true;
}

/// The function as written: a template's pattern, or FD itself.
const FunctionDecl *written(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    return Pattern;
  return FD;
}

/// Whether some declaration of FD gives it a qualified name: a friend
/// declared only in a class (found by argument-dependent lookup) and a
/// function declared only in a block (`void bump(float *);` in a kernel)
/// have none that code elsewhere can take their address by.
bool isNameable(const FunctionDecl *FD) {
  return isa<CXXMethodDecl>(FD) ||
         llvm::any_of(FD->redecls(), [](const FunctionDecl *R) {
           return R->getFriendObjectKind() == Decl::FOK_None &&
                  !R->isLocalExternDecl();
         });
}

class Finder {
public:
  Finder(ASTContext &Ctx, const std::vector<const FunctionDecl *> *Exported)
      : Context(&Ctx), SM(Ctx.getSourceManager()), Exported(Exported) {}

  FoundHelpers run(const std::vector<KernelDef> &Kernels) {
    for (const KernelDef &K : Kernels) {
      for (const Stmt *Region : K.Regions)
        scanStatement(Region, K.Written);
      if (K.Regions.empty())
        for (const FunctionDecl *Body : K.Bodies)
          scan(Body, K.Written);
    }
    close();
    if (Exported) {
      llvm::DenseSet<const FunctionDecl *> FromKernels;
      for (const auto &Entry : Index)
        FromKernels.insert(Entry.first);
      // Other files' kernels may call them: instrumented as helpers are,
      // and registered. An accessor or bookkeeping records nothing of its
      // own (a kernel records what it touches through it), but is
      // registered all the same, so that a call of it from another file is
      // not counted as uninstrumented.
      for (const FunctionDecl *FD : *Exported) {
        const auto *M = dyn_cast<CXXMethodDecl>(FD);
        if (considerTarget(FD) || isAccessorOrBookkeeping(FD, FD) ||
            touchesNoMemory(FD))
          Found.IndirectTargets.push_back({FD, M && !M->isStatic()});
      }
      close();
      for (const auto &Entry : Index)
        if (!FromKernels.contains(Entry.first))
          Found.EntryOnly.insert(Entry.first);
    }
    return finish();
  }

private:
  /// Scans what is left to scan, closed over calls: helpers of helpers,
  /// and what calls through pointers reach.
  void close() {
    while (!Work.empty() || !PendingTypes.empty()) {
      while (!Work.empty()) {
        auto [FD, Written] = Work.back();
        Work.pop_back();
        scan(FD, Written);
      }
      // Calls through pointers reach every function of their type that
      // the file can instrument; those may call further.
      std::vector<QualType> Types = std::move(PendingTypes);
      PendingTypes.clear();
      for (QualType T : Types)
        addIndirectTargets(T);
    }
  }

  /// What was found, in translation-unit order.
  FoundHelpers finish() {
    llvm::sort(Found.IndirectTargets,
               [&](const IndirectTarget &A, const IndirectTarget &B) {
                 return SM.isBeforeInTranslationUnit(A.Function->getLocation(),
                                                     B.Function->getLocation());
               });
    // An exported function may also be what a call through a pointer
    // reaches: registered once.
    Found.IndirectTargets.erase(
        std::unique(Found.IndirectTargets.begin(), Found.IndirectTargets.end(),
                    [](const IndirectTarget &A, const IndirectTarget &B) {
                      return A.Function == B.Function;
                    }),
        Found.IndirectTargets.end());
    auto InOrder = [&](const KernelDef &A, const KernelDef &B) {
      return SM.isBeforeInTranslationUnit(A.Written->getBeginLoc(),
                                          B.Written->getBeginLoc());
    };
    llvm::sort(Found.InMainFile, InOrder);
    llvm::sort(Found.InHeaders, InOrder);
    return std::move(Found);
  }

  void scan(const FunctionDecl *FD, const FunctionDecl *Written) {
    scanStatement(FD->getBody(), Written);
  }

  void scanStatement(const Stmt *Body, const FunctionDecl *Written) {
    CallCollector Calls;
    Calls.TraverseStmt(const_cast<Stmt *>(Body));
    for (QualType T : Calls.IndirectTypes) {
      T = T.getCanonicalType();
      if (SeenTypes.insert(T.getAsOpaquePtr()).second)
        PendingTypes.push_back(T);
    }
    for (const CallExpr *Call : Calls.Calls) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = Callee->getDefinition();
      Found.Calls.push_back({Written, written(Def ? Def : Callee), Call});
    }
    // A constructor that does work is a helper like a function. Calls and
    // constructions in source order, as their reports are.
    struct Callee {
      SourceLocation Loc;
      size_t Order;
      const FunctionDecl *Function;
      const Expr *Call;
    };
    std::vector<Callee> Callees;
    Callees.reserve(Calls.Calls.size() + Calls.Constructions.size() +
                    Calls.Destructions.size());
    for (const CallExpr *Call : Calls.Calls)
      Callees.push_back(
          {Call->getBeginLoc(), Callees.size(), Call->getDirectCallee(), Call});
    for (const CXXConstructExpr *E : Calls.Constructions)
      Callees.push_back(
          {E->getBeginLoc(), Callees.size(), E->getConstructor(), E});
    // A destructor that does work is a helper too: its accesses happen
    // where the object dies, while the workgroup is current.
    for (const CallCollector::Destruction &D : Calls.Destructions)
      Callees.push_back({D.Loc, Callees.size(), D.Destructor, nullptr});
    llvm::sort(Callees, [&](const Callee &A, const Callee &B) {
      if (A.Loc != B.Loc)
        return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
      return A.Order < B.Order;
    });
    for (const CallExpr *Call : Calls.Calls)
      considerFunctors(Call, Written);
    // The operator= a std::copy or std::fill runs on elements of a class
    // (AlgorithmCalls.h): the recording algorithm runs it instrumented.
    for (const CallExpr *Call : Calls.Calls)
      if (ElementAssignment A = elementAssignment(Call); A.Operator)
        consider(A.Operator, Call->getBeginLoc(), Written);
    for (const Callee &C : Callees) {
      const auto *Method = dyn_cast<CXXMethodDecl>(C.Function);
      bool Virtual = C.Call && Method && isVirtualDispatch(C.Call);
      // A pure virtual function without a body runs only as an override.
      if (Virtual && Method->isPureVirtual() && !Method->isDefined())
        ;
      else if (!C.Call || !handsOnlyTemporaries(C.Call, C.Function))
        consider(C.Function, C.Loc, Written, C.Call);
      if (Virtual)
        considerOverrides(Method, C.Loc, Written);
    }
  }

  /// A function object handed to a library function (`std::transform(...,
  /// *this)`, `std::for_each(b, e, Count{})`) is called from library code,
  /// which no call of the kernel's names: its class's call operators are
  /// helpers all the same (what they read and write beyond the elements
  /// they are given, a static member, a global, is the kernel's). A lambda
  /// is instrumented where it is written.
  void considerFunctors(const CallExpr *Call, const FunctionDecl *Caller) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee ||
        !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())))
      return;
    for (const Expr *Arg : Call->arguments()) {
      const CXXRecordDecl *Class =
          Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
      if (!Class || !Class->hasDefinition() || Class->isLambda())
        continue;
      DeclarationName Name =
          Context->DeclarationNames.getCXXOperatorName(OO_Call);
      for (const NamedDecl *D : Class->lookup(Name))
        if (const auto *M = dyn_cast<CXXMethodDecl>(D))
          considerRunElsewhere(
              M, Arg->getBeginLoc(), Caller,
              "a library function calls it, which runs the header's "
              "original, and a header's member function is instrumented "
              "only as a copy");
    }
  }

  /// M, which runs without a call of the kernel's naming it (a virtual
  /// call's override, a functor's operator called by the library): a
  /// helper when the file defines it; when a project header does, only its
  /// copy could be instrumented, which nothing runs: reported at CallLoc
  /// (Why) unless it touches nothing.
  void considerRunElsewhere(const CXXMethodDecl *M, SourceLocation CallLoc,
                            const FunctionDecl *Caller, StringRef Why) {
    const FunctionDecl *Def = M->getDefinition();
    if (!Def || Def->isDependentContext()) {
      consider(M, CallLoc, Caller);
      return;
    }
    const FunctionDecl *Written = written(Def);
    SourceLocation Loc = SM.getExpansionLoc(Written->getLocation());
    if (SM.isInMainFile(Loc) || SM.isInSystemHeader(Loc)) {
      consider(M, CallLoc, Caller);
      return;
    }
    if (isOptedOut(Def) || isAccessorOrBookkeeping(Written, Def) ||
        touchesNoMemory(Def) || !firstReport(Written, CallLoc))
      return;
    Found.Unrewritten.push_back({Written, CallLoc, Why.str(), Caller});
  }

  /// A virtual call runs whichever override the object's class has: each
  /// override of Method that this translation unit defines is a helper
  /// (instrumented in place in the main file). One of a project header
  /// cannot be: a header member is instrumented only as a copy, a free
  /// function that no virtual call runs; it is reported at the call.
  void considerOverrides(const CXXMethodDecl *Method, SourceLocation CallLoc,
                         const FunctionDecl *Caller) {
    const CXXMethodDecl *Target = Method->getCanonicalDecl();
    for (const FunctionDecl *FD : definitions(*Context)) {
      const auto *M = dyn_cast<CXXMethodDecl>(FD);
      if (!M || M->getCanonicalDecl() == Target || !overrides(M, Target))
        continue;
      considerRunElsewhere(
          M, CallLoc, Caller,
          "a virtual call may run it, and a header's member function is "
          "instrumented only as a copy, which no virtual call runs");
    }
  }

  /// Whether M overrides Target, directly or through other overrides.
  static bool overrides(const CXXMethodDecl *M, const CXXMethodDecl *Target) {
    for (const CXXMethodDecl *O : M->overridden_methods())
      if (O->getCanonicalDecl() == Target || overrides(O, Target))
        return true;
    return false;
  }

  /// The functions of the main file and of project headers that a call
  /// through a pointer of type T (a function type, or a member function
  /// pointer type) may reach: instrumented and registered.
  void addIndirectTargets(QualType T) {
    ASTContext &Ctx = *Context;
    const auto *Member = T->getAs<MemberPointerType>();
    QualType Function = Member ? Member->getPointeeType() : T;
    if (!Function->isFunctionType())
      return;
    if (Member)
      addVirtualTargets(Member, Function);
    for (const FunctionDecl *FD : definitions(Ctx)) {
      const auto *M = dyn_cast<CXXMethodDecl>(FD);
      bool IsMember = M && !M->isStatic();
      if (IsMember != (Member != nullptr) ||
          !Ctx.hasSameFunctionTypeIgnoringExceptionSpec(FD->getType(),
                                                        Function))
        continue;
      // Named from the end of the file: only what is accessible there,
      // and a member function pointer to a virtual function calls an
      // override found at run time, which may be another's.
      if (FD->getAccess() == AS_private || FD->getAccess() == AS_protected)
        continue;
      if (IsMember && (M->isVirtual() ||
                       !Ctx.hasSameType(QualType(Member->getClass(), 0),
                                        Ctx.getRecordType(M->getParent()))))
        continue;
      const FunctionDecl *Written = written(FD);
      bool InMain = SM.isInMainFile(SM.getExpansionLoc(Written->getLocation()));
      bool IsKernel = hasAnnotation(Written, "wgtrace.dispatch");
      if (!IsKernel && !considerTarget(FD))
        continue;
      // Header kernels run instrumented only through their copies, which
      // the file's own uses of them name.
      if (IsKernel && !InMain)
        continue;
      Found.IndirectTargets.push_back({FD, IsMember});
    }
  }

  /// A member function pointer of Member's type may name a virtual
  /// function of its class: the call runs the override of the object's
  /// class, found at run time. When every override the translation unit
  /// defines is in this file, each is a helper (instrumented in place, or
  /// bookkeeping that records nothing of its own) and the virtual function
  /// is registered by its pointer's value, the same for every override:
  /// the call then runs instrumented code whichever it reaches. One
  /// defined in a header (its copy is a free function no member pointer
  /// reaches) leaves the function unregistered: the call is counted as
  /// uninstrumented when it runs.
  void addVirtualTargets(const MemberPointerType *Member, QualType Function) {
    const CXXRecordDecl *Class = Member->getMostRecentCXXRecordDecl();
    if (!Class || !Class->hasDefinition())
      return;
    ASTContext &Ctx = *Context;
    for (const CXXMethodDecl *Virtual : Class->getDefinition()->methods()) {
      if (!Virtual->isVirtual() || isa<CXXDestructorDecl>(Virtual) ||
          Virtual->getAccess() != AS_public ||
          !Ctx.hasSameFunctionTypeIgnoringExceptionSpec(Virtual->getType(),
                                                        Function))
        continue;
      const CXXMethodDecl *Canonical = Virtual->getCanonicalDecl();
      std::vector<const FunctionDecl *> Overrides;
      bool InFile = true;
      for (const FunctionDecl *FD : definitions(Ctx)) {
        const auto *M = dyn_cast<CXXMethodDecl>(FD);
        if (!M ||
            (M->getCanonicalDecl() != Canonical && !overrides(M, Canonical)))
          continue;
        const FunctionDecl *Written = written(FD);
        InFile = InFile &&
                 SM.isInMainFile(SM.getExpansionLoc(Written->getLocation())) &&
                 !isOptedOut(FD);
        Overrides.push_back(FD);
      }
      if (!InFile)
        continue;
      for (const FunctionDecl *FD : Overrides)
        if (!isAccessorOrBookkeeping(written(FD), FD))
          considerTarget(FD);
      Found.IndirectTargets.push_back({Virtual, true});
    }
  }

  /// Makes FD a helper if it can be one; whether it is instrumented then.
  bool considerTarget(const FunctionDecl *FD) {
    const FunctionDecl *Written = written(FD);
    SourceLocation Loc = SM.getExpansionLoc(Written->getLocation());
    if (isOptedOut(FD) || Written->isConstexpr() ||
        isAccessorOrBookkeeping(Written, FD) || Written->isImplicit() ||
        FD->isDependentContext())
      return false;
    // A member's copy is a free function: no member pointer reaches it.
    if (!SM.isInMainFile(Loc) &&
        (isa<CXXMethodDecl>(Written) || !whyNotCopyable(Written).empty()))
      return false;
    consider(FD, SourceLocation(), nullptr);
    return true;
  }

  /// Every function definition of the main file and of project headers,
  /// instantiations included, found once.
  const std::vector<const FunctionDecl *> &definitions(ASTContext &C) {
    if (!Definitions) {
      Definitions.emplace();
      DefinitionCollector Collect(SM, *Definitions);
      Collect.TraverseDecl(C.getTranslationUnitDecl());
    }
    return *Definitions;
  }

  void consider(const FunctionDecl *Callee, SourceLocation CallLoc,
                const FunctionDecl *Caller, const Expr *Call = nullptr) {
    const FunctionDecl *Def = Callee->getDefinition();
    if (!Def || !Def->doesThisDeclarationHaveABody()) {
      noteUndefined(Callee, CallLoc, Caller, Call);
      return;
    }
    const FunctionDecl *Written = written(Def);
    SourceLocation Loc = SM.getExpansionLoc(Written->getLocation());
    if (SM.isInSystemHeader(Loc))
      return;
    if (hasAnnotation(Written, "wgtrace.dispatch") || isOptedOut(Def) ||
        Written->isConstexpr() || isAccessorOrBookkeeping(Written, Def) ||
        Written->isImplicit())
      return;
    // Lambdas are instrumented where they are written: inside a kernel
    // with the kernel, elsewhere not at all.
    if (const auto *M = dyn_cast<CXXMethodDecl>(Written))
      if (M->getParent()->isLambda())
        return;
    bool InMain = SM.isInMainFile(Loc);
    if (!InMain) {
      std::string Why = whyNotCopyable(Written);
      if (!Why.empty()) {
        if (touchesNoMemory(Def))
          return;
        if (firstReport(Written, CallLoc))
          Found.Unrewritten.push_back({Written, CallLoc, Why, Caller});
        return;
      }
    }
    std::vector<KernelDef> &List = InMain ? Found.InMainFile : Found.InHeaders;
    auto [It, Inserted] = Index.try_emplace(Written, List.size());
    if (Inserted)
      List.push_back({Written, {}, nullptr, {}, {}});
    if (Def->isDependentContext())
      return;
    KernelDef &H = List[It->second];
    if (llvm::is_contained(H.Bodies, Def))
      return;
    H.Bodies.push_back(Def);
    Work.push_back({Def, Written});
  }

  /// A function of the project that this translation unit only declares:
  /// its body, in another file, is not instrumented from here. With
  /// --whole-target, a call the runtime can check (its callee named by
  /// address) is checked instead of reported: the other file instruments
  /// and registers the function if it is rewritten too.
  void noteUndefined(const FunctionDecl *Callee, SourceLocation CallLoc,
                     const FunctionDecl *Caller, const Expr *Call) {
    SourceLocation Loc = SM.getExpansionLoc(Callee->getLocation());
    if (Callee->getBuiltinID() || SM.isInSystemHeader(Loc) ||
        hasAnnotation(Callee, "wgtrace.dispatch") || isOptedOut(Callee) ||
        Callee->isImplicit() || Callee->isDeleted() ||
        StringRef(Callee->getQualifiedNameAsString())
            .starts_with("wgtrace::") ||
        !firstReport(Callee->getCanonicalDecl(), CallLoc))
      return;
    if (const auto *E = dyn_cast_or_null<CallExpr>(Call);
        E && Exported && isCheckable(Callee, Caller)) {
      Found.Elsewhere.push_back({E, Callee, Caller});
      return;
    }
    Found.Undefined.push_back(
        {Callee, CallLoc,
         "it is not defined in this file, so wgtrace cannot instrument "
         "it from here (helpers are instrumented in the file of the kernel "
         "that calls them)",
         Caller});
  }

  /// Whether a call of Callee by Caller can be checked at run time: Callee
  /// has an address the defining file registers (a function or a public
  /// non-virtual member function that is no template's), and the call is
  /// written once for one callee (not in a template, whose instances may
  /// call different functions).
  static bool isCheckable(const FunctionDecl *Callee,
                          const FunctionDecl *Caller) {
    if (!Caller || Caller->isTemplated() || !isNameable(Callee) ||
        Callee->getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
        isa<CXXConstructorDecl, CXXDestructorDecl>(Callee))
      return false;
    if (const auto *M = dyn_cast<CXXMethodDecl>(Callee))
      return !M->isVirtual() && M->getAccess() == AS_public &&
             !M->getParent()->isLocalClass();
    return true;
  }

  /// Whether a call of F at CallLoc is reported for the first time: each
  /// call is, so that every kernel and OpenMP loop that misses the
  /// callee's accesses says so (the instances of a template's call are
  /// one call).
  bool firstReport(const FunctionDecl *F, SourceLocation CallLoc) {
    return Reported.insert({F, SM.getExpansionLoc(CallLoc)}).second;
  }

  ASTContext *Context;
  SourceManager &SM;
  const std::vector<const FunctionDecl *> *Exported;
  FoundHelpers Found;
  llvm::DenseSet<const void *> SeenTypes;
  std::vector<QualType> PendingTypes;
  std::optional<std::vector<const FunctionDecl *>> Definitions;
  llvm::DenseSet<std::pair<const FunctionDecl *, SourceLocation>> Reported;
  llvm::DenseMap<const FunctionDecl *, size_t> Index;
  std::vector<std::pair<const FunctionDecl *, const FunctionDecl *>> Work;
};

} // namespace

bool recordsAsHelper(const FunctionDecl *Written, const FunctionDecl *Def) {
  return !isAccessorOrBookkeeping(Written, Def);
}

FoundHelpers findHelpers(ASTContext &Ctx, const std::vector<KernelDef> &Kernels,
                         const std::vector<const FunctionDecl *> *Exported) {
  return Finder(Ctx, Exported).run(Kernels);
}

std::vector<const FunctionDecl *> exportedFunctions(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const FunctionDecl *> Definitions;
  DefinitionCollector Collect(SM, Definitions);
  Collect.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::vector<const FunctionDecl *> Out;
  for (const FunctionDecl *FD : Definitions) {
    if (!SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())) ||
        !FD->isExternallyVisible() || FD->isMain() || FD->isTemplated() ||
        FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
        FD->isDeleted() || FD->isDefaulted() || FD->isImplicit() ||
        hasAnnotation(FD, "wgtrace.dispatch") ||
        isa<CXXConstructorDecl, CXXDestructorDecl>(FD) || !isNameable(FD))
      continue;
    if (const auto *M = dyn_cast<CXXMethodDecl>(FD))
      // A class of the main file is no other file's.
      if (M->isVirtual() || M->getAccess() != AS_public ||
          M->getParent()->isLambda() || M->getParent()->isLocalClass() ||
          SM.isInMainFile(SM.getExpansionLoc(M->getParent()->getLocation())))
        continue;
    Out.push_back(FD);
  }
  return Out;
}

} // namespace rewriter
} // namespace wgtrace
