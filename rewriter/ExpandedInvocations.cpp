//===- ExpandedInvocations.cpp - Accesses wrapped in written-out macros ---===//
//
// An access that is only part of a macro's expansion (`#define CLEAR(p)
// (p)[1] = 0`, the store of `(p)[1]`), or a macro argument the macro uses in
// several ways (SWAP's `x`, read and written), has no text of its own to
// wrap. The invocation is then written out in place as the tokens it
// expands to, as the parser saw them (MacroTokens), each access of the
// expansion wrapped at its tokens as if written by hand there: every access
// is recorded, an argument used twice at each use, in the order the
// compiler evaluates them. The wraps that the invocation's arguments (or
// inner invocations) got in the file's text move into the tokens with it.
//
//===----------------------------------------------------------------------===//

#include "MacroTokens.h"
#include "RewriteContext.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

#include <tuple>

using namespace clang;
using namespace llvm;

namespace wgtrace {
namespace rewriter {

/// The index of the token at Loc among Tokens.
static std::optional<unsigned> tokenAt(ArrayRef<Token> Tokens,
                                       SourceLocation Loc) {
  for (size_t I = 0; I < Tokens.size(); ++I)
    if (Tokens[I].getLocation() == Loc)
      return static_cast<unsigned>(I);
  return std::nullopt;
}

std::optional<std::pair<unsigned, unsigned>>
RewriteContext::invocationOf(SourceRange R) const {
  if (!R.getBegin().isMacroID() || !R.getEnd().isMacroID() ||
      Target != SM.getMainFileID())
    return std::nullopt;
  CharSourceRange First = SM.getExpansionRange(R.getBegin());
  CharSourceRange Last = SM.getExpansionRange(R.getEnd());
  if (First.getBegin() != Last.getBegin() || !First.getBegin().isFileID() ||
      SM.getFileID(First.getBegin()) != Target)
    return std::nullopt;
  auto End = offsetAfterToken(First.getEnd());
  if (!End)
    return std::nullopt;
  return std::make_pair(SM.getFileOffset(First.getBegin()), *End);
}

unsigned
RewriteContext::wrapInExpansion(SourceRange Tokens, AccessKind Kind,
                                function_ref<AccessWrap(unsigned)> Make,
                                const Expr *Named, std::string &Why) {
  // Another file's text (a header whose helpers are copied) is not written
  // out: its reason stands alone.
  if (!Macros || Target != SM.getMainFileID())
    return 0;
  auto Invocation = invocationOf(Tokens);
  if (!Invocation) {
    Why = ", and it is not inside one macro invocation written in this file "
          "that could be written out in its place";
    return 0;
  }
  const std::vector<Token> *Expanded = Macros->tokensAt(Invocation->first);
  StringRef Bad = Macros->unprintable(Invocation->first);
  StringRef Written =
      SM.getBufferData(Target).slice(Invocation->first, Invocation->second);
  // A directive among the arguments is lost when the invocation is
  // written out as the tokens it chose.
  bool Directive = false;
  for (StringRef Rest = Written; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Directive |= Rest.data() != Written.data() && Line.ltrim().starts_with("#");
    Rest = Next;
  }
  if (!Bad.empty() || Directive || !Expanded) {
    Why = (", and its invocation cannot be written out as the tokens it "
           "expands to: " +
           (!Bad.empty() ? Bad
            : Directive  ? StringRef("a directive is among its arguments")
                         : StringRef("its tokens were not recorded")))
              .str();
    return 0;
  }
  auto First = tokenAt(*Expanded, Tokens.getBegin());
  auto Last = tokenAt(*Expanded, Tokens.getEnd());
  if (!First || !Last || *Last < *First) {
    Why = ", and its tokens are not found in the invocation's expansion";
    return 0;
  }
  auto Key = std::make_tuple(Invocation->first, *First, *Last, Kind);
  auto Known = Tables.ExpansionSiteIndex.find(Key);
  unsigned Site = Known != Tables.ExpansionSiteIndex.end()
                      ? Known->second
                      : static_cast<unsigned>(Tables.AccessSites.size() + 1);
  AccessWrap W = Make(Site);
  if (Known != Tables.ExpansionSiteIndex.end()) {
    // Another instantiation of a template wraps the same tokens again.
    ModuleTables::SiteEdit &Edit = Tables.SiteEdits[Site - 1];
    if (Edit.Open != W.Open || Edit.Close != W.Close) {
      std::string Merged = throughReferenceForm(W.Open);
      if (Merged.empty() || Edit.Close != W.Close ||
          throughReferenceForm(Edit.Open) != Merged) {
        Why = ", and the instantiations of the template it is in access it "
              "in different ways";
        return 0;
      }
      Edit.Open = std::move(Merged);
    }
    return Site;
  }
  // Its text: the tokens of the access as the expansion has them.
  std::string Text;
  auto NamedFirst = tokenAt(*Expanded, Named->getBeginLoc());
  auto NamedLast = tokenAt(*Expanded, Named->getEndLoc());
  if (!NamedFirst || !NamedLast || *NamedLast < *NamedFirst) {
    NamedFirst = First;
    NamedLast = Last;
  }
  const LangOptions &LO = Ctx.getLangOpts();
  for (unsigned I = *NamedFirst; I <= *NamedLast; ++I) {
    const Token &T = (*Expanded)[I];
    if (I != *NamedFirst && T.hasLeadingSpace())
      Text += ' ';
    Text += Lexer::getSpelling(T, SM, LO);
  }
  Tables.ExpansionSiteIndex[Key] = Site;
  addExpansionSite(Invocation->first, Kind, Named, Text, W);
  ModuleTables::Expansion &X = Tables.Expansions[Invocation->first];
  X.End = Invocation->second;
  X.Needed = true;
  X.Wraps.push_back(
      {*First, *Last, Site, /*InFile=*/false, 0, 0, Named, Kind, Scope});
  return Site;
}

void RewriteContext::noteWrapInInvocation(const Expr *Wrapped,
                                          std::pair<unsigned, unsigned> Range,
                                          unsigned Site, AccessKind Kind,
                                          const Expr *Named) {
  if (!Macros)
    return;
  SourceLocation B = Wrapped->getBeginLoc(), E = Wrapped->getEndLoc();
  if (!B.isMacroID() || !E.isMacroID())
    return;
  auto Invocation = invocationOf(Wrapped->getSourceRange());
  if (!Invocation || Range.first < Invocation->first ||
      Range.second > Invocation->second)
    return;
  const std::vector<Token> *Expanded = Macros->tokensAt(Invocation->first);
  if (!Expanded)
    return;
  auto First = tokenAt(*Expanded, B);
  auto Last = tokenAt(*Expanded, E);
  // A wrap that cannot move stays an edit inside the invocation, which
  // then is not written out (writeOutExpansions).
  if (!First || !Last || *Last < *First)
    return;
  ModuleTables::Expansion &X = Tables.Expansions[Invocation->first];
  X.End = Invocation->second;
  for (const ModuleTables::ExpansionWrap &W : X.Wraps)
    if (W.First == *First && W.Last == *Last && W.Site == Site)
      return;
  X.Wraps.push_back({*First, *Last, Site, /*InFile=*/true, Range.first,
                     Range.second, Named, Kind, Scope});
}

void RewriteContext::writeOutExpansions() {
  const LangOptions &LO = Ctx.getLangOpts();
  StringRef Code = SM.getBufferData(Target);
  for (auto &[Begin, X] : Tables.Expansions) {
    if (!X.Needed)
      continue;
    // The wraps in the file's text inside the invocation move into its
    // tokens.
    struct Taken {
      unsigned Begin, End;
      std::string Open, Close;
    };
    std::vector<Taken> Moved;
    for (const ModuleTables::ExpansionWrap &W : X.Wraps) {
      const ModuleTables::SiteEdit &Edit = Tables.SiteEdits[W.Site - 1];
      if (!W.InFile || llvm::any_of(Moved, [&](const Taken &T) {
            return T.Begin == W.FileBegin && T.End == W.FileEnd &&
                   T.Open == Edit.Open;
          }))
        continue;
      Edits.unwrap(W.FileBegin, W.FileEnd, Edit.Open, Edit.Close);
      Moved.push_back({W.FileBegin, W.FileEnd, Edit.Open, Edit.Close});
    }
    if (Edits.editsInside(Begin, X.End)) {
      // Other code the rewriter edits is inside (a call redirected to a
      // helper's copy): the invocation stays as written, and the accesses
      // only its expansion holds are not traced.
      for (const Taken &T : Moved)
        Edits.wrap(T.Begin, T.End, T.Open, T.Close, /*Stackable=*/true);
      std::string Saved = Scope;
      for (const ModuleTables::ExpansionWrap &W : X.Wraps) {
        if (W.InFile)
          continue;
        Scope = W.Scope;
        untraced(W.Named,
                 whyNotEditable(W.Named) +
                     ", and its invocation cannot be written out as the "
                     "tokens it expands to: the rewriter edits other code "
                     "inside it",
                 W.Kind);
      }
      Scope = Saved;
      continue;
    }
    const std::vector<Token> &Expanded = *Macros->tokensAt(Begin);
    // Outer wraps open first and close last; on the same tokens, the one
    // added first is the outer one.
    std::vector<const ModuleTables::ExpansionWrap *> Order;
    Order.reserve(X.Wraps.size());
    for (const ModuleTables::ExpansionWrap &W : X.Wraps)
      Order.push_back(&W);
    // Pointers into X.Wraps: their order is the order the wraps were added.
    llvm::sort(Order, [](const auto *A, const auto *B) {
      return std::make_tuple(A->First, -static_cast<long long>(A->Last), A) <
             std::make_tuple(B->First, -static_cast<long long>(B->Last), B);
    });
    std::string Out;
    for (unsigned I = 0; I < Expanded.size(); ++I) {
      if (I)
        Out += ' ';
      for (const auto *W : Order)
        if (W->First == I)
          Out += Tables.SiteEdits[W->Site - 1].Open;
      Out += Lexer::getSpelling(Expanded[I], SM, LO);
      for (const auto *W : llvm::reverse(Order))
        if (W->Last == I)
          Out += Tables.SiteEdits[W->Site - 1].Close;
    }
    // The lines after it keep their numbers.
    Out.append(Code.slice(Begin, X.End).count('\n'), '\n');
    Edits.replace(Begin, X.End, Out);
  }
}

} // namespace rewriter
} // namespace wgtrace
