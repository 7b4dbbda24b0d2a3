//===- KernelFinder.h - Kernels and dispatch sites of a file ----*- C++ -*-===//
//
// Finds, with AST matchers, the two things of a translation unit's main file
// that the rewriter changes: kernel definitions (functions annotated
// "wgtrace.dispatch", i.e. WGTRACE_DISPATCH, and lambdas passed to
// wgtrace::dispatch, inline or through a variable) and calls of
// wgtrace::dispatch that do not name their dispatch site yet.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_KERNELFINDER_H
#define WGTRACE_REWRITER_KERNELFINDER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

struct KernelDef {
  /// The definition as written: for a template, its pattern; for a lambda,
  /// its call operator (of a generic lambda: the operator template's).
  const clang::FunctionDecl *Written = nullptr;
  /// The bodies whose accesses are collected: the definition itself, or
  /// every instantiation of a template (the pattern's AST is dependent and
  /// does not say which expressions load).
  std::vector<const clang::FunctionDecl *> Bodies;
  /// For a lambda kernel: the lambda expression (one of them: a lambda in
  /// a function template has one per instantiation, at the same text), and
  /// every closure type that stands for it.
  const clang::LambdaExpr *Lambda = nullptr;
  std::vector<const clang::CXXRecordDecl *> Closures;
  /// For an OpenMP loop (OpenMPLoops.h): the bodies of its instances,
  /// which are what is scanned for calls, not Bodies; Written is the
  /// function the loop is in.
  std::vector<const clang::Stmt *> Regions;
};

struct DispatchCall {
  const clang::CallExpr *Call = nullptr;
  /// Instantiations of a template repeat a call; one is kept per location.
  clang::SourceLocation Loc;
  /// The call as each instantiation of the template it is written in makes
  /// it (Call first); Call alone outside templates.
  std::vector<const clang::CallExpr *> Instances;
};

/// Everything the rewriter acts on, in source order.
struct FoundEntities {
  std::vector<KernelDef> Kernels;
  std::vector<DispatchCall> Calls;
  /// Lambdas dispatched from inside a kernel: instrumented as part of that
  /// kernel, not as kernels of their own.
  std::vector<clang::SourceLocation> LambdasInKernels;
  /// Kernels defined in project headers (not system headers), in
  /// translation-unit order: instrumented where the main file uses them.
  std::vector<KernelDef> HeaderKernels;
  /// Dispatch calls written in project headers (not rewritten, so their
  /// launches are not instrumented), once per location.
  std::vector<DispatchCall> CallsInHeaders;
};

/// Whether FD carries __attribute__((annotate(Annotation))).
bool hasAnnotation(const clang::FunctionDecl *FD, llvm::StringRef Annotation);

/// The kernels and dispatch calls written in the main file.
FoundEntities findKernelsAndCalls(clang::ASTContext &Ctx);

/// The qualified name as the user would write it, without template
/// arguments and without "(anonymous namespace)".
std::string kernelName(const clang::FunctionDecl *FD);

/// The closure type of a lambda that E (a dispatch call's kernel argument)
/// designates, if E's type is one: a lambda written in place, or a
/// variable holding one.
const clang::CXXRecordDecl *closureOf(const clang::Expr *E);

/// A lambda's source, from its `[` to its closing brace.
std::string lambdaText(const clang::LambdaExpr *L);

/// A lambda's capture list as written, e.g. "[&, n]".
std::string lambdaCaptures(const clang::LambdaExpr *L);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_KERNELFINDER_H
