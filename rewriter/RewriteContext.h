//===- RewriteContext.h - State shared by the parts of one rewrite -*- C++ -*-//
//
// One translation unit is rewritten by several small parts (kernel finder,
// access collector, metadata emitter). They share the AST, the edits of one
// file and the way problems are reported, which this context holds. The
// file edited is the main file, or a project header whose helpers are
// copied, instrumented, into the main file (HelperCloner).
//
// Every access the rewriter wraps is numbered here (wrapAccess,
// replaceCallee): the number, an access site, goes into the inserted text
// and into the module's table of access sites, so that each record of the
// trace names the expression that made it. Every access it cannot wrap is
// reported here (untraced): a warning with the reason, an error under
// --strict, and an entry of the module's table of untraced accesses.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_REWRITECONTEXT_H
#define WGTRACE_REWRITER_REWRITECONTEXT_H

#include "EditSet.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// What an access does to memory (fb::AccessKind).
enum class AccessKind : uint8_t {
  Load = 0,
  Store = 1,
  Update = 2,
  Call = 3,
  /// An atomic operation on the object the wrap names (its records carry
  /// the atomic mark): apart from the plain kinds, so that an atomic
  /// operation on a pointer that is itself loaded (`p->q->load()`) has a
  /// site of its own beside the load's.
  AtomicLoad = 4,
  AtomicStore = 5,
  AtomicUpdate = 6,
};

/// An access expression the rewriter wrapped (detail::AccessSiteInfo).
struct AccessSiteMeta {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  AccessKind Kind = AccessKind::Load;
  std::string Scope;
  std::string Text;
  /// The name of the OpenMP critical section the access is in ("" for the
  /// unnamed one), when it is in one.
  std::optional<std::string> Critical;
  /// The storage is owned by a container local to the function
  /// (MemoryModel::isWorkgroupOwned): races leave it out.
  bool WorkgroupOwned = false;
  /// Its address is computed from the running thread's own
  /// (MemoryModel::isThreadOwned): races compare it only between threads.
  bool ThreadOwned = false;
};

/// An access, or a whole kernel, the rewriter could not instrument
/// (detail::UntracedInfo).
struct UntracedMeta {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Scope;
  std::string Text;
  std::string Reason;
};

/// A call through a pointer the rewriter sends through the runtime's
/// lookup (detail::IndirectCallInfo).
struct IndirectCallMeta {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Scope;
  std::string Text;
};

/// What one translation unit's module lists besides its kernels and
/// dispatch sites. Every RewriteContext of the unit (the main file's, the
/// headers' whose helpers are copied) adds to the same tables.
struct ModuleTables {
  /// The main file as the rewriter was given it (what #line names).
  std::string MainPath;
  /// --strict: untraced accesses are errors, not warnings.
  bool Strict = false;
  /// Site N is entry N - 1.
  std::vector<AccessSiteMeta> AccessSites;
  std::vector<UntracedMeta> Untraced;
  /// Call N (0-based) is entry N.
  std::vector<IndirectCallMeta> IndirectCalls;
  /// Instrumented code of the unit makes atomic operations (recorded or
  /// not): the file then records with ordinary stores
  /// (WGTRACE_TEMPORAL_RECORDS).
  bool HasAtomics = false;
  /// --openmp: critical sections are marked in every function the
  /// rewriter instruments, not only in loops' bodies.
  bool OpenMP = false;
  /// Instrumented code has critical sections (<wgtrace/detail/openmp.h>
  /// defines their macros).
  bool UsesOmpCritical = false;
  /// The OpenMP critical sections whose blocks open them by name
  /// (WGTRACE_OMP_CRITICAL_SECTION), each once: the metadata names them.
  std::vector<std::string> CriticalSections;

  /// Numbers the sites again without the ones whose wraps were taken back
  /// (a macro argument found to be used in conflicting ways after it was
  /// wrapped), in the text of every edit and in AccessSites. Call it after
  /// the last access is wrapped and before the edits become text.
  void finishSites();

private:
  friend class RewriteContext;
  using RangeKey = std::tuple<unsigned, unsigned, unsigned>;
  /// How site N's text was edited (entry N - 1), to take it back or
  /// renumber it.
  struct SiteEdit {
    EditSet *Edits;
    unsigned Begin, End;
    std::string Open, Close;
    /// A replaced callee's name (Open is the replacement), not a wrap.
    bool IsReplace;
    const clang::Expr *Named;
    bool Dead = false;
    /// Wraps tokens of a macro invocation written out in place
    /// (Expansions), not text of the file: Begin and End mean nothing.
    bool InExpansion = false;
  };
  /// (file, begin, end, kind) of each wrapped text: a template's
  /// instantiations wrap the same text again and keep its site.
  std::map<std::tuple<unsigned, unsigned, unsigned, AccessKind>, unsigned>
      SiteIndex;
  std::vector<SiteEdit> SiteEdits;
  /// Texts used in conflicting ways: no wrap may go there.
  std::set<RangeKey> Poisoned;
  /// What each instantiation of a template that was instrumented holds:
  /// the texts of its expressions, and the texts it wrapped for an access
  /// of each kind (gateInstanceWraps).
  struct InstanceWrap {
    const clang::FunctionDecl *Pattern;
    const clang::Expr *Named;
    std::set<const clang::FunctionDecl *> By;
  };
  std::map<const clang::FunctionDecl *, std::set<RangeKey>> InstanceSpans;
  std::map<std::pair<RangeKey, AccessKind>, InstanceWrap> InstanceWraps;
  /// (file, begin, end) of each call through a pointer: instantiations
  /// of a template make the same call again and keep its entry.
  std::map<RangeKey, unsigned> IndirectCallIndex;
  /// A wrap in a macro invocation of the main file, by the tokens of its
  /// expansion (MacroTokens) that it goes around, First to Last.
  struct ExpansionWrap {
    unsigned First, Last;
    unsigned Site;
    /// The wrap is in the file's text too, at [FileBegin, FileEnd) (an
    /// argument's spelling, an inner whole invocation): it moves into the
    /// tokens when the invocation is written out.
    bool InFile;
    unsigned FileBegin, FileEnd;
    const clang::Expr *Named;
    AccessKind Kind;
    std::string Scope;
  };
  /// A macro invocation of the main file holding wraps, by the offset it
  /// begins at.
  struct Expansion {
    unsigned End = 0;
    /// An access in it can be wrapped only in its expansion: it is written
    /// out as its tokens (RewriteContext::writeOutExpansions).
    bool Needed = false;
    std::vector<ExpansionWrap> Wraps;
  };
  std::map<unsigned, Expansion> Expansions;
  /// (invocation, first token, last token, kind) of each access wrapped in
  /// an expansion: instantiations of a template keep its site.
  std::map<std::tuple<unsigned, unsigned, unsigned, AccessKind>, unsigned>
      ExpansionSiteIndex;
  /// Untraced accesses already listed (instantiations repeat them).
  std::set<
      std::pair<clang::SourceLocation::UIntTy, clang::SourceLocation::UIntTy>>
      UntracedSeen;
};

/// The text that goes around an access, given its site number.
struct AccessWrap {
  std::string Open;
  std::string Close;
};

struct WrapOptions {
  /// The wrap may share its text with others (EditSet::wrap).
  bool Stackable = false;
  /// The wrapped expression with the parentheses written around it, tried
  /// when it cannot be edited alone (`#define A(i) (a[i])`).
  const clang::Expr *Spelled = nullptr;
  /// The access the site names (location, text, and what is reported
  /// untraced) when it is not the wrapped expression: a bit-field member
  /// whose object is wrapped, an intrinsic call whose address is.
  const clang::Expr *Named = nullptr;
};

class MemoryModel;
class MacroTokens;

class RewriteContext {
public:
  /// Edits go to Target (default: the main file); access sites and
  /// untraced accesses go to Tables.
  RewriteContext(clang::ASTContext &Ctx, EditSet &Edits, ModuleTables &Tables,
                 clang::FileID Target = clang::FileID());

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  EditSet &Edits;
  ModuleTables &Tables;
  /// The file whose text Edits changes.
  clang::FileID Target;
  /// Set when a call was redirected to <wgtrace/algorithms.h>, which the
  /// rewritten file must then include.
  bool UsesAlgorithms = false;
  /// A standard algorithm call redirected with its elements' assignment
  /// left to fill in: a class's operator= of a project header, whose
  /// instrumented copy (HelperCloner) the recording algorithm runs. Its
  /// name is known once the copies are placed; until then the callee's
  /// replacement [Begin, End) holds Placeholder.
  struct PendingAssignment {
    const clang::CallExpr *Call;
    /// The operator= as written.
    const clang::FunctionDecl *Operator;
    /// The function (as written) the call is in.
    const clang::FunctionDecl *Caller;
    unsigned Begin, End;
    std::string Placeholder;
  };
  std::vector<PendingAssignment> PendingAssignments;
  /// Set when a std::valarray operation was redirected to
  /// <wgtrace/detail/valarray.h>, which the rewritten file must then
  /// include.
  bool UsesValarrays = false;
  /// The function whose body is being instrumented, as access sites and
  /// untraced accesses name it (their scope).
  std::string Scope;
  /// Functions, by scope name, whose untraced code is not reported but
  /// collected in QuietHits (FoundHelpers::EntryOnly: reported at run time,
  /// when another file's kernel calls them).
  std::set<std::string> QuietScopes;
  std::set<std::string> QuietHits;
  /// The main file's traced OpenMP loop bodies, as offsets [first, second]:
  /// what is untraced in them is reported whatever the scope says.
  std::vector<std::pair<unsigned, unsigned>> LoopBodies;
  /// That function when it is an instantiation of a template (null
  /// otherwise): its wraps and texts are noted in Tables.InstanceWraps and
  /// Tables.InstanceSpans.
  const clang::FunctionDecl *Instance = nullptr;
  /// Notes the text of E as one that Instance holds.
  void noteInstanceText(const clang::Expr *E);
  /// Makes each text wrapped for an access in some instantiations of its
  /// template, that another instantiation holds without that access,
  /// record in the former only (InstanceGates.h); warns where it cannot:
  /// the one wrap records there too. Call it after the last access is
  /// wrapped, for the main file's templates; and with CopyPlace (where
  /// HelperCloner puts a header function's copy) for the headers'
  /// templates, once their copies are placed.
  void
  gateInstanceWraps(llvm::function_ref<std::optional<clang::SourceLocation>(
                        const clang::FunctionDecl *)>
                        CopyPlace = nullptr);
  /// The tokens the main file's macro invocations expand to (null: none
  /// recorded, or Target is not the main file): an access that is only
  /// part of an expansion is wrapped in its invocation written out as
  /// those tokens.
  const MacroTokens *Macros = nullptr;
  /// Writes out each macro invocation of the main file that holds an access
  /// only its expansion can wrap: as the tokens it expands to, each access
  /// in it wrapped there (the wraps of its arguments' text move in). Call
  /// it after finishSites and the last edit of the file's text.
  void writeOutExpansions();
  /// What the collector instrumenting it knows of its memory (null: none):
  /// a new access site records whether its storage is the workgroup's own.
  const MemoryModel *Model = nullptr;

  /// Where an expression can be edited in the target file, as [begin, end)
  /// offsets: its own text, the text of the one macro argument it is
  /// spelled in, or the whole macro invocation it is the expansion of
  /// (`A(i, j)` for `#define A(i, j) a[(i) * n + (j)]`). Anything else that
  /// involves a macro has no edit range, and InMacro is set.
  std::optional<std::pair<unsigned, unsigned>> editRange(clang::SourceRange R,
                                                         bool &InMacro) const;

  /// Offset in the target file just after the token at Loc, if Loc is a
  /// file location there.
  std::optional<unsigned> offsetAfterToken(clang::SourceLocation Loc) const;

  bool isInTargetFile(clang::SourceLocation Loc) const {
    return Loc.isValid() && SM.getFileID(SM.getExpansionLoc(Loc)) == Target;
  }

  /// The text wrapped around an access by the access macros:
  /// `WGTRACE_LOAD_AT(<site>, ` ... `)`; ThroughReference: an access
  /// that may be of the kernel's own stack, `WGTRACE_LOAD_REF_AT`
  /// (MemoryModel::mayBeKernelStack).
  static AccessWrap accessMacro(AccessKind Kind, unsigned Site,
                                bool ThroughReference = false);
  /// How inserted code names access site \p Site: `WGTRACE_ACCESS_SITE(<n>)`,
  /// the bits the records of the site carry (0 in a build without sites).
  static std::string siteArgument(unsigned Site);

  /// Wraps the text of the access E (of kind Kind) in what Make returns for
  /// its access site, and lists the site in the module. The same text
  /// wrapped again for the same kind (another instantiation of a
  /// template) keeps its site. Returns the site (1-based), or 0 when E's
  /// text cannot be wrapped: then the access is reported untraced with the
  /// reason.
  unsigned wrapAccess(const clang::Expr *E, AccessKind Kind,
                      llvm::function_ref<AccessWrap(unsigned Site)> Make,
                      const WrapOptions &Options = WrapOptions());

  /// Wraps Object, the object the library member call Call is made on, as
  /// `::wgtrace::detail::recorded::<Wrapper><'r', ...>(<site>, Object)`
  /// with one role character per entry of Roles: the recording version of
  /// the member (std::array's, std::vector's, std::string's) then runs on
  /// it, its element accesses named by an access site of kind Call whose
  /// text is the call, as an algorithm's are. Returns false (reported
  /// untraced) when Object's text cannot be wrapped.
  bool wrapRecordedObject(const clang::Expr *Object,
                          const clang::CallExpr *Call, llvm::StringRef Wrapper,
                          llvm::StringRef Roles);

  /// Replaces the callee's name of Call (a library function that accesses
  /// memory: memcpy, an algorithm) with what Make returns for the access
  /// site of the call, and lists the site (kind Kind, the call's text).
  /// Callee, when given, is the text to replace (the algorithm object of
  /// `std::ranges::sort(r)`, whose call is to its operator()).
  /// ConflictReason, when given, says why the call is not traced when
  /// another instantiation of the template it is in replaced the same
  /// callee differently. Returns the site, or 0 when the callee cannot be
  /// edited (reported untraced).
  unsigned replaceCallee(const clang::CallExpr *Call, AccessKind Kind,
                         llvm::function_ref<std::string(unsigned Site)> Make,
                         const clang::Expr *Callee = nullptr,
                         llvm::StringRef ConflictReason = "");

  /// Replaces the text [Text.first, Text.second) with what Make returns for
  /// the access site of Named (of kind Kind, at Named's place and with its
  /// text), and lists the site: an access recorded by code inserted apart
  /// from its expression (the object of an `omp atomic` construct).
  /// Returns the site, or 0 when Named has no edit range (reported
  /// untraced) or the text cannot be replaced.
  unsigned replaceWithSite(std::pair<unsigned, unsigned> Text,
                           const clang::Expr *Named, AccessKind Kind,
                           llvm::function_ref<std::string(unsigned Site)> Make);

  /// Wraps the text of R (several expressions: a constructor's arguments)
  /// in what Make returns for the access site of Named (of kind Kind, at
  /// Named's place and with its text), and lists the site. The same text
  /// wrapped again alike (another instantiation of a template) keeps its
  /// site. Returns the site, or 0 when R cannot be edited or is already
  /// wrapped otherwise (reported untraced).
  unsigned wrapTextWithSite(clang::SourceRange R, const clang::Expr *Named,
                            AccessKind Kind,
                            llvm::function_ref<AccessWrap(unsigned Site)> Make);

  /// Sends the call through a pointer Call through the runtime's lookup:
  /// Callee (the pointer's text) is wrapped in Function (throughPointer,
  /// throughMember, throughFunction) with the call's entry in the module's
  /// table of such calls. Reported untraced, and false, when the text
  /// cannot be edited.
  bool wrapIndirectCall(const clang::CallExpr *Call, const clang::Expr *Callee,
                        llvm::StringRef Function);
  /// Has the runtime check, before Call runs as written, that the function
  /// of another file it calls is registered (definedElsewhere<CheckType>
  /// with &Address, and the call's entry in the same table, made in
  /// InScope). False when the call's text cannot be edited.
  bool wrapElsewhereCall(const clang::CallExpr *Call, llvm::StringRef CheckType,
                         llvm::StringRef Address, llvm::StringRef InScope);

  /// Reports that the access E is not traced, for Reason (one sentence,
  /// no final period): a warning at E (an error under --strict) and an
  /// entry of the untraced table, once per expression.
  /// Kind, when known, names what E does ("store of 'a[i]'").
  void untraced(const clang::Expr *E, llvm::StringRef Reason,
                std::optional<AccessKind> Kind = std::nullopt);
  /// The same for something that is not one expression (a kernel, a call
  /// of a helper that is not instrumented): Text names it. Scope, when
  /// given, is the function it is in (default: this context's Scope).
  void untraced(clang::SourceLocation Loc, llvm::StringRef Text,
                llvm::StringRef Reason, llvm::StringRef InScope = "");

  /// Reports something wgtrace cannot record that is not an access (a
  /// watched value, a dispatch site): a warning (an error under --strict)
  /// once per location.
  void warning(clang::SourceLocation Loc, llvm::StringRef Message);
  /// Says something the user may want to know that loses nothing (every
  /// access is still recorded): a remark, once per location.
  void remark(clang::SourceLocation Loc, llvm::StringRef Message);
  void error(clang::SourceLocation Loc, llvm::StringRef Message);

  /// Why an expression whose text has no edit range cannot be wrapped.
  std::string whyNotEditable(const clang::Expr *E) const;

private:
  /// The path the metadata names File by: the main file as given, a
  /// header by its absolute path.
  std::string pathOf(clang::FileID File) const;
  void listUntraced(clang::SourceLocation Loc, llvm::StringRef Text,
                    llvm::StringRef Reason, llvm::StringRef InScope);
  /// Whether what is untraced in InScope is held back (QuietScopes), which
  /// QuietHits then notes.
  bool heldBack(llvm::StringRef InScope);
  /// Whether Loc lies in one of LoopBodies.
  bool inLoopBody(clang::SourceLocation Loc) const;
  /// The entry, in the table of checked calls, of the call whose text is
  /// [Whole.first, Whole.second), made in InScope (listed when new).
  unsigned indirectCallEntry(std::pair<unsigned, unsigned> Whole,
                             llvm::StringRef InScope);
  /// The access site of [Begin, End) for Kind: its number, and whether it
  /// is new (not listed yet).
  std::pair<unsigned, bool> siteFor(std::pair<unsigned, unsigned> Range,
                                    AccessKind Kind) const;
  /// Lists site Site: the text [Begin, End) of the target file wrapped for
  /// Kind, named by the text of Named where it can be edited.
  void addSite(std::pair<unsigned, unsigned> Range, AccessKind Kind,
               unsigned Site, const clang::Expr *Named,
               ModuleTables::SiteEdit Edit);
  /// The text [Begin, End) is used by accesses that need different edits:
  /// takes back the edits of its sites and reports all of them untraced.
  void poison(std::pair<unsigned, unsigned> Range, llvm::StringRef Reason);
  /// A wrap W of Range that differs from the one already there only in
  /// recording through a reference (`_REF_AT`) or not: the wrap becomes the
  /// `_REF_AT` form, which is right for both. False: a real conflict.
  bool mergeThroughReference(std::pair<unsigned, unsigned> Range,
                             const AccessWrap &W);
  /// Makes the wrap of Range for Kind, that the instantiations Use.By of
  /// its template make and others do not, record in those only; false
  /// when it cannot test that where its text goes, after Before
  /// (InstanceGates.h), and Why says why.
  bool gate(const ModuleTables::RangeKey &Range, AccessKind Kind,
            const ModuleTables::InstanceWrap &Use, clang::SourceLocation Before,
            std::string &Why);
  /// Wraps the access Named, whose wrapped expression spans Tokens, in the
  /// tokens of the macro invocation it is part of, which is then written
  /// out in place (ExpandedInvocations.cpp); returns the site, or 0 with
  /// Why saying why it cannot.
  unsigned wrapInExpansion(clang::SourceRange Tokens, AccessKind Kind,
                           llvm::function_ref<AccessWrap(unsigned Site)> Make,
                           const clang::Expr *Named, std::string &Why);
  /// Notes that the text [Range) wrapped for site Site lies in a macro
  /// invocation of the main file (Wrapped's tokens there), whose wraps
  /// move into its tokens if it is written out.
  void noteWrapInInvocation(const clang::Expr *Wrapped,
                            std::pair<unsigned, unsigned> Range, unsigned Site,
                            AccessKind Kind, const clang::Expr *Named);
  /// The outermost macro invocation of the main file that both ends of R
  /// are part of, as [begin, end) offsets.
  std::optional<std::pair<unsigned, unsigned>>
  invocationOf(clang::SourceRange R) const;
  /// Lists the site of an access wrapped in the expansion of the invocation
  /// at Invocation: at the invocation, named by its tokens' text.
  void addExpansionSite(unsigned Invocation, AccessKind Kind,
                        const clang::Expr *Named, llvm::StringRef Text,
                        const AccessWrap &W);
  static std::string throughReferenceForm(llvm::StringRef Open);
  static llvm::StringRef conflictReason();
  /// The source text of E as written, on one line and abbreviated.
  std::string textOf(clang::SourceRange R) const;
  void report(clang::SourceLocation Loc, llvm::StringRef Message);

  llvm::DenseSet<clang::SourceLocation> Warned;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_REWRITECONTEXT_H
