//===- KernelFinder.h - Kernels and dispatch sites of a file ----*- C++ -*-===//
//
// Finds, with AST matchers, the two things of a translation unit's main file
// that the rewriter changes: kernel definitions (functions annotated
// "wgtrace.dispatch", i.e. WGTRACE_DISPATCH) and calls of wgtrace::dispatch
// that do not name their dispatch site yet.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_KERNELFINDER_H
#define WGTRACE_REWRITER_KERNELFINDER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

struct KernelDef {
  /// The definition as written: for a template, its pattern.
  const clang::FunctionDecl *Written = nullptr;
  /// The bodies whose accesses are collected: the definition itself, or
  /// every instantiation of a template (the pattern's AST is dependent and
  /// does not say which expressions load).
  std::vector<const clang::FunctionDecl *> Bodies;
};

struct DispatchCall {
  const clang::CallExpr *Call = nullptr;
  /// Instantiations of a template repeat a call; one is kept per location.
  clang::SourceLocation Loc;
};

/// Everything the rewriter acts on, in source order.
struct FoundEntities {
  std::vector<KernelDef> Kernels;
  std::vector<DispatchCall> Calls;
};

/// Whether FD carries __attribute__((annotate(Annotation))).
bool hasAnnotation(const clang::FunctionDecl *FD, llvm::StringRef Annotation);

/// The kernels and dispatch calls written in the main file.
FoundEntities findKernelsAndCalls(clang::ASTContext &Ctx);

/// The qualified name as the user would write it, without template
/// arguments and without "(anonymous namespace)".
std::string kernelName(const clang::FunctionDecl *FD);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_KERNELFINDER_H
