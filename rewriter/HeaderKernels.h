//===- HeaderKernels.h - Kernels of project headers used here ---*- C++ -*-===//
//
// A kernel defined in a project header (a template, or an inline function)
// is launched from the files that include it. The header is not rewritten:
// other files include it as it is. Instead each rewritten file that uses
// the kernel gets an instrumented copy of it (HelperCloner), and the uses
// written in the file (dispatch arguments, direct calls, addresses taken)
// are redirected to the copy. The copies of every file record their
// workgroups under one module shared by all of them (an inline variable
// named after the kernel's place), so the kernel is one function in the
// trace's metadata however many files launch it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_HEADERKERNELS_H
#define WGTRACE_REWRITER_HEADERKERNELS_H

#include "KernelFinder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// A reference to a header kernel written in the main file.
struct KernelReference {
  const clang::DeclRefExpr *Ref = nullptr;
  /// The declaration the reference is written in (a function, a variable).
  const clang::Decl *Enclosing = nullptr;
  /// Index of the kernel in the list searched.
  size_t Kernel = 0;
};

/// The references to Kernels (defined in headers) written in the main
/// file, in source order; each instantiation of a template repeats its
/// references.
std::vector<KernelReference>
findKernelReferences(clang::ASTContext &Ctx,
                     const std::vector<KernelDef> &Kernels);

/// For each of Functions (defined in headers), the functions defined
/// outside the main file that refer to it (call it, take its address),
/// each once, in the order found: their uses run the header's original,
/// not the main file's copy.
std::vector<std::vector<const clang::FunctionDecl *>>
findReferencesOutsideMainFile(clang::ASTContext &Ctx,
                              const std::vector<KernelDef> &Functions);

/// The references that the bodies of Callers (functions of headers, as
/// written: a template's every instantiation) make to Functions, each with
/// its caller (as written) as Enclosing.
std::vector<KernelReference>
findReferencesFrom(llvm::ArrayRef<const clang::FunctionDecl *> Callers,
                   const std::vector<KernelDef> &Functions);

/// The name of the module the copies of a header kernel share: the same
/// in every file, for the kernel's file, line and name.
std::string sharedModuleName(llvm::StringRef File, unsigned Line,
                             llvm::StringRef Kernel);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_HEADERKERNELS_H
