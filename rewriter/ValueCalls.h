//===- ValueCalls.h - Library calls on values of kernel memory --*- C++ -*-===//
//
// std::min, std::max, std::minmax and std::clamp read their arguments, and
// std::swap, std::exchange and std::ranges::swap read and write them, in
// library code the rewriter does not rewrite. When an argument is kernel
// memory, the call is redirected to a recording copy in
// <wgtrace/detail/intrinsics.h> that makes the same accesses in libstdc++'s
// order, with template flags saying which arguments are memory: only those
// are recorded, never a temporary, a local or a by-value parameter.
//
// The result of std::min, std::max and std::clamp is a reference to one of
// the arguments. Where the caller reads it at once and only some arguments
// are memory, whether that read touches memory is known only when the
// program runs: the copy then returns which argument it chose, and
// `readChosen` records the read only when that argument is memory.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_VALUECALLS_H
#define WGTRACE_REWRITER_VALUECALLS_H

#include "MemoryModel.h"
#include "RewriteContext.h"

#include "clang/AST/Expr.h"

namespace wgtrace {
namespace rewriter {

/// Whether E calls std::min, std::max or std::clamp of numbers, some but
/// not all of whose arguments are kernel memory: the read of its result
/// touches memory only when the call returns one of those.
bool returnsMemoryOnlySometimes(const MemoryModel &Model,
                                const clang::CallExpr *E);

/// Wraps the read of E's result (E as above) so that it is recorded only
/// when the chosen argument is memory. Returns false when E's text cannot
/// be wrapped (reported untraced); then the call keeps its plain form.
bool wrapChosenRead(RewriteContext &RC, const clang::CallExpr *E,
                    const clang::Expr *Spelled);

/// If E is one of the calls above, redirects it to its recording copy when
/// an argument is kernel memory and returns true. ChosenRead: the caller's
/// read of the result was wrapped by wrapChosenRead.
bool redirectValueCall(RewriteContext &RC, const MemoryModel &Model,
                       const clang::CallExpr *E, bool ChosenRead);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_VALUECALLS_H
