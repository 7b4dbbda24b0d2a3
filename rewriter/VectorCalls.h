//===- VectorCalls.h - std::vector members that record ----------*- C++ -*-===//
//
// std::vector's push_back, emplace_back, resize, reserve, assign, insert and
// emplace write the vector's elements (and read a value or a range they are
// given) in library code. Called on a vector of kernel memory whose elements
// are of scalar type, the vector is wrapped in
// `::wgtrace::detail::recorded::vector<Roles...>(site, v)`
// (<wgtrace/detail/vector.h>), whose members call the vector's and record
// the loads and stores libstdc++ made, in its order: `v.push_back(a[i])`
// becomes `::wgtrace::detail::recorded::vector<'M'>(WGTRACE_ACCESS_SITE(1),
// v).push_back(a[i])`. swap() exchanges the two vectors' storage and
// touches no element: nothing to record, nothing untraced.
//
// Not handled (reported untraced as other library members are): other
// element types, a vector with another allocator, a range of another kind
// of iterator than a pointer or a vector's, a value of kernel memory given
// as an xvalue (std::move(a[i]) to insert: libstdc++ reads it last) or of
// another type than the elements'.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_VECTORCALLS_H
#define WGTRACE_REWRITER_VECTORCALLS_H

#include "MemoryModel.h"
#include "RewriteContext.h"

#include "clang/AST/ExprCXX.h"

namespace wgtrace {
namespace rewriter {

/// If E is a member call of a std::vector wgtrace records, on Object (a
/// vector of kernel memory), wraps Object and returns true (swap: returns
/// true with nothing to wrap). Sets RC.UsesAlgorithms when it wrapped it.
bool redirectVectorMember(RewriteContext &RC, const MemoryModel &Model,
                          const clang::CXXMemberCallExpr *E,
                          const clang::Expr *Object);

/// If E constructs a std::vector of elements of scalar type from a range
/// of the same elements given by two pointers or a vector's iterators
/// (`std::vector<T> v(first, last)`), wraps the two arguments in
/// `::wgtrace::detail::recorded::vectorFrom<Role>(site, first, last)`,
/// which constructs the vector and records the loads of the range (Role
/// 'M': kernel memory) and the stores into the new storage (on the heap:
/// kernel memory), in libstdc++'s order; from a count, or a count and a
/// value (`v(n)`, `v(n, x)`), in `vectorFilled<Role>(site, n, x)`, which
/// records the stores (and the read of x, Role 'M' when it is kernel
/// memory). Returns true (also when the text could not be wrapped: then
/// it is reported untraced). Sets RC.UsesAlgorithms when it wrapped them.
bool redirectVectorConstruction(RewriteContext &RC, const MemoryModel &Model,
                                const clang::CXXConstructExpr *E);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_VECTORCALLS_H
