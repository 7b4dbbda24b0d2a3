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
  /// The name, or null for a call of a member function (below) or, with
  /// MemberCalls set, a construction that runs the kernel, a constructor
  /// (which nothing redirects: it says that the constructor is used).
  const clang::DeclRefExpr *Ref = nullptr;
  /// The declaration the reference is written in (a function, a variable).
  const clang::Decl *Enclosing = nullptr;
  /// Index of the kernel in the list searched.
  size_t Kernel = 0;
  /// With MemberCalls set: a call of a member function, through an object
  /// (`a.f(x)`, `p->f(x)`, `f(x)` through `this`) or in the syntax of
  /// operator() (`f(x)` on a functor), which names no function by a
  /// DeclRefExpr that a copy's name could replace.
  const clang::CallExpr *Call = nullptr;
};

/// The references to Kernels (defined in headers) written in the main
/// file, in source order; each instantiation of a template repeats its
/// references. MemberCalls: the calls of those that are member functions
/// too.
std::vector<KernelReference>
findKernelReferences(clang::ASTContext &Ctx,
                     const std::vector<KernelDef> &Kernels,
                     bool MemberCalls = false);

/// For each of Functions (defined in headers), the functions defined
/// outside the main file that refer to it (call it, take its address),
/// each once, in the order found (member calls included): their uses run
/// the header's original, not the main file's copy.
std::vector<std::vector<const clang::FunctionDecl *>>
findReferencesOutsideMainFile(clang::ASTContext &Ctx,
                              const std::vector<KernelDef> &Functions);

/// The references that the bodies of Callers (functions of headers, as
/// written: a template's every instantiation) make to Functions, each with
/// its caller (as written) as Enclosing.
std::vector<KernelReference>
findReferencesFrom(llvm::ArrayRef<const clang::FunctionDecl *> Callers,
                   const std::vector<KernelDef> &Functions,
                   bool MemberCalls = false);

/// The member calls (as KernelReference's Call) that the bodies of Callers
/// (as findReferencesFrom reads them) make at the places of At's calls (by
/// their closing parenthesis),
/// whatever member they call: one text of a template may call a different
/// member in each instantiation.
std::vector<std::pair<const clang::FunctionDecl *, const clang::CallExpr *>>
findMemberCallsAt(llvm::ArrayRef<const clang::FunctionDecl *> Callers,
                  llvm::ArrayRef<KernelReference> At);

/// The member function a member call (a static member's through an object
/// too) or a call of operator() calls, as
/// written (a class template's member for its specialization's), or null.
const clang::FunctionDecl *calledMember(const clang::CallExpr *Call);

/// The name of the module the copies of a header kernel share: the same
/// in every file, for the kernel's file, line and name.
std::string sharedModuleName(llvm::StringRef File, unsigned Line,
                             llvm::StringRef Kernel);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_HEADERKERNELS_H
