//===- OpenMPLoops.cpp - OpenMP worksharing loops as dispatches -----------===//

#include "OpenMPLoops.h"

#include "KernelFinder.h"
#include "ThreadOwnership.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

bool isTracedOmpLoop(OpenMPDirectiveKind K) {
  return K == llvm::omp::OMPD_for || K == llvm::omp::OMPD_for_simd ||
         K == llvm::omp::OMPD_parallel_for ||
         K == llvm::omp::OMPD_parallel_for_simd;
}

bool isUntracedOmpConstruct(OpenMPDirectiveKind K) {
  if (isTracedOmpLoop(K))
    return false;
  return isOpenMPParallelDirective(K) || isOpenMPTaskingDirective(K) ||
         isOpenMPTargetExecutionDirective(K) || isOpenMPTeamsDirective(K) ||
         isOpenMPDistributeDirective(K) || isOpenMPGenericLoopDirective(K) ||
         K == llvm::omp::OMPD_sections || K == llvm::omp::OMPD_ordered;
}

namespace {

const char *constructReason(OpenMPDirectiveKind K) {
  if (K == llvm::omp::OMPD_ordered)
    return "its block runs the iterations in order, one at a time, which "
           "wgtrace does not model: its accesses are not recorded";
  if (isOpenMPTaskingDirective(K))
    return "wgtrace traces worksharing loops only: a task's accesses are not "
           "recorded";
  if (isOpenMPTargetExecutionDirective(K) || isOpenMPTeamsDirective(K) ||
      isOpenMPDistributeDirective(K))
    return "wgtrace traces worksharing loops only: code of target, teams and "
           "distribute constructs is not recorded";
  if (K == llvm::omp::OMPD_sections || K == llvm::omp::OMPD_parallel_sections)
    return "wgtrace traces worksharing loops only: the accesses of sections "
           "are not recorded";
  if (isOpenMPGenericLoopDirective(K))
    return "wgtrace traces 'for' worksharing loops only: the accesses of an "
           "'omp loop' construct are not recorded";
  return "wgtrace traces worksharing loops only: the region's code runs on "
         "every thread of the team and its accesses are not recorded";
}

/// The statement written under D's pragma (inside the CapturedStmts that
/// Sema wraps it in), or null for a standalone directive.
const Stmt *writtenStatement(const OMPExecutableDirective *D) {
  const Stmt *Code = D->hasAssociatedStmt() ? D->getAssociatedStmt() : nullptr;
  while (const auto *Captured = dyn_cast_or_null<CapturedStmt>(Code))
    Code = Captured->getCapturedStmt();
  return Code;
}

/// The clause by which D (a standalone `ordered`) waits for other iterations
/// of its doacross loop, as a message names it: `depend(sink: ...)`, or
/// OpenMP 5.2's `doacross(sink: ...)`; null when it waits for none.
const char *iterationWait(const OMPExecutableDirective *D) {
  for (const OMPClause *C : D->clauses()) {
    if (const auto *Depend = dyn_cast<OMPDependClause>(C);
        Depend && Depend->getDependencyKind() == OMPC_DEPEND_sink)
      return "depend(sink: ...)";
    if (const auto *Doacross = dyn_cast<OMPDoacrossClause>(C);
        Doacross &&
        (Doacross->getDependenceType() == OMPC_DOACROSS_sink ||
         Doacross->getDependenceType() == OMPC_DOACROSS_sink_omp_cur_iteration))
      return "doacross(sink: ...)";
  }
  return nullptr;
}

/// Whether S (a parallel region's statement) does nothing but run
/// worksharing loops (and declare what they use).
bool onlyLoops(const Stmt *S) {
  if (const auto *CS = dyn_cast<CapturedStmt>(S))
    return onlyLoops(CS->getCapturedStmt());
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(C->body(),
                        [](const Stmt *Child) { return onlyLoops(Child); });
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S))
    return isTracedOmpLoop(D->getDirectiveKind()) ||
           D->getDirectiveKind() == llvm::omp::OMPD_barrier;
  return isa<DeclStmt>(S) || isa<NullStmt>(S);
}

/// Whether a worksharing loop is written anywhere in a region's statement,
/// at any depth (LULESH runs each of its region's loops under an `if`):
/// the region's own code is then untraced, its loops are not.
class TracedLoopSearch : public RecursiveASTVisitor<TracedLoopSearch> {
public:
  bool Found = false;
  bool VisitOMPExecutableDirective(OMPExecutableDirective *D) {
    Found = isTracedOmpLoop(D->getDirectiveKind());
    return !Found;
  }
};
bool hasTracedLoop(const Stmt *S) {
  TracedLoopSearch Search;
  Search.TraverseStmt(const_cast<Stmt *>(S));
  return Search.Found;
}

class OmpConstructFinder : public RecursiveASTVisitor<OmpConstructFinder> {
  using Base = RecursiveASTVisitor<OmpConstructFinder>;

public:
  explicit OmpConstructFinder(ASTContext &Ctx)
      : SM(Ctx.getSourceManager()), LangOpts(Ctx.getLangOpts()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return Base::TraverseDecl(D);
    const FunctionDecl *Saved = Function;
    std::vector<const OMPExecutableDirective *> SavedStack;
    SavedStack.swap(Stack);
    Function = FD;
    bool Result = Base::TraverseDecl(D);
    Function = Saved;
    Stack.swap(SavedStack);
    return Result;
  }

  bool dataTraverseStmtPre(Stmt *S) {
    if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      visitDirective(D);
      Stack.push_back(D);
    }
    return true;
  }
  bool dataTraverseStmtPost(Stmt *S) {
    if (isa<OMPExecutableDirective>(S))
      Stack.pop_back();
    return true;
  }

  FoundOpenMP take() {
    auto Offset = [&](const OmpLoop &L) {
      return SM.getFileOffset(
          SM.getExpansionLoc(L.Instances.front().Directive->getBeginLoc()));
    };
    llvm::sort(Found.Loops, [&](const OmpLoop &A, const OmpLoop &B) {
      return Offset(A) < Offset(B);
    });
    llvm::sort(Found.HeaderLoops, [&](const OmpLoop &A, const OmpLoop &B) {
      return SM.isBeforeInTranslationUnit(
          SM.getExpansionLoc(A.Instances.front().Directive->getBeginLoc()),
          SM.getExpansionLoc(B.Instances.front().Directive->getBeginLoc()));
    });
    return std::move(Found);
  }

private:
  bool inKernel() const {
    if (!Function)
      return false;
    const FunctionDecl *Written = Function->getTemplateInstantiationPattern();
    return hasAnnotation(Written ? Written : Function, "wgtrace.dispatch");
  }

  bool dependent() const { return Function && Function->isDependentContext(); }

  void visitDirective(OMPExecutableDirective *D) {
    SourceLocation Loc = D->getBeginLoc();
    if (!Loc.isValid() || inKernel())
      return;
    OpenMPDirectiveKind K = D->getDirectiveKind();
    const FunctionDecl *Written =
        Function && Function->getTemplateInstantiationPattern()
            ? Function->getTemplateInstantiationPattern()
            : Function;
    const SourceLocation At = SM.getExpansionLoc(Loc);
    const bool InMain = SM.isInMainFile(At);
    if (!InMain && (SM.isInSystemHeader(At) || pragmaOnlyInHeader(D, Written)))
      return;
    // A project header's function: its loops are traced in its copy when
    // the main file uses it (FileRewriter), reported otherwise.
    std::vector<OmpLoop> &Loops = InMain ? Found.Loops : Found.HeaderLoops;
    std::vector<OmpUntracedConstruct> &Untraced =
        InMain ? Found.Untraced : Found.HeaderUntraced;
    if (isTracedOmpLoop(K)) {
      auto *Loop = cast<OMPLoopDirective>(D);
      auto [It, New] = LoopIndex.try_emplace(At, Loops.size());
      if (New) {
        OmpLoop L;
        L.Function = Written;
        Loops.push_back(std::move(L));
      }
      OmpLoop &L = Loops[It->second];
      // A template's pattern is dependent: its instantiations say which
      // expressions load; it is kept only to report a template that has
      // none.
      if (dependent()) {
        if (L.Instances.empty()) {
          L.Instances.push_back({Loop, {Stack.begin(), Stack.end()}});
          L.OnlyDependent = true;
        }
        return;
      }
      if (L.OnlyDependent) {
        L.Instances.clear();
        L.OnlyDependent = false;
      }
      L.Instances.push_back({Loop, {Stack.begin(), Stack.end()}});
      return;
    }
    if (!isUntracedOmpConstruct(K) || dependent())
      return;
    if (!SeenConstructs.insert(At).second)
      return;
    if (K == llvm::omp::OMPD_parallel && InMain)
      noteRegionBlock(D);
    if (isOpenMPParallelDirective(K) && !isOpenMPTaskingDirective(K) &&
        !isOpenMPTargetExecutionDirective(K) && !isOpenMPTeamsDirective(K) &&
        !isOpenMPDistributeDirective(K) &&
        K != llvm::omp::OMPD_parallel_sections &&
        !isOpenMPGenericLoopDirective(K) && D->hasAssociatedStmt()) {
      const bool HasLoop = hasTracedLoop(D->getAssociatedStmt());
      if (HasLoop && onlyLoops(D->getAssociatedStmt())) {
        // Its loops are traced, and it does nothing else: in a header's
        // function, only in the function's copy.
        if (!InMain)
          Untraced.push_back(
              {Loc, "'#pragma omp " + getOpenMPDirectiveName(K).str() + "'", "",
               Written});
        return;
      }
      if (HasLoop) {
        Untraced.push_back(
            {Loc, "'#pragma omp " + getOpenMPDirectiveName(K).str() + "'",
             "the region's code outside its worksharing loops runs on every "
             "thread of the team and its accesses are not recorded (its "
             "loops are)",
             Written});
        return;
      }
    }
    if (K == llvm::omp::OMPD_ordered && !D->hasAssociatedStmt()) {
      // A standalone `ordered depend(...)` runs no code, but its sink makes
      // iterations wait for one another, which workgroups do not: said, or
      // races would report the dependences it orders without a word (PRK's
      // p2p-doacross-openmp: 11656 pairs per run of its loop on a 64x64 grid).
      if (const char *Wait = iterationWait(D))
        Untraced.push_back(
            {Loc, "'#pragma omp ordered'",
             "its '" + std::string(Wait) +
                 "' makes each iteration of this doacross loop wait for "
                 "others, which wgtrace does not model: every iteration is "
                 "recorded as an independent workgroup, and races reports the "
                 "accesses this orders as racing",
             Written});
      return;
    }
    Untraced.push_back({Loc,
                        "'#pragma omp " + getOpenMPDirectiveName(K).str() + "'",
                        constructReason(K), Written});
  }

  void noteRegionBlock(const OMPExecutableDirective *D) {
    const Stmt *Code = writtenStatement(D);
    if (!Code || !Code->getBeginLoc().isFileID() ||
        !SM.isInMainFile(Code->getBeginLoc()))
      return;
    if (const auto *Block = dyn_cast<CompoundStmt>(Code)) {
      Found.Regions.push_back({Block->getLBracLoc(), SourceLocation()});
      return;
    }
    // NPB FT's `#pragma omp parallel` then `fft(1, u1, u0);`: made a block.
    if (!isa<Expr>(Code) || !Code->getEndLoc().isFileID())
      return;
    SourceLocation End = Lexer::findLocationAfterToken(
        Code->getEndLoc(), tok::semi, SM, LangOpts,
        /*SkipTrailingWhitespaceAndNewLine=*/false);
    if (End.isValid())
      Found.Regions.push_back({Code->getBeginLoc(), End});
  }

  /// Whether D, a directive of a project header, applies to code of the
  /// main file: Quicksilver writes the pragma alone in a header that it
  /// includes right before a loop of the rewritten file. It is said at the
  /// loop, once.
  bool pragmaOnlyInHeader(const OMPExecutableDirective *D,
                          const FunctionDecl *Written) {
    const Stmt *Code = writtenStatement(D);
    if (!Code || !SM.isInMainFile(SM.getExpansionLoc(Code->getBeginLoc())))
      return false;
    const OpenMPDirectiveKind K = D->getDirectiveKind();
    if (dependent() || !(isTracedOmpLoop(K) || isUntracedOmpConstruct(K)) ||
        !SeenConstructs.insert(SM.getExpansionLoc(D->getBeginLoc())).second)
      return true;
    Found.Untraced.push_back(
        {Code->getBeginLoc(),
         "'#pragma omp " + getOpenMPDirectiveName(K).str() + "'",
         "its pragma is written in a header that this file includes, which "
         "wgtrace cannot rewrite",
         Written});
    return true;
  }

  const SourceManager &SM;
  const FunctionDecl *Function = nullptr;
  std::vector<const OMPExecutableDirective *> Stack;
  FoundOpenMP Found;
  llvm::DenseMap<SourceLocation, size_t> LoopIndex;
  llvm::DenseSet<SourceLocation> SeenConstructs;
  const LangOptions &LangOpts;
};

const Expr *strip(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  // An iterator's copy in a comparison: `it != end` compares copies.
  while (true) {
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      if (C->getNumArgs() >= 1) {
        E = C->getArg(0)->IgnoreParenImpCasts();
        continue;
      }
    } else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = M->getSubExpr()->IgnoreParenImpCasts();
      continue;
    } else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E)) {
      E = B->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    return E;
  }
}

const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// The binary form of E, a builtin or an overloaded operator: its opcode
/// and operands.
bool binaryOf(const Expr *E, BinaryOperatorKind &Op, const Expr *&L,
              const Expr *&R) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    Op = B->getOpcode();
    L = B->getLHS();
    R = B->getRHS();
    return true;
  }
  if (const auto *C = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (C->getNumArgs() != 2)
      return false;
    switch (C->getOperator()) {
    case OO_Less:
      Op = BO_LT;
      break;
    case OO_LessEqual:
      Op = BO_LE;
      break;
    case OO_Greater:
      Op = BO_GT;
      break;
    case OO_GreaterEqual:
      Op = BO_GE;
      break;
    case OO_ExclaimEqual:
      Op = BO_NE;
      break;
    case OO_Equal:
      Op = BO_Assign;
      break;
    case OO_PlusEqual:
      Op = BO_AddAssign;
      break;
    case OO_MinusEqual:
      Op = BO_SubAssign;
      break;
    case OO_Plus:
      Op = BO_Add;
      break;
    case OO_Minus:
      Op = BO_Sub;
      break;
    default:
      return false;
    }
    L = C->getArg(0);
    R = C->getArg(1);
    return true;
  }
  return false;
}

std::string levelOf(const ForStmt *For, OmpLoopLevel &Level) {
  // Init: `T i = lb` or `i = lb`.
  const Stmt *Init = For->getInit();
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    const auto *VD =
        DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!VD || !VD->getInit())
      return "its loop does not start with 'T var = lower'";
    Level.Var = VD;
    Level.Lower = VD->getInit()->IgnoreImplicit();
    if (const auto *C = dyn_cast<CXXConstructExpr>(Level.Lower))
      if (C->getNumArgs() == 1)
        Level.Lower = C->getArg(0)->IgnoreImplicit();
    // `T var{lower}`: the braces stay, the expression is the bound.
    if (const auto *L = dyn_cast<InitListExpr>(Level.Lower))
      if (L->getNumInits() == 1)
        Level.Lower = L->getInit(0)->IgnoreImplicit();
  } else if (const auto *E = dyn_cast_or_null<Expr>(Init)) {
    BinaryOperatorKind Op;
    const Expr *L, *R;
    if (!binaryOf(E, Op, L, R) || Op != BO_Assign || !varOf(L))
      return "its loop does not start with 'var = lower'";
    Level.Var = varOf(L);
    Level.Lower = R->IgnoreImplicit();
  } else {
    return "its loop has no initialization";
  }
  // Condition.
  BinaryOperatorKind Op;
  const Expr *L, *R;
  if (!For->getCond() || !binaryOf(For->getCond(), Op, L, R))
    return "its loop's condition is not a comparison of its variable";
  bool VarLeft = varOf(L) == Level.Var;
  if (!VarLeft && varOf(R) != Level.Var)
    return "its loop's condition is not a comparison of its variable";
  Level.Bound = (VarLeft ? R : L)->IgnoreImplicit();
  if (!VarLeft) // `ub > i` is `i < ub`
    Op = Op == BO_LT   ? BO_GT
         : Op == BO_LE ? BO_GE
         : Op == BO_GT ? BO_LT
         : Op == BO_GE ? BO_LE
                       : Op;
  switch (Op) {
  case BO_LT:
    Level.Compare = "Less";
    break;
  case BO_LE:
    Level.Compare = "LessEqual";
    break;
  case BO_GT:
    Level.Compare = "Greater";
    break;
  case BO_GE:
    Level.Compare = "GreaterEqual";
    break;
  case BO_NE:
    Level.Compare = "NotEqual";
    break;
  default:
    return "its loop's condition is not a comparison of its variable";
  }
  // Increment.
  const Expr *Inc =
      For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
  if (!Inc)
    return "its loop has no increment";
  auto IncDec = [&](bool Increment) {
    Level.Step = nullptr;
    Level.Negate = !Increment;
  };
  if (const auto *U = dyn_cast<UnaryOperator>(Inc)) {
    if (!U->isIncrementDecrementOp() || varOf(U->getSubExpr()) != Level.Var)
      return "its loop's increment is not of its variable";
    IncDec(U->isIncrementOp());
    return "";
  }
  if (const auto *C = dyn_cast<CXXOperatorCallExpr>(Inc)) {
    if ((C->getOperator() == OO_PlusPlus ||
         C->getOperator() == OO_MinusMinus) &&
        C->getNumArgs() >= 1 && varOf(C->getArg(0)) == Level.Var) {
      IncDec(C->getOperator() == OO_PlusPlus);
      return "";
    }
  }
  if (!binaryOf(Inc, Op, L, R) || varOf(L) != Level.Var)
    return "its loop's increment is not of its variable";
  if (Op == BO_AddAssign || Op == BO_SubAssign) {
    Level.Step = R->IgnoreImplicit();
    Level.Negate = Op == BO_SubAssign;
    return "";
  }
  if (Op != BO_Assign)
    return "its loop's increment is not of its variable";
  const Expr *Sum = R;
  const Expr *A, *B;
  if (!binaryOf(Sum, Op, A, B) || (Op != BO_Add && Op != BO_Sub))
    return "its loop's increment is not of its variable";
  if (varOf(A) == Level.Var) {
    Level.Step = B->IgnoreImplicit();
    Level.Negate = Op == BO_Sub;
    return "";
  }
  if (Op == BO_Add && varOf(B) == Level.Var) {
    Level.Step = A->IgnoreImplicit();
    return "";
  }
  return "its loop's increment is not of its variable";
}

/// Whether E names any of Vars.
bool mentions(const Stmt *E, llvm::ArrayRef<OmpLoopLevel> Levels) {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    for (const OmpLoopLevel &L : Levels)
      if (DRE->getDecl() == L.Var)
        return true;
  for (const Stmt *Child : E->children())
    if (mentions(Child, Levels))
      return true;
  return false;
}

/// Every variable of local storage the body names, in order of first
/// use.
class NamedVariables : public RecursiveASTVisitor<NamedVariables> {
public:
  std::vector<const VarDecl *> Order;
  llvm::DenseSet<const VarDecl *> Seen;
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *VD = dyn_cast<VarDecl>(E->getDecl());
    if (VD && VD->hasLocalStorage() && E->isNonOdrUse() == NOUR_None &&
        Seen.insert(VD).second)
      Order.push_back(VD);
    return true;
  }
};

/// The variable a data-sharing clause's item names: `x`, or the array of
/// a section or element of it (`reduction(+ : h[0:n])`: the region's
/// `h[i]` are the private copy's).
const VarDecl *clauseItemVar(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  while (true) {
    if (const auto *S = dyn_cast_or_null<ArraySectionExpr>(E))
      E = S->getBase()->IgnoreParenImpCasts();
    else if (const auto *A = dyn_cast_or_null<ArraySubscriptExpr>(E))
      E = A->getBase()->IgnoreParenImpCasts();
    else
      break;
  }
  return varOf(E);
}

/// The variables of static storage (globals, static locals and members)
/// a body names.
struct StaticVariables : RecursiveASTVisitor<StaticVariables> {
  llvm::DenseSet<const VarDecl *> Seen;
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *VD = dyn_cast<VarDecl>(E->getDecl()))
      if (!VD->hasLocalStorage())
        Seen.insert(VD->getCanonicalDecl());
    return true;
  }
};

/// The variables a clause of D makes the thread's or the iteration's own.
void privatized(const OMPExecutableDirective *D,
                llvm::DenseSet<const VarDecl *> &Out) {
  auto Add = [&](auto Vars) {
    for (const Expr *E : Vars)
      if (const VarDecl *VD = clauseItemVar(E))
        Out.insert(VD->getCanonicalDecl());
  };
  for (const OMPClause *C : D->clauses()) {
    if (const auto *P = dyn_cast<OMPPrivateClause>(C))
      Add(P->varlists());
    else if (const auto *F = dyn_cast<OMPFirstprivateClause>(C))
      Add(F->varlists());
    else if (const auto *L = dyn_cast<OMPLastprivateClause>(C))
      Add(L->varlists());
    else if (const auto *R = dyn_cast<OMPReductionClause>(C))
      Add(R->varlists());
    else if (const auto *Lin = dyn_cast<OMPLinearClause>(C))
      Add(Lin->varlists());
  }
}

bool listedShared(const OMPExecutableDirective *D, const VarDecl *VD) {
  for (const auto *C : D->getClausesOfKind<OMPSharedClause>())
    for (const Expr *E : C->varlists())
      if (varOf(E) == VD)
        return true;
  return false;
}

bool privateByDefault(const OMPExecutableDirective *D) {
  for (const auto *C : D->getClausesOfKind<OMPDefaultClause>())
    if (C->getDefaultKind() == llvm::omp::OMP_DEFAULT_private ||
        C->getDefaultKind() == llvm::omp::OMP_DEFAULT_firstprivate)
      return true;
  return false;
}

/// Whether VD is declared in D's pragma or the statement D applies to.
bool declaredWithin(const VarDecl *VD, const OMPExecutableDirective *D,
                    const SourceManager &SM) {
  SourceRange R = D->getSourceRange();
  if (D->hasAssociatedStmt() && D->getAssociatedStmt())
    R.setEnd(D->getAssociatedStmt()->getEndLoc());
  SourceLocation At = SM.getExpansionLoc(VD->getLocation());
  return !SM.isBeforeInTranslationUnit(At, SM.getExpansionLoc(R.getBegin())) &&
         !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(R.getEnd()), At);
}

} // namespace

const char *const kOmpInHeaderReason =
    "it is in a header, and wgtrace-rewrite traces the OpenMP code of the "
    "files it rewrites, not of the headers they include (rewrite a source "
    "file that holds the code)";

FoundOpenMP findOpenMP(ASTContext &Ctx) {
  OmpConstructFinder F(Ctx);
  F.TraverseDecl(Ctx.getTranslationUnitDecl());
  return F.take();
}

OmpNest analyzeNest(const OMPLoopDirective *D, ASTContext &) {
  OmpNest Nest;
  unsigned N = D->getLoopsNumber();
  if (N > 3) {
    Nest.Why = "it collapses " + std::to_string(N) +
               " loops, and a workgroup id has 3 dimensions";
    return Nest;
  }
  const Stmt *S = D->getInnermostCapturedStmt()->getCapturedStmt();
  for (unsigned I = 0; I < N; ++I) {
    // A collapsed loop may be the only statement of a block.
    while (const auto *C = dyn_cast_or_null<CompoundStmt>(S)) {
      if (C->size() != 1)
        break;
      S = C->body_front();
    }
    if (isa_and_nonnull<CXXForRangeStmt>(S)) {
      Nest.Why = "it is a range-based for loop, whose iterations wgtrace "
                 "cannot number yet";
      return Nest;
    }
    const auto *For = dyn_cast_or_null<ForStmt>(S);
    if (!For) {
      Nest.Why = "its loop nest is not a canonical 'for' nest";
      return Nest;
    }
    OmpLoopLevel Level;
    std::string Why = levelOf(For, Level);
    if (!Why.empty()) {
      Nest.Why = Why;
      return Nest;
    }
    if (mentions(Level.Lower, Nest.Levels) ||
        mentions(Level.Bound, Nest.Levels) ||
        mentions(Level.Step, Nest.Levels)) {
      Nest.Why = "its collapsed loops are not rectangular (an inner loop's "
                 "bounds depend on an outer loop's variable)";
      return Nest;
    }
    Nest.Levels.push_back(Level);
    S = For->getBody();
  }
  Nest.Body = S;
  return Nest;
}

std::vector<const VarDecl *> sharedVariables(const OmpLoopInstance &Instance,
                                             const OmpNest &Nest,
                                             const SourceManager &SM) {
  NamedVariables Named;
  Named.TraverseStmt(const_cast<Stmt *>(Nest.Body));
  llvm::DenseSet<const VarDecl *> Private;
  for (const OmpLoopLevel &L : Nest.Levels)
    Private.insert(L.Var);
  std::vector<const OMPExecutableDirective *> Chain(Instance.Enclosing.begin(),
                                                    Instance.Enclosing.end());
  Chain.push_back(Instance.Directive);
  std::vector<const VarDecl *> Shared;
  for (const VarDecl *VD : Named.Order) {
    if (Private.count(VD) || declaredWithin(VD, Instance.Directive, SM))
      continue;
    bool IsShared = false;
    // From the loop outwards to the parallel region it binds to.
    for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
      const OMPExecutableDirective *D = *It;
      llvm::DenseSet<const VarDecl *> Own;
      privatized(D, Own);
      if (Own.count(VD))
        break;
      if (isOpenMPParallelDirective(D->getDirectiveKind())) {
        IsShared = !declaredWithin(VD, D, SM) &&
                   (!privateByDefault(D) || listedShared(D, VD));
        break;
      }
      if (declaredWithin(VD, D, SM))
        break;
    }
    // A loop outside any parallel region of its function (an orphaned
    // `omp for`) runs in a function each thread of the team calls: its
    // locals are each thread's own.
    if (IsShared)
      Shared.push_back(VD);
  }
  return Shared;
}

llvm::DenseSet<const VarDecl *>
privatizedStatics(const OmpLoopInstance &Instance, const OmpNest &Nest) {
  StaticVariables Named;
  Named.TraverseStmt(const_cast<Stmt *>(Nest.Body));
  std::vector<const OMPExecutableDirective *> Chain(Instance.Enclosing.begin(),
                                                    Instance.Enclosing.end());
  Chain.push_back(Instance.Directive);
  llvm::DenseSet<const VarDecl *> Private;
  for (const VarDecl *VD : Named.Seen) {
    // From the loop outwards to the parallel region it binds to (an
    // orphaned loop: its own clauses only; the region is in a caller).
    for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
      const OMPExecutableDirective *D = *It;
      llvm::DenseSet<const VarDecl *> Own;
      privatized(D, Own);
      if (Own.count(VD)) {
        Private.insert(VD);
        break;
      }
      if (isOpenMPParallelDirective(D->getDirectiveKind())) {
        // default(private | firstprivate): every variable the region
        // names, but those it lists as shared and threadprivate ones.
        if (privateByDefault(D) && !listedShared(D, VD) &&
            !hasThreadStorage(VD))
          Private.insert(VD);
        break;
      }
    }
  }
  return Private;
}

std::optional<PragmaLine> pragmaLine(SourceLocation Loc,
                                     const SourceManager &SM, FileID File) {
  if (!Loc.isValid() || Loc.isMacroID() || SM.getFileID(Loc) != File)
    return std::nullopt;
  StringRef Code = SM.getBufferData(File);
  unsigned At = SM.getFileOffset(Loc);
  // StringRef::rfind looks before its position.
  size_t LineStart = Code.rfind('\n', At);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  StringRef Line = Code.substr(LineStart);
  size_t Hash = Line.find_first_not_of(" \t");
  if (Hash == StringRef::npos || Line[Hash] != '#')
    return std::nullopt;
  StringRef Rest = Line.substr(Hash + 1).ltrim(" \t");
  if (!Rest.consume_front("pragma"))
    return std::nullopt;
  PragmaLine P;
  P.Begin = static_cast<unsigned>(LineStart + Hash);
  const unsigned DirectiveStart =
      static_cast<unsigned>(Rest.data() - Code.data());
  // The directive ends at the first newline that no backslash continues.
  size_t End = DirectiveStart;
  while (End < Code.size() && Code[End] != '\n') {
    if (Code[End] == '\\' && End + 1 < Code.size() &&
        (Code[End + 1] == '\n' ||
         (Code[End + 1] == '\r' && End + 2 < Code.size() &&
          Code[End + 2] == '\n'))) {
      End += Code[End + 1] == '\n' ? 2 : 3;
      continue;
    }
    ++End;
  }
  if (End > DirectiveStart && Code[End - 1] == '\r')
    --End;
  P.End = static_cast<unsigned>(End);
  StringRef Text = Code.slice(DirectiveStart, End);
  // Comments are not part of the directive; they are kept after it.
  std::string Directive;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text.substr(I).starts_with("//")) {
      P.Comment += " " + Text.substr(I).str();
      break;
    }
    if (Text.substr(I).starts_with("/*")) {
      size_t Close = Text.find("*/", I + 2);
      if (Close == StringRef::npos || Text.slice(I, Close).contains('\n'))
        return std::nullopt;
      P.Comment += " " + Text.slice(I, Close + 2).str();
      Directive += ' ';
      I = Close + 1;
      continue;
    }
    Directive += Text[I];
  }
  P.Directive = StringRef(Directive).trim(" \t").str();
  return P;
}

std::optional<PragmaInvocation>
pragmaInvocation(const OMPExecutableDirective *D, const Stmt *Loop,
                 const SourceManager &SM, const LangOptions &LO, FileID File) {
  SourceLocation Begin = D->getBeginLoc();
  SourceLocation End = D->getEndLoc();
  if (!Begin.isValid() || !End.isValid())
    return std::nullopt;
  CharSourceRange Range;
  if (Begin.isMacroID()) {
    Range = SM.getExpansionRange(Begin);
  } else {
    // `_Pragma("...")` written in the file: the directive begins at the
    // operator; it ends at the `)` after the string.
    std::optional<Token> Paren = Lexer::findNextToken(Begin, SM, LO);
    std::optional<Token> Text =
        Paren ? Lexer::findNextToken(Paren->getLocation(), SM, LO)
              : std::nullopt;
    std::optional<Token> Close =
        Text ? Lexer::findNextToken(Text->getLocation(), SM, LO) : std::nullopt;
    if (!Close || !Paren->is(tok::l_paren) || !Text->is(tok::string_literal) ||
        !Close->is(tok::r_paren) ||
        Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, Begin), SM,
                             LO) != "_Pragma")
      return std::nullopt;
    Range = CharSourceRange::getTokenRange(Begin, Close->getLocation());
    End = Begin;
  }
  SourceLocation First = Range.getBegin();
  SourceLocation Last = Range.getEnd();
  SourceLocation LoopAt = Loop->getBeginLoc();
  if (First.isMacroID() || Last.isMacroID() || SM.getFileID(First) != File ||
      SM.getFileID(Last) != File || LoopAt.isMacroID() ||
      SM.getFileID(LoopAt) != File ||
      !SM.isBeforeInTranslationUnit(Last, LoopAt))
    return std::nullopt;
  // The whole directive in one invocation: not its clauses in another.
  SourceLocation EndAt = SM.getExpansionLoc(End);
  if (SM.isBeforeInTranslationUnit(EndAt, First) ||
      SM.isBeforeInTranslationUnit(Last, EndAt))
    return std::nullopt;
  PragmaInvocation P;
  P.Begin = SM.getFileOffset(First);
  P.End = SM.getFileOffset(Last) +
          (Range.isTokenRange() ? Lexer::MeasureTokenLength(Last, SM, LO) : 0);
  return P;
}

std::string pragmaOperator(StringRef Directive, StringRef Extra) {
  std::string Out = "_Pragma(\"";
  std::string Text = (Directive + Extra).str();
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    // A line continuation stays one: the string literal spans it.
    if (C == '\\' && I + 1 < Text.size() &&
        (Text[I + 1] == '\n' || Text[I + 1] == '\r')) {
      Out += C;
      continue;
    }
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\")";
}

std::optional<unsigned> statementEnd(const Stmt *S, const SourceManager &SM,
                                     const LangOptions &LO, FileID File) {
  // The statement that ends S's text.
  while (true) {
    if (const auto *If = dyn_cast<IfStmt>(S))
      S = If->getElse() ? If->getElse() : If->getThen();
    else if (const auto *For = dyn_cast<ForStmt>(S))
      S = For->getBody();
    else if (const auto *While = dyn_cast<WhileStmt>(S))
      S = While->getBody();
    else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
      S = Range->getBody();
    else if (const auto *Switch = dyn_cast<SwitchStmt>(S))
      S = Switch->getBody();
    else if (const auto *Label = dyn_cast<LabelStmt>(S))
      S = Label->getSubStmt();
    else if (const auto *Attributed = dyn_cast<AttributedStmt>(S))
      S = Attributed->getSubStmt();
    else if (const auto *Captured = dyn_cast<CapturedStmt>(S))
      S = Captured->getCapturedStmt();
    else
      break;
  }
  SourceLocation Last = S->getEndLoc();
  if (!Last.isValid() || Last.isMacroID() || SM.getFileID(Last) != File)
    return std::nullopt;
  StringRef Code = SM.getBufferData(File);
  unsigned End =
      SM.getFileOffset(Last) + Lexer::MeasureTokenLength(Last, SM, LO);
  if (isa<CompoundStmt>(S))
    return End;
  size_t Next = Code.find_first_not_of(" \t\r\n", End);
  if (Next != StringRef::npos && Code[Next] == ';')
    return static_cast<unsigned>(Next + 1);
  return End;
}

} // namespace rewriter
} // namespace wgtrace
