//===- NodeIterators.h - Steps of iterators over linked containers -*- C++
//-*-===//
//
// An iterator of a node-based standard container (std::map, std::set,
// their multi and unordered forms, std::list, std::forward_list) steps
// from node to node by reading the links stored in the nodes: `++it`,
// `--it`, `std::next(it)`, `std::advance(it, n)` and the hidden increment
// of a range-for over such a container load kernel memory in library
// code. These functions identify such iterators (by their class in the
// standard library, not by text) and the container an iterator was taken
// from, so that the step is reported untraced, naming it.
//
// std::deque's iterators read its map of blocks only when they cross a
// block's end: they are not counted here (docs/REWRITER.md).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_NODEITERATORS_H
#define WGTRACE_REWRITER_NODEITERATORS_H

#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"

#include <optional>

namespace wgtrace {
namespace rewriter {

/// The family of standard containers whose iterator type T is, when T is
/// an iterator that steps through linked nodes ("std::map or std::set",
/// "std::unordered_map or std::unordered_set", "std::list",
/// "std::forward_list"); none otherwise.
std::optional<llvm::StringRef> nodeIteratorFamily(clang::QualType T);

/// The container the iterator It was taken from (`l` for `l.begin()`, for
/// a local `it` initialized from `m.find(k)`, for `std::next(l.begin())`),
/// or null when it cannot be told.
const clang::Expr *iteratedContainer(const clang::Expr *It);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_NODEITERATORS_H
