//===- RewriteContext.cpp - State shared by the parts of one rewrite ------===//

#include "RewriteContext.h"
#include "InstanceGates.h"
#include "MemoryModel.h"

#include "clang/Basic/FileManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace llvm;

namespace wgtrace {
namespace rewriter {

RewriteContext::RewriteContext(ASTContext &Ctx, EditSet &Edits,
                               ModuleTables &Tables, FileID Target)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), Edits(Edits), Tables(Tables),
      Target(Target.isValid() ? Target : SM.getMainFileID()) {}

std::optional<std::pair<unsigned, unsigned>>
RewriteContext::editRange(SourceRange R, bool &InMacro) const {
  InMacro = false;
  SourceLocation B = R.getBegin(), E = R.getEnd();
  if (B.isInvalid() || E.isInvalid())
    return std::nullopt;
  // The text to edit is the user's and appears once in the file: the
  // expression's own tokens, the one macro argument it is spelled in, or
  // the whole invocation of a macro that expands to exactly it (`A(i, j)`
  // for `#define A(i, j) a[(i) * n + (j)]`, also `X(1)[2]` when X's
  // expansion starts the expression). Text inside a macro body is shared
  // by every expansion and cannot be edited for one.
  CharSourceRange File = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(B, E), SM, Ctx.getLangOpts());
  if (File.isInvalid()) {
    InMacro = B.isMacroID() || E.isMacroID();
    return std::nullopt;
  }
  auto [BFile, BOffset] = SM.getDecomposedLoc(File.getBegin());
  auto [EFile, EOffset] = SM.getDecomposedLoc(File.getEnd());
  if (BFile != Target || EFile != Target || EOffset < BOffset) {
    InMacro = B.isMacroID();
    return std::nullopt;
  }
  return std::make_pair(BOffset, EOffset);
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

AccessWrap RewriteContext::accessMacro(AccessKind Kind, unsigned Site,
                                       bool ThroughReference) {
  StringRef Macro;
  switch (Kind) {
  case AccessKind::Load:
    Macro = "WGTRACE_LOAD";
    break;
  case AccessKind::Store:
    Macro = "WGTRACE_STORE";
    break;
  case AccessKind::Update:
    Macro = "WGTRACE_UPDATE";
    break;
  case AccessKind::AtomicLoad:
    Macro = "WGTRACE_ATOMIC_LOAD";
    break;
  case AccessKind::AtomicStore:
    Macro = "WGTRACE_ATOMIC_STORE";
    break;
  case AccessKind::AtomicUpdate:
    Macro = "WGTRACE_ATOMIC_UPDATE";
    break;
  case AccessKind::Call:
    llvm_unreachable("a call is not wrapped in an access macro");
  }
  return {
      (Macro + (ThroughReference ? "_REF_AT(" : "_AT(") + Twine(Site) + ", ")
          .str(),
      ")"};
}

std::string RewriteContext::siteArgument(unsigned Site) {
  return "WGTRACE_ACCESS_SITE(" + std::to_string(Site) + ")";
}

bool RewriteContext::wrapRecordedObject(const Expr *Object,
                                        const CallExpr *Call, StringRef Wrapper,
                                        StringRef Roles) {
  std::string Open = ("::wgtrace::detail::recorded::" + Wrapper + "<").str();
  for (size_t I = 0; I < Roles.size(); ++I) {
    Open += I ? ", '" : "'";
    Open += Roles[I];
    Open += "'";
  }
  Open += ">(";
  unsigned Site =
      wrapAccess(Object->IgnoreParenImpCasts(), AccessKind::Call,
                 [&Open](unsigned Site) {
                   return AccessWrap{Open + siteArgument(Site) + ", ", ")"};
                 },
                 {/*Stackable=*/true, nullptr, Call});
  if (!Site)
    return false;
  UsesAlgorithms = true;
  return true;
}

std::string RewriteContext::pathOf(FileID File) const {
  if (File == SM.getMainFileID())
    return Tables.MainPath;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(File);
  if (!FE)
    return "";
  SmallString<256> Path(FE->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
  return std::string(Path);
}

/// Text as a table shows it: on one line (runs of white space and line
/// continuations become one space), abbreviated when long.
static std::string oneLine(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    // A line continuation in a macro's text is white space too.
    bool Space = isSpace(C) || (C == '\\' && I + 1 < Text.size() &&
                                (Text[I + 1] == '\n' || Text[I + 1] == '\r'));
    if (Space && (Out.empty() || Out.back() == ' '))
      continue;
    Out += Space ? ' ' : C;
  }
  while (!Out.empty() && Out.back() == ' ')
    Out.pop_back();
  constexpr size_t Longest = 80;
  if (Out.size() > Longest)
    Out = Out.substr(0, Longest - 3) + "...";
  return Out;
}

std::string RewriteContext::textOf(SourceRange R) const {
  const LangOptions &LO = Ctx.getLangOpts();
  CharSourceRange Range =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO);
  // Not one piece of the file: the tokens as the macro body spells them.
  if (Range.isInvalid()) {
    SourceLocation B = SM.getSpellingLoc(R.getBegin());
    SourceLocation E = SM.getSpellingLoc(R.getEnd());
    if (SM.getFileID(B) != SM.getFileID(E) ||
        SM.getFileOffset(E) < SM.getFileOffset(B))
      return "";
    Range = CharSourceRange::getTokenRange(B, E);
  }
  return oneLine(Lexer::getSourceText(Range, SM, LO));
}

std::pair<unsigned, bool>
RewriteContext::siteFor(std::pair<unsigned, unsigned> Range,
                        AccessKind Kind) const {
  auto It = Tables.SiteIndex.find(
      {Target.getHashValue(), Range.first, Range.second, Kind});
  if (It != Tables.SiteIndex.end())
    return {It->second, false};
  return {static_cast<unsigned>(Tables.AccessSites.size() + 1), true};
}

void RewriteContext::addSite(std::pair<unsigned, unsigned> Range,
                             AccessKind Kind, unsigned Site, const Expr *Named,
                             ModuleTables::SiteEdit Edit) {
  Tables.SiteIndex[{Target.getHashValue(), Range.first, Range.second, Kind}] =
      Site;
  const Expr *Accessed = Named ? Named : Edit.Named;
  Tables.SiteEdits.push_back(std::move(Edit));
  std::pair<unsigned, unsigned> Shown = Range;
  bool InMacro = false;
  if (Named)
    if (auto NamedRange = editRange(Named->getSourceRange(), InMacro))
      Shown = *NamedRange;
  AccessSiteMeta Meta;
  Meta.WorkgroupOwned = Model && Accessed && Model->isWorkgroupOwned(Accessed);
  Meta.ThreadOwned = Model && Accessed && Model->isThreadOwned(Accessed);
  Meta.File = pathOf(Target);
  Meta.Line = SM.getLineNumber(Target, Shown.first);
  Meta.Column = SM.getColumnNumber(Target, Shown.first);
  Meta.Kind = Kind;
  Meta.Scope = Scope;
  Meta.Text =
      oneLine(SM.getBufferData(Target).slice(Shown.first, Shown.second));
  Tables.AccessSites.push_back(std::move(Meta));
}

bool RewriteContext::wrapIndirectCall(const CallExpr *Call, const Expr *Callee,
                                      StringRef Function) {
  bool InMacro = false;
  auto Whole = editRange(Call->getSourceRange(), InMacro);
  auto Pointer = editRange(Callee->getSourceRange(), InMacro);
  if (!Whole || !Pointer) {
    if (isInTargetFile(Call->getBeginLoc()))
      untraced(Call,
               "it calls through a pointer spelled in a macro expansion, "
               "which wgtrace cannot send to the function's instrumented "
               "version: " +
                   whyNotEditable(Call),
               AccessKind::Call);
    return false;
  }
  // Outermost: a pointer loaded from memory is wrapped inside, as a load.
  Edits.wrap(Pointer->first, Pointer->second,
             ("::wgtrace::detail::" + Function + "(WGTRACE_INDIRECT_CALL(" +
              Twine(indirectCallEntry(*Whole, Scope)) + "), ")
                 .str(),
             ")", /*Stackable=*/true);
  return true;
}

bool RewriteContext::wrapElsewhereCall(const CallExpr *Call,
                                       StringRef CheckType, StringRef Address,
                                       StringRef InScope) {
  bool InMacro = false;
  auto Whole = editRange(Call->getSourceRange(), InMacro);
  if (!Whole)
    return false;
  Edits.wrap(Whole->first, Whole->second,
             ("(::wgtrace::detail::definedElsewhere<" + CheckType +
              ">(WGTRACE_INDIRECT_CALL(" +
              Twine(indirectCallEntry(*Whole, InScope)) + "), &" + Address +
              "), ")
                 .str(),
             ")", /*Stackable=*/true);
  return true;
}

unsigned RewriteContext::indirectCallEntry(std::pair<unsigned, unsigned> Whole,
                                           StringRef InScope) {
  auto [It, New] = Tables.IndirectCallIndex.try_emplace(
      {Target.getHashValue(), Whole.first, Whole.second},
      static_cast<unsigned>(Tables.IndirectCalls.size()));
  if (New) {
    IndirectCallMeta Meta;
    Meta.File = pathOf(Target);
    Meta.Line = SM.getLineNumber(Target, Whole.first);
    Meta.Column = SM.getColumnNumber(Target, Whole.first);
    Meta.Scope = InScope;
    Meta.Text =
        oneLine(SM.getBufferData(Target).slice(Whole.first, Whole.second));
    Tables.IndirectCalls.push_back(std::move(Meta));
  }
  return It->second;
}

static constexpr const char *kConflictReason =
    "its text is a macro argument that the macro uses in several ways (say, "
    "read and written), and one text cannot be wrapped for each";

static constexpr const char *kInstancesConflictReason =
    "the instantiations of the template it is in access it in different "
    "ways, and one text cannot be wrapped for each";

/// The form of an access macro's opening that records only outside the
/// running kernel's own stack: `WGTRACE_LOAD_AT(3, ` becomes
/// `WGTRACE_LOAD_REF_AT(3, `; empty for text that is no access macro.
std::string RewriteContext::throughReferenceForm(StringRef Open) {
  if (!Open.starts_with("WGTRACE_"))
    return "";
  if (Open.contains("_REF_AT("))
    return Open.str();
  size_t At = Open.find("_AT(");
  if (At == StringRef::npos)
    return "";
  return (Open.take_front(At) + "_REF" + Open.drop_front(At)).str();
}

bool RewriteContext::mergeThroughReference(std::pair<unsigned, unsigned> Range,
                                           const AccessWrap &W) {
  // The instantiations of one template text may disagree on whether an
  // access may reach the kernel's own stack (`*first` of a pointer
  // parameter in one, of an iterator class whose operator* returns a
  // reference in another). The _REF_AT form records kernel memory as the
  // plain form does and skips only the kernel's own stack, so it is right
  // for both: the text gets it.
  std::string Merged = throughReferenceForm(W.Open);
  if (Merged.empty())
    return false;
  for (ModuleTables::SiteEdit &E : Tables.SiteEdits) {
    if (E.Dead || E.IsReplace || E.InExpansion || E.Edits != &Edits ||
        E.Begin != Range.first || E.End != Range.second || E.Close != W.Close ||
        throughReferenceForm(E.Open) != Merged)
      continue;
    if (E.Open != Merged) {
      Edits.retextWrap(E.Begin, E.End, E.Open, E.Close, Merged, E.Close);
      E.Open = Merged;
    }
    return true;
  }
  return false;
}

void RewriteContext::poison(std::pair<unsigned, unsigned> Range,
                            StringRef Reason) {
  Tables.Poisoned.insert({Target.getHashValue(), Range.first, Range.second});
  for (size_t I = 0; I < Tables.SiteEdits.size(); ++I) {
    ModuleTables::SiteEdit &E = Tables.SiteEdits[I];
    if (E.Dead || E.InExpansion || E.Edits != &Edits ||
        E.Begin != Range.first || E.End != Range.second)
      continue;
    E.Dead = true;
    if (E.IsReplace)
      Edits.unreplace(E.Begin, E.End);
    else
      Edits.unwrap(E.Begin, E.End, E.Open, E.Close);
    if (E.Named)
      untraced(E.Named, Reason, Tables.AccessSites[I].Kind);
  }
}

unsigned RewriteContext::wrapAccess(const Expr *E, AccessKind Kind,
                                    function_ref<AccessWrap(unsigned)> Make,
                                    const WrapOptions &Options) {
  const Expr *Named = Options.Named ? Options.Named : E;
  const Expr *Wrapped = E;
  bool InMacro = false;
  auto Range = editRange(E->getSourceRange(), InMacro);
  if (!Range && Options.Spelled && Options.Spelled != E) {
    Range = editRange(Options.Spelled->getSourceRange(), InMacro);
    Wrapped = Options.Spelled;
  }
  if (!Range) {
    // Text outside the file being edited that is not a macro is another
    // file's (a header's), which another part instruments or reports.
    if (InMacro && isInTargetFile(E->getBeginLoc())) {
      // Part of a macro's expansion: wrapped in the invocation written
      // out as its tokens, where it can be.
      std::string Why;
      if (unsigned Site =
              wrapInExpansion(E->getSourceRange(), Kind, Make, Named, Why))
        return Site;
      untraced(Named, whyNotEditable(E) + Why, Kind);
    }
    return 0;
  }
  if (Tables.Poisoned.count(
          {Target.getHashValue(), Range->first, Range->second})) {
    untraced(Named, kConflictReason, Kind);
    return 0;
  }
  auto [Site, New] = siteFor(*Range, Kind);
  AccessWrap W = Make(Site);
  if (!Edits.wrap(Range->first, Range->second, W.Open, W.Close,
                  Options.Stackable) &&
      !mergeThroughReference(*Range, W)) {
    // The same text is already wrapped for another access (a macro that
    // reads and writes its argument, a template whose instantiations use
    // it differently): neither wrap would be right. A macro's argument is
    // wrapped at each of its uses in the invocation written out instead.
    std::string Why;
    if (E->getBeginLoc().isMacroID())
      if (unsigned Site = wrapInExpansion(Wrapped->getSourceRange(), Kind, Make,
                                          Named, Why))
        return Site;
    StringRef Reason = E->getBeginLoc().isMacroID() ? kConflictReason
                                                    : kInstancesConflictReason;
    poison(*Range, Reason);
    untraced(Named, Reason, Kind);
    return 0;
  }
  if (Instance && Kind != AccessKind::Call) {
    ModuleTables::InstanceWrap &Use = Tables.InstanceWraps[{
        {Target.getHashValue(), Range->first, Range->second}, Kind}];
    if (!Use.Named)
      Use = {Instance->getTemplateInstantiationPattern(), Named, {}};
    Use.By.insert(Instance);
  }
  if (New)
    addSite(*Range, Kind, Site, Named,
            {&Edits, Range->first, Range->second, W.Open, W.Close,
             /*IsReplace=*/false, Named});
  noteWrapInInvocation(Wrapped, *Range, Site, Kind, Named);
  return Site;
}

StringRef RewriteContext::conflictReason() { return kConflictReason; }

void RewriteContext::addExpansionSite(unsigned Invocation, AccessKind Kind,
                                      const Expr *Named, StringRef Text,
                                      const AccessWrap &W) {
  ModuleTables::SiteEdit Edit{&Edits, 0, 0, W.Open, W.Close, false, Named};
  Edit.InExpansion = true;
  Tables.SiteEdits.push_back(std::move(Edit));
  AccessSiteMeta Meta;
  Meta.WorkgroupOwned = Model && Model->isWorkgroupOwned(Named);
  Meta.ThreadOwned = Model && Model->isThreadOwned(Named);
  Meta.File = pathOf(Target);
  Meta.Line = SM.getLineNumber(Target, Invocation);
  Meta.Column = SM.getColumnNumber(Target, Invocation);
  Meta.Kind = Kind;
  Meta.Scope = Scope;
  Meta.Text = oneLine(Text);
  Tables.AccessSites.push_back(std::move(Meta));
}

unsigned RewriteContext::replaceCallee(const CallExpr *Call, AccessKind Kind,
                                       function_ref<std::string(unsigned)> Make,
                                       const Expr *Callee,
                                       StringRef ConflictReason) {
  if (!Callee)
    Callee = Call->getCallee()->IgnoreImpCasts();
  if (ConflictReason.empty())
    ConflictReason = kConflictReason;
  bool InMacro = false;
  auto Name = editRange(Callee->getSourceRange(), InMacro);
  // The site is the whole call's text where it can be edited.
  auto Whole = editRange(Call->getSourceRange(), InMacro);
  if (!Name) {
    if (isInTargetFile(Call->getBeginLoc()))
      untraced(Call, whyNotEditable(Callee), Kind);
    return 0;
  }
  if (Tables.Poisoned.count(
          {Target.getHashValue(), Name->first, Name->second})) {
    untraced(Call, ConflictReason);
    return 0;
  }
  std::pair<unsigned, unsigned> SiteRange = Whole ? *Whole : *Name;
  auto [Site, New] = siteFor(SiteRange, Kind);
  std::string Text = Make(Site);
  if (!Edits.replace(Name->first, Name->second, Text)) {
    poison(*Name, ConflictReason);
    untraced(Call, ConflictReason);
    return 0;
  }
  if (New)
    addSite(SiteRange, Kind, Site, nullptr,
            {&Edits, Name->first, Name->second, Text, "",
             /*IsReplace=*/true, Call});
  return Site;
}

unsigned
RewriteContext::replaceWithSite(std::pair<unsigned, unsigned> Text,
                                const Expr *Named, AccessKind Kind,
                                function_ref<std::string(unsigned)> Make) {
  bool InMacro = false;
  auto Range = editRange(Named->getSourceRange(), InMacro);
  if (!Range) {
    untraced(Named, whyNotEditable(Named), Kind);
    return 0;
  }
  auto [Site, New] = siteFor(*Range, Kind);
  std::string Replacement = Make(Site);
  if (!Edits.replace(Text.first, Text.second, Replacement)) {
    untraced(Named, kConflictReason, Kind);
    return 0;
  }
  if (New)
    addSite(*Range, Kind, Site, Named,
            {&Edits, Text.first, Text.second, Replacement, "",
             /*IsReplace=*/true, Named});
  return Site;
}

unsigned
RewriteContext::wrapTextWithSite(SourceRange R, const Expr *Named,
                                 AccessKind Kind,
                                 function_ref<AccessWrap(unsigned)> Make) {
  bool InMacro = false;
  auto Range = editRange(R, InMacro);
  if (!Range) {
    untraced(Named, whyNotEditable(Named), Kind);
    return 0;
  }
  auto [Site, New] = siteFor(*Range, Kind);
  AccessWrap W = Make(Site);
  // Not stackable: instantiations of a template that wrap the text
  // differently conflict, and neither wrap would be right for both.
  if (!Edits.wrap(Range->first, Range->second, W.Open, W.Close,
                  /*Stackable=*/false)) {
    untraced(Named, kInstancesConflictReason, Kind);
    return 0;
  }
  if (New)
    addSite(*Range, Kind, Site, Named,
            {&Edits, Range->first, Range->second, W.Open, W.Close,
             /*IsReplace=*/false, Named});
  return Site;
}

/// Text with the mentions of access site Old (as accessMacro and
/// siteArgument spell it) changed to New.
static std::string renumbered(StringRef Text, unsigned Old, unsigned New) {
  std::string Out = Text.str();
  auto Change = [&Out](const std::string &From, const std::string &To) {
    for (size_t At = Out.find(From); At != std::string::npos;
         At = Out.find(From, At + To.size()))
      Out.replace(At, From.size(), To);
  };
  Change("_AT(" + std::to_string(Old) + ", ",
         "_AT(" + std::to_string(New) + ", ");
  Change(RewriteContext::siteArgument(Old), RewriteContext::siteArgument(New));
  return Out;
}

/// How a diagnostic names an access of Kind.
static StringRef kindWord(std::optional<AccessKind> Kind) {
  if (!Kind)
    return "access";
  switch (*Kind) {
  case AccessKind::Load:
    return "load";
  case AccessKind::Store:
    return "store";
  case AccessKind::Update:
    return "update";
  case AccessKind::AtomicLoad:
    return "atomic load";
  case AccessKind::AtomicStore:
    return "atomic store";
  case AccessKind::AtomicUpdate:
    return "atomic update";
  case AccessKind::Call:
    return "call";
  }
  llvm_unreachable("every AccessKind is named above");
}

void RewriteContext::noteInstanceText(const Expr *E) {
  if (!Instance)
    return;
  bool InMacro = false;
  if (auto Range = editRange(E->getSourceRange(), InMacro))
    Tables.InstanceSpans[Instance].insert(
        {Target.getHashValue(), Range->first, Range->second});
}

void RewriteContext::gateInstanceWraps(
    function_ref<std::optional<SourceLocation>(const FunctionDecl *)>
        CopyPlace) {
  // One text serves every instantiation: a wrap that one instantiation
  // needs runs in another that holds the same expression without that
  // access (`compare(v, *p)` with a function pointer taking doubles reads
  // *p where it is written, with a functor taking `const double &` inside
  // the functor). The wrap then tests which instantiation it runs in
  // (InstanceGates.h); where it cannot, it records there too, and says so.
  std::map<const FunctionDecl *, std::vector<const FunctionDecl *>> Instances;
  for (const auto &[Instance, Spans] : Tables.InstanceSpans)
    Instances[Instance->getTemplateInstantiationPattern()].push_back(Instance);
  const unsigned MainFile = SM.getMainFileID().getHashValue();
  for (const auto &[Key, Use] : Tables.InstanceWraps) {
    if (Tables.Poisoned.count(Key.first) ||
        (std::get<0>(Key.first) == MainFile) == static_cast<bool>(CopyPlace))
      continue;
    const FunctionDecl *Without = nullptr;
    for (const FunctionDecl *Other : Instances[Use.Pattern])
      if (!Use.By.count(Other) &&
          Tables.InstanceSpans.at(Other).count(Key.first)) {
        Without = Other;
        break;
      }
    // The test names the instantiations' arguments where the template's
    // text goes: a header's is copied to a place in the main file.
    std::optional<SourceLocation> Before;
    if (CopyPlace)
      Before = CopyPlace(Use.Pattern);
    else if (const FunctionTemplateDecl *T =
                 Use.Pattern->getDescribedFunctionTemplate())
      Before = SM.getExpansionLoc(T->getBeginLoc());
    else
      Before = SM.getExpansionLoc(Use.Pattern->getBeginLoc());
    std::string Why = "its template has no copy in this file";
    if (!Without || (Before && gate(Key.first, Key.second, Use, *Before, Why)))
      continue;
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    Without->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(),
                                  /*Qualified=*/true);
    warning(Use.Named->getBeginLoc(),
            (kindWord(Key.second) + " of '" +
             textOf(Use.Named->getSourceRange()) +
             "' is recorded in every instantiation of its template, "
             "and '" +
             Name + "' makes no such " + kindWord(Key.second) +
             " there (it hands the object on by reference, or "
             "accesses it otherwise): it records one all the same, "
             "outside the kernel's own stack, since its wrap cannot test "
             "which instantiation it runs in: " +
             Why)
                .str());
  }
}

bool RewriteContext::gate(const ModuleTables::RangeKey &Range, AccessKind Kind,
                          const ModuleTables::InstanceWrap &Use,
                          SourceLocation Before, std::string &Why) {
  auto Site = Tables.SiteIndex.find(
      {std::get<0>(Range), std::get<1>(Range), std::get<2>(Range), Kind});
  Why = "its wrap has no form that tests it";
  if (Site == Tables.SiteIndex.end())
    return false;
  ModuleTables::SiteEdit &E = Tables.SiteEdits[Site->second - 1];
  if (E.Dead || E.IsReplace)
    return false;
  std::vector<const FunctionDecl *> Making(Use.By.begin(), Use.By.end());
  std::optional<std::string> Test =
      instanceTest(Use.Pattern, Making, Before, Why);
  if (!Test)
    return false;
  std::string Open = gatedOpen(E.Open, *Test);
  if (Open.empty()) {
    Why = "its wrap (" + StringRef(E.Open).rtrim().str() +
          ") has no form that tests it";
    return false;
  }
  E.Edits->retextWrap(E.Begin, E.End, E.Open, E.Close, Open, E.Close);
  E.Open = std::move(Open);
  return true;
}

void ModuleTables::finishSites() {
  if (llvm::none_of(SiteEdits, [](const SiteEdit &E) { return E.Dead; }))
    return;
  std::vector<AccessSiteMeta> Kept;
  std::vector<SiteEdit> KeptEdits;
  std::map<unsigned, unsigned> NewNumber;
  for (size_t I = 0; I < SiteEdits.size(); ++I) {
    SiteEdit &E = SiteEdits[I];
    if (E.Dead)
      continue;
    unsigned Old = static_cast<unsigned>(I + 1);
    unsigned New = static_cast<unsigned>(Kept.size() + 1);
    NewNumber[Old] = New;
    if (Old != New) {
      std::string Open = renumbered(E.Open, Old, New);
      std::string Close = renumbered(E.Close, Old, New);
      // A wrap in an expansion gets its text when the invocation is
      // written out.
      if (E.IsReplace && !E.InExpansion)
        E.Edits->retextReplace(E.Begin, E.End, Open);
      else if (!E.InExpansion)
        E.Edits->retextWrap(E.Begin, E.End, E.Open, E.Close, Open, Close);
      E.Open = std::move(Open);
      E.Close = std::move(Close);
    }
    Kept.push_back(std::move(AccessSites[I]));
    KeptEdits.push_back(std::move(E));
  }
  auto Renumber = [&NewNumber](auto &Index) {
    for (auto It = Index.begin(); It != Index.end();) {
      auto Found = NewNumber.find(It->second);
      if (Found == NewNumber.end()) {
        It = Index.erase(It);
      } else {
        It->second = Found->second;
        ++It;
      }
    }
  };
  Renumber(SiteIndex);
  Renumber(ExpansionSiteIndex);
  for (auto &[Begin, X] : Expansions) {
    llvm::erase_if(X.Wraps, [&NewNumber](const ExpansionWrap &W) {
      return !NewNumber.count(W.Site);
    });
    for (ExpansionWrap &W : X.Wraps)
      W.Site = NewNumber[W.Site];
  }
  AccessSites = std::move(Kept);
  SiteEdits = std::move(KeptEdits);
}

std::string RewriteContext::whyNotEditable(const Expr *E) const {
  SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
  for (SourceLocation L : {B, End}) {
    if (!L.isMacroID())
      continue;
    // The innermost macro whose body (not an argument) holds the token.
    SourceLocation At = L;
    while (At.isMacroID() && SM.isMacroArgExpansion(At))
      At = SM.getImmediateSpellingLoc(At);
    if (At.isMacroID()) {
      StringRef Name = Lexer::getImmediateMacroName(At, SM, Ctx.getLangOpts());
      return ("it is part of the expansion of macro '" + Name +
              "' (neither the whole expansion nor inside one of its "
              "arguments), whose text every expansion shares")
          .str();
    }
  }
  if (B.isMacroID() || End.isMacroID())
    return "it is spelled across several macro arguments or expansions";
  return "its text is not in the file being rewritten";
}

void RewriteContext::untraced(const Expr *E, StringRef Reason,
                              std::optional<AccessKind> Kind) {
  SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
  if (!Tables.UntracedSeen.insert({B.getRawEncoding(), End.getRawEncoding()})
           .second)
    return;
  if (heldBack(Scope))
    return;
  std::string Text = textOf(E->getSourceRange());
  StringRef What = kindWord(Kind);
  report(B, (What + (Kind == AccessKind::Call ? " '" : " of '") + Text +
             "' is not traced: " + Reason)
                .str());
  listUntraced(B, Text, Reason, Scope);
}

void RewriteContext::untraced(SourceLocation Loc, StringRef Text,
                              StringRef Reason, StringRef InScope) {
  if (!Tables.UntracedSeen.insert({Loc.getRawEncoding(), 0}).second ||
      (!inLoopBody(Loc) &&
       heldBack(InScope.empty() ? StringRef(Scope) : InScope)))
    return;
  report(Loc, Text.str() + " is not traced: " + Reason.str());
  listUntraced(Loc, Text, Reason, InScope);
}

bool RewriteContext::inLoopBody(SourceLocation Loc) const {
  SourceLocation At = SM.getExpansionLoc(Loc);
  if (!SM.isInMainFile(At))
    return false;
  unsigned Offset = SM.getFileOffset(At);
  return llvm::any_of(LoopBodies, [&](const auto &Body) {
    return Body.first <= Offset && Offset <= Body.second;
  });
}

bool RewriteContext::heldBack(StringRef InScope) {
  if (!QuietScopes.count(InScope.str()))
    return false;
  QuietHits.insert(InScope.str());
  return true;
}

void RewriteContext::listUntraced(SourceLocation Loc, StringRef Text,
                                  StringRef Reason, StringRef InScope) {
  // Where the user wrote it: the macro invocation, or the argument's text.
  SourceLocation At = SM.getFileLoc(Loc);
  UntracedMeta Meta;
  Meta.File = pathOf(SM.getFileID(At));
  Meta.Line = SM.getSpellingLineNumber(At);
  Meta.Column = SM.getSpellingColumnNumber(At);
  Meta.Scope = InScope.empty() ? Scope : InScope.str();
  Meta.Text = Text.str();
  Meta.Reason = Reason.str();
  Tables.Untraced.push_back(std::move(Meta));
}

void RewriteContext::report(SourceLocation Loc, StringRef Message) {
  DiagnosticsEngine &D = Ctx.getDiagnostics();
  D.Report(Loc, D.getCustomDiagID(Tables.Strict ? DiagnosticsEngine::Error
                                                : DiagnosticsEngine::Warning,
                                  "%0"))
      << Message;
}

void RewriteContext::warning(SourceLocation Loc, StringRef Message) {
  if (!Warned.insert(SM.getExpansionLoc(Loc)).second)
    return;
  report(Loc, Message);
}

void RewriteContext::remark(SourceLocation Loc, StringRef Message) {
  if (!Warned.insert(SM.getExpansionLoc(Loc)).second)
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
