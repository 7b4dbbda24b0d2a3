//===- NodeIterators.cpp - Steps of iterators over linked containers ------===//

#include "NodeIterators.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

/// Whether D is declared in namespace std or one nested in it
/// (std::__detail, std::__cxx11).
static bool isInStdOrNested(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (DC->isStdNamespace())
      return true;
  return false;
}

std::optional<StringRef> nodeIteratorFamily(QualType T) {
  const CXXRecordDecl *RD =
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || !isInStdOrNested(RD))
    return std::nullopt;
  // libstdc++'s iterator classes; their operator++ and operator-- follow
  // the node's links (_M_node->_M_next, _Rb_tree_increment).
  return llvm::StringSwitch<std::optional<StringRef>>(RD->getName())
      .Cases("_Rb_tree_iterator", "_Rb_tree_const_iterator",
             StringRef("std::map or std::set"))
      .Cases("_Node_iterator", "_Node_const_iterator",
             StringRef("std::unordered_map or std::unordered_set"))
      .Cases("_List_iterator", "_List_const_iterator", StringRef("std::list"))
      .Cases("_Fwd_list_iterator", "_Fwd_list_const_iterator",
             StringRef("std::forward_list"))
      .Default(std::nullopt);
}

const Expr *iteratedContainer(const Expr *It) {
  // A few steps back through the iterator's copies: a local initialized
  // from another, a conversion to a const iterator, std::next.
  for (int Depth = 0; It && Depth < 8; ++Depth) {
    It = It->IgnoreImplicit()->IgnoreParens();
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(It)) {
      const Expr *Object = Member->getImplicitObjectArgument();
      if (!Object || nodeIteratorFamily(Object->getType()))
        return nullptr;
      return Object;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(It)) {
      if (Construct->getNumArgs() != 1)
        return nullptr;
      It = Construct->getArg(0);
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(It)) {
      const FunctionDecl *F = Call->getDirectCallee();
      if (!F || !F->getIdentifier() || !isInStdOrNested(F) ||
          Call->getNumArgs() == 0)
        return nullptr;
      StringRef Name = F->getName();
      if (Name == "begin" || Name == "cbegin" || Name == "end" ||
          Name == "cend")
        return Call->getArg(0);
      if (Name != "next" && Name != "prev")
        return nullptr;
      It = Call->getArg(0);
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(It)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit())
        return nullptr;
      It = V->getInit();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

} // namespace rewriter
} // namespace wgtrace
