//===- MacroTokens.cpp - The tokens the main file's macros expand to ------===//

#include "MacroTokens.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"

using namespace clang;
using namespace llvm;

namespace wgtrace {
namespace rewriter {

namespace {
/// Notes the expansions that printed tokens would not reproduce.
class UnprintableExpansions : public PPCallbacks {
public:
  explicit UnprintableExpansions(MacroTokens &Tokens) : Tokens(Tokens) {}

  // A _Pragma in a macro acts when it is expanded; its tokens do not reach
  // the parser as text that could be written out again.
  void PragmaDirective(SourceLocation Loc,
                       PragmaIntroducerKind Introducer) override {
    if (Introducer != PIK_HashPragma)
      Tokens.markUnprintable(Loc, "it holds a _Pragma");
  }

  // __COUNTER__ counts its expansions: written out as the number it gave,
  // the later ones in the file would give one less.
  void MacroExpands(const Token &Name, const MacroDefinition &MD,
                    SourceRange Range, const MacroArgs *Args) override {
    (void)Range;
    (void)Args;
    const MacroInfo *MI = MD.getMacroInfo();
    if (MI && MI->isBuiltinMacro() && Name.getIdentifierInfo() &&
        Name.getIdentifierInfo()->getName() == "__COUNTER__")
      Tokens.markUnprintable(Name.getLocation(), "it expands __COUNTER__");
  }

private:
  MacroTokens &Tokens;
};
} // namespace

void MacroTokens::attach(Preprocessor &PP) {
  SM = &PP.getSourceManager();
  PP.addPPCallbacks(std::make_unique<UnprintableExpansions>(*this));
  PP.setTokenWatcher([this](const Token &T) {
    SourceLocation Loc = T.getLocation();
    if (!Loc.isMacroID())
      return;
    SourceLocation At = SM->getExpansionLoc(Loc);
    if (!SM->isWrittenInMainFile(At))
      return;
    // An annotation stands for what a pragma handler made of its tokens.
    if (T.isAnnotation())
      markUnprintable(Loc, "it holds a pragma");
    Tokens[SM->getFileOffset(At)].push_back(T);
  });
}

const std::vector<Token> *MacroTokens::tokensAt(unsigned Begin) const {
  auto It = Tokens.find(Begin);
  return It == Tokens.end() ? nullptr : &It->second;
}

StringRef MacroTokens::unprintable(unsigned Begin) const {
  auto It = Unprintable.find(Begin);
  return It == Unprintable.end() ? StringRef() : StringRef(It->second);
}

void MacroTokens::markUnprintable(SourceLocation Loc, StringRef Reason) {
  if (!SM || !Loc.isMacroID())
    return;
  SourceLocation At = SM->getExpansionLoc(Loc);
  if (SM->isWrittenInMainFile(At))
    Unprintable.try_emplace(SM->getFileOffset(At), Reason.str());
}

} // namespace rewriter
} // namespace wgtrace
