//===- AlgorithmCalls.h - Standard algorithms over kernel memory -*- C++
//-*-===//
//
// A standard algorithm (std::copy, std::transform_reduce, std::ranges::sort,
// ...) called in a kernel reads and writes the kernel's buffers in library
// code that the rewriter does not rewrite. When one of the call's ranges is
// kernel memory, the call is redirected to the function of the same name in
// <wgtrace/algorithms.h>, with one role per argument as template arguments
// and the call's access site (kind Call, the call's place and text) as its
// argument: `std::copy(a, a + n, b)` becomes
// `::wgtrace::detail::recorded::copy<'M', 'M', 'M'>(WGTRACE_ACCESS_SITE(n))(
// a, a + n, b)`. That runs the library's own algorithm on iterators that
// record each element access as the algorithm makes it, with the call's
// site.
//
// The roles come from a table of the algorithms' forms (which arguments
// are iterators, ranges, values, callables, projections) and from the
// memory model (which iterators and ranges are kernel memory), and, for a
// callable, from whether wgtrace instruments it (a lambda written in the
// function being rewritten) and how it takes its element parameters.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_ALGORITHMCALLS_H
#define WGTRACE_REWRITER_ALGORITHMCALLS_H

#include "MemoryModel.h"
#include "RewriteContext.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace wgtrace {
namespace rewriter {

/// If E calls a standard algorithm that wgtrace records, redirects it (or
/// reports why its element accesses are not recorded) and returns true.
/// Scope is the function whose body is being rewritten: lambdas written in
/// it are instrumented with it.
/// Redirects a standard algorithm's call to wgtrace's recording version,
/// or reports it untraced; false when E calls no algorithm it knows. A
/// value of kernel memory that the algorithm reads exactly once, before it
/// touches an element (std::fill's scalar value, which libstdc++ copies
/// into a local first), is added to \p ReadOnce: the caller records its
/// load where the call evaluates its arguments.
bool redirectAlgorithmCall(
    RewriteContext &RC, const MemoryModel &Model, const clang::CallExpr *E,
    const clang::FunctionDecl *Scope,
    llvm::SmallVectorImpl<const clang::Expr *> &ReadOnce);

/// The assignment a call of an algorithm that only assigns elements
/// (std::copy, copy_n, copy_backward, move, move_backward, fill, fill_n;
/// not their std::ranges forms) runs on each element when the elements
/// are of a class that is not trivially copyable: the class's one copy
/// assignment operator, written by the user (`x = v.x; y = v.y; return
/// *this;`), when it is what the algorithm runs (the class has no move
/// assignment, which a move would run instead) and wgtrace instruments it
/// (in place in the main file, as an instrumented copy of a project
/// header's). Operator is null, and Why says why, when the call's elements
/// are of such a class but their assignment cannot be recorded; both are
/// empty when the call is none of these.
struct ElementAssignment {
  const clang::CXXMethodDecl *Operator = nullptr;
  /// Defined in the main file: instrumented in place.
  bool InMainFile = false;
  std::string Why;
};
ElementAssignment elementAssignment(const clang::CallExpr *E);

/// Whether Arg is an iterator object (a class with an iterator_category,
/// not a pointer) into kernel memory: `v.begin()` of a vector whose
/// elements are, a helper's iterator parameter given one.
bool isIteratorIntoMemory(const MemoryModel &Model, const clang::Expr *Arg);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_ALGORITHMCALLS_H
