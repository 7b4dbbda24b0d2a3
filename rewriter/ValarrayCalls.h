//===- ValarrayCalls.h - std::valarray operations that record ---*- C++ -*-===//
//
// std::valarray's operators, compound assignments, math functions and
// sum/min/max/apply/shift/cshift read and write the arrays' elements in
// library code. Each valarray that takes part in one is wrapped in
// `::wgtrace::detail::va::recorded(site, A)`, and the math functions are
// sent to their versions in <wgtrace/detail/valarray.h>, whose operators
// evaluate the same expressions in libstdc++'s order with every element
// access recorded: `A += B + s * C` becomes
// `::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(1), A) +=
// ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(2), B) + s *
// ::wgtrace::detail::va::recorded(WGTRACE_ACCESS_SITE(3), C)`.
//
// A scalar of kernel memory an operation takes by reference is wrapped in
// `::wgtrace::detail::va::scalar(site, s)`: the library reads it for every
// element.
//
// Slices, masks and indirect arrays (A[std::slice(...)]) are not handled:
// they are reported untraced as other library member functions are.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_VALARRAYCALLS_H
#define WGTRACE_REWRITER_VALARRAYCALLS_H

#include "MemoryModel.h"
#include "RewriteContext.h"

#include "clang/AST/Expr.h"

namespace wgtrace {
namespace rewriter {

/// If E is a std::valarray operation wgtrace records, wraps its valarray
/// operands (and redirects a math function) and returns true. Sets
/// RC.UsesValarrays when it wrapped something.
bool redirectValarrayCall(RewriteContext &RC, const MemoryModel &Model,
                          const clang::CallExpr *E);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_VALARRAYCALLS_H
