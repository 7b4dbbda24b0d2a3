//===- RewriteContext.cpp - State shared by the parts of one rewrite ------===//

#include "RewriteContext.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

RewriteContext::RewriteContext(ASTContext &Ctx, EditSet &Edits, FileID Target)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Edits(Edits),
      Target(Target.isValid() ? Target : SM.getMainFileID()) {}

std::optional<std::pair<unsigned, unsigned>>
RewriteContext::editRange(SourceRange R, bool &InMacro) const {
  InMacro = false;
  SourceLocation B = R.getBegin(), E = R.getEnd();
  if (B.isInvalid() || E.isInvalid())
    return std::nullopt;
  if (B.isMacroID() || E.isMacroID()) {
    // Only an access spelled whole inside one macro argument is editable:
    // its text is the user's and appears once in the file. Text that comes
    // from a macro body is shared by every expansion.
    if (!B.isMacroID() || !E.isMacroID() || !SM.isMacroArgExpansion(B) ||
        !SM.isMacroArgExpansion(E) ||
        SM.getExpansionLoc(B) != SM.getExpansionLoc(E)) {
      InMacro = true;
      return std::nullopt;
    }
    B = SM.getSpellingLoc(B);
    E = SM.getSpellingLoc(E);
    if (B.isMacroID() || E.isMacroID()) {
      InMacro = true;
      return std::nullopt;
    }
  }
  auto [BFile, BOffset] = SM.getDecomposedLoc(B);
  auto [EFile, EOffset] = SM.getDecomposedLoc(E);
  if (BFile != Target || EFile != Target || EOffset < BOffset) {
    InMacro = R.getBegin().isMacroID();
    return std::nullopt;
  }
  unsigned EndLength = Lexer::MeasureTokenLength(E, SM, Ctx.getLangOpts());
  return std::make_pair(BOffset, EOffset + EndLength);
}

std::optional<unsigned>
RewriteContext::offsetAfterToken(SourceLocation Loc) const {
  if (Loc.isInvalid() || Loc.isMacroID())
    return std::nullopt;
  auto [File, Offset] = SM.getDecomposedLoc(Loc);
  if (File != Target)
    return std::nullopt;
  return Offset + Lexer::MeasureTokenLength(Loc, SM, Ctx.getLangOpts());
}

void RewriteContext::remark(SourceLocation Loc, StringRef Message) {
  Loc = SM.getExpansionLoc(Loc);
  if (!Remarked.insert(Loc).second)
    return;
  DiagnosticsEngine &D = Ctx.getDiagnostics();
  D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Remark, "%0")) << Message;
}

void RewriteContext::error(SourceLocation Loc, StringRef Message) {
  DiagnosticsEngine &D = Ctx.getDiagnostics();
  D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Message;
}

} // namespace rewriter
} // namespace wgtrace
