//===- HelperFinder.h - Functions that kernels call -------------*- C++ -*-===//
//
// A kernel rarely does all its work in its own body: it calls helpers. A
// helper defined in the file being rewritten is instrumented too, without a
// prologue: its accesses happen while the calling kernel's workgroup is
// current, so they are recorded as that workgroup's. The set is closed over
// calls (helpers of helpers).
//
// Not helpers: functions outside the main file (system headers, the
// standard library, other project headers, which this run cannot rewrite),
// kernels (they have their own prologue), functions marked
// WGTRACE_NO_INSTRUMENT, constexpr functions (a wrap would make them
// unusable in constant expressions), and a class's accessors and
// bookkeeping: constructors, destructors, conversions, overloaded operators
// member functions that return a reference or a pointer, and const member
// functions whose body is a single return statement (getters). What an
// accessor returns is recorded where the kernel uses it (v[i], c.at(i)),
// which is what the kernel actually touched; the container's own fields are
// not the kernel's data.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_HELPERFINDER_H
#define WGTRACE_REWRITER_HELPERFINDER_H

#include "KernelFinder.h"

#include "clang/AST/ASTContext.h"

#include <vector>

namespace wgtrace {
namespace rewriter {

/// A helper the kernels call that is defined in one of the project's
/// headers: it would qualify, but this run rewrites the main file only.
struct UnrewrittenHelper {
  const clang::FunctionDecl *Written;
  clang::SourceLocation CallLoc;
};

/// The helpers reachable from Kernels, in source order. KernelDef is reused:
/// a helper too is written once and may have several instantiations.
/// Helpers found in non-system headers are appended to InHeaders, once each.
std::vector<KernelDef> findHelpers(clang::ASTContext &Ctx,
                                   const std::vector<KernelDef> &Kernels,
                                   std::vector<UnrewrittenHelper> &InHeaders);

/// Whether any declaration of FD is marked WGTRACE_NO_INSTRUMENT.
bool isOptedOut(const clang::FunctionDecl *FD);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_HELPERFINDER_H
