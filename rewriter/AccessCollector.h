//===- AccessCollector.h - Wraps the memory accesses of a body --*- C++ -*-===//
//
// Walks one function body and wraps each access to recorded memory in the
// macro that records it: WGTRACE_LOAD for a read (an lvalue-to-rvalue
// conversion, or the source of a trivial copy), WGTRACE_STORE for the target
// of a plain assignment, WGTRACE_UPDATE for compound assignment and ++/--.
// Only the outermost lvalue of an access is wrapped (`a[i][j]` is one
// access); loads that compute its address (`p->q->x` reads `p->q`) are
// accesses of their own and get their own wrap. Each wrap names its access
// site (RewriteContext::wrapAccess); an access of memory that cannot be
// wrapped is reported as untraced, with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_ACCESSCOLLECTOR_H
#define WGTRACE_REWRITER_ACCESSCOLLECTOR_H

#include "MemoryModel.h"
#include "RewriteContext.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace wgtrace {
namespace rewriter {

class AccessCollector : public clang::RecursiveASTVisitor<AccessCollector> {
  using Base = clang::RecursiveASTVisitor<AccessCollector>;

public:
  explicit AccessCollector(RewriteContext &RC)
      : RC(RC), Model(RC.Ctx), OuterModel(RC.Model) {
    RC.Model = &Model;
  }
  ~AccessCollector() { RC.Model = OuterModel; }
  AccessCollector(const AccessCollector &) = delete;
  AccessCollector &operator=(const AccessCollector &) = delete;

  /// Wraps the accesses of FD's body. For a template, FD is one
  /// instantiation: its expressions carry the pattern's source locations,
  /// so the edits of all instantiations land on the same text. For a
  /// lambda kernel, FD is its call operator (MemoryModel::
  /// setKernelClosure says what its captures are).
  void collect(const clang::FunctionDecl *FD, bool LambdaKernel = false);

  /// Wraps the accesses of an OpenMP loop's body (the statement of the
  /// innermost loop of its nest), written in Function, whose iterations
  /// share what Sharing says (MemoryModel::setOmpSharing). OpenMP
  /// constructs in it that are loops or constructs of their own are left
  /// out; `omp atomic` updates are recorded as atomic operations.
  void collectOmpBody(const clang::Stmt *Body,
                      const clang::FunctionDecl *Function,
                      const OmpSharing &Sharing);

  bool TraverseStmt(clang::Stmt *S, DataRecursionQueue *Queue = nullptr);
  /// A clause's expressions are the construct's, evaluated by OpenMP, and
  /// written in a pragma, which no macro can wrap.
  bool TraverseOMPClause(clang::OMPClause *) { return true; }

  /// Notes each expression's text in a template's instantiation
  /// (RewriteContext::noteInstanceText).
  bool VisitExpr(clang::Expr *E);
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr *E);
  bool VisitBinaryOperator(clang::BinaryOperator *E);
  bool VisitUnaryOperator(clang::UnaryOperator *E);
  bool VisitGCCAsmStmt(clang::GCCAsmStmt *S);
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *E);
  bool VisitCXXNewExpr(clang::CXXNewExpr *E);
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr *E);
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *E);
  bool VisitArrayInitLoopExpr(clang::ArrayInitLoopExpr *E);
  bool VisitAtomicExpr(clang::AtomicExpr *E);
  /// memcpy/memmove/memset and SIMD load/store intrinsics.
  bool VisitCallExpr(clang::CallExpr *E);

  // Unevaluated operands and constant expressions perform no access, and a
  // wrap would make a constant expression non-constant.
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc) { return true; }
  bool TraverseTypeOfExprTypeLoc(clang::TypeOfExprTypeLoc) { return true; }
  bool TraverseConstantExpr(clang::ConstantExpr *) { return true; }
  bool TraverseStaticAssertDecl(clang::StaticAssertDecl *) { return true; }
  bool TraverseRequiresExpr(clang::RequiresExpr *) { return true; }
  bool TraverseCXXTypeidExpr(clang::CXXTypeidExpr *E);
  bool TraverseVarDecl(clang::VarDecl *VD);
  bool TraverseLambdaExpr(clang::LambdaExpr *L);
  bool TraverseCXXForRangeStmt(clang::CXXForRangeStmt *S);
  bool TraverseInitListExpr(clang::InitListExpr *S,
                            DataRecursionQueue *Queue = nullptr);

private:
  /// E is used as an lvalue in the given way: wrap the memory it designates.
  /// Spelled is E with the parentheses written around it.
  void use(const clang::Expr *E, AccessKind Kind,
           const clang::Expr *Spelled = nullptr);
  /// Wraps E in Open + <site argument> + AfterSite ... Close; Named is the
  /// access the site names (default: E).
  void wrapWithSite(const clang::Expr *E, AccessKind Kind,
                    const std::string &Open, llvm::StringRef AfterSite,
                    llvm::StringRef Close, bool Stackable,
                    const clang::Expr *Named);
  /// A library function given kernel memory it may access: reported
  /// untraced; true when it was.
  bool untracedLibraryCall(const clang::CallExpr *E,
                           const clang::FunctionDecl *Callee);
  /// A step of an iterator over a linked standard container whose nodes
  /// are kernel memory (`++it`, `std::next(it)`): reported untraced; true
  /// when it was.
  bool untracedNodeStep(const clang::CallExpr *E,
                        const clang::FunctionDecl *Callee);
  /// Why a step of the iterator It (of Family) over Container (null: not
  /// known) is not traced; none when the nodes are not kernel memory.
  std::optional<std::string> nodeStepReason(llvm::StringRef Family,
                                            const clang::Expr *Container,
                                            const clang::Expr *It) const;
  /// A library object constructed from kernel memory that it copies:
  /// reported untraced.
  void untracedLibraryConstruction(const clang::CXXConstructExpr *E,
                                   const clang::CXXConstructorDecl *Ctor);
  /// Whether E builds a container from a range (`C c(first, last)`).
  static bool isRangeConstruction(const clang::CXXConstructExpr *E,
                                  const clang::CXXConstructorDecl *Ctor);
  /// Whether Ctor builds a container from a braced list
  /// (`C c{x, y}`, `C c = {x, y}`).
  static bool isListConstruction(const clang::CXXConstructorDecl *Ctor);
  /// Whether E builds a sequence container with a count of elements
  /// (`C c(n)`, `C c(n, x)`).
  static bool isCountConstruction(const clang::CXXConstructExpr *E,
                                  const clang::CXXConstructorDecl *Ctor);
  /// Whether Class, a standard container, keeps its elements in storage it
  /// allocates (std::list, std::set, std::deque, ...; not std::string).
  bool keepsElementsOnHeap(const clang::CXXRecordDecl *Class) const;
  /// How argument Arg, passed for a parameter of type Param, hands
  /// library code kernel memory: as a pointer into it, as a reference bound
  /// to it, or not at all (string literals are not kernel memory).
  enum class Handover : uint8_t { None, Pointer, Reference };
  Handover handover(clang::QualType Param, const clang::Expr *Arg) const;
  /// Whether M is a copy or move (constructor or assignment) of a class of
  /// the program that the compiler writes and that is not trivial.
  bool implicitMemberwise(const clang::CXXMethodDecl *M) const;
  std::string memberwiseReason(const clang::CXXMethodDecl *M) const;
  /// Whether E, a construction of a std::string, may write more
  /// characters than the object holds (15), into new storage on the heap.
  bool mayWriteLongString(const clang::CXXConstructExpr *E,
                          const clang::CXXConstructorDecl *Ctor) const;
  /// Whether M, a copy (not a move), copies from Source, an lvalue that is
  /// not kernel memory itself, kernel memory that Source holds outside
  /// itself (a member std::vector's elements).
  bool copiesHeldMemory(const clang::CXXMethodDecl *M,
                        const clang::Expr *Source) const;
  /// Whether Object (or what it points to) is a standard container whose
  /// elements are kernel memory.
  bool elementsAreKernelMemory(const clang::Expr *Object) const;
  /// Whether RD (a standard class) is a container: it has elements
  /// (begin() or data(), or is std::valarray).
  bool isContainerClass(const clang::CXXRecordDecl *RD) const;
  /// M called on Object, of a standard class that is no container
  /// (std::pair, std::optional, std::bitset, ...), when Object is kernel
  /// memory and M reads or writes its bytes: reported untraced
  /// (ObjectCalls.cpp). False when E is not one.
  bool untracedObjectCall(const clang::CallExpr *E,
                          const clang::CXXMethodDecl *M,
                          const clang::Expr *Object,
                          const std::string &Qualified);
  /// B.fill(v) and B.swap(C) on a std::array of kernel memory with
  /// trivially copyable elements: B is wrapped in recorded::array
  /// (algorithms.h), which records them as libstdc++'s fill_n and
  /// swap_ranges do. False when E is not one.
  bool recordArrayMember(const clang::CallExpr *E,
                         const clang::CXXMethodDecl *M,
                         const clang::Expr *Object);
  /// Whether member function M of a container reads or writes its
  /// elements (not an accessor, not bookkeeping such as size()).
  bool touchesElements(const clang::CXXMethodDecl *M) const;
  /// Whether T is a library class whose objects hold only the library's
  /// own state (a stream, a mutex), not elements of the kernel's.
  bool isLibraryBookkeeping(clang::QualType T) const;
  /// Whether T is the C library's FILE (glibc's struct _IO_FILE), which
  /// only library code reads and writes.
  bool isCStream(clang::QualType T) const;
  /// E's text as written where it expands, for reasons.
  std::string sourceText(const clang::Expr *E) const;
  /// "<Subject> is given kernel memory ('<Arg>') <How> ...", Subject
  /// naming the function or the construction with its quotes.
  std::string
  libraryReason(const std::string &Subject, const clang::Expr *Arg,
                llvm::StringRef How = "by pointer or reference") const;
  /// A virtual call E reads its object's virtual table pointer: recorded
  /// when the object is kernel memory (<wgtrace/detail/intrinsics.h>,
  /// vtableRead), reported when the read cannot be wrapped.
  void recordVtableRead(const clang::CallExpr *E);
  /// The same read for a call through a member function pointer, Call
  /// the `o.*pm` or `p->*pm` it calls, when pm names a virtual function.
  void recordMemberTableRead(const clang::CallExpr *E,
                             const clang::BinaryOperator *Call);
  /// A call whose accesses are not recorded (an atomic operation, a call
  /// wrapper, a library function, a masked intrinsic): reported untraced
  /// when it touches kernel memory.
  void untracedCall(const clang::CallExpr *E,
                    const clang::FunctionDecl *Callee);
  /// Whether E, read, is a constant the compiler emits instead of loading
  /// it (`static const double DT = 1.0;`): no access.
  bool readsFoldedConstant(const clang::Expr *E) const;
  /// An atomic operation (a member or operator of std::atomic,
  /// std::atomic_ref or std::atomic_flag, a std::atomic_* function, a
  /// __sync_* builtin): its object is wrapped so that the operation is
  /// recorded with the atomic mark. True when E is one (recorded or not:
  /// the kernel's own atomics are not memory).
  bool atomicCall(const clang::CallExpr *E, const clang::FunctionDecl *Callee);
  /// An operator, member or function of <complex> on a std::complex of
  /// kernel memory (ComplexCalls.cpp): its operands are wrapped as reads of
  /// their whole value, the object of an assignment as a store or an
  /// update, a part (`z.real()`) as an access of its own. True when E is
  /// one and was recorded (or touches no kernel memory).
  bool complexCall(const clang::CallExpr *E, const clang::FunctionDecl *Callee);
  /// A std::complex made from a complex of kernel memory of another
  /// element type: the operand is read whole. True when E makes a complex.
  bool complexConstruction(const clang::CXXConstructExpr *E);
  /// Wraps Object, the object of an atomic operation (an atomic object, a
  /// std::atomic_ref, or a pointer to the object) in the atomic access
  /// macro of Kind when it is kernel memory; Named is the operation.
  /// OneByte: a builtin that works on one byte whatever Object points to.
  void wrapAtomicObject(const clang::Expr *Object, AccessKind Kind,
                        const clang::Expr *Named, bool OneByte = false);
  /// The expression a std::atomic_ref was constructed from, the object it
  /// operates on, when Ref shows it (a temporary, a local initialized so);
  /// null when not known.
  const clang::Expr *atomicRefReferent(const clang::Expr *Ref) const;
  /// A bit-field has no address: record the bytes that hold its bits,
  /// through the address of the object that contains it.
  void useBitField(const clang::MemberExpr *M, AccessKind Kind);

  /// `#pragma omp atomic` in an OpenMP loop's body: its object is
  /// recorded before the construct, as an atomic operation, and the
  /// statement is left as OpenMP requires it.
  bool traverseOmpAtomic(clang::OMPAtomicDirective *A);
  /// `#pragma omp critical(Name)` in an OpenMP loop's body whose block
  /// calls code or holds another critical construct: the block opens the
  /// section for the iteration (WGTRACE_OMP_CRITICAL_SECTION), so that
  /// what the code records, and what the inner section marks, is inside
  /// it too.
  void openCriticalSection(const clang::OMPCriticalDirective *C,
                           llvm::StringRef Name);

  RewriteContext &RC;
  MemoryModel Model;
  /// Constructions of a class whose type is written with deduced template
  /// arguments (`std::vector w(a, a + n)`, `new std::vector(a, a + n)`):
  /// their arguments decide the type and cannot be handed over otherwise.
  llvm::SmallPtrSet<const clang::Expr *, 4> DeducedConstructions;
  /// The model of the collector this one runs inside, if any.
  const MemoryModel *OuterModel;
  /// Collecting an OpenMP loop's body.
  bool InOmpBody = false;
  /// The names of the `omp critical` constructs around the access being
  /// wrapped, innermost last ("" for the unnamed one).
  std::vector<std::string> OmpCritical;
  /// The object of the `omp atomic` construct being traversed: its uses
  /// in the statement are not wrapped.
  const clang::Expr *OmpAtomicObject = nullptr;
  /// The function whose body is being collected.
  const clang::FunctionDecl *Scope = nullptr;
  /// Calls of std::min, std::max and std::clamp whose result the caller
  /// reads at once through readChosen (ValueCalls.h).
  llvm::DenseSet<const clang::CallExpr *> ChosenReads;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_ACCESSCOLLECTOR_H
