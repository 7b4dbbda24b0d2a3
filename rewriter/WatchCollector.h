//===- WatchCollector.h - Records of WGTRACE_WATCH variables ----*- C++ -*-===//
//
// A kernel's local declared `WGTRACE_WATCH(3) float x = ...;` (an
// annotation "wgtrace.watch" with the ordinal) is recorded as a VALUE
// record with that ordinal after its initialisation and after every change
// the kernel spells: assignment, compound assignment, ++ and --. The
// initialisation gets a statement after the declaration
// (`WGTRACE_VALUE(3, x);`); a change is wrapped in
// `::wgtrace::detail::watched(3, __builtin_addressof(x), <change>)`, which
// records x once the change is done and yields the change's own result,
// with its value category. Changes through pointers or references to x are
// not seen.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_WATCHCOLLECTOR_H
#define WGTRACE_REWRITER_WATCHCOLLECTOR_H

#include "RewriteContext.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

struct WatchedVariable {
  unsigned Ordinal;
  std::string Name;
};

class WatchCollector : public clang::RecursiveASTVisitor<WatchCollector> {
  using Base = clang::RecursiveASTVisitor<WatchCollector>;

public:
  explicit WatchCollector(RewriteContext &RC) : RC(RC) {}

  /// Instruments the watched variables of FD's body (one instantiation of a
  /// template: the edits land on the pattern's text).
  void collect(const clang::FunctionDecl *FD);

  /// The watched variables seen so far, in declaration order, once each:
  /// the kernel's layout metadata lists them (" watch: 3=x 4=y").
  const std::vector<WatchedVariable> &watched() const { return Watched; }

  bool VisitCompoundStmt(clang::CompoundStmt *S);
  bool VisitVarDecl(clang::VarDecl *VD);
  bool VisitBinaryOperator(clang::BinaryOperator *E);
  bool VisitUnaryOperator(clang::UnaryOperator *E);

  // Unevaluated operands change nothing.
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(clang::DecltypeTypeLoc) { return true; }
  bool TraverseTypeOfExprTypeLoc(clang::TypeOfExprTypeLoc) { return true; }
  bool TraverseCXXTypeidExpr(clang::CXXTypeidExpr *E) {
    return E->isPotentiallyEvaluated() ? Base::TraverseCXXTypeidExpr(E) : true;
  }

private:
  /// The ordinal of a watched variable (diagnosed once if unusable), or
  /// nothing if VD is not watched.
  std::optional<unsigned> ordinalOf(const clang::VarDecl *VD);
  /// E changes a variable: record it afterwards if it is watched.
  void changed(const clang::Expr *E, const clang::Expr *Target);

  RewriteContext &RC;
  llvm::DenseMap<const clang::VarDecl *, std::optional<unsigned>> Ordinals;
  llvm::DenseSet<const clang::VarDecl *> Initialised;
  std::vector<WatchedVariable> Watched;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_WATCHCOLLECTOR_H
