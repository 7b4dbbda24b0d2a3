//===- IndirectTargets.h - What calls through pointers reach ----*- C++ -*-===//
//
// The functions HelperFinder found that calls through pointers of kernels
// and helpers may reach, as the end of the rewritten file registers them
// (emitIndirectTargets): each one's plain address, spelled from the end of
// the file, with its instrumented version (itself when it is instrumented
// in place, its copy when it is a header's).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_INDIRECTTARGETS_H
#define WGTRACE_REWRITER_INDIRECTTARGETS_H

#include "HelperCloner.h"
#include "HelperFinder.h"
#include "MetadataEmitter.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// A function as written: a template's pattern, or FD itself.
const clang::FunctionDecl *writtenFunction(const clang::FunctionDecl *FD);

/// How code outside any scope names a function and its pointer's type.
struct FunctionSpelling {
  /// Fully qualified from the global scope: `::ns::C::f`.
  std::string Name;
  /// A template instantiation's arguments (`<float, 4>`), or "".
  std::string Arguments;
  /// The type of `&Name` with the arguments: `void (*)(int)` spelled as
  /// the function type `void (int)`, or `void (C::*)(int) const` for a
  /// member (Member).
  std::string Type;
};
FunctionSpelling spellFunction(clang::ASTContext &Ctx,
                               const clang::FunctionDecl *FD, bool Member);

/// The registration entries of Helpers.IndirectTargets; a header function
/// without an emitted copy is left out (calls that reach it are counted at
/// run time). Those in Partial (as written) are registered as instrumented
/// in part.
std::vector<IndirectTargetMeta>
indirectTargets(clang::ASTContext &Ctx, const FoundHelpers &Helpers,
                const HelperCloner &Cloner,
                const llvm::DenseSet<const clang::FunctionDecl *> &Partial);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_INDIRECTTARGETS_H
