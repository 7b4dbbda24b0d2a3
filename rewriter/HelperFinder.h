//===- HelperFinder.h - Functions that kernels call -------------*- C++ -*-===//
//
// A kernel rarely does all its work in its own body: it calls helpers. A
// helper defined in the file being rewritten is instrumented too, without a
// prologue: its accesses happen while the calling kernel's workgroup is
// current, so they are recorded as that workgroup's. The set is closed over
// calls (helpers of helpers).
//
// A helper defined in one of the project's headers (not a system header)
// is copied, instrumented, into the main file by HelperCloner when it can
// be (the header itself is not rewritten); otherwise it is reported.
//
// Not helpers: functions in system headers and the standard library,
// kernels (they have their own prologue), functions marked
// WGTRACE_NO_INSTRUMENT, constexpr functions (a wrap would make them
// unusable in constant expressions), and a class's accessors and
// bookkeeping while they only name memory: constructors, destructors,
// conversions, overloaded operators, member functions that return a
// reference or a pointer, and const member functions whose body is a
// single return statement (getters), whose body computes what they return
// from the object's own storage and their parameters and calls no work
// (AccessorBody.h). What such an accessor returns is recorded where the
// kernel uses it (v[i], c.at(i)), which is what the kernel actually
// touched; the container's own fields are not the kernel's data. One that
// reads or writes memory beyond the object (`&list_[start_[i]]`, a
// functor's loop, a constructor filling a buffer) or calls work is a
// helper, else what it touches would be lost in silence.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_HELPERFINDER_H
#define WGTRACE_REWRITER_HELPERFINDER_H

#include "KernelFinder.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseSet.h"

#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// A helper the kernels call that is defined in one of the project's
/// headers and cannot be copied into the main file (Reason says why).
struct UnrewrittenHelper {
  const clang::FunctionDecl *Written;
  clang::SourceLocation CallLoc;
  std::string Reason;
  /// The kernel or helper (as written) that makes the call.
  const clang::FunctionDecl *Caller = nullptr;
};

/// A direct call made by a kernel or a helper (as written: for templates,
/// the pattern), to any function.
struct HelperCall {
  const clang::FunctionDecl *Caller;
  const clang::FunctionDecl *Callee;
  const clang::CallExpr *Call;
  /// A call on the way to the OpenMP loops of a copied member function
  /// (FileRewriter's traceHeaderOmp), not a kernel's: redirected whenever
  /// it can be, and reported when it cannot, the loops it reaches being
  /// traced in the copy only.
  bool TowardLoops = false;
};

/// A function a call through a pointer made by a kernel or a helper may
/// reach, which is instrumented (in place, or copied from a header) and
/// registered with the runtime under its plain address
/// (<wgtrace/detail/indirect.h>).
struct IndirectTarget {
  /// The function (an instantiation, for a template).
  const clang::FunctionDecl *Function;
  /// Reached through a member function pointer (else: a function pointer
  /// or a std::function).
  bool Member;
};

/// A call of a function that another file defines (only declared here),
/// checked at run time: the defining file, rewritten with --whole-target,
/// registers it (runtime's definedElsewhere).
struct ElsewhereCall {
  const clang::CallExpr *Call;
  const clang::FunctionDecl *Callee;
  /// The kernel or helper (as written) that makes the call.
  const clang::FunctionDecl *Caller;
};

/// What the kernels reach. KernelDef is reused: a helper too is written
/// once and may have several instantiations.
struct FoundHelpers {
  /// Helpers defined in the main file, in source order.
  std::vector<KernelDef> InMainFile;
  /// Helpers defined in project headers that are copied into the main
  /// file, in translation-unit order.
  std::vector<KernelDef> InHeaders;
  /// Header helpers that cannot be copied, once each.
  std::vector<UnrewrittenHelper> Unrewritten;
  /// Functions of the project (not of system headers) that kernels or
  /// helpers call but that this file only declares, once each.
  std::vector<UnrewrittenHelper> Undefined;
  /// With --whole-target, the calls of such functions that the runtime
  /// checks instead (those it can name: not constructors, destructors,
  /// virtual or template functions).
  std::vector<ElsewhereCall> Elsewhere;
  /// With --whole-target, the helpers (as written) that only exported
  /// functions reach, not this file's kernels: what they cannot record is
  /// reported at run time, when another file's kernel calls them, instead
  /// of as noise in functions no kernel may ever call.
  llvm::DenseSet<const clang::FunctionDecl *> EntryOnly;
  /// Every direct call in the bodies of kernels and helpers.
  std::vector<HelperCall> Calls;
  /// What their calls through pointers may reach, in translation-unit
  /// order: functions of the main file and of project headers whose type
  /// such a call names (see IndirectTarget). Those of headers that cannot
  /// be copied are not here: calls that reach them are counted at run
  /// time.
  std::vector<IndirectTarget> IndirectTargets;
};

/// The functions of the main file that other files of the target may
/// call and that the runtime can find by their address: externally
/// visible, not templates, constructors, destructors, virtual or
/// non-public members, `main` or kernels. With --whole-target each is
/// instrumented in place (or, an accessor or bookkeeping, left as it is)
/// and registered.
std::vector<const clang::FunctionDecl *>
exportedFunctions(clang::ASTContext &Ctx);

/// Exported: exportedFunctions(), when the file is rewritten with
/// --whole-target (its calls of functions of other files are then checked
/// at run time, in Elsewhere, rather than reported).
FoundHelpers
findHelpers(clang::ASTContext &Ctx, const std::vector<KernelDef> &Kernels,
            const std::vector<const clang::FunctionDecl *> *Exported = nullptr);

/// Whether Call (a member call or an operator) calls a virtual function
/// through the object's virtual table: not qualified (`Base::f()` calls
/// Base's), nor final. The function that runs is the override of the
/// object's class.
bool isVirtualDispatch(const clang::Expr *Call);
/// The member expression (`p->f`, `o.f`) of Call when it is a member call
/// dispatched through the virtual table (an operator's is not one).
const clang::MemberExpr *virtualDispatch(const clang::Expr *Call);

/// Whether any declaration of FD is marked WGTRACE_NO_INSTRUMENT.
bool isOptedOut(const clang::FunctionDecl *FD);

/// Whether the function Written (as written; Def its definition a call
/// reaches) is instrumented as a helper when a kernel calls it: not an
/// accessor or bookkeeping that only names memory.
bool recordsAsHelper(const clang::FunctionDecl *Written,
                     const clang::FunctionDecl *Def);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_HELPERFINDER_H
