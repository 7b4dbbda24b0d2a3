//===- HelperCloner.cpp - Instrumented copies of header helpers -----------===//

#include "HelperCloner.h"

#include "AccessCollector.h"
#include "MemberCopy.h"
#include "MetadataEmitter.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/FileManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <optional>
#include <set>

using namespace clang;
using namespace llvm;

namespace wgtrace {
namespace rewriter {

namespace {

/// The classes whose objects Body's copy is instantiated for: Body's own,
/// or, when Body is a class template's member as written (a header's
/// OpenMP loop is found there, gapbs's `pvector<T_>::fill`), each
/// specialization that defines it. A tag naming the pattern's member
/// would spell `pvector<type-parameter-0-0>`, which no compiler reads.
std::vector<const CXXRecordDecl *> classesRunning(const CXXMethodDecl *Body) {
  const CXXRecordDecl *Class = Body->getParent();
  const ClassTemplateDecl *Template = Class->getDescribedClassTemplate();
  if (!Template)
    return {Class};
  std::vector<const CXXRecordDecl *> Specs;
  for (const ClassTemplateSpecializationDecl *Spec :
       Template->specializations())
    for (const Decl *D : Spec->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D);
          FD && FD->getTemplateInstantiationPattern() == Body &&
          FD->isDefined()) {
        Specs.push_back(Spec);
        break;
      }
  return Specs;
}

/// Finds a static or thread-local variable declared in a body: a copy of
/// the function would have its own, different object.
class StaticLocalFinder : public RecursiveASTVisitor<StaticLocalFinder> {
public:
  bool Found = false;
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->isStaticLocal())
      Found = true;
    return !Found;
  }
};

/// The name a copy of FD is named after: its own, or for an operator, one
/// that an identifier can spell (`operator+` gives `operatorPlus`).
std::string copyBaseName(const FunctionDecl *FD) {
  switch (FD->getOverloadedOperator()) {
  case OO_None:
  case NUM_OVERLOADED_OPERATORS:
    return FD->getNameAsString();
#define OVERLOADED_OPERATOR(Name, Spelling, Token, Unary, Binary, MemberOnly)  \
  case OO_##Name:                                                              \
    return "operator" #Name;
#include "clang/Basic/OperatorKinds.def"
  }
  return FD->getNameAsString();
}

/// The length of a name's text (`operator+` is two tokens).
/// Where Loc is written in a file when it is in a macro's argument (as
/// miniFE's `RUN_TIMED_FUNCTION("...", generate_matrix_structure(mesh, A),
/// ...)` writes its call), else Loc: a name there is edited in the file's
/// text, which every expansion of the argument repeats.
SourceLocation spelledInArgument(SourceLocation Loc, const SourceManager &SM) {
  while (Loc.isMacroID() && SM.isMacroArgExpansion(Loc))
    Loc = SM.getImmediateSpellingLoc(Loc);
  return Loc;
}

unsigned nameLength(const DeclarationNameInfo &Name, const SourceManager &SM,
                    const LangOptions &LO) {
  SourceLocation First = spelledInArgument(Name.getLoc(), SM);
  SourceLocation Last = spelledInArgument(Name.getEndLoc(), SM);
  if (Last.isMacroID() || SM.getFileID(Last) != SM.getFileID(First))
    Last = First;
  return SM.getFileOffset(Last) - SM.getFileOffset(First) +
         Lexer::MeasureTokenLength(Last, SM, LO);
}

/// The namespaces enclosing FD, outermost first (linkage specifications
/// are skipped: the copy has C++ linkage, and internal linkage anyway).
std::vector<const NamespaceDecl *> enclosingNamespaces(const FunctionDecl *FD) {
  std::vector<const NamespaceDecl *> Out;
  for (const DeclContext *DC = FD->getLexicalDeclContext();
       !DC->isTranslationUnit(); DC = DC->getLexicalParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Out.insert(Out.begin(), NS);
  return Out;
}

/// Called on a temporary, an lvalue that names it (it lives to the end of
/// the full-expression, as the call does): the copy of a non-const member
/// takes its object by reference.
constexpr const char *kAsLvalue =
    "[](auto &&wgtrace_object) -> auto & { return wgtrace_object; }(";

bool hasDefaultArguments(const FunctionDecl *FD) {
  return llvm::any_of(FD->parameters(),
                      [](const ParmVarDecl *P) { return P->hasDefaultArg(); });
}

} // namespace

std::string whyNotCopyable(const FunctionDecl *Written, bool CallOperator) {
  const SourceManager &SM = Written->getASTContext().getSourceManager();
  if (const auto *M = dyn_cast<CXXMethodDecl>(Written)) {
    // Copied as a free function taking its object (MemberCopy.h).
    std::string Why = whyMemberNotCopyable(M, CallOperator);
    if (!Why.empty())
      return Why;
  } else {
    if (Written->getQualifier())
      return "it is defined with a qualified name";
    for (const DeclContext *DC = Written->getLexicalDeclContext();
         !DC->isTranslationUnit(); DC = DC->getLexicalParent())
      if (!isa<NamespaceDecl>(DC) && !isa<LinkageSpecDecl>(DC))
        return "it is not defined at namespace scope";
  }
  if (Written->getStorageClass() == SC_Extern)
    return "it is declared extern";
  // `template <> float f<float>(...)` specializes a template that the copy
  // would not: its copy could not be declared.
  if (Written->getTemplateSpecializationKind() == TSK_ExplicitSpecialization)
    return "it is an explicit specialization of a template";
  const Stmt *Body = Written->getBody();
  SourceLocation Begin = definitionBegin(Written);
  if (!Body || Written->getLocation().isMacroID() ||
      Body->getBeginLoc().isMacroID() || Body->getEndLoc().isMacroID() ||
      Begin.isInvalid() ||
      SM.getFileID(Begin) != SM.getFileID(Written->getLocation()) ||
      SM.getFileID(Body->getEndLoc()) != SM.getFileID(Begin))
    return "it is defined by a macro";
  StaticLocalFinder Statics;
  Statics.TraverseStmt(const_cast<Stmt *>(Body));
  if (Statics.Found)
    return "it has a static local variable, which a copy would duplicate";
  // The copy repeats the definition's text only: default arguments that
  // the definition inherits from an earlier declaration would be lost.
  const char *Elsewhere = "its default arguments are on another declaration";
  for (const ParmVarDecl *P : Written->parameters())
    if (P->hasInheritedDefaultArg())
      return Elsewhere;
  if (const FunctionTemplateDecl *T = Written->getDescribedFunctionTemplate())
    for (const NamedDecl *P : *T->getTemplateParameters()) {
      bool Inherited = false;
      if (const auto *Type = dyn_cast<TemplateTypeParmDecl>(P))
        Inherited = Type->defaultArgumentWasInherited();
      else if (const auto *Value = dyn_cast<NonTypeTemplateParmDecl>(P))
        Inherited = Value->defaultArgumentWasInherited();
      else if (const auto *Tmpl = dyn_cast<TemplateTemplateParmDecl>(P))
        Inherited = Tmpl->defaultArgumentWasInherited();
      if (Inherited)
        return Elsewhere;
    }
  return "";
}

struct HelperCloner::HeaderEdits {
  HeaderEdits(ASTContext &Ctx, FileID File, StringRef Path,
              ModuleTables &Tables)
      : Edits(Path), RC(Ctx, Edits, Tables, File) {}
  EditSet Edits;
  RewriteContext RC;
  /// The header's replacements, computed once every edit is in.
  std::optional<tooling::Replacements> Applied;
};

struct HelperCloner::Clone {
  const FunctionDecl *Written;
  FileID File;
  /// The definition's text in the header: [Begin, End); the body starts
  /// at BodyBegin.
  unsigned Begin, End, BodyBegin;
  SourceLocation DefinitionEnd;
  std::string Name;
  /// Main-file offset of the top-level declaration the copy goes before.
  std::optional<unsigned> Position;
  bool NeedsDeclaration = false;
  bool Emitted = false;
  /// For a header kernel: the definition of the module its copies share,
  /// which goes before the copy.
  std::string SharedModule;
  /// The non-public members a member's copy names (PrivateAccess.h).
  std::vector<const ValueDecl *> Private;
  /// For a member of a class template, whose copy is a function template
  /// over the class's parameters: its template head (MemberCopy.h).
  std::string TemplateHead;
};

/// A call, at its callee's name token, that may be redirected to a copy.
/// A call in operator syntax (`a + b`, `-v`) of a copied operator becomes
/// a call of the copy by name: `operatorPlus_wgtrace_0(a , b)`.
struct HelperCloner::Site {
  FileID File;
  /// The name (for an operator call: the operator's token).
  unsigned Offset;
  unsigned Length;
  /// For a call in operator syntax: the text the copy's call encloses
  /// (both operands and the operator of a binary call; the operand of a
  /// unary one).
  std::optional<std::pair<unsigned, unsigned>> Operands;
  bool Binary = false;
  /// A member call (`p.x()`, `q->f(a)`): [Offset, Offset + Length) is
  /// from the `.` or `->` to the '(' included, and the copy's call
  /// encloses [CallBegin, CallEnd), `::vec3_x_wgtrace_0(p)`.
  bool MemberCall = false;
  /// A call of a member through `this` in a copied member
  /// (`length_squared()`): [Offset, Offset + Length) is its name and '('.
  bool ThroughThis = false;
  /// Such a call in a member function of the main file: its object is
  /// `*this`, not a copy's `self`.
  bool MainObject = false;
  /// A call of a copied operator() (`f(a)`): [Offset, Offset + 1) is its
  /// '(', and the copy's call encloses Operands, `copy(f, a)`.
  bool CallOperator = false;
  /// A call on the way to OpenMP loops made on a temporary (`Runner().go()`),
  /// which the copy's reference parameter takes through kAsLvalue.
  bool Temporary = false;
  bool Arrow = false;
  /// A call of a static member's copy (`Grid::sum(a, n)`, `sum(a, n)`):
  /// [Offset, Offset + Length) is its qualifier and name.
  bool Static = false;
  /// A static member's call through an object (`g->sum(a, n)`):
  /// [Offset, Offset + Length) is from the `.` or `->` to the '('
  /// included, and [CallBegin, CallEnd) the call.
  bool StaticObject = false;
  bool HasArguments = false;
  unsigned CallBegin = 0, CallEnd = 0;
  SourceLocation Loc;
  /// The copy's name, or empty when the callee is not copied.
  std::string NewName;
  int Callee = -1;
  /// The copy the call is written in, or -1 for the main file.
  int CallerClone = -1;
  /// For a call in the main file: offset of its top-level declaration.
  unsigned CallerPosition = 0;
  /// The declaration the use is written in (a function, a variable).
  const Decl *Caller = nullptr;
  /// A recording algorithm's call (in AssignmentContext) whose elements'
  /// operator= is the copy: its callee's replacement [Offset, Offset +
  /// Length) names the copy in place of the placeholder.
  const RewriteContext::PendingAssignment *Assignment = nullptr;
  RewriteContext *AssignmentContext = nullptr;
  bool Dropped = false;
};

HelperCloner::HelperCloner(RewriteContext &Main, std::string MainPath)
    : Main(Main), SM(Main.SM), MainPath(std::move(MainPath)) {}

HelperCloner::~HelperCloner() = default;

HelperCloner::HeaderEdits &HelperCloner::editsFor(FileID File) {
  std::unique_ptr<HeaderEdits> &E = Headers[File];
  if (!E) {
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(File);
    E = std::make_unique<HeaderEdits>(
        Main.Ctx, File, FE ? FE->getName() : StringRef(), Main.Tables);
  }
  return *E;
}

void HelperCloner::add(const KernelDef &Helper, bool RecordAccesses) {
  const FunctionDecl *FD = Helper.Written;
  SourceLocation Begin = definitionBegin(FD);
  SourceLocation Last = SM.getExpansionLoc(FD->getEndLoc());
  Clone C;
  C.Written = FD;
  C.File = SM.getFileID(Begin);
  C.Begin = SM.getFileOffset(Begin);
  C.End = SM.getFileOffset(Last) +
          Lexer::MeasureTokenLength(Last, SM, Main.Ctx.getLangOpts());
  C.BodyBegin = SM.getFileOffset(FD->getBody()->getBeginLoc());
  C.DefinitionEnd = Last;
  CloneIndex[FD] = Clones.size();
  Clones.push_back(std::move(C));

  HeaderEdits &H = editsFor(SM.getFileID(Begin));
  if (const auto *M = dyn_cast<CXXMethodDecl>(FD)) {
    Clone &Copy = Clones.back();
    makeFreeFunction(M, H.Edits, Access, Copy.Private);
    Copy.TemplateHead = copyTemplateHead(M);
    // A class template's copy names its pattern's members through tag
    // templates; each specialization it is instantiated for needs its own
    // members' tags.
    if (!Copy.TemplateHead.empty()) {
      std::vector<const ValueDecl *> Pattern = std::move(Copy.Private);
      Copy.Private.clear();
      for (const FunctionDecl *Body : Helper.Bodies)
        for (const CXXRecordDecl *Class :
             classesRunning(cast<CXXMethodDecl>(Body)))
          for (const ValueDecl *D : Pattern)
            if (const ValueDecl *Instance =
                    PrivateAccess::instantiated(D, Class))
              Copy.Private.push_back(Instance);
    }
  }
  if (!RecordAccesses)
    return;
  // What a copy reached only by functions exported for other files
  // cannot record is held back and noted, as in the main file
  // (RewriteContext::QuietScopes): the header's context is another one.
  H.RC.QuietScopes = Main.QuietScopes;
  AccessCollector Accesses(H.RC);
  for (const FunctionDecl *Body : Helper.Bodies)
    Accesses.collect(Body);
  Main.QuietHits.insert(H.RC.QuietHits.begin(), H.RC.QuietHits.end());
}

RewriteContext &HelperCloner::addKernel(const KernelDef &Kernel,
                                        bool RecordAccesses) {
  add(Kernel, RecordAccesses);
  return editsFor(Clones.back().File).RC;
}

void HelperCloner::setSharedModule(const FunctionDecl *Written,
                                   std::string Definition) {
  auto It = CloneIndex.find(Written);
  if (It != CloneIndex.end())
    Clones[It->second].SharedModule = std::move(Definition);
}

void HelperCloner::assignNames() {
  // Overloads share one name, as they do in the header: a call in a
  // template may pick a different overload per instantiation, and the
  // redirected text must work for every one.
  std::map<std::pair<const void *, std::string>, unsigned> Groups;
  for (Clone &C : Clones) {
    const Decl *Scope =
        cast<Decl>(C.Written->getDeclContext()->getRedeclContext())
            ->getCanonicalDecl();
    std::string Base = copyBaseName(C.Written);
    // A member's copy is a free function: its class names it. The copies
    // of call operators share one name in their namespace, as overloads
    // that their objects pick: a template's `f(a)` on a functor calls
    // the copy of each instantiation's functor (miniFE's cg_solve, whose
    // `matvec(A, p, Ap)` calls matvec_std's or matvec_overlap's).
    if (const auto *M = dyn_cast<CXXMethodDecl>(C.Written)) {
      if (M->getOverloadedOperator() == OO_Call)
        Scope = cast<Decl>(M->getParent()->getDeclContext()->getRedeclContext())
                    ->getCanonicalDecl();
      else
        Base.insert(0, (M->getParent()->getName() + "_").str());
    }
    auto [It, Inserted] = Groups.try_emplace({Scope, Base}, Groups.size());
    C.Name = Base + "_wgtrace_" + std::to_string(It->second);
  }
}

/// The scope an untraced use is listed under: the function it is written
/// in, or none (a use in a variable's initializer).
static std::string scopeName(const Decl *D) {
  if (const auto *FD = dyn_cast_or_null<FunctionDecl>(D))
    return kernelName(FD);
  return std::string();
}

/// The top-level declaration of the main file that holds D, and where its
/// text begins (template headers and leading attributes included).
static SourceLocation topLevelBegin(const Decl *D) {
  auto Outer = [](const Decl *D) -> const Decl * {
    // An instantiation stands where its template is written.
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
        FD = Pattern;
      if (const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate())
        return T;
      return FD;
    }
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
      if (const CXXRecordDecl *Pattern = RD->getTemplateInstantiationPattern())
        RD = Pattern;
      if (const ClassTemplateDecl *T = RD->getDescribedClassTemplate())
        return T;
      return RD;
    }
    return D;
  };
  D = Outer(D);
  while (!D->getLexicalDeclContext()->isTranslationUnit())
    D = Outer(cast<Decl>(D->getLexicalDeclContext()));
  const SourceManager &SM = D->getASTContext().getSourceManager();
  if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
    return definitionBegin(T->getTemplatedDecl());
  if (const auto *FD = dyn_cast<FunctionDecl>(D))
    return definitionBegin(FD);
  return SM.getExpansionLoc(D->getBeginLoc());
}

/// A use of a function that may be redirected to its copy: a call made by a
/// kernel or a helper, or a reference to a header kernel in the main file.
struct HelperCloner::Use {
  const Decl *Caller;
  const FunctionDecl *Callee;
  const DeclRefExpr *Ref;
  /// The call, or null for a reference.
  const CallExpr *Call = nullptr;
  /// HelperCall's TowardLoops.
  bool TowardLoops = false;
};

std::vector<HelperCloner::Site>
HelperCloner::collectSites(ArrayRef<HelperCall> Calls,
                           ArrayRef<KernelReference> References,
                           ArrayRef<KernelDef> HeaderKernels) {
  std::vector<Use> Uses;
  for (const HelperCall &HC : Calls)
    // Calls through pointers and member calls are not redirected (member
    // functions are not copied).
    if (const auto *Ref =
            dyn_cast<DeclRefExpr>(HC.Call->getCallee()->IgnoreParenImpCasts()))
      Uses.push_back({HC.Caller, HC.Callee, Ref, HC.Call, HC.TowardLoops});
  for (const KernelReference &R : References)
    Uses.push_back({R.Enclosing, HeaderKernels[R.Kernel].Written, R.Ref});
  std::vector<Site> Sites;
  FileID MainFile = SM.getMainFileID();
  for (const HelperCall &HC : Calls)
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(HC.Call))
      memberCallSite(*Member, HC, Sites);
    else if (const auto *Static = dyn_cast<MemberExpr>(
                 HC.Call->getCallee()->IgnoreParenImpCasts()))
      staticObjectCallSite(*HC.Call, *Static, HC, Sites);
  for (const Use &HC : Uses) {
    auto Callee = CloneIndex.find(HC.Callee);
    const DeclRefExpr *Ref = HC.Ref;
    SourceLocation NameLoc = spelledInArgument(Ref->getNameInfo().getLoc(), SM);
    if (NameLoc.isMacroID()) {
      if (Callee != CloneIndex.end())
        Main.untraced(NameLoc, "call of '" + kernelName(HC.Callee) + "'",
                      "it is spelled in a macro expansion and is not "
                      "redirected to the instrumented copy of '" +
                          kernelName(HC.Callee) +
                          "': what that call accesses is not recorded",
                      scopeName(HC.Caller));
      continue;
    }
    Site S;
    auto [File, Offset] = SM.getDecomposedLoc(NameLoc);
    S.File = File;
    S.Offset = Offset;
    S.Length = nameLength(Ref->getNameInfo(), SM, Main.Ctx.getLangOpts());
    S.Loc = NameLoc;
    S.Caller = HC.Caller;
    const auto *CallerFunction = dyn_cast<FunctionDecl>(HC.Caller);
    auto Caller =
        CallerFunction ? CloneIndex.find(CallerFunction) : CloneIndex.end();
    if (Caller != CloneIndex.end()) {
      S.CallerClone = static_cast<int>(Caller->second);
      if (File != Clones[Caller->second].File)
        continue;
    } else {
      if (File != MainFile)
        continue;
      S.CallerPosition = SM.getFileOffset(topLevelBegin(HC.Caller));
    }
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(HC.Call);
        Op && Callee != CloneIndex.end() && !operatorSyntaxSite(*Op, HC, S))
      continue;
    if (const auto *M =
            Callee != CloneIndex.end()
                ? dyn_cast<CXXMethodDecl>(Clones[Callee->second].Written)
                : nullptr;
        M && M->isStatic()) {
      S.Callee = static_cast<int>(Callee->second);
      if (staticMemberSite(HC, S))
        Sites.push_back(S);
      continue;
    }
    if (Callee != CloneIndex.end()) {
      const Clone &C = Clones[Callee->second];
      S.Callee = static_cast<int>(Callee->second);
      S.NewName = S.Operands ? qualifiedName(C) : C.Name;
      // A class template's member operator: its copy is a function
      // template, called with the object's class's arguments.
      // In a template, a call of operator() on the way to OpenMP loops
      // deduces them (operatorSyntaxSite checked that it can).
      if (const auto *Called = dyn_cast_or_null<CXXMethodDecl>(
              HC.Call ? HC.Call->getDirectCallee() : nullptr);
          Called && S.Operands && !(S.CallOperator && HC.Caller->isTemplated()))
        S.NewName += copyTemplateArguments(Called);
      // A name a using-declaration brought in (`using lib::f; f(x)`, or
      // `app::f` with the using-declaration in app) does not bring the
      // copy: the call names the copy's namespace instead.
      if (!S.Operands && isa<UsingShadowDecl>(Ref->getFoundDecl())) {
        SourceLocation Begin = spelledInArgument(Ref->getBeginLoc(), SM);
        if (Begin.isMacroID() || SM.getFileID(Begin) != File)
          continue;
        unsigned BeginOffset = SM.getFileOffset(Begin);
        S.Length += S.Offset - BeginOffset;
        S.Offset = BeginOffset;
        S.NewName = qualifiedName(C);
      }
    }
    Sites.push_back(S);
  }
  // Instantiations of a template repeat a call at the same text: it can be
  // redirected only if every instantiation calls a copy of the same name.
  std::map<std::pair<FileID, unsigned>, std::string> Agreed;
  std::set<std::pair<FileID, unsigned>> Conflicting;
  for (const Site &S : Sites) {
    auto [It, Inserted] = Agreed.try_emplace({S.File, S.Offset}, S.NewName);
    if (!Inserted && It->second != S.NewName)
      Conflicting.insert({S.File, S.Offset});
  }
  std::vector<Site> Kept;
  for (const Site &S : Sites) {
    if (S.NewName.empty())
      continue;
    if (Conflicting.count({S.File, S.Offset})) {
      // A copy's call of a static member's copy left as written calls the
      // header's original: said too.
      if (S.Static)
        Main.untraced(
            S.Loc, "call of '" + kernelName(Clones[S.Callee].Written) + "'",
            "it is not redirected to the instrumented copy: the "
            "instantiations of the template it is in call it on different "
            "specializations of its class template (or call another "
            "function), and one text cannot name the copy's template "
            "arguments for all; what the call accesses is not recorded",
            scopeName(S.Caller));
      else if (S.CallerClone < 0)
        Main.untraced(
            S.Loc, "call of '" + kernelName(Clones[S.Callee].Written) + "'",
            "it is not redirected to the instrumented copy: some "
            "instantiations of the template it is in call a function that "
            "is not copied, and one text cannot call both; what the call "
            "accesses is not recorded",
            scopeName(S.Caller));
      continue;
    }
    Kept.push_back(S);
  }
  return Kept;
}

void HelperCloner::place(std::vector<Site> &Sites) {
  FileID MainFile = SM.getMainFileID();
  auto Drop = [&](const Site &Which) {
    for (Site &S : Sites)
      if (S.File == Which.File && S.Offset == Which.Offset)
        S.Dropped = true;
  };
  // A copy goes before the first top-level declaration that calls it,
  // directly or through other copies, and after the helper's definition
  // (the includes before it declare what the helper uses). Positions only
  // move up, so this settles.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Site &S : Sites) {
      if (S.Dropped)
        continue;
      std::optional<unsigned> Pos = S.CallerPosition;
      if (S.CallerClone >= 0)
        Pos = Clones[S.CallerClone].Position;
      if (!Pos)
        continue;
      Clone &X = Clones[S.Callee];
      SourceLocation At = SM.getComposedLoc(MainFile, *Pos);
      if (!SM.isBeforeInTranslationUnit(X.DefinitionEnd, At)) {
        // An algorithm's call says so itself when it is redirected.
        if (S.CallerClone < 0 && !S.Assignment)
          Main.untraced(S.Loc, "call of '" + kernelName(X.Written) + "'",
                        "it is not redirected to the instrumented copy: the "
                        "helper is defined after the caller, where the "
                        "copy cannot go; what the call accesses is not "
                        "recorded",
                        scopeName(S.Caller));
        Drop(S);
        continue;
      }
      if (!X.Position || *Pos < *X.Position) {
        X.Position = Pos;
        Changed = true;
      }
    }
  }
  // Copies at one place come in the header's order; a copy calling one
  // that comes later needs it declared first, which default arguments
  // forbid (they may not be repeated on the definition).
  for (const Site &S : Sites) {
    if (S.Dropped || S.CallerClone < 0 || S.CallerClone == S.Callee)
      continue;
    Clone &X = Clones[S.Callee];
    const Clone &Y = Clones[S.CallerClone];
    if (!X.Position || !Y.Position || *X.Position != *Y.Position ||
        SM.isBeforeInTranslationUnit(X.Written->getBeginLoc(),
                                     Y.Written->getBeginLoc()))
      continue;
    if (hasDefaultArguments(X.Written))
      Drop(S);
    else
      X.NeedsDeclaration = true;
  }
  // Only copies that some kept call reaches are emitted (an unused static
  // function would draw a warning).
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Site &S : Sites)
      if (!S.Dropped && (S.CallerClone < 0 || Clones[S.CallerClone].Emitted) &&
          !Clones[S.Callee].Emitted) {
        Clones[S.Callee].Emitted = true;
        Changed = true;
      }
  }
}

std::string HelperCloner::cloneText(const Clone &C, bool DeclarationOnly) {
  HeaderEdits &H = editsFor(C.File);
  StringRef Buffer = SM.getBufferData(C.File);
  unsigned End = DeclarationOnly ? C.BodyBegin : C.End;
  std::string Out = C.TemplateHead;
  unsigned At = C.Begin;
  // emit() runs after every header's edits were applied.
  // NOLINTNEXTLINE(bugprone-unchecked-optional-access)
  for (const tooling::Replacement &R : *H.Applied) {
    if (R.getOffset() < C.Begin || R.getOffset() >= End)
      continue;
    Out += Buffer.slice(At, R.getOffset());
    Out += R.getReplacementText();
    At = R.getOffset() + R.getLength();
  }
  Out += Buffer.slice(At, End);
  if (DeclarationOnly)
    Out = StringRef(Out).rtrim().str() + ";";
  return Out;
}

void HelperCloner::finish(ArrayRef<HelperCall> Calls,
                          ArrayRef<KernelReference> References,
                          ArrayRef<KernelDef> HeaderKernels,
                          ArrayRef<const FunctionDecl *> Roots,
                          function_ref<void()> Placed) {
  if (Clones.empty()) {
    for (const RewriteContext::PendingAssignment &P : Main.PendingAssignments)
      dropAssignment(Main, P, "it has no instrumented copy");
    return;
  }
  assignNames();
  std::vector<Site> Sites = collectSites(Calls, References, HeaderKernels);
  assignmentSites(Sites);
  const unsigned EndOfMain =
      static_cast<unsigned>(SM.getBufferData(SM.getMainFileID()).size());
  for (const FunctionDecl *Root : Roots) {
    auto It = CloneIndex.find(Root);
    if (It == CloneIndex.end())
      continue;
    Clones[It->second].Position = EndOfMain;
    Clones[It->second].Emitted = true;
  }
  place(Sites);
  if (Placed)
    Placed();

  // Redirect the calls, in the main file and in the copies' text.
  FileID MainFile = SM.getMainFileID();
  for (const Site &S : Sites) {
    if (S.Assignment && S.Dropped) {
      dropAssignment(*S.AssignmentContext, *S.Assignment,
                     "it is defined after the function that calls the "
                     "algorithm, where its instrumented copy cannot go");
      continue;
    }
    if (S.Dropped || (S.CallerClone >= 0 && !Clones[S.CallerClone].Emitted))
      continue;
    if (S.Assignment) {
      // `copy<'M', 'M', 'M'>(site, [](auto &to, const auto &from) {
      // ::double2_operatorEqual_wgtrace_0(to, from); })`.
      EditSet &Edits = S.AssignmentContext->Edits;
      const std::string *Text =
          Edits.replacement(S.Offset, S.Offset + S.Length);
      if (!Text)
        continue;
      std::string New = *Text;
      const std::string &Placeholder = S.Assignment->Placeholder;
      size_t At = New.find(Placeholder);
      if (At == std::string::npos)
        continue;
      New.replace(At, Placeholder.size(),
                  "[](auto &wgtrace_to, const auto &wgtrace_from) { " +
                      S.NewName + "(wgtrace_to, wgtrace_from); }");
      Edits.retextReplace(S.Offset, S.Offset + S.Length, New);
      continue;
    }
    EditSet &Edits = S.File == MainFile ? Main.Edits : editsFor(S.File).Edits;
    if (S.ThroughThis) {
      std::string Text = S.NewName + (S.MainObject ? "(*this" : "(self") +
                         (S.HasArguments ? ", " : "");
      if (S.MainObject) {
        Edits.replace(S.Offset, S.Offset + S.Length, Text);
        continue;
      }
      // makeFreeFunction made it `self.name(`.
      Edits.retextReplace(S.Offset, S.Offset + S.Length, Text);
      continue;
    }
    if (S.CallOperator && S.Operands) {
      // `f(a)` becomes `::operatorCall_wgtrace_0(f, a)`, `f()`
      // `::operatorCall_wgtrace_0(f)`.
      Edits.wrap(S.Operands->first, S.Operands->second,
                 S.NewName + "(" + (S.Temporary ? kAsLvalue : ""), "",
                 /*Stackable=*/true);
      Edits.replace(S.Offset, S.Offset + S.Length,
                    std::string(S.Temporary ? ")" : "") +
                        (S.HasArguments ? ", " : ""));
      continue;
    }
    if (S.MemberCall) {
      // `p.x()` becomes `::vec3_x_wgtrace_0(p)`, `q->f(a)`
      // `::C_f_wgtrace_1(*q, a)`: innermost, as for operators.
      Edits.wrap(S.CallBegin, S.CallEnd,
                 S.NewName + "(" + (S.Arrow ? "*" : "") +
                     (S.Temporary ? kAsLvalue : ""),
                 "",
                 /*Stackable=*/true);
      Edits.replace(S.Offset, S.Offset + S.Length,
                    std::string(S.Temporary ? ")" : "") +
                        (S.HasArguments ? ", " : ""));
      continue;
    }
    if (S.StaticObject) {
      // `g->sum(a, 2)` becomes `((void)(g), ::geo::Grid_sum_wgtrace_0(a,
      // 2))`: the object is evaluated, as the call evaluates it.
      Edits.wrap(S.CallBegin, S.CallEnd, "((void)(", ")", /*Stackable=*/true);
      Edits.replace(S.Offset, S.Offset + S.Length, "), " + S.NewName + "(");
      continue;
    }
    if (!S.Operands) {
      // A static member's name in a member's copy was spelled from the
      // global scope (MemberCopy.h): its copy's name takes its place.
      if (S.Static && Edits.replacement(S.Offset, S.Offset + S.Length))
        Edits.retextReplace(S.Offset, S.Offset + S.Length, S.NewName);
      else
        Edits.replace(S.Offset, S.Offset + S.Length, S.NewName);
      continue;
    }
    // `a + b` becomes `::operatorPlus_wgtrace_0(a , b)`, `-v`
    // `::operatorMinus_wgtrace_0( v)`: innermost, inside any wrap of the
    // call's result.
    Edits.wrap(S.Operands->first, S.Operands->second, S.NewName + "(", ")",
               /*Stackable=*/true);
    Edits.replace(S.Offset, S.Offset + S.Length, S.Binary ? "," : " ");
  }
  // Rename each copy and give it internal linkage: the header's function
  // keeps its name and linkage for everyone else.
  for (const Clone &C : Clones) {
    if (!C.Emitted)
      continue;
    EditSet &Edits = editsFor(C.File).Edits;
    unsigned NameOffset = SM.getFileOffset(C.Written->getLocation());
    unsigned NameEnd = NameOffset + nameLength(C.Written->getNameInfo(), SM,
                                               Main.Ctx.getLangOpts());
    // A member defined outside its class names it (`Vault::push`): the
    // copy, a free function, is named by its name alone, after the line
    // breaks of what it replaces (Quicksilver writes `ParticleVault::` on
    // a line of its own), so the copy's lines keep their numbers.
    std::string Name = C.Name;
    if (SourceLocation Qualifier = C.Written->getQualifierLoc().getBeginLoc();
        Qualifier.isValid() && isa<CXXMethodDecl>(C.Written)) {
      unsigned QualifierOffset = SM.getFileOffset(Qualifier);
      Name.insert(0,
                  SM.getBufferData(C.File)
                      .slice(QualifierOffset, NameOffset)
                      .count('\n'),
                  '\n');
      NameOffset = QualifierOffset;
    }
    Edits.replace(NameOffset, NameEnd, Name);
    std::string Specifiers;
    if (C.Written->getStorageClass() != SC_Static)
      Specifiers += "static ";
    if (!C.Written->isInlineSpecified())
      Specifiers += "inline ";
    if (!Specifiers.empty())
      Edits.insert(
          SM.getFileOffset(SM.getExpansionLoc(C.Written->getBeginLoc())),
          Specifiers);
  }
  for (auto &[File, H] : Headers) {
    Expected<tooling::Replacements> R = H->Edits.toReplacements();
    if (!R) {
      Main.error(SM.getLocForStartOfFile(File),
                 "internal error: " + toString(R.takeError()));
      return;
    }
    H->Applied = std::move(*R);
  }
  emit();
}

void HelperCloner::assignmentSites(std::vector<Site> &Sites) {
  FileID MainFile = SM.getMainFileID();
  auto Add = [&](RewriteContext &RC, FileID File) {
    for (const RewriteContext::PendingAssignment &P : RC.PendingAssignments) {
      auto Callee = CloneIndex.find(P.Operator);
      if (Callee == CloneIndex.end()) {
        dropAssignment(RC, P, "it has no instrumented copy");
        continue;
      }
      Site S;
      S.File = File;
      S.Offset = P.Begin;
      S.Length = P.End - P.Begin;
      S.Loc = SM.getExpansionLoc(P.Call->getBeginLoc());
      S.Caller = P.Caller;
      S.Assignment = &P;
      S.AssignmentContext = &RC;
      S.Callee = static_cast<int>(Callee->second);
      S.NewName = qualifiedName(Clones[Callee->second]);
      auto Caller = CloneIndex.find(P.Caller);
      if (Caller != CloneIndex.end() && File == Clones[Caller->second].File) {
        S.CallerClone = static_cast<int>(Caller->second);
      } else if (Caller == CloneIndex.end() && File == MainFile) {
        S.CallerPosition = SM.getFileOffset(topLevelBegin(P.Caller));
      } else {
        dropAssignment(RC, P, "its instrumented copy cannot be called there");
        continue;
      }
      Sites.push_back(S);
    }
  };
  Add(Main, MainFile);
  for (auto &[File, H] : Headers)
    Add(H->RC, File);
}

void HelperCloner::dropAssignment(RewriteContext &RC,
                                  const RewriteContext::PendingAssignment &P,
                                  StringRef Why) {
  RC.Edits.unreplace(P.Begin, P.End);
  RC.untraced(P.Call,
              "the elements' assignment, '" + kernelName(P.Operator) +
                  "', is not run instrumented (" + Why.str() +
                  "): its element accesses are not recorded",
              AccessKind::Call);
}

std::optional<SourceLocation>
HelperCloner::copyPlace(const FunctionDecl *Written) const {
  auto It = CloneIndex.find(Written);
  if (It == CloneIndex.end() || !Clones[It->second].Emitted)
    return std::nullopt;
  const auto &Position = Clones[It->second].Position;
  if (!Position)
    return std::nullopt;
  return SM.getComposedLoc(SM.getMainFileID(), *Position);
}

std::string HelperCloner::copyName(const FunctionDecl *Written) const {
  auto It = CloneIndex.find(Written);
  if (It == CloneIndex.end() || !Clones[It->second].Emitted)
    return "";
  return qualifiedName(Clones[It->second]);
}

std::string HelperCloner::qualifiedName(const Clone &C) {
  std::string Name = "::";
  for (const NamespaceDecl *NS : enclosingNamespaces(C.Written))
    if (!NS->isAnonymousNamespace())
      Name += NS->getName().str() + "::";
  return Name + C.Name;
}

bool HelperCloner::operatorSyntaxSite(const CXXOperatorCallExpr &Op,
                                      const Use &U, Site &S) {
  std::string What = "call of '" + kernelName(U.Callee) + "'";
  auto Untraced = [&](StringRef Why) {
    Main.untraced(Op.getOperatorLoc(), What,
                  ("it is written in operator syntax " + Why +
                   ", and is not redirected to the instrumented copy of '" +
                   kernelName(U.Callee) +
                   "': what that call accesses is not recorded")
                      .str(),
                  scopeName(U.Caller));
    return false;
  };
  if (Op.getOperator() == OO_Call && U.TowardLoops)
    return callOperatorSite(Op, U, S);
  // An instantiation of a template may use a built-in operator at the
  // same text, which a call of the copy would not compile for.
  if (U.Caller->isTemplated())
    return Untraced("in a template");
  // A member's copy takes a non-const object by reference: a temporary
  // (`vec3(1, 2, 3) += v`) is the kernel's stack, called as written.
  if (const auto *M = dyn_cast<CXXMethodDecl>(U.Callee);
      M && !M->isConst() && Op.getNumArgs() > 0 && !Op.getArg(0)->isLValue())
    return false;
  // `f(a)` and `v[i]` are not a copy's call with the operator's token
  // replaced.
  if (Op.getOperator() == OO_Call || Op.getOperator() == OO_Subscript ||
      Op.getOperator() == OO_Arrow)
    return Untraced("as a call, a subscript or '->'");
  bool Binary = Op.getNumArgs() == 2;
  if (Op.getNumArgs() == 0 || Op.getNumArgs() > 2 ||
      (Binary &&
       (Op.getOperator() == OO_PlusPlus || Op.getOperator() == OO_MinusMinus)))
    return Untraced("as a postfix increment or decrement");
  SourceLocation Begin = Binary ? Op.getBeginLoc() : Op.getOperatorLoc();
  SourceLocation Last = Op.getEndLoc();
  if (Begin.isMacroID() || Last.isMacroID() || SM.getFileID(Begin) != S.File ||
      SM.getFileID(Last) != S.File)
    return Untraced("in a macro expansion");
  S.Binary = Binary;
  S.Operands = {SM.getFileOffset(Begin),
                SM.getFileOffset(Last) + Lexer::MeasureTokenLength(
                                             Last, SM, Main.Ctx.getLangOpts())};
  return true;
}

bool HelperCloner::callOperatorSite(const CXXOperatorCallExpr &Op, const Use &U,
                                    Site &S) {
  const auto *Called = cast<CXXMethodDecl>(Op.getDirectCallee());
  auto Untraced = [&](StringRef Why) {
    Main.untraced(Op.getBeginLoc(), "call of '" + kernelName(U.Callee) + "'",
                  ("it is " + Why + ", and is not redirected to the copy of '" +
                   kernelName(U.Callee) +
                   "': the OpenMP loops it reaches are not recorded")
                      .str(),
                  scopeName(U.Caller));
    return false;
  };
  // The copy takes a non-const object by reference.
  S.Temporary = !Called->isConst() && !Op.getArg(0)->isLValue();
  // One text of a template calls the copy for every instantiation,
  // deducing a class template's arguments from the object: the other
  // arguments must agree.
  std::vector<const Expr *> Args(Op.arg_begin() + 1, Op.arg_end());
  if (U.Caller->isTemplated() && Called->getTemplateInstantiationPattern() &&
      !deducesFromObject(Called, Args))
    return Untraced("a call in a template whose arguments convert to the "
                    "parameters' types, which the copy (a function template) "
                    "would deduce its class's arguments from");
  SourceLocation Begin = Op.getBeginLoc(), Last = Op.getEndLoc();
  if (Begin.isMacroID() || Last.isMacroID() || SM.getFileID(Begin) != S.File ||
      SM.getFileID(Last) != S.File || S.Loc.isMacroID())
    return Untraced("spelled in a macro expansion");
  // The '(' after the object, which `, ` replaces.
  SourceLocation ObjectEnd = Op.getArg(0)->getEndLoc();
  std::optional<Token> Paren =
      ObjectEnd.isMacroID()
          ? std::nullopt
          : Lexer::findNextToken(ObjectEnd, SM, Main.Ctx.getLangOpts());
  if (!Paren || Paren->isNot(tok::l_paren) ||
      SM.getFileID(Paren->getLocation()) != S.File)
    return Untraced("written in a form the copy's call cannot replace");
  S.CallOperator = true;
  S.Offset = SM.getFileOffset(Paren->getLocation());
  S.Length = 1;
  S.HasArguments = Op.getNumArgs() > 1;
  S.Operands = {SM.getFileOffset(Begin),
                SM.getFileOffset(Last) + Lexer::MeasureTokenLength(
                                             Last, SM, Main.Ctx.getLangOpts())};
  return true;
}

void HelperCloner::memberCallSite(const CXXMemberCallExpr &Call,
                                  const HelperCall &HC,
                                  std::vector<Site> &Sites) {
  const auto *Callee = dyn_cast<MemberExpr>(Call.getCallee());
  if (!Callee)
    return;
  // In a template, every instantiation's call of a member at one text must
  // agree on the copy it calls (collectSites): one that calls no copy, or
  // keeps its call as written, says so with a site without a name.
  bool InTemplate = HC.Caller->isTemplated();
  auto Unredirected = [&] {
    SourceLocation Operator = spelledInArgument(Callee->getOperatorLoc(), SM);
    if (!InTemplate || Callee->isImplicitAccess() || Operator.isMacroID())
      return;
    Site Blank;
    Blank.File = SM.getFileID(Operator);
    Blank.Offset = SM.getFileOffset(Operator);
    Blank.Loc = Callee->getMemberLoc();
    Blank.Caller = HC.Caller;
    Sites.push_back(Blank);
  };
  auto It = CloneIndex.find(HC.Callee);
  if (It == CloneIndex.end()) {
    Unredirected();
    return;
  }
  const Clone &C = Clones[It->second];
  const auto *M = cast<CXXMethodDecl>(C.Written);
  auto Untraced = [&](StringRef Why) {
    Main.untraced(Call.getBeginLoc(), "call of '" + kernelName(HC.Callee) + "'",
                  ("it is " + Why +
                   ", and is not redirected to the instrumented copy of '" +
                   kernelName(HC.Callee) +
                   "': what that call accesses is not recorded")
                      .str(),
                  scopeName(HC.Caller));
  };
  Site S;
  S.Caller = HC.Caller;
  S.Callee = static_cast<int>(It->second);
  S.NewName = qualifiedName(C);
  S.HasArguments = Call.getNumArgs() > 0;
  const auto *CallerFunction = dyn_cast<FunctionDecl>(HC.Caller);
  auto Caller =
      CallerFunction ? CloneIndex.find(CallerFunction) : CloneIndex.end();
  if (Callee->isImplicitAccess()) {
    // A copied member's body says `self.` for `this`; a member function of
    // this file calls the copy with `*this` (CLAMR's Mesh::calc_celltype
    // calling is_left_boundary(ic) of mesh.h in an OpenMP loop).
    unsigned Begin, End;
    if (Caller == CloneIndex.end()) {
      if (!SM.isInMainFile(SM.getExpansionLoc(Call.getBeginLoc())))
        return;
      if (InTemplate || !memberCallThroughThis(Call, Begin, End) ||
          SM.getFileID(Callee->getMemberLoc()) != SM.getMainFileID()) {
        Untraced("made through 'this' in a member function of this file");
        return;
      }
      S.ThroughThis = true;
      S.MainObject = true;
      S.File = SM.getMainFileID();
      S.Offset = Begin;
      S.Length = End - Begin;
      S.Loc = Callee->getMemberLoc();
      S.CallerPosition = SM.getFileOffset(topLevelBegin(HC.Caller));
      Sites.push_back(S);
      return;
    }
    if (!isa<CXXMethodDecl>(Clones[Caller->second].Written))
      return;
    if (!memberCallThroughThis(Call, Begin, End))
      return;
    S.ThroughThis = true;
    // In a class template's member's copy, the class's parameters are the
    // copy's.
    S.NewName += templateParameterArguments(M->getParent());
    S.File = SM.getFileID(Callee->getMemberLoc());
    S.Offset = Begin;
    S.Length = End - Begin;
    S.Loc = Callee->getMemberLoc();
    S.CallerClone = static_cast<int>(Caller->second);
    Sites.push_back(S);
    return;
  }
  // A call written in a macro's argument (Quicksilver's `qs_assert(i <
  // v.size())`) is redirected in the argument's text, as a function's is:
  // the whole call must be that text, in one argument.
  const LangOptions &LO = Main.Ctx.getLangOpts();
  SourceLocation Begin = spelledInArgument(Call.getBeginLoc(), SM);
  SourceLocation Last = spelledInArgument(Call.getEndLoc(), SM);
  SourceLocation Operator = spelledInArgument(Callee->getOperatorLoc(), SM);
  SourceLocation NameEnd = spelledInArgument(Callee->getEndLoc(), SM);
  CharSourceRange Whole = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Call.getBeginLoc(), Call.getEndLoc()), SM,
      LO);
  if (Begin.isMacroID() || Last.isMacroID() || Operator.isMacroID() ||
      NameEnd.isMacroID() ||
      spelledInArgument(Callee->getMemberLoc(), SM).isMacroID() ||
      Whole.isInvalid() || Whole.getBegin() != Begin) {
    Untraced("spelled in a macro expansion");
    return;
  }
  S.File = SM.getFileID(Begin);
  if (!placeCaller(S))
    return;
  // In a template, one text calls the copy for every instantiation: a
  // class template's copy then deduces the class's arguments from the
  // object (`::Acc_get_wgtrace_0(a[i])`), which its other parameters
  // could contradict; deducing is enough when each argument has its
  // parameter's type (miniFE's `mesh.map_id_to_row(node_ords[i])`, a
  // `const GlobalOrdinal &` given a `GlobalOrdinal`, in a helper).
  std::vector<const Expr *> Args(Call.arg_begin(), Call.arg_end());
  if (InTemplate && !C.TemplateHead.empty() && M->getNumParams() > 0 &&
      !deducesFromObject(Call.getMethodDecl(), Args)) {
    Untraced("a member call in a template, whose copy (a function "
             "template) would deduce the class's arguments from its other "
             "arguments too");
    Unredirected();
    return;
  }
  // A non-const member's copy takes its object by reference: a temporary
  // is the kernel's stack, called as written; on the way to OpenMP loops,
  // which are traced in the copy only, through kAsLvalue.
  const Expr *Object = Callee->getBase();
  S.Arrow = Callee->isArrow();
  if (!S.Arrow && !M->isConst() && !Object->isLValue()) {
    if (!HC.TowardLoops) {
      Unredirected();
      return;
    }
    S.Temporary = true;
  }
  // From the `.` or `->` to the '(' after the member's name, which the
  // copy's call replaces.
  std::optional<Token> Paren = Lexer::findNextToken(NameEnd, SM, LO);
  if (!Paren || Paren->isNot(tok::l_paren) ||
      SM.getFileID(Paren->getLocation()) != S.File ||
      SM.getFileID(Operator) != S.File) {
    Untraced("written in a form the copy's call cannot replace");
    Unredirected();
    return;
  }
  S.MemberCall = true;
  if (!InTemplate)
    S.NewName += copyTemplateArguments(Call.getMethodDecl());
  S.Offset = SM.getFileOffset(Operator);
  S.Length = SM.getFileOffset(Paren->getLocation()) + 1 - S.Offset;
  S.Loc = Callee->getMemberLoc();
  S.CallBegin = SM.getFileOffset(Begin);
  S.CallEnd = SM.getFileOffset(Last) + Lexer::MeasureTokenLength(Last, SM, LO);
  Sites.push_back(S);
}

bool HelperCloner::placeCaller(Site &S) const {
  const auto *CallerFunction = dyn_cast<FunctionDecl>(S.Caller);
  auto Caller =
      CallerFunction ? CloneIndex.find(CallerFunction) : CloneIndex.end();
  if (Caller != CloneIndex.end()) {
    S.CallerClone = static_cast<int>(Caller->second);
    return S.File == Clones[Caller->second].File;
  }
  if (S.File != SM.getMainFileID())
    return false;
  S.CallerPosition = SM.getFileOffset(topLevelBegin(S.Caller));
  return true;
}

/// Whether a qualifier, as written up to a member's name, names Class
/// itself from inside it: by its name alone (`Pack::`) or with its
/// parameters (`Pack<T, N>::`).
static bool namesOwnClass(StringRef Qualifier, const CXXRecordDecl *Class) {
  std::string Compact;
  for (char Ch : Qualifier)
    if (!isSpace(Ch))
      Compact += Ch;
  std::string Own = Class->getName().str();
  std::string Parameters;
  for (char Ch : templateParameterArguments(Class))
    if (Ch != ' ')
      Parameters += Ch;
  return Compact == Own + "::" || Compact == Own + Parameters + "::";
}

bool HelperCloner::staticMemberSite(const Use &U, Site &S) {
  const Clone &C = Clones[S.Callee];
  const auto *M = cast<CXXMethodDecl>(C.Written);
  const DeclRefExpr &Ref = *U.Ref;
  const auto *Called = dyn_cast<CXXMethodDecl>(Ref.getDecl());
  const std::string Name = kernelName(U.Callee);
  auto Untraced = [&](StringRef Why) {
    Main.untraced(S.Loc, (U.Call ? "call of '" : "use of '") + Name + "'",
                  ("it is " + Why +
                   ", and is not redirected to the instrumented copy of '" +
                   Name + "': what that call accesses is not recorded")
                      .str(),
                  scopeName(U.Caller));
    return false;
  };
  S.Static = true;
  S.NewName = qualifiedName(C);
  unsigned NameOffset = S.Offset;
  if (Ref.hasQualifier()) {
    SourceLocation Begin =
        spelledInArgument(Ref.getQualifierLoc().getBeginLoc(), SM);
    if (Begin.isMacroID() || SM.getFileID(Begin) != S.File)
      return Untraced("named with a qualifier spelled in a macro expansion");
    unsigned BeginOffset = SM.getFileOffset(Begin);
    S.Length += S.Offset - BeginOffset;
    S.Offset = BeginOffset;
  }
  if (C.TemplateHead.empty())
    return true;
  // A class template's member: its copy is a function template over the
  // class's parameters, which no argument deduces; each call names them.
  // In the copy of another member of the class, called by its name alone
  // or through the class's own name, they are the copy's parameters.
  const auto *CallerFunction = dyn_cast<FunctionDecl>(U.Caller);
  if (CallerFunction && CallerFunction->getTemplateInstantiationPattern())
    CallerFunction = CallerFunction->getTemplateInstantiationPattern();
  const auto *CallerMethod = dyn_cast_or_null<CXXMethodDecl>(CallerFunction);
  bool OwnClass = S.CallerClone >= 0 && CallerMethod &&
                  CallerMethod->getParent() == M->getParent();
  if (OwnClass && Ref.hasQualifier())
    OwnClass = namesOwnClass(
        SM.getBufferData(S.File).slice(S.Offset, NameOffset), M->getParent());
  if (OwnClass) {
    S.NewName += templateParameterArguments(M->getParent());
    return true;
  }
  // Elsewhere, the specialization's arguments (`Builder::f` calls
  // `::BuilderBase_f_wgtrace_0<int, int, int, true>`): in a template, one
  // text serves every instantiation, which must agree (collectSites).
  std::string Arguments =
      Called ? copyTemplateArguments(Called, /*WithDefaults=*/true) : "";
  if (Arguments.empty())
    return Untraced("not named as a member of a specialization of its class "
                    "template");
  S.NewName += Arguments;
  return true;
}

void HelperCloner::staticObjectCallSite(const CallExpr &Call,
                                        const MemberExpr &Callee,
                                        const HelperCall &HC,
                                        std::vector<Site> &Sites) {
  const auto *Called = dyn_cast<CXXMethodDecl>(Callee.getMemberDecl());
  auto It = CloneIndex.find(HC.Callee);
  if (!Called || !Called->isStatic() || It == CloneIndex.end())
    return;
  const Clone &C = Clones[It->second];
  auto Untraced = [&](StringRef Why) {
    Main.untraced(
        Call.getBeginLoc(), "call of '" + kernelName(HC.Callee) + "'",
        ("it is a call of a static member function through an "
         "object " +
         Why + ", and is not redirected to the instrumented copy of '" +
         kernelName(HC.Callee) + "': what that call accesses is not recorded")
            .str(),
        scopeName(HC.Caller));
  };
  // One text of a template may call a static member in one instantiation
  // and a non-static one (or a function that is not copied) in another.
  if (HC.Caller->isTemplated()) {
    Untraced("in a template");
    return;
  }
  Site S;
  S.Caller = HC.Caller;
  S.Callee = static_cast<int>(It->second);
  S.Static = true;
  S.StaticObject = true;
  S.NewName = qualifiedName(C);
  if (!C.TemplateHead.empty())
    S.NewName += copyTemplateArguments(Called, /*WithDefaults=*/true);
  const LangOptions &LO = Main.Ctx.getLangOpts();
  SourceLocation Begin = spelledInArgument(Call.getBeginLoc(), SM);
  SourceLocation Last = spelledInArgument(Call.getEndLoc(), SM);
  SourceLocation Operator = spelledInArgument(Callee.getOperatorLoc(), SM);
  SourceLocation NameEnd = spelledInArgument(Callee.getEndLoc(), SM);
  CharSourceRange Whole = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Call.getBeginLoc(), Call.getEndLoc()), SM,
      LO);
  if (Begin.isMacroID() || Last.isMacroID() || Operator.isMacroID() ||
      NameEnd.isMacroID() || Whole.isInvalid() || Whole.getBegin() != Begin) {
    Untraced("spelled in a macro expansion");
    return;
  }
  S.File = SM.getFileID(Begin);
  if (!placeCaller(S))
    return;
  std::optional<Token> Paren = Lexer::findNextToken(NameEnd, SM, LO);
  if (!Paren || Paren->isNot(tok::l_paren) ||
      SM.getFileID(Paren->getLocation()) != S.File ||
      SM.getFileID(Operator) != S.File) {
    Untraced("written in a form the copy's call cannot replace");
    return;
  }
  S.Offset = SM.getFileOffset(Operator);
  S.Length = SM.getFileOffset(Paren->getLocation()) + 1 - S.Offset;
  S.Loc = Callee.getMemberLoc();
  S.CallBegin = SM.getFileOffset(Begin);
  S.CallEnd = SM.getFileOffset(Last) + Lexer::MeasureTokenLength(Last, SM, LO);
  Sites.push_back(S);
}

bool HelperCloner::usesValarrays() const {
  for (const Clone &C : Clones)
    if (C.Emitted) {
      auto It = Headers.find(C.File);
      if (It != Headers.end() && It->second->RC.UsesValarrays)
        return true;
    }
  return false;
}

bool HelperCloner::usesAlgorithms() const {
  for (const Clone &C : Clones)
    if (C.Emitted) {
      auto It = Headers.find(C.File);
      if (It != Headers.end() && It->second->RC.UsesAlgorithms)
        return true;
    }
  return false;
}

void HelperCloner::emit() {
  FileID MainFile = SM.getMainFileID();
  StringRef MainText = SM.getBufferData(MainFile);
  FileManager &FM = SM.getFileManager();
  std::map<unsigned, std::vector<const Clone *>> ByPosition;
  // place() gave every copy that a kept call reaches a position.
  for (const Clone &C : Clones)
    if (C.Emitted)
      // NOLINTNEXTLINE(bugprone-unchecked-optional-access)
      ByPosition[*C.Position].push_back(&C);

  auto Wrapped = [&](const Clone &C, bool DeclarationOnly) {
    std::string Open, Close;
    for (const NamespaceDecl *NS : enclosingNamespaces(C.Written)) {
      Open += NS->isInline() ? "inline namespace " : "namespace ";
      if (!NS->isAnonymousNamespace())
        Open += NS->getName().str() + " ";
      Open += "{ ";
      Close += "} ";
    }
    SmallString<256> Header(SM.getFileEntryRefForID(C.File)
                                ? SM.getFileEntryRefForID(C.File)->getName()
                                : StringRef());
    FM.makeAbsolutePath(Header);
    sys::path::remove_dots(Header, /*remove_dot_dot=*/false);
    std::string Text;
    if (!DeclarationOnly)
      Text += C.SharedModule;
    if (!Open.empty())
      Text += StringRef(Open).rtrim().str() + "\n";
    Text += "#line " + std::to_string(SM.getLineNumber(C.File, C.Begin)) +
            " \"" + escapeCString(Header) + "\"\n";
    Text += cloneText(C, DeclarationOnly) + "\n";
    if (!Close.empty())
      Text += StringRef(Close).rtrim().str() + "\n";
    return Text;
  };

  for (auto &[Position, List] : ByPosition) {
    llvm::sort(List, [&](const Clone *A, const Clone *B) {
      return SM.isBeforeInTranslationUnit(A->Written->getBeginLoc(),
                                          B->Written->getBeginLoc());
    });
    // The tags of the non-public members these copies name, at namespace
    // scope, each the first time a copy needs it.
    std::vector<const ValueDecl *> Private;
    for (const Clone *C : List)
      Private.insert(Private.end(), C->Private.begin(), C->Private.end());
    std::string Block = Access.declarations(Private);
    for (const Clone *C : List)
      if (C->NeedsDeclaration)
        Block += Wrapped(*C, /*DeclarationOnly=*/true);
    for (const Clone *C : List)
      Block += Wrapped(*C, /*DeclarationOnly=*/false);
    // Back to the main file's numbering: the line the block was put in
    // front of keeps its number.
    Block += "#line " + std::to_string(SM.getLineNumber(MainFile, Position)) +
             " \"" + escapeCString(MainPath) + "\"\n";
    // Directives need a line of their own: the block goes at the start of
    // the line, or after a line break when something precedes the
    // declaration on its line.
    size_t LineStart = MainText.rfind('\n', Position);
    LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
    if (MainText.slice(LineStart, Position).trim().empty())
      Main.Edits.insert(LineStart, Block);
    else
      Main.Edits.insert(Position, "\n" + Block);
  }
}

} // namespace rewriter
} // namespace wgtrace
