//===- HelperCloner.h - Instrumented copies of header helpers ---*- C++ -*-===//
//
// A kernel's helpers often live in the project's own headers. The rewriter
// cannot rewrite a header: other files include it, uninstrumented. Instead
// it copies each such helper into the rewritten file, instrumented, under a
// name of its own (`<name>_wgtrace_<N>`, internal linkage, same namespace,
// a template stays a template), and redirects the calls that kernels and
// other copied helpers make to the copy. The header and every other caller
// keep the original.
//
// The copy goes in front of the first top-level declaration of the main
// file that calls it (after the includes that declare what the helper
// uses), framed by #line directives: inside the copy, diagnostics name the
// header's lines; after it, numbering returns to the main file's, so every
// original line keeps its number.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_HELPERCLONER_H
#define WGTRACE_REWRITER_HELPERCLONER_H

#include "EditSet.h"
#include "HeaderKernels.h"
#include "HelperFinder.h"
#include "KernelFinder.h"
#include "PrivateAccess.h"
#include "RewriteContext.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// Why the helper Written (defined in a project header) cannot be copied
/// into the main file; empty if it can. CallOperator: a member operator()
/// can be (whyMemberNotCopyable).
std::string whyNotCopyable(const clang::FunctionDecl *Written,
                           bool CallOperator = false);

class HelperCloner {
public:
  /// Main edits the main file, which #line directives name as MainPath.
  HelperCloner(RewriteContext &Main, std::string MainPath);
  ~HelperCloner();

  /// Instruments the bodies of a copyable header helper (edits of its
  /// header's text, applied to the copy only).
  void add(const KernelDef &Helper, bool RecordAccesses = true);

  /// The same for a kernel defined in a project header (HeaderKernels.h),
  /// or for a function whose OpenMP loops are traced (RecordAccesses
  /// false: only what the caller instruments). Returns the context that
  /// edits the copy's text, for the kernel's prologue or the loops.
  RewriteContext &addKernel(const KernelDef &Kernel, bool RecordAccesses);
  /// Whether the header function Written has a copy added.
  bool copies(const clang::FunctionDecl *Written) const {
    return CloneIndex.count(Written) != 0;
  }
  /// The definition of the module the copies of header kernel Written
  /// record under: it goes before the copy.
  void setSharedModule(const clang::FunctionDecl *Written,
                       std::string Definition);

  /// Redirects the calls and the references to header kernels (to copies
  /// where they can be placed before the caller) and inserts the copies
  /// into the main file's edits. The copies of Roots (helpers that calls
  /// through pointers may reach) are emitted whether or not a call names
  /// them: at the end of the main file at the latest, where they are
  /// registered.
  /// Placed, when given, runs once the copies' places are known (copyPlace)
  /// and before the headers' edits become the copies' text.
  void finish(llvm::ArrayRef<HelperCall> Calls,
              llvm::ArrayRef<KernelReference> References = {},
              llvm::ArrayRef<KernelDef> HeaderKernels = {},
              llvm::ArrayRef<const clang::FunctionDecl *> Roots = {},
              llvm::function_ref<void()> Placed = nullptr);

  /// Where in the main file the copy of the header function Written goes
  /// (what its text can name is what is declared before), or none when it
  /// has no copy emitted. Known from finish's Placed on.
  std::optional<clang::SourceLocation>
  copyPlace(const clang::FunctionDecl *Written) const;

  /// The name of the emitted copy of the header function Written, as the
  /// end of the main file spells it (`::lib::f_wgtrace_0`), or "" when it
  /// has none.
  std::string copyName(const clang::FunctionDecl *Written) const;

  /// Whether a copy calls a standard algorithm that records
  /// (<wgtrace/algorithms.h>).
  bool usesAlgorithms() const;
  /// Whether a copy records std::valarray operations
  /// (<wgtrace/detail/valarray.h>).
  bool usesValarrays() const;

private:
  struct Clone;
  struct HeaderEdits;
  struct Site;
  struct Use;

  /// The name of C's copy from the global scope (`::lib::f_wgtrace_0`).
  static std::string qualifiedName(const Clone &C);
  /// Fills in S for a call Op of a copied operator written in operator
  /// syntax (`a + b`, `-v`), which the copy's call by name replaces; false,
  /// with the call reported untraced, if it cannot be.
  bool operatorSyntaxSite(const clang::CXXOperatorCallExpr &Op, const Use &U,
                          Site &S);

  /// Fills in S for a call Op of a copied operator() (`f(a)`, on the way
  /// to OpenMP loops), which `copy(f, a)` replaces; false, with the call
  /// reported untraced, if it cannot be.
  bool callOperatorSite(const clang::CXXOperatorCallExpr &Op, const Use &U,
                        Site &S);

  /// Sets where S's caller (S.Caller, its text in S.File) is: the copy it
  /// is written in, or its top-level declaration in the main file; false
  /// if its text is in neither (a header's function that is not copied).
  bool placeCaller(Site &S) const;

  /// Fills in S (its callee set, its range the name) for a use of a
  /// copied static member function named by a DeclRefExpr (`Grid::sum(a,
  /// n)`, `PackF::twice`, `sum(a, n)` in another member): the copy's name
  /// takes the place of the qualifier and the name, with a class
  /// template's arguments; false, with the use reported, if it cannot.
  bool staticMemberSite(const Use &U, Site &S);

  /// Adds the site of Call, a call of a static member through an object
  /// (`g->sum(a, n)`), when it calls a copied member; reports it if it
  /// cannot be redirected.
  void staticObjectCallSite(const clang::CallExpr &Call,
                            const clang::MemberExpr &Callee,
                            const HelperCall &HC, std::vector<Site> &Sites);

  /// Adds the site of Call (a member call in HC) when it calls a copied
  /// member: `p.x()`, `q->f(a)`, or through `this` in a copied member;
  /// reports it if it cannot be redirected.
  void memberCallSite(const clang::CXXMemberCallExpr &Call,
                      const HelperCall &HC, std::vector<Site> &Sites);

  /// Adds the sites of the algorithm calls whose elements' operator= is a
  /// copy (RewriteContext::PendingAssignment), of the main file and of the
  /// copies; drops those that cannot call it.
  void assignmentSites(std::vector<Site> &Sites);
  /// Leaves the algorithm call P as written, reported untraced (Why).
  void dropAssignment(RewriteContext &RC,
                      const RewriteContext::PendingAssignment &P,
                      llvm::StringRef Why);

  HeaderEdits &editsFor(clang::FileID File);
  void assignNames();
  std::vector<Site> collectSites(llvm::ArrayRef<HelperCall> Calls,
                                 llvm::ArrayRef<KernelReference> References,
                                 llvm::ArrayRef<KernelDef> HeaderKernels);
  void place(std::vector<Site> &Sites);
  void emit();
  std::string cloneText(const Clone &C, bool DeclarationOnly);

  RewriteContext &Main;
  clang::SourceManager &SM;
  std::string MainPath;
  std::vector<Clone> Clones;
  llvm::DenseMap<const clang::FunctionDecl *, size_t> CloneIndex;
  std::map<clang::FileID, std::unique_ptr<HeaderEdits>> Headers;
  /// The tags through which copies name non-public members.
  PrivateAccess Access;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_HELPERCLONER_H
