//===- MemoryModel.h - Which lvalues are memory the trace records -*- C++ -*-//
//
// A kernel's locals and by-value parameters live in registers once the
// compiler optimizes; recording them would drown the accesses that matter
// (buffers, globals, objects reached through pointers and references). This
// class decides, for an lvalue expression, whether it designates such
// memory. It errs towards "memory" whenever the storage is not provably a
// local of the function being instrumented.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_MEMORYMODEL_H
#define WGTRACE_REWRITER_MEMORYMODEL_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// What an OpenMP loop's iterations share, and what they do not.
struct OmpSharing {
  /// Variables of the loop's function (locals, parameters) they share.
  llvm::DenseSet<const clang::VarDecl *> Shared;
  /// Variables of static storage that a data-sharing clause makes each
  /// thread's own (their canonical declarations).
  llvm::DenseSet<const clang::VarDecl *> PrivateStatics;
  /// Locals of the loop's function that hold a value of the running
  /// thread's own (ThreadOwnership.h): `myid = omp_get_thread_num()`,
  /// `work_buff = bucket_size[myid]`.
  llvm::DenseSet<const clang::VarDecl *> ThreadValued;
};

class MemoryModel {
public:
  explicit MemoryModel(clang::ASTContext &Ctx) : Ctx(Ctx) {}

  clang::ASTContext &context() const { return Ctx; }

  /// Whether the glvalue E designates recorded memory.
  bool isMemory(const clang::Expr *E) const;

  /// Whether the object a pointer-valued expression points to is recorded
  /// memory: true unless it is provably the address of a local.
  bool pointerTargetIsMemory(const clang::Expr *P) const;

  /// Whether an object of type T can refer to storage outside itself (it
  /// holds a pointer or reference somewhere inside). A local std::array
  /// holds its elements; a local std::vector or std::span does not.
  bool holdsPointers(clang::QualType T) const;

  /// Whether the elements a range-for iterates over are recorded memory:
  /// the range is memory (a global array, a reference parameter, `*p`) or
  /// refers to storage outside itself (a std::vector, a std::span).
  bool rangeElementsAreMemory(const clang::Expr *Range) const {
    return sourceIsMemory(Range);
  }

  /// The loop variable of a range-for refers to an element of Range.
  void noteRangeFor(const clang::VarDecl *LoopVar, const clang::Expr *Range) {
    RangeLoopVars[LoopVar] = Range;
  }

  /// Finds the local pointer variables of Body that provably point into
  /// locals: every value they are given (initializer, assignments) points
  /// into a local, they only move by ++, --, += and -=, and their address
  /// never escapes. `float *p = tmp; *p++ = x;` then records nothing.
  /// Also finds those that may point into the kernel's own stack: one of
  /// their values may (a helper's pointer parameter, `float *p = begin;`),
  /// or their address escapes. Call after setScope and setOmpSharing.
  void analyzeLocalPointers(const clang::Stmt *Body);

  /// Lambdas being traversed, innermost last: a variable captured by copy is
  /// a member of the closure, a local, even when the captured variable was
  /// a reference.
  void pushLambda(const clang::LambdaExpr *L) { Lambdas.push_back(L); }
  void popLambda() { Lambdas.pop_back(); }

  /// The body analysed is the call operator of a lambda kernel (a lambda
  /// given to wgtrace::dispatch) with this closure type, or none (null). Its
  /// by-copy captures are members of the closure, locals like by-value
  /// parameters; what it captures by reference lives outside the kernel,
  /// shared by every workgroup, and is memory (a captured pointer is a
  /// handle, like a pointer parameter: what it points to is memory, its own
  /// loads are not recorded).
  void setKernelClosure(const clang::CXXRecordDecl *Closure) {
    KernelClosure = Closure;
  }

  /// The body analysed is an OpenMP loop's (null: none): the variables of
  /// its function that its iterations share are memory, pointers included
  /// (each load of a shared pointer is recorded, as a global's is); the
  /// function's other locals are the iteration's or its thread's own, and
  /// so are the variables of static storage its clauses privatise.
  void setOmpSharing(const OmpSharing *Sharing) { Omp = Sharing; }

  /// The function whose body is analysed, and whether it is a kernel (not
  /// a helper): a kernel's parameters are bound by its caller, outside the
  /// kernel's own stack; a helper's may be bound to the kernel's locals.
  void setScope(const clang::FunctionDecl *FD, bool IsKernel) {
    Scope = FD;
    ScopeIsKernel = IsKernel;
  }

  /// Whether the memory lvalue E may, when the program runs, be of the
  /// kernel's own stack (a local of the kernel, a temporary, what a library
  /// function keeps on its stack): what a helper's or a lambda's parameter
  /// (pointer or reference) or `this` designates, or a local reference or
  /// a structured binding bound to a call's result. The runtime then
  /// records it only when it is not (WGTRACE_LOAD_REF_AT).
  bool mayBeKernelStack(const clang::Expr *E) const;
  /// The same for what the pointer P points to.
  bool pointerMayBeKernelStack(const clang::Expr *P) const;

  /// Whether the memory E designates (an element, or a range a recorded
  /// library call touches) is owned by a container that is a local of the
  /// function analysed, by value: `tmp[k]` for `std::vector<double> tmp`
  /// declared in the kernel, a helper or an OpenMP loop's body (not one the
  /// iterations share). Only the workgroup running the function can reach
  /// that storage while the container lives; other workgroups' containers
  /// may get the same addresses once it is freed, which is no race.
  bool isWorkgroupOwned(const clang::Expr *E) const;

  /// Whether the address of the memory lvalue E is computed from the
  /// running thread's own (ThreadOwnership.h): omp_get_thread_num(), a
  /// thread_local or threadprivate variable, or an OpenMP loop's local
  /// that only holds such values. Races compare such accesses only
  /// between threads.
  bool isThreadOwned(const clang::Expr *E) const;

  /// Whether T is wgtrace::Workgroup (possibly cv-qualified or a reference
  /// to it): the workgroup argument is never recorded.
  static bool isWorkgroupType(clang::QualType T);

private:
  bool declRefIsMemory(const clang::ValueDecl *D, const clang::Expr *Ref) const;
  bool callResultIsMemory(const clang::CallExpr *Call) const;
  /// Whether VD is a local by value of the function analysed that no
  /// OpenMP loop's iterations share.
  bool isOwnedLocal(const clang::VarDecl *VD) const;
  /// Whether C constructs a standard container that is such a local (its
  /// initializer, constructed in place).
  bool constructsOwnedLocal(const clang::CXXConstructExpr *C) const;
  bool sourceIsMemory(const clang::Expr *Arg) const;
  bool isCapturedByCopy(const clang::VarDecl *VD) const;
  /// Whether a use of VD, a variable the kernel lambda captures, is memory;
  /// nothing if the kernel lambda does not capture VD.
  std::optional<bool> kernelCaptureIsMemory(const clang::VarDecl *VD) const;
  /// Whether the lvalue E is (an increment of, an assignment to) a local
  /// pointer variable that points into locals.
  bool isLocalPointer(const clang::Expr *E) const;
  /// Whether the pointer variable the lvalue E names (through increments
  /// and assignments to it: `begin++` points into what `begin` did) may
  /// point into the kernel's own stack.
  bool pointerVariableMayBeKernelStack(const clang::Expr *E) const;
  /// Whether Param is a parameter of the kernel being analysed.
  bool isOwnKernelParameter(const clang::ParmVarDecl *Param) const;

  clang::ASTContext &Ctx;
  std::vector<const clang::LambdaExpr *> Lambdas;
  const clang::CXXRecordDecl *KernelClosure = nullptr;
  const OmpSharing *Omp = nullptr;
  const clang::FunctionDecl *Scope = nullptr;
  bool ScopeIsKernel = false;
  mutable llvm::DenseMap<const clang::Type *, bool> PointerCache;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> RangeLoopVars;
  llvm::DenseSet<const clang::VarDecl *> LocalPointers;
  llvm::DenseSet<const clang::VarDecl *> StackPointers;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_MEMORYMODEL_H
