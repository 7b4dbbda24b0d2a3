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

#include <vector>

namespace wgtrace {
namespace rewriter {

/// A function as written: a template's pattern, or FD itself.
const clang::FunctionDecl *writtenFunction(const clang::FunctionDecl *FD);

/// The registration entries of Helpers.IndirectTargets; a header function
/// without an emitted copy is left out (calls that reach it are counted at
/// run time).
std::vector<IndirectTargetMeta> indirectTargets(clang::ASTContext &Ctx,
                                                const FoundHelpers &Helpers,
                                                const HelperCloner &Cloner);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_INDIRECTTARGETS_H
