//===- UserCodeParents.cpp - Parents of the program's own code ------------===//

#include "UserCodeParents.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

UserCodeParents::UserCodeParents(ASTContext &Ctx) : Map(Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> Own;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      Own.push_back(D);
  // A parent map is built from the traversal scope when it is first asked;
  // the context's scope is put back at once (which clears only the
  // context's own map, not this one).
  std::vector<Decl *> Saved = Ctx.getTraversalScope();
  Ctx.setTraversalScope(Own);
  (void)Map.getParents(DynTypedNode::create(*Ctx.getTranslationUnitDecl()));
  Ctx.setTraversalScope(Saved);
}

} // namespace rewriter
} // namespace wgtrace
