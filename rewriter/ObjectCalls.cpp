//===- ObjectCalls.cpp - Members of library objects that are kernel memory ===//
//
// A container's member functions are the container's business: its
// elements are recorded where the kernel uses what an accessor hands out,
// and the members that touch elements are recorded or reported
// (untracedLibraryCall). A standard class that is no container (std::pair,
// std::tuple, std::optional, std::bitset, std::unique_ptr,
// std::shared_ptr, std::function) has no elements: what its members read
// and write is the object's own bytes. When the object is kernel memory (a
// parameter's pointee, an element of a buffer, a member of one) each such
// call reads or writes kernel memory in library code, which no macro can
// wrap: `b[i].set(3)`, `o[i].has_value()`, `p[i] = {a, 1.0}` (std::pair's
// assignment is not trivial), `u[i].reset()` went unrecorded in silence.
// They are reported untraced. What is recorded instead: trivial
// assignments (a load and a store, VisitCXXOperatorCallExpr), std::get
// (the member it names, MemoryModel), std::atomic (atomicCall),
// std::complex (ComplexCalls.cpp), and the members that only hand out
// access to what the object holds without reading it (std::optional's
// `*o` and `o->`, whose use by the kernel is recorded). Iterators are left
// to untracedNodeStep: the memory model takes one made from kernel memory
// for memory, though it is the kernel's own.
//
//===----------------------------------------------------------------------===//

#include "AccessCollector.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

/// Whether member M of a standard class that is no container leaves its
/// object's bytes alone: it hands out access to what the object holds
/// without reading it, answers a constant, or calls what the object holds
/// (`f(x)` on a std::function, reported for its own reason).
static bool leavesObjectAlone(const CXXMethodDecl *M) {
  const CXXRecordDecl *RD = M->getParent();
  StringRef Class = RD->getIdentifier() ? RD->getName() : "";
  if (OverloadedOperatorKind Op = M->getOverloadedOperator()) {
    if (Op == OO_Call)
      return true;
    // std::optional's `*o` and `o->` name its payload (libstdc++ checks the
    // engaged flag only under _GLIBCXX_ASSERTIONS, as v[i] checks the
    // index); a smart pointer's read the pointer it holds.
    return Class == "optional" && (Op == OO_Star || Op == OO_Arrow);
  }
  // std::bitset's size() is its template argument.
  return M->getIdentifier() && Class == "bitset" &&
         (M->getName() == "size" || M->getName() == "max_size");
}

bool AccessCollector::untracedObjectCall(const CallExpr *E,
                                         const CXXMethodDecl *M,
                                         const Expr *Object,
                                         const std::string &Qualified) {
  const CXXRecordDecl *RD = M->getParent();
  // An iterator is judged where it steps (untracedNodeStep); the memory
  // model takes one made from kernel memory (`--it`) for memory.
  if (!RD->isInStdNamespace() || isContainerClass(RD) ||
      !RD->lookup(&RC.Ctx.Idents.get("iterator_category")).empty() ||
      isLibraryBookkeeping(RC.Ctx.getRecordType(RD)) || leavesObjectAlone(M))
    return false;
  const Expr *Bare = Object->IgnoreParenImpCasts();
  const CXXRecordDecl *Own = Bare->getType()->isPointerType()
                                 ? Bare->getType()->getPointeeCXXRecordDecl()
                                 : Bare->getType()->getAsCXXRecordDecl();
  // An object of an empty class (std::allocator, std::less) has no bytes
  // to touch; the class of the member may be an empty base of a class
  // that has some (std::__shared_ptr_access of std::shared_ptr).
  if (!Own || !Own->hasDefinition() || Own->getDefinition()->isEmpty())
    return false;
  const bool IsMemory = Bare->getType()->isPointerType()
                            ? Model.pointerTargetIsMemory(Bare)
                            : Bare->isGLValue() && Model.isMemory(Bare);
  if (!IsMemory)
    return false;
  // A member of a library base (std::__shared_ptr_access::operator*) is
  // named by the object's class.
  std::string Name = Qualified;
  if (RD->getIdentifier() && RD->getName().starts_with("__"))
    Name = Own->getQualifiedNameAsString() + "::" + M->getNameAsString();
  RC.untraced(
      E,
      "'" + Name + "' reads or writes '" +
          Lexer::getSourceText(RC.SM.getExpansionRange(Bare->getSourceRange()),
                               RC.SM, RC.Ctx.getLangOpts())
              .str() +
          "', kernel memory, in library code, which wgtrace does not "
          "record",
      AccessKind::Call);
  return true;
}

} // namespace rewriter
} // namespace wgtrace
