//===- NewObjectStores.h - What new writes to its object -------*- C++ -*-===//
//-*-===//
//
// `new T(args)` writes the object it makes: a scalar's value, and for a
// class what its constructor stores, its bases' first (their virtual
// table pointers and fields), then its own virtual table pointer, then
// its member initializers in order, then its body's assignments. No
// expression of the kernel spells those stores; the rewriter records them
// after the new-expression, in that order, where it can tell them exactly
// from the constructors' text: every value they store is computed from
// by-value parameters and constants (reading no memory, so that no load
// falls between two stores), one virtual table pointer at most, no
// bit-field, no array. Otherwise it says why not.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_NEWOBJECTSTORES_H
#define WGTRACE_REWRITER_NEWOBJECTSTORES_H

#include "clang/AST/ExprCXX.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// Bytes of the new object one store writes.
struct StoredRange {
  int64_t Offset;
  int64_t Length;
};

/// The stores E makes to the object it allocates, in the order the
/// compiler makes them, put in Stores (none: it writes nothing, as a
/// trivial default construction). Returns why they cannot be told
/// exactly (a reason as the untraced table gives it), or "" when they can.
std::string newObjectStores(const clang::CXXNewExpr *E, clang::ASTContext &Ctx,
                            std::vector<StoredRange> &Stores);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_NEWOBJECTSTORES_H
