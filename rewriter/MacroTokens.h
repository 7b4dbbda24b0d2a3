//===- MacroTokens.h - The tokens the main file's macros expand to -*- C++ -*-//
//
// An access that is only part of a macro's expansion (the store of `(p)[1]`
// in `#define CLEAR(p) (p)[1] = 0`) has no text of its own in the file:
// the macro's body is shared by every expansion. The rewriter then writes
// the invocation out as the tokens it expands to, each access wrapped there
// (RewriteContext::wrapInExpansion). This records those tokens, as the
// parser received them, for each outermost invocation written in the main
// file, and notes the invocations whose tokens printed again would not
// mean the same (a _Pragma, __COUNTER__).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_MACROTOKENS_H
#define WGTRACE_REWRITER_MACROTOKENS_H

#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

class MacroTokens {
public:
  /// Records from now on what PP hands the parser (its token watcher,
  /// which nothing else in the rewriter uses).
  void attach(clang::Preprocessor &PP);

  /// The tokens the outermost invocation that starts at offset Begin of
  /// the main file expands to, in order; null when none were recorded.
  const std::vector<clang::Token> *tokensAt(unsigned Begin) const;

  /// Why the invocation at Begin cannot be written out as its tokens ("" if
  /// it can).
  llvm::StringRef unprintable(unsigned Begin) const;

  /// Notes that the invocation whose expansion holds Loc cannot be written
  /// out as its tokens, for Reason.
  void markUnprintable(clang::SourceLocation Loc, llvm::StringRef Reason);

private:
  const clang::SourceManager *SM = nullptr;
  std::map<unsigned, std::vector<clang::Token>> Tokens;
  std::map<unsigned, std::string> Unprintable;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_MACROTOKENS_H
