//===- UserCodeParents.h - Parents of the program's own code ----*- C++ -*-===//
//
// The walks from a launch up to the function it is written in need the
// parents of AST nodes. ASTContext::getParents maps the whole translation
// unit on its first use, the standard headers' declarations and every
// instantiation of their templates too: on the samples that was a sixth of
// the rewriter's time, for a handful of launches (bench/rewriter_speed.py's
// helper.cc: 1.3-1.7x clang -fsyntax-only, against a 1.5x budget). A
// launch in a system header is not the user's (KernelFinder skips them),
// so this map covers only the top-level declarations outside system
// headers, and is built once, leaving the ASTContext's own map and
// traversal scope as they were.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_USERCODEPARENTS_H
#define WGTRACE_REWRITER_USERCODEPARENTS_H

#include "clang/AST/ParentMapContext.h"

namespace wgtrace {
namespace rewriter {

class UserCodeParents {
public:
  explicit UserCodeParents(clang::ASTContext &Ctx);

  /// The parents of \p Node, which is in the program's own code.
  clang::DynTypedNodeList parents(const clang::DynTypedNode &Node) {
    return Map.getParents(Node);
  }

private:
  clang::ParentMapContext Map;
};

} // namespace rewriter
} // namespace wgtrace

#endif
