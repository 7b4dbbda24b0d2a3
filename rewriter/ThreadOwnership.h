//===- ThreadOwnership.h - Storage each thread has its own ------*- C++ -*-===//
//
// `races` takes an OpenMP loop's iterations to be independent units of work
// that may run in any order on any thread, so two of them touching the same
// bytes, one writing, race. That holds while the addresses an iteration
// touches do not depend on the thread running it. Code written for OpenMP
// often gives each thread storage of its own instead: a histogram per
// thread (`work_buff = bucket_size[omp_get_thread_num()]`, NPB IS), a
// `#pragma omp threadprivate` or `thread_local` array. Two iterations on
// one thread then touch the same bytes one after the other, by design; on
// two threads they would touch two threads' storage.
//
// An access is thread-owned when its address is computed from something of
// the running thread's own: omp_get_thread_num(), a variable of thread
// storage duration (thread_local, threadprivate), or a variable private to
// the thread whose every value is computed from those. `races` compares two
// thread-owned accesses only when different threads made them.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_THREADOWNERSHIP_H
#define WGTRACE_REWRITER_THREADOWNERSHIP_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace wgtrace {
namespace rewriter {

using VarSet = llvm::DenseSet<const clang::VarDecl *>;

/// The local variables of \p FunctionBody (not parameters, none of
/// \p Shared) that only ever hold values computed from the running
/// thread's own (dependsOnThread): each is given at least one value, every
/// value it is given is such, and its address never escapes.
VarSet threadValuedVariables(const clang::Stmt *FunctionBody,
                             const VarSet &Shared);

/// Whether \p VD has thread storage duration: thread_local, or named by
/// `#pragma omp threadprivate` on any of its declarations.
bool hasThreadStorage(const clang::VarDecl *VD);

/// Whether the expression \p E (an lvalue: its address; an rvalue: its
/// value) is computed from omp_get_thread_num(), a variable of thread
/// storage duration or one of \p ThreadValued.
bool dependsOnThread(const clang::Expr *E, const VarSet &ThreadValued);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_THREADOWNERSHIP_H
