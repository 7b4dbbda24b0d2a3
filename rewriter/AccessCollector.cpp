//===- AccessCollector.cpp - Wraps the memory accesses of a body ----------===//

#include "AccessCollector.h"

#include "AlgorithmCalls.h"
#include "DeletedObjects.h"
#include "HelperFinder.h"
#include "KernelFinder.h"
#include "LibraryCalls.h"
#include "NewObjectStores.h"
#include "NodeIterators.h"
#include "OpenMPLoops.h"
#include "StringCalls.h"
#include "ValarrayCalls.h"
#include "ValueCalls.h"
#include "VectorCalls.h"

#include "wgtrace/format.h"
#include "clang/AST/CXXInheritance.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstring>

using namespace clang;

namespace wgtrace {
namespace rewriter {

void AccessCollector::collect(const FunctionDecl *FD, bool LambdaKernel) {
  if (Stmt *Body = FD->getBody()) {
    Scope = FD;
    // A lambda kernel's scope is its export name, which the caller set.
    if (!LambdaKernel)
      RC.Scope = kernelName(FD);
    Model.setKernelClosure(LambdaKernel ? cast<CXXMethodDecl>(FD)->getParent()
                                        : nullptr);
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    Model.setScope(FD, LambdaKernel || hasAnnotation(Pattern ? Pattern : FD,
                                                     "wgtrace.dispatch"));
    Model.analyzeLocalPointers(Body);
    RC.Instance = Pattern ? FD : nullptr;
    // A constructor instrumented as a helper reads in its member
    // initializers too (`first_(a[0])`).
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && Init->getInit())
          TraverseStmt(Init->getInit());
    TraverseStmt(Body);
    RC.Instance = nullptr;
    Model.setKernelClosure(nullptr);
  }
}

void AccessCollector::collectOmpBody(const Stmt *Body,
                                     const FunctionDecl *Function,
                                     const OmpSharing &Sharing) {
  Scope = Function;
  Model.setKernelClosure(nullptr);
  Model.setScope(Function, /*IsKernel=*/true);
  Model.setOmpSharing(&Sharing);
  Model.analyzeLocalPointers(Body);
  InOmpBody = true;
  TraverseStmt(const_cast<Stmt *>(Body));
  InOmpBody = false;
  Model.setOmpSharing(nullptr);
}

bool AccessCollector::VisitExpr(Expr *E) {
  RC.noteInstanceText(E);
  return true;
}

bool AccessCollector::TraverseStmt(Stmt *S, DataRecursionQueue *Queue) {
  if (auto *D = dyn_cast_or_null<OMPExecutableDirective>(S)) {
    OpenMPDirectiveKind K = D->getDirectiveKind();
    // A loop of its own, or a construct reported as not traced.
    if (InOmpBody && (isTracedOmpLoop(K) || isUntracedOmpConstruct(K)))
      return true;
    // Wherever it is: in a loop's body, or in a helper or kernel that
    // iterations call (miniFE's sum_into_row, called from its element
    // loop, adds into the matrix with `omp atomic`), the update is atomic
    // and its record says so.
    if (auto *A = dyn_cast<OMPAtomicDirective>(D))
      return traverseOmpAtomic(A);
    // In a loop's body, or in a helper or kernel it may run (a critical
    // section there is entered by the iteration that calls it).
    if (auto *C = dyn_cast<OMPCriticalDirective>(D); C && RC.Tables.OpenMP) {
      RC.Tables.UsesOmpCritical = true;
      // Without the queue: traversed now, while the stack says so.
      OmpCritical.push_back(C->getDirectiveName().getAsString());
      openCriticalSection(C, OmpCritical.back());
      bool Result = Base::TraverseStmt(S);
      OmpCritical.pop_back();
      return Result;
    }
  }
  return Base::TraverseStmt(S, Queue);
}

/// Whether S calls anything (a helper, a library call recorded as the
/// library does it, a constructor): code whose records carry no mark of
/// the statement's.
static bool makesCalls(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr>(S))
    return true;
  return llvm::any_of(S->children(), makesCalls);
}

/// Whether S holds a critical construct: the marks of its accesses name
/// that section alone, while they are inside both.
static bool holdsCritical(const Stmt *S) {
  if (!S)
    return false;
  if (isa<OMPCriticalDirective>(S))
    return true;
  return llvm::any_of(S->children(), holdsCritical);
}

void AccessCollector::openCriticalSection(const OMPCriticalDirective *C,
                                          StringRef Name) {
  const Stmt *Block = C->getAssociatedStmt();
  if (const auto *Captured = dyn_cast_or_null<CapturedStmt>(Block))
    Block = Captured->getCapturedStmt();
  // The block's own accesses carry the section's mark already.
  if (!makesCalls(Block) && !holdsCritical(Block))
    return;
  auto Named = [&] {
    std::vector<std::string> &Sections = RC.Tables.CriticalSections;
    if (llvm::find(Sections, Name) == Sections.end())
      Sections.push_back(Name.str());
  };
  const std::string Open = " WGTRACE_OMP_CRITICAL_SECTION(0x" +
                           llvm::utohexstr(format::criticalNameHash(Name)) +
                           "ull);";
  const SourceManager &SM = RC.SM;
  if (const auto *Compound = dyn_cast<CompoundStmt>(Block)) {
    if (std::optional<unsigned> At =
            RC.offsetAfterToken(Compound->getLBracLoc())) {
      RC.Edits.insert(*At, Open);
      Named();
    }
    return;
  }
  // A statement of its own made a block; not one that is a directive too
  // (its pragma line would follow the brace). Those, and a block written in
  // a macro, keep the marks of their own accesses only.
  if (isa<OMPExecutableDirective>(Block))
    return;
  SourceLocation Begin = Block->getBeginLoc();
  if (Begin.isMacroID() || !RC.isInTargetFile(Begin))
    return;
  std::optional<unsigned> End =
      statementEnd(Block, SM, RC.Ctx.getLangOpts(), RC.Target);
  if (!End)
    return;
  // Stackable: another statement-level edit may wrap the same statement.
  if (RC.Edits.wrap(SM.getFileOffset(Begin), *End, "{" + Open + " ", " }",
                    /*Stackable=*/true))
    Named();
}

/// Whether evaluating the address of E twice may do something once more:
/// side effects, or a call that is not a standard container's element
/// access (`v[k]`, `v.at(k)` of a std::vector, whose repetition only
/// computes the same address again).
static bool repeatingMayChange(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  const CXXMethodDecl *Method = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Subscript)
    Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E))
    if (const CXXMethodDecl *M = Call->getMethodDecl();
        M && M->getIdentifier() && M->getName() == "at")
      Method = M;
  if (Method && Method->getParent()->isInStdNamespace())
    return llvm::any_of(
               cast<CallExpr>(E)->arguments(),
               [&](const Expr *Arg) { return repeatingMayChange(Arg, Ctx); }) ||
           (isa<CXXMemberCallExpr>(E) &&
            repeatingMayChange(
                cast<CXXMemberCallExpr>(E)->getImplicitObjectArgument(), Ctx));
  if (isa<CallExpr>(E))
    return E->HasSideEffects(Ctx);
  return llvm::any_of(E->children(),
                      [&](const Stmt *Child) {
                        const auto *ChildExpr = dyn_cast_or_null<Expr>(Child);
                        return ChildExpr && repeatingMayChange(ChildExpr, Ctx);
                      }) ||
         E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false);
}

bool AccessCollector::traverseOmpAtomic(OMPAtomicDirective *A) {
  const Expr *X = A->getX();
  const Stmt *Statement = A->getAssociatedStmt();
  if (!X || !Statement)
    return Base::TraverseStmt(A);
  AccessKind Kind = AccessKind::AtomicUpdate;
  if (A->getSingleClause<OMPReadClause>())
    Kind = AccessKind::AtomicLoad;
  else if (A->getSingleClause<OMPWriteClause>())
    Kind = AccessKind::AtomicStore;
  const SourceManager &SM = RC.SM;
  StringRef Code = SM.getBufferData(RC.Target);
  if (X->isGLValue() && Model.isMemory(X)) {
    bool InMacro = false;
    std::optional<PragmaLine> Pragma =
        pragmaLine(A->getBeginLoc(), SM, RC.Target);
    auto Object = RC.editRange(X->getSourceRange(), InMacro);
    std::optional<unsigned> End =
        statementEnd(Statement, SM, RC.Ctx.getLangOpts(), RC.Target);
    if (!Pragma || !Object || !End) {
      RC.untraced(X,
                  "it is the object of an 'omp atomic' construct written "
                  "in a macro or with _Pragma, which wgtrace cannot "
                  "rewrite",
                  Kind);
    } else if (repeatingMayChange(X, RC.Ctx)) {
      RC.untraced(X,
                  "it is the object of an 'omp atomic' construct whose "
                  "address has side effects, which recording it would "
                  "repeat",
                  Kind);
    } else {
      const char *Macro = Kind == AccessKind::AtomicLoad    ? "LOAD"
                          : Kind == AccessKind::AtomicStore ? "STORE"
                                                            : "UPDATE";
      std::string Text = Code.slice(Object->first, Object->second).str();
      std::string Directive = Pragma->Directive;
      std::string Comment = Pragma->Comment;
      if (RC.replaceWithSite(
              {Pragma->Begin, Pragma->End}, X, Kind, [&](unsigned Site) {
                return "{ static_cast<void>(WGTRACE_ATOMIC_" +
                       std::string(Macro) + "_AT(" + std::to_string(Site) +
                       ", &(" + Text + "))); " + pragmaOperator(Directive, "") +
                       Comment;
              })) {
        RC.Edits.insert(*End, " }");
        RC.Tables.HasAtomics = true;
      }
    }
  }
  // The statement's other accesses (an index, a captured value) are
  // recorded as usual; its object's uses are the construct's.
  const Expr *Saved = OmpAtomicObject;
  OmpAtomicObject = X;
  bool Result = Base::TraverseStmt(const_cast<Stmt *>(Statement));
  OmpAtomicObject = Saved;
  return Result;
}

bool AccessCollector::VisitImplicitCastExpr(ImplicitCastExpr *E) {
  if (E->getCastKind() == CK_LValueToRValue &&
      !readsFoldedConstant(E->getSubExpr()))
    use(E->getSubExpr(), AccessKind::Load);
  return true;
}

bool AccessCollector::readsFoldedConstant(const Expr *E) const {
  // What Clang's code generation emits as a constant instead of a load
  // (CodeGenFunction::tryEmitAsConstant): a variable of a const,
  // non-volatile type (no mutable or non-trivial class) whose value the
  // constant evaluator folds, such as `static const double DT = 1.0;`,
  // which the language does not count as a constant expression.
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || isa<ParmVarDecl>(VD) || VD->getType()->isReferenceType())
    return false;
  QualType T = VD->getType().getCanonicalType();
  if (!T.isConstQualified() || T.isVolatileQualified())
    return false;
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
    if (RD->hasMutableFields() || !RD->isTrivial())
      return false;
  Expr::EvalResult Result;
  return !Ref->isValueDependent() && Ref->EvaluateAsRValue(Result, RC.Ctx) &&
         !Result.HasSideEffects;
}

bool AccessCollector::VisitBinaryOperator(BinaryOperator *E) {
  if (E->getOpcode() == BO_Assign)
    use(E->getLHS(), AccessKind::Store);
  else if (E->isCompoundAssignmentOp())
    use(E->getLHS(), AccessKind::Update);
  return true;
}

bool AccessCollector::VisitGCCAsmStmt(GCCAsmStmt *S) {
  // Register outputs are stores (`+` ones updates), wrapped like the
  // target of an assignment; register inputs are loads through their
  // lvalue-to-rvalue conversion (Sema leaves exactly the memory-only
  // inputs as lvalues). A memory operand ("m", "o", ...) is an address the
  // assembly may read or write as it likes, and so is a pointer into
  // kernel memory handed to it: not known, so untraced.
  const TargetInfo &Target = RC.Ctx.getTargetInfo();
  auto MemoryOperand = [&](const Expr *E, AccessKind Kind) {
    RC.untraced(E,
                "it is a memory operand of inline assembly, whose accesses "
                "wgtrace cannot see",
                Kind);
  };
  auto PointerOperand = [&](const Expr *E) {
    RC.untraced(E, "it points into kernel memory and is handed to inline "
                   "assembly, whose accesses wgtrace cannot see");
  };
  auto PointsIntoMemory = [&](const Expr *E) {
    return E->IgnoreParenImpCasts()->getType()->isPointerType() &&
           Model.pointerTargetIsMemory(E);
  };
  for (unsigned I = 0; I < S->getNumOutputs(); ++I) {
    const Expr *Out = S->getOutputExpr(I);
    TargetInfo::ConstraintInfo Info(S->getOutputConstraint(I), "");
    if (Target.validateOutputConstraint(Info) && Info.allowsMemory() &&
        !Info.allowsRegister()) {
      if (Model.isMemory(Out))
        MemoryOperand(Out, AccessKind::Update);
      continue;
    }
    use(Out,
        S->isOutputPlusConstraint(I) ? AccessKind::Update : AccessKind::Store);
    if (PointsIntoMemory(Out))
      PointerOperand(Out);
  }
  for (unsigned I = 0; I < S->getNumInputs(); ++I) {
    const Expr *In = S->getInputExpr(I);
    if (In->isGLValue() && Model.isMemory(In))
      MemoryOperand(In, AccessKind::Load);
    else if (PointsIntoMemory(In))
      PointerOperand(In);
  }
  return true;
}

bool AccessCollector::VisitUnaryOperator(UnaryOperator *E) {
  if (E->isIncrementDecrementOp())
    use(E->getSubExpr(), AccessKind::Update);
  return true;
}

/// std::atomic, std::atomic_ref, std::atomic_flag and the library's bases
/// of them (libstdc++'s std::__atomic_base, std::__atomic_float, ...).
static bool isAtomicClass(const CXXRecordDecl *RD) {
  if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier())
    return false;
  StringRef Name = RD->getName();
  return Name.starts_with("atomic") || Name.starts_with("__atomic");
}

/// std::atomic_ref (or a library base of it): an object that operates on
/// another one, the object it was constructed from.
static bool isAtomicRefClass(QualType T) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!isAtomicClass(RD))
    return false;
  StringRef Name = RD->getName();
  return Name.starts_with("atomic_ref") || Name.starts_with("__atomic_ref");
}

/// What an atomic operation does to its object.
enum class AtomicUse : uint8_t {
  /// Not an operation wgtrace knows (`__c11_atomic_init`, a library
  /// member of its own).
  Unknown,
  /// No access: notify_one, is_lock_free, a fence.
  None,
  Load,
  Store,
  /// A read-modify-write: exchange, compare_exchange (recorded as the
  /// read-modify-write the hardware performs, whether or not it succeeds:
  /// `lock cmpxchg` writes the line either way, and whether it succeeds
  /// depends on the timing of the run), fetch_*, ++, test_and_set.
  Update,
};

static std::optional<AccessKind> atomicKind(AtomicUse Use) {
  switch (Use) {
  case AtomicUse::Load:
    return AccessKind::AtomicLoad;
  case AtomicUse::Store:
    return AccessKind::AtomicStore;
  case AtomicUse::Update:
    return AccessKind::AtomicUpdate;
  case AtomicUse::Unknown:
  case AtomicUse::None:
    break;
  }
  return std::nullopt;
}

/// The operation named \p Name (a member of std::atomic or std::atomic_flag,
/// or a free function without its `atomic_`, `flag_` and `_explicit`).
/// C++20's wait reads the value (at least once) until it changes; notify
/// touches no byte of the object.
static AtomicUse atomicUseOf(StringRef Name) {
  if (Name == "load" || Name == "wait" || Name == "test")
    return AtomicUse::Load;
  if (Name == "store" || Name == "clear")
    return AtomicUse::Store;
  if (Name == "exchange" || Name.starts_with("compare_exchange") ||
      Name.starts_with("fetch_") || Name == "test_and_set")
    return AtomicUse::Update;
  if (Name == "notify_one" || Name == "notify_all" || Name == "is_lock_free")
    return AtomicUse::None;
  return AtomicUse::Unknown;
}

/// A member function or operator of an atomic class.
static AtomicUse atomicMemberUse(const CXXMethodDecl *M) {
  if (isa<CXXConversionDecl>(M))
    return AtomicUse::Load;
  switch (M->getOverloadedOperator()) {
  case OO_None:
    break;
  case OO_Equal:
    return AtomicUse::Store;
  case OO_PlusPlus:
  case OO_MinusMinus:
  case OO_PlusEqual:
  case OO_MinusEqual:
  case OO_AmpEqual:
  case OO_PipeEqual:
  case OO_CaretEqual:
    return AtomicUse::Update;
  default:
    return AtomicUse::Unknown;
  }
  return M->getIdentifier() ? atomicUseOf(M->getName()) : AtomicUse::Unknown;
}

/// The name of the builtin an AtomicExpr calls (`__atomic_fetch_add`).
static StringRef atomicBuiltinName(AtomicExpr::AtomicOp Op) {
  switch (Op) {
#define BUILTIN(ID, TYPE, ATTRS)
#define ATOMIC_BUILTIN(ID, TYPE, ATTRS)                                        \
  case AtomicExpr::AO##ID:                                                     \
    return #ID;
#include "clang/Basic/Builtins.inc"
  }
  return "";
}

/// What the __atomic_*, __c11_atomic_* (and the other families') builtin
/// \p Name does to the object its first argument points to: all but
/// loads, stores and the non-atomic initialization are read-modify-writes.
static AtomicUse atomicBuiltinUse(StringRef Name) {
  Name = Name.drop_front(Name.find("atomic_") + StringRef("atomic_").size());
  Name.consume_back("_n");
  if (Name == "load")
    return AtomicUse::Load;
  if (Name == "store")
    return AtomicUse::Store;
  if (Name == "init")
    return AtomicUse::Unknown;
  return AtomicUse::Update;
}

/// Whether TSI, a type as written, has class template arguments to deduce
/// from an initializer (`std::vector w(a, a + n)`).
static bool deducesClassType(const TypeSourceInfo *TSI) {
  return TSI && isa_and_nonnull<DeducedTemplateSpecializationType>(
                    TSI->getType()->getContainedDeducedType());
}

bool AccessCollector::VisitCXXConstructExpr(CXXConstructExpr *E) {
  // A trivial copy or move reads the whole source object, like a load of a
  // scalar does; of an empty class (std::nullopt_t, a stateless functor)
  // it reads nothing, and compilers emit no load. A non-trivial
  // constructor reads what its own body reads.
  const CXXConstructorDecl *Ctor = E->getConstructor();
  if (Ctor && Ctor->isCopyOrMoveConstructor() && Ctor->isTrivial() &&
      !Ctor->getParent()->isEmpty() && E->getNumArgs() >= 1)
    use(E->getArg(0), AccessKind::Load);
  // std::atomic_ref<T>(a[i]) keeps a[i]'s address, and std::atomic<T>(v)
  // takes a value: the atomic operations that follow are the accesses
  // (atomicCall).
  if (Ctor && isAtomicClass(Ctor->getParent()))
    return true;
  if (complexConstruction(E))
    return true;
  // std::vector<T> v(first, last): constructed and recorded by
  // <wgtrace/detail/vector.h> (VectorCalls.h).
  const auto *Temporary = dyn_cast<CXXTemporaryObjectExpr>(E);
  if (!DeducedConstructions.count(E) &&
      !(Temporary && deducesClassType(Temporary->getTypeSourceInfo())) &&
      redirectVectorConstruction(RC, Model, E))
    return true;
  if (Ctor && !Ctor->isTrivial() &&
      RC.SM.isInSystemHeader(RC.SM.getExpansionLoc(Ctor->getLocation())))
    untracedLibraryConstruction(E, Ctor);
  else if (Ctor && implicitMemberwise(Ctor) && E->getNumArgs() >= 1 &&
           (handover(Ctor->getParamDecl(0)->getType(), E->getArg(0)) ==
                Handover::Reference ||
            copiesHeldMemory(Ctor, E->getArg(0))))
    RC.untraced(E, memberwiseReason(Ctor), AccessKind::Call);
  return true;
}

bool AccessCollector::VisitCXXDeleteExpr(CXXDeleteExpr *E) {
  // A virtual destructor is found through the object's table pointer,
  // read once the pointer is evaluated (DeletedObjects.h); what the
  // destructors then do to the object itself is reported when it is lost.
  if (deleteReadsTablePointer(E))
    RC.wrapAccess(E->getArgument(), AccessKind::Call,
                  [&](unsigned Site) {
                    return AccessWrap{"::wgtrace::detail::deletedTableRead(" +
                                          RewriteContext::siteArgument(Site) +
                                          ", ",
                                      ")"};
                  },
                  {/*Stackable=*/true, nullptr, E});
  std::string Why = deletedObjectUntraced(E, RC.Ctx);
  if (!Why.empty())
    RC.untraced(E, Why, AccessKind::Call);
  return true;
}

bool AccessCollector::VisitCXXNewExpr(CXXNewExpr *E) {
  if (E->getConstructExpr() &&
      deducesClassType(E->getAllocatedTypeSourceInfo()))
    DeducedConstructions.insert(E->getConstructExpr());
  // The stores that build the new object: recorded after it is built, in
  // the compiler's order, or reported when they cannot be told exactly
  // (NewObjectStores.h).
  std::vector<StoredRange> Stores;
  std::string Why = newObjectStores(E, RC.Ctx, Stores);
  if (!Why.empty()) {
    RC.untraced(E, Why, AccessKind::Store);
    return true;
  }
  if (Stores.empty())
    return true;
  std::string Pairs;
  for (const StoredRange &R : Stores)
    Pairs += (Pairs.empty() ? "" : ", ") + std::to_string(R.Offset) + ", " +
             std::to_string(R.Length);
  RC.wrapAccess(E, AccessKind::Store,
                [&](unsigned Site) {
                  return AccessWrap{
                      "::wgtrace::detail::constructed<" + Pairs + ">(" +
                          RewriteContext::siteArgument(Site) + ", ",
                      ")"};
                },
                {/*Stackable=*/true, nullptr, nullptr});
  return true;
}

/// Whether T is a library class that owns storage of its own (a
/// non-trivial destructor): a container, a string, a pair of them.
static bool ownsStorage(QualType T) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->hasDefinition() &&
         !RD->getDefinition()->hasTrivialDestructor();
}

void AccessCollector::untracedLibraryConstruction(
    const CXXConstructExpr *E, const CXXConstructorDecl *Ctor) {
  // A library object built from kernel memory copies it in library code
  // when it owns storage (a non-trivial destructor: std::vector(a, a + n),
  // std::string(s), a copy of a kernel's std::vector) or when it is given
  // a value by reference (std::pair(a[0], a[1]), std::optional(a[i]),
  // std::vector(n, a[0])). A view (std::span(a, n), std::string_view(s,
  // n), std::reverse_iterator(p)) keeps the pointer or the range, and what
  // the kernel reads through it is recorded where it does; but
  // std::string_view(s) measures s. std::reference_wrapper keeps the
  // reference.
  // A consteval constructor (fmt's checked format strings) runs in the
  // compiler.
  const CXXRecordDecl *Class = Ctor->getParent();
  StringRef ClassName = Class->getIdentifier() ? Class->getName() : "";
  if (Ctor->isConsteval() || ClassName == "reference_wrapper")
    return;
  const bool Owns = Class->hasDefinition() && !Class->hasTrivialDestructor();
  const bool Measures =
      ClassName == "basic_string_view" && E->getNumArgs() == 1;
  const unsigned Params = std::min(E->getNumArgs(), Ctor->getNumParams());
  for (unsigned I = 0; I < Params; ++I) {
    QualType Param = Ctor->getParamDecl(I)->getType();
    const Expr *Arg = E->getArg(I);
    const Handover H = handover(Param, Arg);
    if ((H == Handover::Pointer && (Owns || Measures)) ||
        (H == Handover::Reference &&
         (Owns || !Param.getNonReferenceType()->isRecordType()))) {
      RC.untraced(E,
                  libraryReason("construction of '" +
                                    Class->getQualifiedNameAsString() + "'",
                                Arg),
                  AccessKind::Call);
      return;
    }
    // A copy of an object that is not kernel memory itself but holds some
    // outside itself (a local std::list's nodes, a local std::vector's
    // storage, a long local std::string's characters, the strings of a
    // local std::array, a std::pair's vector) copies that memory in
    // library code; a move takes the storage over and touches none, an
    // iterator's or a view's copy (a trivial destructor) keeps a pointer,
    // and a callable given to std::function is the program's own class,
    // whose copy is recorded where the program writes it.
    if (H == Handover::None && Owns && Param->isLValueReferenceType() &&
        ownsStorage(Param.getNonReferenceType()) && Arg->isLValue() &&
        Model.holdsPointers(Arg->getType()) &&
        !isLibraryBookkeeping(Arg->getType())) {
      RC.untraced(E,
                  "construction of '" + Class->getQualifiedNameAsString() +
                      "' copies what '" + sourceText(Arg) +
                      "' holds outside itself (kernel memory: a "
                      "container's elements, a long string's characters) "
                      "in library code, which wgtrace does not record",
                  AccessKind::Call);
      return;
    }
    // A container built from a range of iterators into kernel memory
    // (`std::list<float> l(v.begin(), v.end())`) copies the elements in;
    // an iterator adaptor or a view keeps the iterator.
    if (Owns && isIteratorIntoMemory(Model, Arg)) {
      RC.untraced(E,
                  libraryReason("construction of '" +
                                    Class->getQualifiedNameAsString() + "'",
                                Arg, "through an iterator"),
                  AccessKind::Call);
      return;
    }
  }
  // A container that keeps its elements on the heap (kernel memory, as a
  // local std::vector's are: std::list's and std::set's nodes, std::deque's
  // blocks) writes them there in library code when it is built from a
  // range, whatever the range is (the kernel's own array too), from a
  // braced list (`std::vector<int> v{1, 2}`: the list's copy) or, a
  // sequence, with a count (`std::list<float> l(n)`, `l(n, x)`). Those
  // stores went unrecorded in silence; std::vector's of scalar elements
  // from a range or a count are recorded (VectorCalls.h) and do not come
  // here.
  if (!Owns)
    return;
  // A std::string keeps up to 15 characters in the object (libstdc++), on
  // the kernel's stack when it is a local, and more on the heap: what it is
  // built with decides, unless it is known to be short.
  if (ClassName == "basic_string" && Class->isInStdNamespace()) {
    if (mayWriteLongString(E, Ctor))
      RC.untraced(E,
                  "construction of '" + Class->getQualifiedNameAsString() +
                      "' writes its characters into new storage on the "
                      "heap, kernel memory, when they are more than the "
                      "object holds, in library code, which wgtrace does "
                      "not record",
                  AccessKind::Call);
    return;
  }
  if (!keepsElementsOnHeap(Class))
    return;
  const char *From = isRangeConstruction(E, Ctor)   ? "from a range"
                     : isListConstruction(Ctor)     ? "from a braced list"
                     : isCountConstruction(E, Ctor) ? "with a count"
                                                    : nullptr;
  if (From)
    RC.untraced(E,
                "construction of '" + Class->getQualifiedNameAsString() + "' " +
                    From +
                    " writes its elements into new storage on the heap, "
                    "kernel memory, in library code, which wgtrace does not "
                    "record",
                AccessKind::Call);
}

bool AccessCollector::mayWriteLongString(const CXXConstructExpr *E,
                                         const CXXConstructorDecl *Ctor) const {
  // Short for certain: every count is a constant, every pointer to
  // characters a string literal, of at most 15 bytes' characters; a character
  // and an allocator are values. A copy, a move, or a string view, range
  // or list may be long (a copy of a local is reported as one).
  if (Ctor->isCopyOrMoveConstructor() || E->getNumArgs() == 0)
    return false;
  // libstdc++'s local buffer is 16 bytes, a null character's included.
  const auto *Spec =
      dyn_cast<ClassTemplateSpecializationDecl>(Ctor->getParent());
  if (!Spec || Spec->getTemplateArgs().size() < 1 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return true;
  const int64_t Inline =
      15 / RC.Ctx.getTypeSizeInChars(Spec->getTemplateArgs()[0].getAsType())
               .getQuantity();
  const unsigned Params = std::min(E->getNumArgs(), Ctor->getNumParams());
  for (unsigned I = 0; I < Params; ++I) {
    const Expr *Arg = E->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    QualType Param = Ctor->getParamDecl(I)->getType().getCanonicalType();
    if (Param->isAnyCharacterType())
      continue;
    if (Param->isIntegerType()) {
      // isIntegerConstantExpr, not getIntegerConstantExpr: see
      // WatchCollector.cpp (clang-tidy 19's analyzer and
      // std::optional<APSInt>).
      if (!Arg->isIntegerConstantExpr(RC.Ctx) ||
          Arg->EvaluateKnownConstInt(RC.Ctx).getExtValue() > Inline)
        return true;
      continue;
    }
    if (Param->isPointerType() &&
        Param->getPointeeType()->isAnyCharacterType()) {
      const auto *Literal =
          dyn_cast<clang::StringLiteral>(Arg->IgnoreParenImpCasts());
      if (!Literal || Literal->getLength() > Inline)
        return true;
      continue;
    }
    const CXXRecordDecl *RD = Param.getNonReferenceType()->getAsCXXRecordDecl();
    if (!RD || !RD->getIdentifier() || RD->getName() != "allocator")
      return true;
  }
  return false;
}

bool AccessCollector::isRangeConstruction(const CXXConstructExpr *E,
                                          const CXXConstructorDecl *Ctor) {
  // Container(InputIt first, InputIt last, ...): a constructor template
  // whose first two parameters are one type, not a count.
  if (!Ctor->getPrimaryTemplate() || Ctor->getNumParams() < 2 ||
      E->getNumArgs() < 2 || isa<CXXDefaultArgExpr>(E->getArg(1)))
    return false;
  QualType First = Ctor->getParamDecl(0)->getType().getCanonicalType();
  QualType Last = Ctor->getParamDecl(1)->getType().getCanonicalType();
  return First == Last && !First->isReferenceType() &&
         !First->isIntegralOrEnumerationType();
}

bool AccessCollector::isListConstruction(const CXXConstructorDecl *Ctor) {
  // Container(std::initializer_list<T>, ...): the list's elements are
  // copied into the container's storage.
  if (Ctor->getNumParams() < 1)
    return false;
  const CXXRecordDecl *RD = Ctor->getParamDecl(0)
                                ->getType()
                                .getNonReferenceType()
                                ->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         RD->getName() == "initializer_list";
}

bool AccessCollector::isCountConstruction(const CXXConstructExpr *E,
                                          const CXXConstructorDecl *Ctor) {
  // Sequence(size_type n[, const T &x], ...): n elements made in the new
  // storage. An unordered container's count is of buckets, not elements.
  const CXXRecordDecl *Class = Ctor->getParent();
  if (!Class->getIdentifier() ||
      !llvm::StringSwitch<bool>(Class->getName())
           .Cases("vector", "deque", "list", "forward_list", true)
           .Default(false))
    return false;
  return !Ctor->getPrimaryTemplate() && Ctor->getNumParams() >= 1 &&
         E->getNumArgs() >= 1 && !isa<CXXDefaultArgExpr>(E->getArg(0)) &&
         Ctor->getParamDecl(0)->getType()->isIntegerType();
}

bool AccessCollector::keepsElementsOnHeap(const CXXRecordDecl *Class) const {
  // The standard's allocator-aware containers allocate their elements'
  // storage; a std::string keeps a short one in the object (on the
  // kernel's stack when it is a local) and is left to StringCalls.
  if (!Class->isInStdNamespace() || !Class->hasDefinition() ||
      (Class->getIdentifier() && Class->getName() == "basic_string"))
    return false;
  const CXXRecordDecl *Def = Class->getDefinition();
  return isContainerClass(Def) &&
         !Def->lookup(&RC.Ctx.Idents.get("allocator_type")).empty();
}

AccessCollector::Handover AccessCollector::handover(QualType Param,
                                                    const Expr *Arg) const {
  // A string literal is the program's constant text, not a buffer; a
  // function (std::endl given to operator<<) is code; a null pointer
  // (`std::time(nullptr)`, `gettimeofday(&t, NULL)`) points nowhere.
  const Expr *Plain = Arg->IgnoreParenImpCasts();
  if (isa<clang::StringLiteral>(Plain) || Plain->getType()->isFunctionType() ||
      Plain->getType()->isFunctionPointerType() ||
      Arg->isNullPointerConstant(RC.Ctx, Expr::NPC_ValueDependentIsNotNull))
    return Handover::None;
  // A C stream (`fprintf(stderr, ...)`) is the library's own state, as
  // std::cout is (isLibraryBookkeeping).
  if (Param->isPointerType() && isCStream(Param->getPointeeType()))
    return Handover::None;
  if (Param->isPointerType())
    return Model.pointerTargetIsMemory(Arg) ? Handover::Pointer
                                            : Handover::None;
  if (Param->isReferenceType() && Arg->isGLValue() && Model.isMemory(Arg) &&
      !isLibraryBookkeeping(Arg->getType()))
    return Handover::Reference;
  return Handover::None;
}

bool AccessCollector::isCStream(QualType T) const {
  const RecordDecl *RD = T->getAsRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "_IO_FILE" &&
         RC.SM.isInSystemHeader(RC.SM.getExpansionLoc(RD->getLocation()));
}

bool AccessCollector::isLibraryBookkeeping(QualType T) const {
  // An object of a library class that holds only the library's own state,
  // no elements of the kernel's: a stream (std::cout), a mutex, a random
  // engine or distribution. What library code does to it is bookkeeping,
  // as a container's size and data pointer are.
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || !RD->isInStdNamespace())
    return false;
  RD = RD->getDefinition();
  StringRef Name = RD->getIdentifier() ? RD->getName() : "";
  if (Name == "ios_base" || Name.ends_with("mutex") ||
      Name == "condition_variable" || Name.ends_with("_engine") ||
      Name.ends_with("_distribution") || Name == "random_device")
    return true;
  return llvm::any_of(RD->bases(), [&](const CXXBaseSpecifier &B) {
    return isLibraryBookkeeping(B.getType());
  });
}

bool AccessCollector::elementsAreKernelMemory(const Expr *Object) const {
  // A container's elements live in it (std::array) or on the heap
  // (std::vector, std::valarray, std::string: memory even when the
  // container is a local of the kernel).
  const CXXRecordDecl *RD = Object->getType()->getPointeeCXXRecordDecl();
  if (!RD)
    RD = Object->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || !RD->isInStdNamespace())
    return false;
  if (!isContainerClass(RD->getDefinition()))
    return false;
  if (Object->getType()->isPointerType())
    return Model.pointerTargetIsMemory(Object) ||
           Model.holdsPointers(Object->getType()->getPointeeType());
  return Object->isGLValue() && Model.rangeElementsAreMemory(Object);
}

bool AccessCollector::isContainerClass(const CXXRecordDecl *RD) const {
  auto Has = [&](StringRef Name) {
    return !RD->lookup(&RC.Ctx.Idents.get(Name)).empty();
  };
  return Has("begin") || Has("data") ||
         (RD->getIdentifier() && RD->getName() == "valarray");
}

/// Whether RD is a standard associative container (std::map, std::set,
/// their multi and unordered forms): it names a key type and orders or
/// hashes by it.
static bool isAssociativeContainer(const CXXRecordDecl *RD, ASTContext &Ctx) {
  auto Has = [&](StringRef Name) {
    return !RD->lookup(&Ctx.Idents.get(Name)).empty();
  };
  return RD->isInStdNamespace() && Has("key_type") &&
         (Has("key_compare") || Has("hasher"));
}

bool AccessCollector::touchesElements(const CXXMethodDecl *M) const {
  // An associative container's lookups search its nodes (they read the
  // keys and the links between them), and its subscript inserts a node for
  // a missing key: neither only hands out access, as a vector's v[i] does.
  if (isAssociativeContainer(M->getParent(), RC.Ctx) &&
      (M->getOverloadedOperator() == OO_Subscript ||
       (M->getIdentifier() &&
        llvm::StringSwitch<bool>(M->getName())
            .Cases("at", "find", "lower_bound", "upper_bound", "equal_range",
                   "count", "contains", true)
            .Default(false))))
    return true;
  // Operators: assignments (=, +=, ... returning *this) write; subscripts
  // and dereferences hand out access. A subscript that returns by value
  // reads in library code: a std::valarray's slice, gslice, mask or index
  // array (the elements it selects), std::vector<bool>'s bits.
  if (OverloadedOperatorKind Op = M->getOverloadedOperator()) {
    if (Op == OO_Subscript)
      return !M->getReturnType()->isReferenceType();
    return Op != OO_Star && Op != OO_Arrow && Op != OO_Call;
  }
  // Members that return an iterator to what they inserted or to what
  // follows what they erased move the elements after it.
  if (M->getIdentifier() &&
      llvm::StringSwitch<bool>(M->getName())
          .Cases("insert", "emplace", "erase", "insert_after", "emplace_after",
                 "erase_after", "emplace_hint", true)
          .Default(false))
    return true;
  // Accessors hand out access; what the kernel does with it is recorded.
  // A member that returns its own object changed it (`s.erase(0, 1)`,
  // `s.append(t)`).
  QualType Result = M->getReturnType();
  if (const CXXRecordDecl *Self = Result->getPointeeCXXRecordDecl();
      Self && Result->isReferenceType() && !M->isConst() &&
      Self->getCanonicalDecl() == M->getParent()->getCanonicalDecl())
    return true;
  if (Result->isReferenceType() || Result->isPointerType())
    return false;
  if (const CXXRecordDecl *RD = Result->getAsCXXRecordDecl())
    if (RD->hasDefinition() &&
        !RD->getDefinition()
             ->lookup(&RC.Ctx.Idents.get("iterator_category"))
             .empty())
      return false;
  if (!M->getIdentifier())
    return true; // A conversion.
  StringRef Name = M->getName();
  // The books: sizes, the allocator; clearing elements that need no
  // destruction writes none of them.
  if (Name == "size" || Name == "length" || Name == "capacity" ||
      Name == "empty" || Name == "max_size" || Name == "get_allocator" ||
      Name == "clear")
    return false;
  // Swapping two vectors swaps their pointers; two std::arrays swap their
  // elements.
  if (Name == "swap")
    return M->getParent()->getName() == "array";
  return true;
}

std::string AccessCollector::sourceText(const Expr *E) const {
  return Lexer::getSourceText(RC.SM.getExpansionRange(E->getSourceRange()),
                              RC.SM, RC.Ctx.getLangOpts())
      .str();
}

std::string AccessCollector::libraryReason(const std::string &Subject,
                                           const Expr *Arg,
                                           StringRef How) const {
  return Subject + " is given kernel memory ('" + sourceText(Arg) + "') " +
         How.str() +
         " and reads or writes it in library code, which wgtrace does not "
         "record";
}

bool AccessCollector::VisitAtomicExpr(AtomicExpr *E) {
  // __atomic_* and __c11_atomic_* builtins (not calls in Clang's AST).
  StringRef Name = atomicBuiltinName(E->getOp());
  const AtomicUse Use = atomicBuiltinUse(Name);
  RC.Tables.HasAtomics = true;
  if (Use == AtomicUse::Unknown) {
    if (Model.pointerTargetIsMemory(E->getPtr()))
      RC.untraced(E,
                  "'" + Name.str() +
                      "' initializes the atomic object without an atomic "
                      "operation, which wgtrace does not record",
                  AccessKind::Call);
    return true;
  }
  wrapAtomicObject(E->getPtr(), *atomicKind(Use), E);
  // The generic forms take the value to store or the place for the result
  // by pointer, and compare-exchange takes the expected value so: the
  // builtin reads or writes them with plain accesses of its own.
  const bool ValuesByPointer =
      Name.contains("compare_exchange") || Name == "__atomic_load" ||
      Name == "__atomic_store" || Name == "__atomic_exchange";
  if (!ValuesByPointer)
    return true;
  for (const Expr *Value : {E->getVal1(), E->getVal2()}) {
    if (Value && Value != E->getPtr() &&
        Value->IgnoreParenImpCasts()->getType()->isPointerType() &&
        Model.pointerTargetIsMemory(Value))
      RC.untraced(Value,
                  "'" + Name.str() +
                      "' reads or writes the value this points to with a "
                      "plain access of its own, which wgtrace does not "
                      "record");
  }
  return true;
}

bool AccessCollector::VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
  // A trivial assignment of a class stores the whole target and loads the
  // whole source, as memcpy would.
  if (E->getOperator() != OO_Equal || E->getNumArgs() != 2)
    return true;
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(E->getDirectCallee());
  if (M && M->isTrivial() &&
      (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator())) {
    use(E->getArg(0), AccessKind::Store);
    use(E->getArg(1), AccessKind::Load);
    return true;
  }
  if (M && implicitMemberwise(M) &&
      (Model.isMemory(E->getArg(0)) || Model.isMemory(E->getArg(1)) ||
       copiesHeldMemory(M, E->getArg(1))))
    RC.untraced(E, memberwiseReason(M), AccessKind::Call);
  return true;
}

bool AccessCollector::implicitMemberwise(const CXXMethodDecl *M) const {
  // A class's copy or move that is neither trivial nor written by the
  // user (a member with its own: a std::vector, a class with a
  // user-written operator=) runs member by member in code the compiler
  // writes, which the rewriter cannot wrap. A library class's is the
  // library's (untracedLibraryConstruction).
  const bool Copy =
      isa<CXXConstructorDecl>(M)
          ? cast<CXXConstructorDecl>(M)->isCopyOrMoveConstructor()
          : M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator();
  return Copy && !M->isTrivial() && !M->isUserProvided() && !M->isDeleted() &&
         !RC.SM.isInSystemHeader(
             RC.SM.getExpansionLoc(M->getParent()->getLocation()));
}

bool AccessCollector::copiesHeldMemory(const CXXMethodDecl *M,
                                       const Expr *Source) const {
  // A copy of a local that holds kernel memory outside itself (a member
  // std::vector's elements, on the heap) copies that memory too, where
  // its members' copies run; a move hands the storage over.
  const bool Copy = isa<CXXConstructorDecl>(M)
                        ? cast<CXXConstructorDecl>(M)->isCopyConstructor()
                        : M->isCopyAssignmentOperator();
  return Copy && Source->isLValue() && Model.holdsPointers(Source->getType());
}

std::string AccessCollector::memberwiseReason(const CXXMethodDecl *M) const {
  return "the implicit " +
         std::string(isa<CXXConstructorDecl>(M) ? "constructor" : "operator=") +
         " of '" + M->getParent()->getQualifiedNameAsString() +
         "' is not trivial (it calls its members' own), and the members "
         "it copies in code the compiler writes are not recorded";
}

bool AccessCollector::VisitArrayInitLoopExpr(ArrayInitLoopExpr *E) {
  // `auto [x, y] = arr;` copies a whole array element by element through
  // implicit code; the source array is read once, as one access.
  if (const Expr *Source = E->getCommonExpr()->getSourceExpr())
    use(Source, AccessKind::Load);
  return true;
}

bool AccessCollector::VisitCallExpr(CallExpr *E) {
  // std::copy, std::ranges::sort, ...: AlgorithmCalls.
  if (SmallVector<const Expr *, 1> ReadOnce;
      Scope && redirectAlgorithmCall(RC, Model, E, Scope, ReadOnce)) {
    for (const Expr *Value : ReadOnce)
      use(Value, AccessKind::Load);
    return true;
  }
  // A += B * C, A.sum(), std::sqrt(A) on std::valarrays: ValarrayCalls.
  if (redirectValarrayCall(RC, Model, E))
    return true;
  const FunctionDecl *Callee = E->getDirectCallee();
  if (!Callee) {
    // A call through a pointer runs the instrumented version of the
    // function it reaches, when the file has one (HelperFinder instruments
    // every function of the file of the pointer's type), and says so when
    // it has not (<wgtrace/detail/indirect.h>).
    const Expr *Pointer = E->getCallee()->IgnoreParens();
    if (const auto *B = dyn_cast<BinaryOperator>(Pointer);
        B && B->isPtrMemOp()) {
      RC.wrapIndirectCall(E, B->getRHS(), "throughMember");
      recordMemberTableRead(E, B);
    } else if (Pointer->getType()->isFunctionPointerType())
      RC.wrapIndirectCall(E, E->getCallee(), "throughPointer");
    return true;
  }
  if (isVirtualDispatch(E))
    recordVtableRead(E);
  // `f(args)` on a std::function: a function it holds is looked up like a
  // function pointer; another callable is not followed (untracedCall).
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Call && Op->getNumArgs() > 0)
    if (const CXXRecordDecl *Class =
            Op->getArg(0)->getType()->getAsCXXRecordDecl();
        Class && Class->isInStdNamespace() && Class->getIdentifier() &&
        Class->getName() == "function")
      RC.wrapIndirectCall(E, Op->getArg(0), "throughFunction");
  if (auto Fn = classifyMemoryFunction(Callee)) {
    if (E->getNumArgs() != 3)
      return true;
    // The call goes to a recording copy of the function instead; flags say
    // which of its ranges are memory (a copy out of a local array records
    // only the store).
    bool StoreIsMemory = Model.pointerTargetIsMemory(E->getArg(0));
    bool LoadIsMemory = *Fn != MemoryFunction::Memset &&
                        Model.pointerTargetIsMemory(E->getArg(1));
    if (!StoreIsMemory && !LoadIsMemory)
      return true;
    std::string Name;
    if (*Fn == MemoryFunction::Memset)
      Name = "::wgtrace::detail::tracedMemset(";
    else
      Name = (*Fn == MemoryFunction::Memcpy
                  ? "::wgtrace::detail::tracedMemcpy<"
                  : "::wgtrace::detail::tracedMemmove<") +
             std::string(StoreIsMemory ? "true, " : "false, ") +
             (LoadIsMemory ? "true>(" : "false>(");
    RC.replaceCallee(E, AccessKind::Call, [&](unsigned Site) {
      return Name + RewriteContext::siteArgument(Site) + ")";
    });
    return true;
  }
  if (auto Simd = classifySimdIntrinsic(Callee)) {
    if (Simd->PointerArg >= E->getNumArgs())
      return true;
    // The address argument goes through a function that records the
    // vector-sized access and returns the address unchanged.
    const Expr *Address = E->getArg(Simd->PointerArg);
    if (!Model.pointerTargetIsMemory(Address))
      return true;
    Address = Address->IgnoreImpCasts();
    wrapWithSite(Address, Simd->IsStore ? AccessKind::Store : AccessKind::Load,
                 (Simd->IsStore ? "::wgtrace::detail::stored<"
                                : "::wgtrace::detail::loaded<") +
                     std::to_string(Simd->Bytes) + ">(",
                 ", ", ")", /*Stackable=*/false, E);
    return true;
  }
  if (atomicCall(E, Callee))
    return true;
  // std::min, std::swap, ...: ValueCalls.
  if (redirectValueCall(RC, Model, E, ChosenReads.contains(E)))
    return true;
  // A trivial assignment of a library class (std::array, std::complex) is
  // the copy VisitCXXOperatorCallExpr records; no library code runs.
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee);
      M && M->isTrivial() &&
      (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()))
    return true;
  // z *= w, std::abs(z), z.real() on std::complex: ComplexCalls.cpp.
  if (complexCall(E, Callee))
    return true;
  untracedCall(E, Callee);
  return true;
}

/// Whether evaluating E a second time, unwrapped, yields the same object
/// and changes nothing: no side effect but calls, and calls only of the
/// operators that designate (`*it`, `it->`, `v[i]`) and of const member
/// functions (`p.get()`).
static bool evaluatesAgain(const Expr *E, const ASTContext &Ctx) {
  if (E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    OverloadedOperatorKind K = Op->getOperator();
    if (K != OO_Star && K != OO_Arrow && K != OO_Subscript)
      return false;
  } else if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = Member->getMethodDecl();
    if (!M || (!M->isConst() && !isa<CXXConversionDecl>(M)))
      return false;
  } else if (isa<CallExpr>(E)) {
    return false;
  }
  for (const Stmt *Child : E->children())
    if (const auto *Sub = dyn_cast_or_null<Expr>(Child);
        Sub && !evaluatesAgain(Sub, Ctx))
      return false;
  return true;
}

/// The address of \p Object (a pointer when \p Arrow, else an lvalue)
/// spelled again from its text, for a virtual table pointer read that
/// records it away from where it is written (vtableReadAfter,
/// memberTableRead); empty when the text cannot be repeated: written by a
/// macro, or evaluating it again is not the same (evaluatesAgain). An
/// implicit `this` is spelled `this`.
static std::string repeatedAddress(const Expr *Object, bool Arrow,
                                   const RewriteContext &RC) {
  const Expr *Bare = Object->IgnoreParenImpCasts();
  std::string Text;
  if (isa<CXXThisExpr>(Bare) && cast<CXXThisExpr>(Bare)->isImplicit())
    Text = "this";
  else if (!Object->getBeginLoc().isMacroID() &&
           !Object->getEndLoc().isMacroID())
    Text = Lexer::getSourceText(
               CharSourceRange::getTokenRange(Object->getSourceRange()), RC.SM,
               RC.Ctx.getLangOpts())
               .str();
  if (Text.empty() || !evaluatesAgain(Object, RC.Ctx))
    return {};
  return Arrow ? "(" + Text + ")" : "__builtin_addressof(" + Text + ")";
}

/// Wraps \p Wrapped as `::wgtrace::detail::<Function>(site, Address,
/// Wrapped)`, whose site (of kind Call) names \p Call: the table pointer
/// read is recorded where Wrapped is evaluated.
static void wrapTableRead(RewriteContext &RC, const Expr *Wrapped,
                          StringRef Function, const std::string &Address,
                          const Expr *Call) {
  RC.wrapAccess(Wrapped, AccessKind::Call,
                [&](unsigned Site) {
                  return AccessWrap{"::wgtrace::detail::" + Function.str() +
                                        "(" +
                                        RewriteContext::siteArgument(Site) +
                                        ", " + Address + ", ",
                                    ")"};
                },
                {/*Stackable=*/true, nullptr, Call});
}

void AccessCollector::recordVtableRead(const CallExpr *E) {
  const MemberExpr *ME = virtualDispatch(E);
  const Expr *Object = ME ? ME->getBase() : E->getArg(0);
  bool Arrow = ME && ME->isArrow();
  if (Arrow ? !Model.pointerTargetIsMemory(Object) : !Model.isMemory(Object))
    return;
  const auto *Method = cast<CXXMethodDecl>(E->getDirectCallee());
  auto Untraced = [&](StringRef Why) {
    RC.untraced(Object,
                ("the virtual call of '" + Method->getNameAsString() +
                 "' reads its virtual table pointer " + Why)
                    .str(),
                AccessKind::Load);
  };
  if (!ME) {
    Untraced("as an operator, whose object has no text a macro can wrap "
             "apart from its operands");
    return;
  }
  // The table pointer read is the one of the subobject of the class that
  // declares the function: at the object's address when that class is the
  // object's own or a base at offset 0. The object as written is the one
  // the wraps take (the AST converts it to the declaring class first).
  QualType ObjectType = Object->IgnoreParenImpCasts()->getType();
  if (Arrow)
    ObjectType = ObjectType->getPointeeType();
  const CXXRecordDecl *Class = ObjectType->getAsCXXRecordDecl();
  const CXXRecordDecl *Declaring = Method->getParent();
  if (Class && Class->getCanonicalDecl() != Declaring->getCanonicalDecl()) {
    CXXBasePaths Paths;
    if (!Class->isDerivedFrom(Declaring, Paths)) {
      Untraced("of a class that is not the object's nor one of its bases");
      return;
    }
    CharUnits Offset;
    for (const CXXBasePathElement &Step : Paths.front()) {
      if (Step.Base->isVirtual()) {
        Untraced("in a virtual base of the object's class, whose offset is "
                 "only known at run time");
        return;
      }
      Offset +=
          RC.Ctx.getASTRecordLayout(Step.Class)
              .getBaseClassOffset(Step.Base->getType()->getAsCXXRecordDecl());
    }
    if (!Offset.isZero()) {
      Untraced("in a base of the object's class that is not at its start");
      return;
    }
  }
  // The compiler reads the pointer after it has evaluated the arguments
  // (left to right, as clang does): the read is recorded after the last
  // argument written, `p->f(a, ::wgtrace::detail::vtableReadAfter(site,
  // (p), b))`, when the object can be evaluated again without side effects
  // (its text repeated, unwrapped) and the argument passed through a
  // forwarding reference initializes its parameter as before (a reference
  // or a scalar); with no argument, at the object itself. The site is of
  // kind Call and names the call (the object may have a load site of its
  // own: `objs[i]->f()`).
  const Expr *Last = nullptr;
  unsigned LastIndex = 0;
  // A string literal reads nothing wgtrace records, and passed through
  // vtableReadAfter it would lose the conversion to `char *` that only a
  // literal has (Prolangs-C++ deriv1's `deriv("x")` of a `deriv(char
  // *)`): the read goes after the argument before it, or at the object.
  for (unsigned I = 0; I < E->getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(E->getArg(I)) &&
        !isa<clang::StringLiteral>(E->getArg(I)->IgnoreParenImpCasts())) {
      Last = E->getArg(I);
      LastIndex = I;
    }
  const Expr *Bare = Object->IgnoreParenImpCasts();
  bool ImplicitThis =
      isa<CXXThisExpr>(Bare) && cast<CXXThisExpr>(Bare)->isImplicit();
  if (Last) {
    QualType Param = LastIndex < Method->getNumParams()
                         ? Method->getParamDecl(LastIndex)->getType()
                         : QualType();
    bool Passes =
        !Param.isNull() && (Param->isReferenceType() || Param->isScalarType());
    std::string Address = repeatedAddress(Object, Arrow, RC);
    if (Address.empty() || !Passes) {
      Untraced("after the arguments, where wgtrace records the read only "
               "when the object can be evaluated again (no side effects, not "
               "written by a macro) and the last argument initializes a "
               "reference or a scalar");
      return;
    }
    wrapTableRead(RC, Last, "vtableReadAfter", Address, E);
    return;
  }
  // No argument: the read is the call's first step. The implicit `this`
  // has no text: the call is wrapped, the read made before it.
  auto Wrap = [&](const Expr *Wrapped, std::string Open, std::string After,
                  std::string Close) {
    RC.wrapAccess(Wrapped, AccessKind::Call,
                  [&](unsigned Site) {
                    return AccessWrap{
                        Open + RewriteContext::siteArgument(Site) + After,
                        Close};
                  },
                  {/*Stackable=*/true, nullptr, E});
  };
  if (ImplicitThis)
    Wrap(E, "((void)::wgtrace::detail::vtableRead(", ", this), ", ")");
  else if (Arrow)
    Wrap(Object, "::wgtrace::detail::vtableRead(", ", ", ")");
  else
    Wrap(Object, "(*::wgtrace::detail::vtableRead(", ", __builtin_addressof(",
         ")))");
}

void AccessCollector::recordMemberTableRead(const CallExpr *E,
                                            const BinaryOperator *Call) {
  // `(b->*pm)()` reads b's virtual table pointer when pm names a virtual
  // function, which only the running program knows: once it has evaluated
  // the object and pm, before the arguments. The pointer is wrapped, the
  // object's text repeated (memberTableRead in
  // <wgtrace/detail/intrinsics.h>), when that evaluates again to the same
  // object with no effect.
  const auto *Member = Call->getRHS()->getType()->getAs<MemberPointerType>();
  const CXXRecordDecl *Class =
      Member ? Member->getMostRecentCXXRecordDecl() : nullptr;
  if (!Class || !Class->hasDefinition() || !Class->isPolymorphic())
    return;
  const Expr *Object = Call->getLHS();
  bool Arrow = Call->getOpcode() == BO_PtrMemI;
  if (Arrow ? !Model.pointerTargetIsMemory(Object) : !Model.isMemory(Object))
    return;
  std::string Address = repeatedAddress(Object, Arrow, RC);
  if (Address.empty()) {
    RC.untraced(Object,
                "the call through a member function pointer reads its "
                "virtual table pointer when the pointer names a virtual "
                "function, which wgtrace records only when the object can "
                "be evaluated again (no side effects, not written by a "
                "macro)",
                AccessKind::Load);
    return;
  }
  wrapTableRead(RC, Call->getRHS(), "memberTableRead", Address, E);
}

bool AccessCollector::TraverseCXXTypeidExpr(CXXTypeidExpr *E) {
  if (E->isPotentiallyEvaluated())
    return Base::TraverseCXXTypeidExpr(E);
  return true;
}

bool AccessCollector::TraverseVarDecl(VarDecl *VD) {
  if (VD->isConstexpr())
    return true;
  if (VD->getInit() && deducesClassType(VD->getTypeSourceInfo()))
    DeducedConstructions.insert(VD->getInit()->IgnoreImplicit());
  return Base::TraverseVarDecl(VD);
}

bool AccessCollector::TraverseInitListExpr(InitListExpr *S,
                                           DataRecursionQueue *Queue) {
  // RecursiveASTVisitor walks a braced list's syntactic form, the
  // initializers as written; the reads that initialize the elements
  // (lvalue-to-rvalue conversions, copy constructions: `float t[2] =
  // {a[0], a[1]}`, `std::max({a[0], a[1]})`) are in the semantic form
  // only. Walk that one, and only it, so that nothing is wrapped twice.
  InitListExpr *Semantic = S->isSemanticForm() ? S : S->getSemanticForm();
  return TraverseSynOrSemInitListExpr(Semantic ? Semantic : S, Queue);
}

bool AccessCollector::TraverseLambdaExpr(LambdaExpr *L) {
  Model.pushLambda(L);
  bool Result = Base::TraverseLambdaExpr(L);
  // A generic lambda's body is a template: its instantiations say which
  // expressions load (they carry the body's source locations).
  if (Result && L->isGenericLambda())
    if (FunctionTemplateDecl *Call = L->getDependentCallOperator())
      for (FunctionDecl *Spec : Call->specializations())
        if (Spec->getBody() && !TraverseStmt(Spec->getBody()))
          Result = false;
  Model.popLambda();
  return Result;
}

bool AccessCollector::TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
  // The loop variable's initializer (`*__begin`) is implicit code located at
  // the range expression: wrapping it would wrap the range's text. A loop
  // variable held by value copies each element out of the range: that load
  // is recorded by iterating over a view that records it.
  if (S->getInit() && !TraverseStmt(S->getInit()))
    return false;
  VarDecl *LoopVar = S->getLoopVariable();
  const Expr *Range = S->getRangeInit();
  // The loop's hidden ++__begin follows the links of the nodes of a
  // std::map, std::list, ...: reported once, at the range.
  if (const VarDecl *Begin =
          S->getBeginStmt()
              ? dyn_cast_or_null<VarDecl>(S->getBeginStmt()->getSingleDecl())
              : nullptr)
    if (std::optional<StringRef> Family = nodeIteratorFamily(Begin->getType()))
      if (std::optional<std::string> Why =
              nodeStepReason(*Family, Range, nullptr))
        RC.untraced(RC.SM.getExpansionLoc(Range->getBeginLoc()),
                    "iteration over '" + sourceText(Range) + "'", *Why);
  Model.noteRangeFor(LoopVar, Range);
  if (!LoopVar->getType()->isReferenceType() && !isa<InitListExpr>(Range) &&
      Model.rangeElementsAreMemory(Range)) {
    wrapWithSite(Range, AccessKind::Load, "::wgtrace::detail::loads(", ", ",
                 ")", /*Stackable=*/false, nullptr);
  }
  if (!TraverseStmt(S->getRangeInit()))
    return false;
  return TraverseStmt(S->getBody());
}

void AccessCollector::use(const Expr *E, AccessKind Kind, const Expr *Spelled) {
  if (!Spelled)
    Spelled = E;
  E = E->IgnoreParens();
  if (OmpAtomicObject) {
    llvm::FoldingSetNodeID Mine, Object;
    E->Profile(Mine, RC.Ctx, /*Canonical=*/true);
    OmpAtomicObject->IgnoreParens()->Profile(Object, RC.Ctx,
                                             /*Canonical=*/true);
    if (Mine == Object)
      return;
  }
  // The value of `c ? x : y` as an lvalue is one of the branches: record the
  // branch that runs, by wrapping each.
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    if (C->isGLValue()) {
      use(C->getTrueExpr(), Kind);
      use(C->getFalseExpr(), Kind);
    }
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Comma)
      use(B->getRHS(), Kind);
    // The result of an assignment is its target, but the compiler does not
    // read it back: `a = b = c` reads c once and writes b and a.
    // `o.*pm` and `p->*pm` designate a data member: wrapped below, as a
    // member expression is.
    if (!B->isPtrMemOp())
      return;
  }
  // Nor the result of ++x or --x (`k = --bucket[key]`): the operand's
  // update is recorded, and the new value is used as computed.
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->isPrefix() && U->isIncrementDecrementOp())
    return;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() == CK_NoOp)
      use(Cast->getSubExpr(), Kind);
    else if ((Cast->getCastKind() == CK_DerivedToBase ||
              Cast->getCastKind() == CK_UncheckedDerivedToBase) &&
             Cast->isGLValue() && Model.isMemory(Cast->getSubExpr()))
      RC.untraced(Cast->getSubExpr(),
                  "it is copied as its base class (a slicing copy), which "
                  "reads part of the object, and no macro can wrap that "
                  "part",
                  Kind);
    return;
  }
  // `static_cast<T &&>(x)` as the source of a move reads x: the macro yields
  // x itself, which the cast then turns into an xvalue as before.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
    // `reinterpret_cast<int &>(a[i])` accesses a[i] as an int: the cast
    // itself is wrapped below (its address is a[i]'s, its size the int's).
    if (Cast->getCastKind() != CK_LValueBitCast || !Cast->isLValue()) {
      if (Cast->getCastKind() == CK_NoOp && Cast->isGLValue() &&
          Cast->getSubExpr()->isLValue())
        use(Cast->getSubExpr(), Kind);
      return;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // std::move(x) as the source of a copy: the read is of x.
    unsigned ID = Call->getBuiltinCallee();
    if ((ID == Builtin::BImove || ID == Builtin::BIforward) &&
        Call->getNumArgs() == 1) {
      use(Call->getArg(0), Kind);
      return;
    }
  }
  if (E->refersToBitField()) {
    if (const auto *M = dyn_cast<MemberExpr>(E))
      useBitField(M, Kind);
    return;
  }
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E))
    if (Sub->getBase()->getType()->isVectorType()) {
      // The vector's memory is recorded when the whole vector is loaded or
      // stored; one element of it is not an object with an address.
      if (Model.isMemory(Sub->getBase()))
        RC.untraced(E,
                    "it is one element of a vector type, which has no "
                    "address for a macro to record",
                    Kind);
      return;
    }
  if (!Model.isMemory(E))
    return;
  if (!isa<ArraySubscriptExpr>(E) && !isa<MemberExpr>(E) &&
      !isa<DeclRefExpr>(E) && !isa<CallExpr>(E) && !isa<BinaryOperator>(E) &&
      !isa<ExplicitCastExpr>(E) &&
      !(isa<UnaryOperator>(E) &&
        cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
    // Never silently: a form of memory expression the macros are not
    // written around yet.
    RC.untraced(E,
                std::string("wgtrace does not wrap this form of expression (") +
                    E->getStmtClassName() + ")",
                Kind);
    return;
  }
  // The macros take the address of their operand: it must be an lvalue.
  if (!E->isLValue()) {
    RC.untraced(E,
                "it is an xvalue (a member of a moved object, or a call "
                "returning T &&), whose address no macro can take",
                Kind);
    return;
  }
  // The result of std::min(a[i], t) is memory only when the call returns
  // a[i]: its read is recorded then, and only then.
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && Kind == AccessKind::Load &&
      returnsMemoryOnlySometimes(Model, Call)) {
    if (wrapChosenRead(RC, Call, Spelled))
      ChosenReads.insert(Call);
    return;
  }
  // What a helper's parameter or a local reference refers to may be the
  // kernel's own stack: the runtime tells (WGTRACE_LOAD_REF_AT).
  const bool ThroughReference = Model.mayBeKernelStack(E);
  // In an OpenMP critical section: a Critical mark with the section's name
  // hashed, so that races takes it for synchronised with the accesses of
  // sections of the same name only; the access site names the section.
  if (!OmpCritical.empty() &&
      (Kind == AccessKind::Load || Kind == AccessKind::Store ||
       Kind == AccessKind::Update)) {
    const std::string &Name = OmpCritical.back();
    const std::string Hash =
        "0x" + llvm::utohexstr(format::criticalNameHash(Name)) + "ull, ";
    unsigned Site =
        RC.wrapAccess(E, Kind,
                      [&](unsigned Site) {
                        AccessWrap W = RewriteContext::accessMacro(
                            Kind, Site, ThroughReference);
                        W.Open.insert(std::strlen("WGTRACE_"), "OMP_CRITICAL_");
                        W.Open += Hash;
                        return W;
                      },
                      {/*Stackable=*/false, Spelled, nullptr});
    if (Site)
      RC.Tables.AccessSites[Site - 1].Critical = Name;
    return;
  }
  RC.wrapAccess(E, Kind,
                [&](unsigned Site) {
                  return RewriteContext::accessMacro(Kind, Site,
                                                     ThroughReference);
                },
                {/*Stackable=*/false, Spelled, nullptr});
}

void AccessCollector::wrapWithSite(const Expr *E, AccessKind Kind,
                                   const std::string &Open, StringRef AfterSite,
                                   StringRef Close, bool Stackable,
                                   const Expr *Named) {
  RC.wrapAccess(E, Kind,
                [&](unsigned Site) {
                  return AccessWrap{Open + RewriteContext::siteArgument(Site) +
                                        AfterSite.str(),
                                    Close.str()};
                },
                {Stackable, nullptr, Named});
}

/// Bytes from the start of the object an expression designates (or points
/// to) to the base-class subobject it is implicitly converted to: a field
/// of a base reached through a derived object (`d->a`, or `a` in a member
/// function of a derived class) lies that much further. Nothing for a
/// virtual base, whose offset is only known at run time.
static std::optional<uint64_t> baseClassOffset(ASTContext &Ctx, const Expr *E) {
  uint64_t Bytes = 0;
  E = E->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    const Expr *Sub = Cast->getSubExpr()->IgnoreParens();
    CastKind Kind = Cast->getCastKind();
    if (Kind == CK_DerivedToBase || Kind == CK_UncheckedDerivedToBase) {
      QualType From = Sub->getType();
      if (From->isPointerType())
        From = From->getPointeeType();
      const CXXRecordDecl *Derived = From->getAsCXXRecordDecl();
      for (const CXXBaseSpecifier *Step : Cast->path()) {
        const CXXRecordDecl *Base = Step->getType()->getAsCXXRecordDecl();
        if (!Derived || !Base || Step->isVirtual())
          return std::nullopt;
        Bytes += static_cast<uint64_t>(Ctx.getASTRecordLayout(Derived)
                                           .getBaseClassOffset(Base)
                                           .getQuantity());
        Derived = Base;
      }
    } else if (Kind != CK_NoOp && Kind != CK_LValueToRValue) {
      break;
    }
    E = Sub;
  }
  return Bytes;
}

void AccessCollector::useBitField(const MemberExpr *M, AccessKind Kind) {
  const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
  if (!FD || !FD->isBitField() || FD->isZeroLengthBitField(RC.Ctx) ||
      !Model.isMemory(M))
    return;
  const Expr *Base = M->getBase();
  if (!M->isArrow() && !Base->isLValue())
    return;
  std::optional<uint64_t> Offset = baseClassOffset(RC.Ctx, Base);
  if (!Offset) {
    RC.untraced(M,
                "it is a bit-field of a virtual base class, whose offset "
                "in the object is only known at run time",
                Kind);
    return;
  }
  const ASTRecordLayout &Layout = RC.Ctx.getASTRecordLayout(FD->getParent());
  uint64_t Bit = Layout.getFieldOffset(FD->getFieldIndex());
  uint64_t Width = FD->getBitWidthValue(RC.Ctx);
  std::string Open = "::wgtrace::detail::bitfieldAccess<" +
                     std::to_string(*Offset + Bit / 8) + ", " +
                     std::to_string((Bit % 8 + Width + 7) / 8) + ", " +
                     (Kind != AccessKind::Load ? "true, " : "false, ") +
                     (Kind != AccessKind::Store ? "true>(" : "false>(");
  // Through the implicit `this` of a member function nothing spells the
  // object: the member's own text (with its qualifier, `Base::a`) becomes
  // an explicit access, `bitfieldAccess<...>(site, this)->a`.
  if (M->isImplicitAccess()) {
    wrapWithSite(M, Kind, Open, ", this)->", "", /*Stackable=*/false, M);
    return;
  }
  // Stackable: the base may itself be a load (`p->q->bits`), wrapped inside.
  if (M->isArrow())
    wrapWithSite(Base, Kind, Open, ", ", ")", /*Stackable=*/true, M);
  else
    wrapWithSite(Base, Kind, "(*" + Open, ", __builtin_addressof(", ")))",
                 /*Stackable=*/true, M);
}

/// The standard library's run-time call wrappers: the function they call
/// is chosen when the program runs, as through a function pointer. By the
/// class of the call operator (libstdc++'s bind, mem_fn and not_fn results
/// are classes of its own, `std::_Bind...`), or by the free function.
static std::optional<std::string> callWrapper(const CallExpr *E,
                                              const FunctionDecl *Callee) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee)) {
    const CXXRecordDecl *Class = M->getParent();
    if (M->getOverloadedOperator() != OO_Call || !isa<CXXOperatorCallExpr>(E) ||
        !Class->isInStdNamespace() || !Class->getIdentifier())
      return std::nullopt;
    StringRef Name = Class->getName();
    if (Name == "function" || Name == "move_only_function" ||
        Name == "copyable_function" || Name == "function_ref" ||
        Name == "reference_wrapper" || Name == "packaged_task" ||
        Name.starts_with("_Bind") || Name == "_Mem_fn" || Name == "_Not_fn")
      return "a '" + Class->getQualifiedNameAsString() + "' object";
    return std::nullopt;
  }
  if (!Callee->isInStdNamespace() || !Callee->getIdentifier())
    return std::nullopt;
  StringRef Name = Callee->getName();
  if (Name == "invoke" || Name == "invoke_r" || Name == "apply")
    return "'std::" + Name.str() + "'";
  return std::nullopt;
}

void AccessCollector::untracedCall(const CallExpr *E,
                                   const FunctionDecl *Callee) {
  if (std::optional<std::string> Wrapper = callWrapper(E, Callee)) {
    RC.untraced(E,
                "it calls through " + *Wrapper +
                    (Wrapper->find("std::function") != std::string::npos
                         ? ": a function of this file it holds runs "
                           "instrumented, but a lambda or a functor it "
                           "holds is recorded only if it is instrumented "
                           "for another reason (a lambda of the kernel is)"
                         : ", which wgtrace does not follow: the accesses "
                           "of the function it calls are recorded only if "
                           "that function is instrumented for another "
                           "reason (a lambda of the kernel is)"),
                AccessKind::Call);
    return;
  }
  if (untracedLibraryCall(E, Callee))
    return;
  // SIMD intrinsics that are not in the table of plain loads and stores
  // (masked, gather, scatter, compress, expand; some are macros over
  // __builtin_ia32_ functions) touch memory that depends on run-time data:
  // one record per active lane would be needed.
  StringRef Name = Callee->getName();
  if (!Name.starts_with("_mm") && !Name.starts_with("__builtin_ia32_"))
    return;
  bool TakesMemory = false;
  for (const Expr *Arg : E->arguments())
    if (Arg->IgnoreParenImpCasts()->getType()->isPointerType() &&
        Model.pointerTargetIsMemory(Arg))
      TakesMemory = true;
  if (!TakesMemory)
    return;
  // An intrinsic that is a macro is named by its invocation.
  SourceLocation Begin = E->getBeginLoc();
  if (Begin.isMacroID() && !RC.SM.isMacroArgExpansion(Begin)) {
    CharSourceRange Invocation = RC.SM.getExpansionRange(E->getSourceRange());
    StringRef Text =
        Lexer::getSourceText(Invocation, RC.SM, RC.Ctx.getLangOpts());
    RC.untraced(Invocation.getBegin(), "call '" + Text.str() + "'",
                "'" + Text.take_until([](char C) { return C == '('; }).str() +
                    "' accesses memory that depends on a mask or on indices "
                    "known only at run time, which wgtrace does not record");
    return;
  }
  RC.untraced(E,
              "'" + Name.str() +
                  "' accesses memory that depends on a mask or on indices "
                  "known only at run time, which wgtrace does not record",
              AccessKind::Call);
}

std::optional<std::string>
AccessCollector::nodeStepReason(StringRef Family, const Expr *Container,
                                const Expr *It) const {
  const std::string Tail =
      ", kernel memory, in library code, which wgtrace does not record";
  if (Container) {
    Container = Container->IgnoreParenImpCasts();
    if (!elementsAreKernelMemory(Container))
      return std::nullopt;
    const CXXRecordDecl *RD = Container->getType()->getPointeeCXXRecordDecl();
    if (!RD)
      RD = Container->getType()->getAsCXXRecordDecl();
    std::string Kind = RD ? RD->getQualifiedNameAsString() : Family.str();
    return "each step of a " + Kind +
           " iterator reads the links between the nodes of '" +
           sourceText(Container) + "'" + Tail;
  }
  if (!It || !isIteratorIntoMemory(Model, It))
    return std::nullopt;
  return "each step of '" + sourceText(It) + "', an iterator of a " +
         Family.str() + ", reads the links between the nodes it points into" +
         Tail;
}

bool AccessCollector::untracedNodeStep(const CallExpr *E,
                                       const FunctionDecl *Callee) {
  // ++it, it++, --it, it-- on the iterator, or std::next, std::prev and
  // std::advance given it.
  const Expr *It = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if ((Op->getOperator() == OO_PlusPlus ||
         Op->getOperator() == OO_MinusMinus) &&
        Op->getNumArgs() > 0)
      It = Op->getArg(0);
  } else if (!isa<CXXMethodDecl>(Callee) && Callee->isInStdNamespace() &&
             Callee->getIdentifier() && E->getNumArgs() > 0 &&
             llvm::StringSwitch<bool>(Callee->getName())
                 .Cases("next", "prev", "advance", true)
                 .Default(false)) {
    It = E->getArg(0);
  }
  if (!It)
    return false;
  std::optional<StringRef> Family = nodeIteratorFamily(It->getType());
  if (!Family)
    return false;
  std::optional<std::string> Why =
      nodeStepReason(*Family, iteratedContainer(It), It);
  if (!Why)
    return false;
  RC.untraced(E, *Why, AccessKind::Call);
  return true;
}

bool AccessCollector::untracedLibraryCall(const CallExpr *E,
                                          const FunctionDecl *Callee) {
  if (untracedNodeStep(E, Callee))
    return true;
  // A function of the standard or C library (a system header's) that is
  // given kernel memory through a pointer or a reference (std::swap,
  // std::exchange, std::max with a comparison, std::modf's pointer, strlen,
  // a container's push_back or assign) reads or writes it in code wgtrace
  // does not rewrite. The object a member function is called on is the
  // container's business (its elements are recorded where the kernel uses
  // them); a call whose result is the memory it was given (std::max of two
  // elements) is also recorded as that result's access. A customization
  // point object (std::ranges::swap) is a library object whose call
  // operator is the function: it is named by the object, and its first
  // argument is the object itself.
  const NamedDecl *Named = Callee;
  std::string Qualified = Callee->getQualifiedNameAsString();
  unsigned ArgOffset = 0;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee)) {
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
    const auto *Object =
        Op && M->getOverloadedOperator() == OO_Call
            ? dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts())
            : nullptr;
    // A library function object of the kernel's own (`std::plus<float>
    // add; add(a[i], x)`) is a member function call like a temporary one.
    if (Object && RC.SM.isInSystemHeader(RC.SM.getExpansionLoc(
                      Object->getDecl()->getLocation()))) {
      Named = Object->getDecl();
      Qualified = Named->getQualifiedNameAsString();
      ArgOffset = 1;
    } else {
      // A member function, named by its class without template arguments.
      Qualified =
          M->getParent()->getQualifiedNameAsString() + "::" +
          (M->getIdentifier() ? M->getName().str() : M->getNameAsString());
      ArgOffset = Op && !M->isStatic() ? 1 : 0;
    }
  }
  const IdentifierInfo *Id = Named->getIdentifier();
  StringRef Name = Id ? Id->getName() : "";
  // Compiler builtins are not library code, but the C library's functions
  // that Clang also knows as builtins (strlen, memcmp) are.
  const unsigned Builtin = Callee->getBuiltinID();
  if ((Builtin && !RC.Ctx.BuiltinInfo.isPredefinedLibFunction(Builtin)) ||
      Name.starts_with("_mm") || Name.starts_with("__builtin_ia32_") ||
      !RC.SM.isInSystemHeader(RC.SM.getExpansionLoc(Named->getLocation())) ||
      // A member named so (`u.get()` of a std::unique_ptr) is no such
      // function: it is judged by its object below.
      (onlyNamesItsArgument(Name) &&
       !(isa<CXXMethodDecl>(Callee) && Named == Callee)) ||
      onlyReleasesItsArgument(Name) ||
      StringRef(Qualified).starts_with("wgtrace::"))
    return false;
  // std::array's fill and swap record (before the swapped array is taken
  // for kernel memory given to library code).
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    if (Object && elementsAreKernelMemory(Object->IgnoreParenImpCasts()) &&
        (recordArrayMember(E, cast<CXXMethodDecl>(Callee), Object) ||
         redirectVectorMember(RC, Model, Member, Object) ||
         redirectStringMember(RC, Model, E, cast<CXXMethodDecl>(Callee),
                              Object)))
      return true;
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
             Op && isa<CXXMethodDecl>(Callee) && Op->getNumArgs() > 0) {
    // `s += t`, `s = t` on a string: the object is the first argument.
    const Expr *Object = Op->getArg(0);
    if (elementsAreKernelMemory(Object->IgnoreParenImpCasts()) &&
        redirectStringMember(RC, Model, E, cast<CXXMethodDecl>(Callee), Object))
      return true;
  }
  unsigned Params =
      E->getNumArgs() <= ArgOffset
          ? 0
          : std::min(E->getNumArgs() - ArgOffset, Callee->getNumParams());
  for (unsigned I = 0; I < Params; ++I) {
    const Expr *Arg = E->getArg(I + ArgOffset);
    // A default argument (`u.reset()`'s `pointer()`) is the library's own.
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (handover(Callee->getParamDecl(I)->getType(), Arg) != Handover::None) {
      RC.untraced(E, libraryReason("'" + Qualified + "'", Arg),
                  AccessKind::Call);
      return true;
    }
    // An algorithm wgtrace does not record (std::nth_element,
    // std::partial_sort) takes its iterators by value: through them it
    // reads and writes the elements. Functions that make iterators
    // (std::make_reverse_iterator) and the iterators' own operators (`end -
    // begin`, `it + n`) touch none.
    if (!isa<CXXMethodDecl>(Callee) && !Callee->isOverloadedOperator() &&
        !Name.starts_with("make_") && isIteratorIntoMemory(Model, Arg)) {
      RC.untraced(
          E, libraryReason("'" + Qualified + "'", Arg, "through an iterator"),
          AccessKind::Call);
      return true;
    }
  }
  // A C variadic function reads or writes through the arguments past its
  // parameters as its format says: printf reads the string each %s
  // prints, scanf writes where each pointer points. A pointer printf
  // prints with %p is a value: only character pointers (what %s takes)
  // are counted for the others.
  if (Callee->isVariadic()) {
    const bool Writes = Name.contains("scanf");
    for (unsigned I = ArgOffset + Params; I < E->getNumArgs(); ++I) {
      const Expr *Arg = E->getArg(I);
      QualType T = Arg->getType();
      if (T->isPointerType() &&
          (Writes || T->getPointeeType()->isAnyCharacterType()) &&
          handover(T, Arg) == Handover::Pointer) {
        RC.untraced(E, libraryReason("'" + Qualified + "'", Arg),
                    AccessKind::Call);
        return true;
      }
    }
  }
  // A member function of a container called on one whose elements are
  // kernel memory reads or writes them in library code (v.assign(n, x),
  // A += 2.0 on a std::valarray, s.fill(0) on a std::array) unless it only
  // hands out access (v[i], v.data(), v.begin(): what the kernel then does
  // is recorded) or keeps the books (v.size(), v.clear()).
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee);
      M && !M->isStatic() && Named == Callee) {
    const Expr *Object = nullptr;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E))
      Object = Member->getImplicitObjectArgument();
    else if (isa<CXXOperatorCallExpr>(E) && E->getNumArgs() > 0)
      Object = E->getArg(0);
    if (Object && untracedObjectCall(E, M, Object, Qualified))
      return true;
    if (Object && touchesElements(M) &&
        elementsAreKernelMemory(Object->IgnoreParenImpCasts())) {
      RC.untraced(
          E,
          "'" + Qualified + "' reads or writes the elements of '" +
              sourceText(Object) +
              "', kernel memory, in library code, which wgtrace does not "
              "record",
          AccessKind::Call);
      return true;
    }
  }
  return false;
}

bool AccessCollector::recordArrayMember(const CallExpr *E,
                                        const CXXMethodDecl *M,
                                        const Expr *Object) {
  const CXXRecordDecl *RD = M->getParent();
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!isa<CXXMemberCallExpr>(E) || !Spec || !RD->getIdentifier() ||
      RD->getName() != "array" || !M->getIdentifier() ||
      (M->getName() != "fill" && M->getName() != "swap") ||
      E->getNumArgs() != 1 || Spec->getTemplateArgs().size() != 2 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type ||
      !Spec->getTemplateArgs()[0].getAsType().isTriviallyCopyableType(RC.Ctx))
    return false;
  // Swapped with an array that is not kernel memory (a local): reported
  // untraced, as the recorded swap of an element with a plain value is not
  // written.
  if (M->getName() == "swap") {
    const Expr *With = E->getArg(0)->IgnoreParenImpCasts();
    if (!With->isGLValue() || !elementsAreKernelMemory(With))
      return false;
  }
  return RC.wrapRecordedObject(Object, E, "array", "MM");
}

bool AccessCollector::atomicCall(const CallExpr *E,
                                 const FunctionDecl *Callee) {
  const Expr *Object = nullptr;
  AtomicUse Use = AtomicUse::Unknown;
  std::string Name;
  // The first argument that is not the object, and the first argument
  // that is a parameter (a member operator's object is an argument).
  unsigned FirstArg = 0, FirstParamArg = 0;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Callee);
      M && M->isInstance() && isAtomicClass(M->getParent())) {
    // A member or operator of std::atomic, std::atomic_ref or
    // std::atomic_flag: `c.fetch_add(1)`, `p->load()`, `c++`, `c = v`, the
    // conversion `int v = c`.
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
      Object = Member->getImplicitObjectArgument();
    } else if (isa<CXXOperatorCallExpr>(E) && E->getNumArgs() > 0) {
      Object = E->getArg(0);
      FirstArg = FirstParamArg = 1;
    }
    Use = atomicMemberUse(M);
    Name = M->getParent()->getQualifiedNameAsString() +
           "::" + M->getNameAsString();
  } else if (Callee->isInStdNamespace() && Callee->getIdentifier() &&
             Callee->getName().starts_with("atomic_") && E->getNumArgs() > 0 &&
             E->getArg(0)->IgnoreParenImpCasts()->getType()->isPointerType()) {
    // std::atomic_fetch_add(&c, 1), std::atomic_flag_clear_explicit(&f, o).
    StringRef Op = Callee->getName().drop_front(StringRef("atomic_").size());
    Op.consume_front("flag_");
    Op.consume_back("_explicit");
    Use = atomicUseOf(Op);
    if (Use == AtomicUse::Unknown)
      return false; // atomic_init and the like: a library call
    Object = E->getArg(0);
    FirstArg = 1;
    Name = "std::" + Callee->getName().str();
  } else if (Callee->getBuiltinID() && Callee->getIdentifier() &&
             E->getNumArgs() > 0) {
    // GCC's __sync_* builtins, and the two __atomic_* builtins that are
    // calls (the others are AtomicExprs, VisitAtomicExpr), which work on
    // one byte whatever their pointer's type.
    StringRef Builtin = Callee->getName();
    if (Builtin.starts_with("__sync_"))
      Use = Builtin.starts_with("__sync_lock_release") ? AtomicUse::Store
                                                       : AtomicUse::Update;
    else if (Builtin == "__atomic_test_and_set")
      Use = AtomicUse::Update;
    else if (Builtin == "__atomic_clear")
      Use = AtomicUse::Store;
    else
      return false;
    RC.Tables.HasAtomics = true;
    const Expr *Pointer = E->getArg(0)->IgnoreImpCasts();
    if (std::optional<AccessKind> Kind = atomicKind(Use))
      wrapAtomicObject(Pointer, *Kind, E,
                       /*OneByte=*/Builtin.starts_with("__atomic_"));
    return true;
  } else {
    return false;
  }
  RC.Tables.HasAtomics = true;
  // What the operation does not operate on but is given by reference or
  // pointer (compare_exchange's expected value, which it reads and, when
  // it fails, writes) is accessed in library code.
  for (unsigned I = FirstArg;
       I < E->getNumArgs() && I - FirstParamArg < Callee->getNumParams(); ++I) {
    const Expr *Arg = E->getArg(I);
    if (handover(Callee->getParamDecl(I - FirstParamArg)->getType(), Arg) !=
        Handover::None)
      RC.untraced(Arg, libraryReason("'" + Name + "'", Arg));
  }
  if (!Object)
    return true;
  if (Use == AtomicUse::Unknown) {
    // A library member of its own (libstdc++'s _M_ ones): never silently.
    if (Object->getType()->isPointerType()
            ? Model.pointerTargetIsMemory(Object)
            : Object->isGLValue() && Model.isMemory(Object))
      RC.untraced(E,
                  "'" + Name +
                      "' is an operation on an atomic object that wgtrace "
                      "does not know, whose accesses it does not record",
                  AccessKind::Call);
    return true;
  }
  if (std::optional<AccessKind> Kind = atomicKind(Use))
    wrapAtomicObject(Object->IgnoreImpCasts(), *Kind, E);
  return true;
}

const Expr *AccessCollector::atomicRefReferent(const Expr *Ref) const {
  // Through copies of atomic_refs and local variables, a few steps at most.
  for (unsigned Step = 0; Step < 8; ++Step) {
    Ref = Ref->IgnoreImplicit()->IgnoreParens();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Ref)) {
      Ref = Cast->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Ref)) {
      if (Construct->getNumArgs() != 1)
        return nullptr;
      if (!Construct->getConstructor()->isCopyOrMoveConstructor())
        return Construct->getArg(0);
      Ref = Construct->getArg(0);
      continue;
    }
    // An atomic_ref cannot be assigned: a local one refers to what its
    // initializer names. A capture of an enclosing one is not followed.
    const auto *DRE = dyn_cast<DeclRefExpr>(Ref);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || DRE->refersToEnclosingVariableOrCapture() ||
        !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        VD->getType()->isReferenceType() || !VD->getInit())
      return nullptr;
    Ref = VD->getInit();
  }
  return nullptr;
}

void AccessCollector::wrapAtomicObject(const Expr *Object, AccessKind Kind,
                                       const Expr *Named, bool OneByte) {
  // Recorded when the object is kernel memory, as plain accesses are; the
  // kernel's own atomics (a local std::atomic, an atomic_ref of a local)
  // are not. Where it may be the kernel's own stack, the runtime tells.
  bool IsMemory = false, MayBeKernelStack = false;
  if (Object->getType()->isPointerType()) {
    IsMemory = Model.pointerTargetIsMemory(Object);
    MayBeKernelStack = Model.pointerMayBeKernelStack(Object);
  } else if (isAtomicRefClass(Object->getType())) {
    // What is recorded is the object the atomic_ref refers to.
    if (const Expr *Referent = atomicRefReferent(Object)) {
      IsMemory = Referent->isGLValue() && Model.isMemory(Referent);
      MayBeKernelStack = Model.mayBeKernelStack(Referent);
    } else {
      IsMemory = MayBeKernelStack = true;
    }
  } else {
    IsMemory = Object->isGLValue() && Model.isMemory(Object);
    MayBeKernelStack = Model.mayBeKernelStack(Object);
  }
  if (!IsMemory)
    return;
  // Stackable: the object may itself be a load (`p->q->load()` loads
  // p->q), wrapped inside.
  RC.wrapAccess(Object, Kind,
                [&](unsigned Site) {
                  AccessWrap W =
                      RewriteContext::accessMacro(Kind, Site, MayBeKernelStack);
                  if (OneByte) {
                    W.Open += "::wgtrace::detail::atomicByte(";
                    W.Close.insert(0, ")");
                  }
                  return W;
                },
                {/*Stackable=*/true, nullptr, Named});
}

} // namespace rewriter
} // namespace wgtrace
