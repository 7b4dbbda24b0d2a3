//===- FileRewriter.cpp - Rewrites one translation unit -------------------===//

#include "FileRewriter.h"

#include "AccessCollector.h"
#include "CompilationSetup.h"
#include "DependencyFile.h"
#include "EditSet.h"
#include "HeaderKernels.h"
#include "HelperCloner.h"
#include "HelperFinder.h"
#include "IndirectTargets.h"
#include "InstanceGates.h"
#include "KernelFinder.h"
#include "KernelInstances.h"
#include "MacroTokens.h"
#include "MemoryModel.h"
#include "MetadataEmitter.h"
#include "OpenMPLoops.h"
#include "PlainBodyCopy.h"
#include "ReservedStatements.h"
#include "RewriteContext.h"
#include "ThreadOwnership.h"
#include "UserCodeParents.h"
#include "WatchCollector.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <optional>
#include <set>

using namespace clang;
using namespace llvm;

namespace wgtrace {
namespace rewriter {
namespace {

cl::opt<bool> SelectableBodies(
    "selectable",
    cl::desc("Give each kernel an uninstrumented copy of its body, run by the "
             "workgroups that WGTRACE_FILTER leaves out (they then cost what "
             "a plain build costs)"),
    cl::cat(toolOptions()));

/// The exported functions that reach code whose untraced parts were held
/// back (RewriteContext::QuietHits, owned as QuietOwner says): registered
/// as instrumented in part, so that a call from another file's kernel says
/// so at run time.
llvm::DenseSet<const FunctionDecl *>
partialTargets(const FoundHelpers &Helpers, const RewriteContext &RC,
               const std::map<std::string, const FunctionDecl *> &QuietOwner) {
  llvm::DenseSet<const FunctionDecl *> Partial;
  llvm::DenseSet<const FunctionDecl *> Untraced;
  for (const std::string &Name : RC.QuietHits)
    if (auto It = QuietOwner.find(Name); It != QuietOwner.end())
      Untraced.insert(It->second);
  if (Untraced.empty())
    return Partial;
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>>
      Callees;
  for (const HelperCall &C : Helpers.Calls)
    Callees[C.Caller].push_back(C.Callee);
  for (const IndirectTarget &T : Helpers.IndirectTargets) {
    const FunctionDecl *Root = writtenFunction(T.Function);
    std::vector<const FunctionDecl *> Work{Root};
    llvm::DenseSet<const FunctionDecl *> Seen{Root};
    while (!Work.empty()) {
      const FunctionDecl *FD = Work.back();
      Work.pop_back();
      if (Untraced.contains(FD)) {
        Partial.insert(Root);
        break;
      }
      for (const FunctionDecl *Callee : Callees.lookup(FD))
        if (Helpers.EntryOnly.contains(Callee) && Seen.insert(Callee).second)
          Work.push_back(Callee);
    }
  }
  return Partial;
}

/// The program's other code calls the functions instrumented for other
/// files' kernels too, where recording them would cost what tracing costs
/// for nothing: each runs its body as written while no workgroup records
/// (WGTRACE_RECORDING). Not one that launches kernels or holds OpenMP
/// loops (a copy as written would miss their edits), nor one a copy would
/// change (a static local, a label).
void addPlainCopies(RewriteContext &RC, const FoundHelpers &Helpers,
                    const std::vector<const FunctionDecl *> &Exported,
                    StringRef LinePath) {
  llvm::DenseSet<const FunctionDecl *> InPlace;
  for (const KernelDef &H : Helpers.InMainFile)
    InPlace.insert(H.Written);
  for (const FunctionDecl *FD : Exported) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
    if (!Body || !InPlace.contains(FD) || callsWgtraceOrOpenMP(Body))
      continue;
    std::optional<unsigned> Open = RC.offsetAfterToken(Body->getLBracLoc());
    std::string Why;
    std::optional<PlainBodyCopy> Copy =
        Open ? plainBodyCopy(Body, RC, LinePath, "!WGTRACE_RECORDING()", Why)
             : std::nullopt;
    if (!Copy)
      continue;
    RC.Edits.insert(*Open, Copy->Open);
    RC.Edits.insert(
        RC.SM.getFileOffset(RC.SM.getExpansionLoc(Body->getRBracLoc())),
        Copy->Close);
  }
}

bool isWorkgroupReference(QualType T) {
  const auto *Ref = T->getAs<LValueReferenceType>();
  return Ref && Ref->getPointeeType().isConstQualified() &&
         MemoryModel::isWorkgroupType(Ref->getPointeeType());
}

/// Instrumenting twice would record every access twice and define the
/// module twice: refuse input that already went through the rewriter.
bool isAlreadyInstrumented(StringRef Code, Preprocessor &PP) {
  static const Regex Include(
      "#[[:space:]]*include[[:space:]]*[<\"]wgtrace/instrument\\.h[>\"]");
  return Code.contains("WGTRACE_INSTRUMENTED") || Include.match(Code) ||
         PP.isMacroDefined("WGTRACE_INSTRUMENTED");
}

/// Preprocessor output (`cc -E`: miniMD's Makefile compiles it) holds the
/// text of the headers its source included, without their include guards,
/// so the wgtrace headers the rewrite adds would define the standard
/// library's declarations a second time. A line marker that enters a
/// file (`# 1 "/usr/include/stdio.h" 1 3 4`: flag 1) is written only by a
/// preprocessor. Returns its line and the file it enters, if any.
std::optional<std::pair<unsigned, std::string>> enteredHeader(StringRef Code) {
  static const Regex Marker(
      "^#[ \t]*([0-9]+)[ \t]+\"([^\"]*)\"(([ \t]+[0-9]+)*)[ \t]*$");
  unsigned Line = 0;
  for (StringRef Rest = Code; !Rest.empty();) {
    auto [Text, Next] = Rest.split('\n');
    Rest = Next;
    ++Line;
    SmallVector<StringRef, 5> Parts;
    if (!Text.starts_with("#") || !Marker.match(Text.rtrim('\r'), &Parts))
      continue;
    SmallVector<StringRef, 4> Flags;
    Parts[3].split(Flags, ' ', -1, /*KeepEmpty=*/false);
    // Clang's output enters "<built-in>" and "<command line>" first.
    if (llvm::is_contained(Flags, "1") && !Parts[2].starts_with("<"))
      return std::make_pair(Line, Parts[2].str());
  }
  return std::nullopt;
}

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(const CompilerInstance &CI, std::string GivenPath,
                  RewriteResult &Result, RewriteOptions Options,
                  std::shared_ptr<MacroTokens> Macros)
      : PP(CI.getPreprocessor()), Target(describeTarget(CI)),
        GivenPath(std::move(GivenPath)), Result(Result),
        Options(std::move(Options)), Macros(std::move(Macros)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override;

private:
  /// Adds the prologue of kernel number Index, which records Params after
  /// the workgroup; false if the kernel cannot be instrumented (an error
  /// was reported). SharedModule names the module a header kernel's copy
  /// records under (empty: the file's own); Header is the header's path,
  /// which the #line directives of a --selectable copy of its body name.
  bool addPrologue(RewriteContext &RC, const KernelDef &K,
                   const std::string &Name, unsigned Index,
                   ArrayRef<ParamMeta> Params,
                   const std::string &SharedModule = "", StringRef Header = "");
  /// The instances of template kernel K (function Index of Module) that
  /// the end of the file registers, added to Instances; returns the tag
  /// its prologue names them by ("" for a kernel that is not a template,
  /// or whose parameters a tag cannot hold).
  std::string addInstances(const KernelDef &K, const FunctionMeta &Template,
                           const std::string &Module, unsigned Index);
  /// Path relative to the project root when it lies below it, else as
  /// given.
  std::string projectRelative(StringRef Path) const;
  /// "lambda at FILE:LINE" for each lambda kernel (":COL" added when two
  /// share a line), by closure type.
  void nameLambdaKernels(const SourceManager &SM,
                         const std::vector<KernelDef> &Kernels);
  /// Inserts Site (the site argument: `WGTRACE_SITE(<i>), `) into a
  /// dispatch call; false if it cannot be edited.
  bool addSite(RewriteContext &RC, StringRef Code, const CallExpr *Call,
               StringRef Site);
  /// For a dispatch whose kernel is a function pointer's value: the
  /// kernels of this file it can hold (their type, declared before the
  /// call, not overloaded), with the text that takes their address.
  std::vector<std::pair<const FunctionDecl *, std::string>>
  pointerDispatchTargets(ASTContext &Ctx, const std::vector<KernelDef> &Kernels,
                         const DispatchCall &C) const;
  /// The kernels of project headers copied into this file that the pointer
  /// of C can hold, with the address of each one's copy (what the file's
  /// uses, redirected to the copy, put in the pointer): those of its type,
  /// not templates or overloaded, first used (and so copied) before C.
  /// FirstUse is each header kernel's first use in this file.
  std::vector<std::pair<const FunctionDecl *, std::string>>
  headerPointerDispatchTargets(ASTContext &Ctx,
                               const std::vector<KernelDef> &HeaderKernels,
                               const HelperCloner &Cloner,
                               llvm::ArrayRef<SourceLocation> FirstUse,
                               const DispatchCall &C) const;
  std::string calleeName(const ASTContext &Ctx, const Expr *Kernel) const;
  /// For a launch written in a function template, of one registered
  /// instantiation of a template kernel per instantiation of its own
  /// (`dispatch(saxpy<T>, ...)` in `run<T>`): the site argument, which
  /// picks at compile time a site per launched instantiation, numbered
  /// from First, that Added names (`saxpy<float>`, then `saxpy<double>`).
  /// Empty when the instantiations cannot be told apart in the template's
  /// text (InstanceGates.h): the launch then names the kernel's template.
  std::string instanceSiteChoice(ASTContext &Ctx, UserCodeParents &Parents,
                                 const DispatchCall &C, size_t First,
                                 StringRef Place,
                                 std::vector<SiteMeta> &Added) const;
  /// Instruments OpenMP loop L as function Functions.size() launched from
  /// site Sites.size(): the launch before it, the iteration prologue in
  /// its body, its body's accesses; adds what the kernel phase adds for a
  /// kernel to Functions, Sites and Scanned. RC edits the file L is
  /// written in (the main file, or a header whose function is copied),
  /// which the metadata names Path. False when it cannot be traced
  /// (reported untraced).
  bool instrumentOmpLoop(RewriteContext &RC, StringRef Path, const OmpLoop &L,
                         std::vector<FunctionMeta> &Functions,
                         std::vector<SiteMeta> &Sites,
                         std::vector<KernelDef> &Scanned);
  /// Traces the OpenMP loops of the project headers' functions that this
  /// file uses (calls, takes the address of) in copies of the functions
  /// (HelperCloner.h), as instrumentOmpLoop traces this file's, and
  /// reports the other loops and constructs of headers untraced. Adds the
  /// functions copied to Copied and this file's references to them to
  /// References (whose Kernel indexes Copied from KernelBase on), the
  /// calls of copied member functions (this file's and the copies') to
  /// MemberCalls. True when a loop is traced.
  bool traceHeaderOmp(RewriteContext &RC, HelperCloner &Cloner,
                      const FoundOpenMP &OpenMP,
                      std::vector<FunctionMeta> &Functions,
                      std::vector<SiteMeta> &Sites,
                      std::vector<KernelDef> &Scanned,
                      std::vector<KernelDef> &Copied,
                      std::vector<KernelReference> &References,
                      std::vector<HelperCall> &MemberCalls, size_t KernelBase);
  /// The export name of kernel FD (a function or one instantiation of a
  /// template): its qualified name, with its template arguments, and with
  /// its parameter types when another kernel has the same name (an
  /// overload).
  std::string exportName(const FunctionDecl *FD) const;

  Preprocessor &PP;
  std::string Target;
  std::string GivenPath;
  RewriteResult &Result;
  RewriteOptions Options;
  /// The tokens the file's macro invocations expand to.
  std::shared_ptr<MacroTokens> Macros;
  llvm::DenseMap<const CXXRecordDecl *, std::string> LambdaKernelNames;
  std::vector<InstanceMeta> Instances;
  /// Qualified names that several kernels of this file have (overloads).
  std::set<std::string> OverloadedKernels;
  /// The prologue's instance tag of the kernel being instrumented.
  std::string PrologueTag;
};

bool RewriteConsumer::addPrologue(RewriteContext &RC, const KernelDef &K,
                                  const std::string &Name, unsigned Index,
                                  ArrayRef<ParamMeta> Params,
                                  const std::string &SharedModule,
                                  StringRef Header) {
  const FunctionDecl *FD = K.Written;
  StringRef LinePath = Header.empty() ? StringRef(GivenPath) : Header;
  // A generic lambda's pattern says `const auto &`: its instantiations say
  // what the dispatch passes.
  const FunctionDecl *Typed =
      K.Lambda && !K.Bodies.empty() ? K.Bodies.front() : FD;
  const char *What = K.Lambda ? "lambda kernel '" : "kernel '";
  if (FD->getNumParams() == 0 ||
      !isWorkgroupReference(Typed->getParamDecl(0)->getType())) {
    RC.error(K.Lambda ? K.Lambda->getBeginLoc() : FD->getLocation(),
             What + Name +
                 (K.Lambda ? "' is passed to wgtrace::dispatch"
                           : "' is marked WGTRACE_DISPATCH") +
                 " but its first parameter is not 'const wgtrace::Workgroup "
                 "&'");
    return false;
  }
  const ParmVarDecl *WG = FD->getParamDecl(0);
  std::string WGName = WG->getName().str();
  if (WGName.empty() && K.Lambda) {
    // `[](const wgtrace::Workgroup &, ...)` is the usual way to say the
    // body does not need it: the prologue does, under a name of its own.
    std::optional<unsigned> AfterType;
    if (const TypeSourceInfo *TSI = WG->getTypeSourceInfo())
      AfterType = RC.offsetAfterToken(TSI->getTypeLoc().getEndLoc());
    if (AfterType) {
      WGName = "wgtrace_workgroup_";
      RC.Edits.insert(*AfterType, " " + WGName);
    }
  }
  if (WGName.empty()) {
    RC.error(WG->getLocation(),
             "the 'const wgtrace::Workgroup &' parameter of " +
                 std::string(What) + Name +
                 "' has no name; name it so that wgtrace-rewrite can record "
                 "the workgroup");
    return false;
  }
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  std::optional<unsigned> Offset;
  if (Body)
    Offset = RC.offsetAfterToken(Body->getLBracLoc());
  if (!Offset) {
    RC.error(K.Lambda ? K.Lambda->getBeginLoc() : FD->getLocation(),
             "the body of " + std::string(What) + Name +
                 "' must be a plain '{ ... }' written outside any macro");
    return false;
  }
  std::string Prologue;
  if (!PrologueTag.empty())
    Prologue =
        SharedModule.empty()
            ? (" WGTRACE_WORKGROUP_INSTANCE(" + WGName + ", " + Twine(Index) +
               ", " + PrologueTag + ");")
                  .str()
            : (" WGTRACE_WORKGROUP_INSTANCE_OF(::" + SharedModule + ", " +
               WGName + ", " + Twine(Index) + ", " + PrologueTag + ");")
                  .str();
  else
    Prologue =
        SharedModule.empty()
            ? (" WGTRACE_WORKGROUP(" + WGName + ", " + Twine(Index) + ");")
                  .str()
            : (" WGTRACE_WORKGROUP_OF(::" + SharedModule + ", " + WGName +
               ", " + Twine(Index) + ");")
                  .str();
  Prologue += bufferPrologue(Params);
  if (SelectableBodies) {
    std::string Why;
    if (std::optional<PlainBodyCopy> Copy =
            plainBodyCopy(Body, RC, LinePath, "!WGTRACE_SELECTED()", Why)) {
      Prologue += Copy->Open;
      RC.Edits.insert(
          RC.SM.getFileOffset(RC.SM.getExpansionLoc(Body->getRBracLoc())),
          Copy->Close);
    } else {
      RC.remark(FD->getLocation(),
                "--selectable: " + std::string(What) + Name +
                    "' has no uninstrumented copy for the workgroups a "
                    "filter leaves out (" +
                    Why + "); they run it instrumented, recording nothing");
    }
  }
  RC.Edits.insert(*Offset, Prologue);
  return true;
}

std::string RewriteConsumer::exportName(const FunctionDecl *FD) const {
  std::string Name = instanceName(FD, kernelName(FD));
  if (!OverloadedKernels.count(kernelName(FD)))
    return Name;
  // An overload: named with its parameters after the Workgroup, as Clang
  // prints their types.
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Name += "(";
  for (unsigned I = 1; I < FD->getNumParams(); ++I)
    Name += (I > 1 ? ", " : "") +
            FD->getParamDecl(I)->getType().getAsString(Policy);
  return Name + ")";
}

std::string RewriteConsumer::addInstances(const KernelDef &K,
                                          const FunctionMeta &Template,
                                          const std::string &Module,
                                          unsigned Index) {
  if (K.Lambda)
    return "";
  std::optional<std::string> Tag = instanceTagInPattern(K.Written);
  if (!Tag)
    return "";
  for (const FunctionDecl *Body : K.Bodies) {
    std::optional<std::string> Spelled = instanceTag(Body);
    if (!Spelled)
      continue;
    InstanceMeta I;
    I.Tag = *Spelled;
    I.Module = Module;
    I.Pattern = Index;
    I.Function = Template;
    I.Function.Name = exportName(Body);
    I.Function.Params = describeBufferParams(K.Written, {Body});
    Instances.push_back(std::move(I));
  }
  return *Tag;
}

std::string RewriteConsumer::projectRelative(StringRef Path) const {
  SmallString<256> Root(Options.ProjectRoot);
  // Without a root (not even the working folder) the path is kept.
  if (Root.empty() && sys::fs::current_path(Root))
    return Path.str();
  SmallString<256> File(Path);
  if (sys::fs::make_absolute(File) || sys::fs::make_absolute(Root))
    return Path.str();
  sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  sys::path::remove_dots(Root, /*remove_dot_dot=*/true);
  StringRef Relative = File;
  if (!Relative.consume_front(Root) ||
      !(Relative.empty() || sys::path::is_separator(Relative.front())))
    return Path.str();
  return Relative.ltrim("/").str();
}

void RewriteConsumer::nameLambdaKernels(const SourceManager &SM,
                                        const std::vector<KernelDef> &Kernels) {
  std::map<unsigned, unsigned> PerLine;
  for (const KernelDef &K : Kernels)
    if (K.Lambda)
      ++PerLine[SM.getExpansionLineNumber(K.Lambda->getBeginLoc())];
  for (const KernelDef &K : Kernels) {
    if (!K.Lambda)
      continue;
    SourceLocation At = SM.getExpansionLoc(K.Lambda->getBeginLoc());
    unsigned Line = SM.getExpansionLineNumber(At);
    std::string Name =
        "lambda at " + projectRelative(GivenPath) + ":" + std::to_string(Line);
    if (PerLine[Line] > 1)
      Name += ":" + std::to_string(SM.getExpansionColumnNumber(At));
    for (const CXXRecordDecl *Closure : K.Closures)
      LambdaKernelNames[Closure] = Name;
  }
}

std::string RewriteConsumer::calleeName(const ASTContext &Ctx,
                                        const Expr *Kernel) const {
  // `static_cast<void (*)(...)>(k)` picks an overload of k.
  const Expr *E = Kernel->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      // An instantiation of a template kernel is an export of its own when
      // the end of the file can register it (KernelInstances.h).
      if (instanceTag(FD) && FD->getTemplateInstantiationPattern() &&
          instanceTagInPattern(FD->getTemplateInstantiationPattern()))
        return exportName(FD);
      return exportName(FD->getTemplateInstantiationPattern()
                            ? FD->getTemplateInstantiationPattern()
                            : FD);
    }
  // A lambda kernel: its export's name.
  auto Lambda = LambdaKernelNames.find(closureOf(Kernel));
  if (Lambda != LambdaKernelNames.end())
    return Lambda->second;
  // Not a plain function (a functor): the text names it best.
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Kernel->getSourceRange()), SM,
      Ctx.getLangOpts());
  return Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
}

/// T as code anywhere in the file spells it: names from the global scope,
/// a member typedef through its class (`::SlidingQueue<int>::iterator`); a
/// dependent type as the template writes it.
static std::string spelledType(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  if (T->isDependentType())
    return T.getAsString(Policy);
  return TypeName::getFullyQualifiedName(T, Ctx, Policy,
                                         /*WithGlobalNsPrefix=*/true);
}

/// Why F, a project header's function that holds OpenMP loops and that
/// this file uses, cannot be copied to trace them; empty if it can.
static std::string whyNotCopyableForLoops(const FunctionDecl *F) {
  // What a free function cannot be, said for what it is (the helpers'
  // reason says "it is a member function" of all three).
  if (isa<CXXConstructorDecl>(F))
    return "it is a constructor, which no free function can stand for: "
           "its object is made by it";
  if (isa<CXXDestructorDecl>(F))
    return "it is a destructor, which runs where no call is written";
  if (isa<CXXConversionDecl>(F))
    return "it is a conversion function, called where no call is written";
  return whyNotCopyable(F, /*CallOperator=*/true);
}

/// The function that Call is written in, if this translation unit uses it
/// (a header's launcher function that nothing calls is not worth a
/// warning); null otherwise.
static const FunctionDecl *usedEnclosingFunction(UserCodeParents &Map,
                                                 const Stmt *Call) {
  DynTypedNodeList Parents = Map.parents(DynTypedNode::create(*Call));
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>())
      return FD->isUsed() || FD->getTemplateInstantiationPattern() ? FD
                                                                   : nullptr;
    if (const auto *LE = P.get<LambdaExpr>())
      return LE->getCallOperator()->isUsed() ? LE->getCallOperator() : nullptr;
    Parents = Map.parents(P);
  }
  return nullptr;
}

/// Whether Call is written in (an instantiation of) a template.
static bool inTemplateInstantiation(UserCodeParents &Map, const Stmt *Call) {
  DynTypedNodeList Parents = Map.parents(DynTypedNode::create(*Call));
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>())
      if (FD->isTemplateInstantiation())
        return true;
    Parents = Map.parents(P);
  }
  return false;
}

/// The function a dispatch's kernel argument names, if it names one.
static const FunctionDecl *calleeFunction(const Expr *Kernel) {
  const Expr *E = Kernel->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
}

std::string RewriteConsumer::instanceSiteChoice(
    ASTContext &Ctx, UserCodeParents &Parents, const DispatchCall &C,
    size_t First, StringRef Place, std::vector<SiteMeta> &Added) const {
  const FunctionDecl *Pattern = nullptr;
  // Each launched instantiation's export name, with the instantiations of
  // the enclosing template that launch it.
  std::vector<std::pair<std::string, std::vector<const FunctionDecl *>>>
      Launched;
  for (const CallExpr *Call : C.Instances) {
    const FunctionDecl *Enclosing = usedEnclosingFunction(Parents, Call);
    const FunctionDecl *Kernel = calleeFunction(Call->getArg(0));
    if (!Enclosing || !Kernel || !Kernel->getTemplateInstantiationPattern())
      return "";
    const FunctionDecl *Own = Enclosing->getTemplateInstantiationPattern();
    if (!Own || (Pattern && Own != Pattern))
      return "";
    Pattern = Own;
    // Only an instantiation the end of the file registers is an export.
    std::string Name = calleeName(Ctx, Call->getArg(0));
    if (Name != exportName(Kernel))
      return "";
    auto It =
        llvm::find_if(Launched, [&](const auto &L) { return L.first == Name; });
    if (It == Launched.end())
      Launched.push_back({Name, {Enclosing}});
    else
      It->second.push_back(Enclosing);
  }
  if (!Pattern)
    return "";
  const FunctionTemplateDecl *Template =
      Pattern->getDescribedFunctionTemplate();
  SourceLocation Before =
      Template ? Template->getBeginLoc() : Pattern->getBeginLoc();
  // Every instantiation of the template in the file is one of these: the
  // last needs no test.
  std::string Choice;
  for (size_t I = 0; I < Launched.size(); ++I) {
    std::string Site = "WGTRACE_SITE(" + std::to_string(First + I) + ")";
    if (I + 1 == Launched.size()) {
      Choice += Site;
      break;
    }
    std::string Why;
    std::optional<std::string> Test =
        instanceTest(Pattern, Launched[I].second, Before, Why);
    if (!Test)
      return "";
    Choice += "(" + *Test + ") ? " + Site + " : ";
  }
  for (const auto &L : Launched)
    Added.push_back({L.first, Place.str()});
  return Launched.size() == 1 ? Choice : "(" + Choice + ")";
}

bool RewriteConsumer::addSite(RewriteContext &RC, StringRef Code,
                              const CallExpr *Call, StringRef Site) {
  bool InMacro = false;
  auto Callee = RC.editRange(Call->getCallee()->getSourceRange(), InMacro);
  if (!Callee)
    return false;
  size_t Paren = Code.find_first_not_of(" \t\r\n", Callee->second);
  if (Paren == StringRef::npos || Code[Paren] != '(')
    return false;
  RC.Edits.insert(Paren + 1, Site.str());
  return true;
}

namespace {

/// The function type of the pointer whose value C dispatches (its kernel
/// argument names no function), or a null type.
QualType dispatchedPointee(const DispatchCall &C) {
  const Expr *Kernel = C.Call->getArg(0);
  QualType T = Kernel->getType();
  if (calleeFunction(Kernel) || !T->isFunctionPointerType())
    return QualType();
  return T->getPointeeType();
}

/// Whether a pointer to functions of type Pointee can hold kernel K, named
/// by its address: a function of that type, not a lambda, a member or a
/// template.
bool pointerCanHold(const ASTContext &Ctx, const KernelDef &K,
                    QualType Pointee) {
  const FunctionDecl *FD = K.Written;
  return !K.Lambda && FD && !isa<CXXMethodDecl>(FD) &&
         FD->getTemplatedKind() == FunctionDecl::TK_NonTemplate &&
         Ctx.hasSameType(FD->getType(), Pointee);
}

} // namespace

std::vector<std::pair<const FunctionDecl *, std::string>>
RewriteConsumer::pointerDispatchTargets(ASTContext &Ctx,
                                        const std::vector<KernelDef> &Kernels,
                                        const DispatchCall &C) const {
  std::vector<std::pair<const FunctionDecl *, std::string>> Targets;
  QualType Pointee = dispatchedPointee(C);
  if (Pointee.isNull())
    return Targets;
  const SourceManager &SM = Ctx.getSourceManager();
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressUnwrittenScope = true;
  for (const KernelDef &K : Kernels) {
    const FunctionDecl *FD = K.Written;
    if (!pointerCanHold(Ctx, K, Pointee) ||
        !SM.isBeforeInTranslationUnit(FD->getFirstDecl()->getLocation(),
                                      C.Call->getBeginLoc()))
      continue;
    // `&::k` must name one function.
    if (llvm::any_of(Kernels, [&](const KernelDef &Other) {
          return Other.Written && Other.Written != FD && !Other.Lambda &&
                 Other.Written->getDeclName() == FD->getDeclName() &&
                 Other.Written->getDeclContext()->getRedeclContext() ==
                     FD->getDeclContext()->getRedeclContext();
        }))
      continue;
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    FD->printQualifiedName(OS, Policy);
    Targets.emplace_back(FD, "&::" + OS.str());
  }
  return Targets;
}

std::vector<std::pair<const FunctionDecl *, std::string>>
RewriteConsumer::headerPointerDispatchTargets(
    ASTContext &Ctx, const std::vector<KernelDef> &HeaderKernels,
    const HelperCloner &Cloner, llvm::ArrayRef<SourceLocation> FirstUse,
    const DispatchCall &C) const {
  std::vector<std::pair<const FunctionDecl *, std::string>> Targets;
  QualType Pointee = dispatchedPointee(C);
  if (Pointee.isNull())
    return Targets;
  const SourceManager &SM = Ctx.getSourceManager();
  for (size_t I = 0; I < HeaderKernels.size() && I < FirstUse.size(); ++I) {
    const FunctionDecl *FD = HeaderKernels[I].Written;
    if (!pointerCanHold(Ctx, HeaderKernels[I], Pointee) ||
        FirstUse[I].isInvalid() ||
        !SM.isBeforeInTranslationUnit(FirstUse[I], C.Call->getBeginLoc()) ||
        OverloadedKernels.count(kernelName(FD)))
      continue;
    std::string Copy = Cloner.copyName(FD);
    if (!Copy.empty())
      Targets.emplace_back(FD, "&" + Copy);
  }
  return Targets;
}

bool RewriteConsumer::instrumentOmpLoop(RewriteContext &RC, StringRef Path,
                                        const OmpLoop &L,
                                        std::vector<FunctionMeta> &Functions,
                                        std::vector<SiteMeta> &Sites,
                                        std::vector<KernelDef> &Scanned) {
  const SourceManager &SM = RC.SM;
  const StringRef Code = SM.getBufferData(RC.Target);
  const OMPLoopDirective *D = L.Instances.front().Directive;
  SourceLocation Loc = D->getBeginLoc();
  const std::string Directive =
      "'#pragma omp " + getOpenMPDirectiveName(D->getDirectiveKind()).str() +
      "'";
  const std::string Function = L.Function ? kernelName(L.Function) : "";
  unsigned Line = SM.getExpansionLineNumber(Loc);
  const std::string Name = "omp for at " + projectRelative(Path) + ":" +
                           std::to_string(Line) +
                           (Function.empty() ? "" : " in " + Function);
  auto Untraced = [&](const std::string &Reason) {
    RC.untraced(Loc, Directive + " loop", Reason, Function);
    return false;
  };
  if (L.OnlyDependent)
    return Untraced("it is in a template that this file never instantiates, "
                    "and only instantiations say which of its expressions "
                    "access memory");
  OmpNest Nest = analyzeNest(D, RC.Ctx);
  if (!Nest.Why.empty())
    return Untraced(Nest.Why);
  const Stmt *Outer = D->getInnermostCapturedStmt()->getCapturedStmt();
  const bool Parallel = isOpenMPParallelDirective(D->getDirectiveKind());
  std::optional<PragmaLine> Pragma = pragmaLine(Loc, SM, RC.Target);
  // A directive written with `_Pragma` (in a macro, as the Parallel
  // Research Kernels write all of theirs) stays as it is: the launch goes
  // before it. A `parallel for` then shares the launch only by default.
  std::optional<PragmaInvocation> Invocation;
  if (!Pragma) {
    Invocation =
        pragmaInvocation(D, Outer, SM, RC.Ctx.getLangOpts(), RC.Target);
    if (!Invocation)
      return Untraced("it is written with _Pragma or in a macro whose "
                      "invocation also holds its loop or is not in this "
                      "file, which wgtrace cannot rewrite");
    if (Parallel)
      for (const auto *C : D->getClausesOfKind<OMPDefaultClause>())
        if (C->getDefaultKind() != llvm::omp::OMP_DEFAULT_shared)
          return Untraced(
              "it is written with _Pragma or in a macro, which wgtrace "
              "cannot add 'shared(...)' to, and its 'default(" +
              std::string(getOpenMPSimpleClauseTypeName(
                  llvm::omp::OMPC_default, unsigned(C->getDefaultKind()))) +
              ")' would not share the launch with the team");
  }
  std::optional<unsigned> LoopEnd =
      statementEnd(Outer, SM, RC.Ctx.getLangOpts(), RC.Target);
  if (!LoopEnd)
    return Untraced("its loop ends in a macro, which wgtrace cannot rewrite");
  // Each loop's bounds and step stay in the loop, evaluated by OpenMP as
  // it evaluates them (by each thread of the team, as many times as it
  // needs), wrapped so that each evaluation notes its value in the
  // thread's OmpBounds: nothing is evaluated once more (a bound may call a
  // function, have side effects or cost), and the loop keeps the
  // canonical form OpenMP requires.
  const std::string Launch = "wgtrace_omp_" + std::to_string(Sites.size());
  const std::string Bounds =
      "wgtrace_omp_bounds_" + std::to_string(Sites.size());
  std::string Dims;
  std::string Variables;
  struct Wrap {
    std::pair<unsigned, unsigned> Range;
    std::string Open;
  };
  std::vector<Wrap> Wraps;
  for (size_t K = 0; K < Nest.Levels.size(); ++K) {
    const OmpLoopLevel &Level = Nest.Levels[K];
    std::optional<std::string> Lower, Bound, Step = std::string("int");
    auto Take = [&](const Expr *E, const char *Noter,
                    std::optional<std::string> &Type) {
      bool InMacro = false;
      auto Range = RC.editRange(E->getSourceRange(), InMacro);
      if (!Range) {
        Type = std::nullopt;
        return;
      }
      // decltype keeps a template's loop generic; an expression with side
      // effects (`m--`) would be one that decltype never evaluates, which
      // compilers warn of (a call is not: `queue.begin()`): its type is
      // spelled instead, from the global scope, as a member's typedef
      // (gapbs's `SlidingQueue<T>::iterator`) is not found by its own name
      // outside its class.
      if (E->HasSideEffects(RC.Ctx, /*IncludePossibleEffects=*/false))
        Type = spelledType(E->getType().getUnqualifiedType(), RC.Ctx);
      else
        Type = "decltype(" +
               RC.Edits.replacedText(Code, Range->first, Range->second) + ")";
      Wraps.push_back({*Range, std::string("::wgtrace::detail::") + Noter +
                                   "<" + std::to_string(K) + ">(" + Bounds +
                                   ", "});
    };
    Take(Level.Lower, "ompLower", Lower);
    Take(Level.Bound, "ompBound", Bound);
    if (Level.Step)
      Take(Level.Step, "ompStep", Step);
    if (!Lower || !Bound || !Step)
      return Untraced("its loop's bounds are written partly in a macro, which "
                      "wgtrace cannot rewrite");
    if (!Dims.empty())
      Dims += ", ";
    Dims += "::wgtrace::detail::OmpDim<" + *Lower + ", " + *Bound + ", " +
            *Step + (Level.Negate ? ", true" : ", false") +
            ", ::wgtrace::detail::OmpCompare::" + Level.Compare + ">";
    Variables += ", " + Level.Var->getName().str();
  }
  // The iteration's prologue opens the body of the innermost loop.
  const unsigned Index = static_cast<unsigned>(Functions.size());
  std::vector<const VarDecl *> Shared =
      sharedVariables(L.Instances.front(), Nest, SM);
  std::vector<ParamMeta> Params = describeSharedBuffers(Shared);
  std::string Prologue = " WGTRACE_OMP_ITERATION(" + Launch + ", " + Bounds +
                         ", " + std::to_string(Index) + Variables + ");" +
                         bufferPrologue(Params);
  // Where a body that is not a block is closed: where the loop ends too,
  // and the launch's block with it.
  std::optional<unsigned> BodyEnd;
  unsigned PrologueAt = 0;
  if (const auto *Block = dyn_cast<CompoundStmt>(Nest.Body)) {
    std::optional<unsigned> Open = RC.offsetAfterToken(Block->getLBracLoc());
    if (!Open)
      return Untraced("its body is written in a macro, which wgtrace cannot "
                      "rewrite");
    PrologueAt = *Open;
  } else {
    std::optional<unsigned> End =
        statementEnd(Nest.Body, SM, RC.Ctx.getLangOpts(), RC.Target);
    SourceLocation Begin = Nest.Body->getBeginLoc();
    if (!End || Begin.isMacroID() || SM.getFileID(Begin) != RC.Target)
      return Untraced("its body is written in a macro, which wgtrace cannot "
                      "rewrite");
    PrologueAt = SM.getFileOffset(Begin);
    Prologue = "{" + Prologue + " ";
    BodyEnd = End;
  }
  // The first edits of the loop: one that cannot be made (nothing else is
  // expected to edit a traced loop's header, which is not in a kernel)
  // undoes the others.
  for (size_t I = 0; I < Wraps.size(); ++I)
    if (!RC.Edits.wrap(Wraps[I].Range.first, Wraps[I].Range.second,
                       Wraps[I].Open, ")")) {
      for (size_t J = 0; J < I; ++J)
        RC.Edits.unwrap(Wraps[J].Range.first, Wraps[J].Range.second,
                        Wraps[J].Open, ")");
      return Untraced("its loop's bounds are also rewritten for another "
                      "reason, which wgtrace cannot combine");
    }
  RC.Edits.insert(PrologueAt, Prologue);
  // The launch: begun by the encountering thread before a `parallel for`;
  // for an `omp for` of a parallel region, by one thread of the team, and
  // handed to the others (`single` ends in a barrier, which every thread
  // reaches: they all reach the loop).
  const std::string Site = "WGTRACE_SITE(" + std::to_string(Sites.size()) + ")";
  const std::string Make = "::wgtrace::detail::OmpLaunch(" + Site + ")";
  // Each thread's own (a thread-local static: no data-sharing clause
  // applies to it, `default(none)` included).
  const std::string BoundsDecl = "static thread_local "
                                 "::wgtrace::detail::OmpBounds<" +
                                 Dims + "> " + Bounds + "; ";
  std::string Open;
  if (Parallel)
    Open = "{ auto " + Launch + " = " + Make + "; " + BoundsDecl;
  else
    Open = "{ ::wgtrace::detail::OmpLaunch " + Launch + "; " + BoundsDecl +
           pragmaOperator("omp single copyprivate(" + Launch + ")", "") + " " +
           Launch + " = " + Make + "; ";
  if (Pragma)
    RC.Edits.replace(
        Pragma->Begin, Pragma->End,
        Open +
            pragmaOperator(Pragma->Directive,
                           Parallel ? " shared(" + Launch + ")" : "") +
            Pragma->Comment);
  else
    RC.Edits.insert(Invocation->Begin, Open);
  RC.Edits.insert(*LoopEnd, BodyEnd == LoopEnd ? " } }" : " }");
  if (BodyEnd && BodyEnd != LoopEnd)
    RC.Edits.insert(*BodyEnd, " }");

  RC.Scope = Name;
  KernelDef Def;
  Def.Written = L.Function;
  for (const OmpLoopInstance &I : L.Instances) {
    OmpNest Own = I.Directive == D ? Nest : analyzeNest(I.Directive, RC.Ctx);
    if (!Own.Body)
      continue;
    std::vector<const VarDecl *> Its = sharedVariables(I, Own, SM);
    OmpSharing Sharing;
    Sharing.Shared.insert(Its.begin(), Its.end());
    Sharing.PrivateStatics = privatizedStatics(I, Own);
    AccessCollector Accesses(RC);
    const FunctionDecl *In = L.Function;
    for (const DeclContext *DC = I.Directive->getInnermostCapturedStmt()
                                     ->getCapturedDecl()
                                     ->getParent();
         DC; DC = DC->getParent())
      if (const auto *FD = dyn_cast<FunctionDecl>(DC)) {
        In = FD;
        break;
      }
    Sharing.ThreadValued = threadValuedVariables(In->getBody(), Sharing.Shared);
    Accesses.collectOmpBody(Own.Body, In, Sharing);
    Def.Regions.push_back(Own.Body);
  }
  if (Def.Written)
    Scanned.push_back(std::move(Def));

  SourceLocation Defined = SM.getExpansionLoc(Loc);
  const unsigned SourceBegin = Pragma ? Pragma->Begin : Invocation->Begin;
  std::string Source = Code.slice(SourceBegin, *LoopEnd).str();
  // The layout: the directive as written (a macro's invocation as it is).
  std::string Layout =
      Pragma ? "#pragma " + Pragma->Directive
             : Code.slice(Invocation->Begin, Invocation->End).str();
  Functions.push_back({Name, Target, Layout, Source, Path.str(), Line,
                       SM.getExpansionColumnNumber(Defined), 3,
                       std::move(Params)});
  Sites.push_back({Name, Path.str() + ":" + std::to_string(Line)});
  return true;
}

bool RewriteConsumer::traceHeaderOmp(
    RewriteContext &RC, HelperCloner &Cloner, const FoundOpenMP &OpenMP,
    std::vector<FunctionMeta> &Functions, std::vector<SiteMeta> &Sites,
    std::vector<KernelDef> &Scanned, std::vector<KernelDef> &Copied,
    std::vector<KernelReference> &References,
    std::vector<HelperCall> &MemberCalls, size_t KernelBase) {
  const SourceManager &SM = RC.SM;
  // The functions that hold the loops, in the order of their loops, then
  // the header functions through which calls reach them (miniFE's main
  // calls driver, which calls cg_solve, which calls waxpby's loop and,
  // through its functor, matvec_std::operator()'s): those are copied too,
  // recording nothing, so that the copies call each other down to the
  // loops' copies. Member functions are copied as free functions taking
  // their object (MemberCopy.h), call operators included; a chain ends at
  // a function that cannot be copied.
  std::vector<KernelDef> Chain;
  llvm::DenseMap<const FunctionDecl *, size_t> ChainIndex;
  std::vector<std::vector<const OmpLoop *>> LoopsOf;
  for (const OmpLoop &L : OpenMP.HeaderLoops) {
    if (!L.Function)
      continue;
    auto [It, New] = ChainIndex.try_emplace(L.Function, Chain.size());
    if (New) {
      KernelDef Def;
      Def.Written = L.Function;
      Def.Bodies.push_back(L.Function);
      Chain.push_back(std::move(Def));
      LoopsOf.emplace_back();
    }
    LoopsOf[It->second].push_back(&L);
  }
  const size_t HolderCount = Chain.size();
  auto Copyable = [&](const FunctionDecl *F) {
    return !SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())) &&
           !Cloner.copies(F) &&
           whyNotCopyable(F, /*CallOperator=*/true).empty();
  };
  auto Join = [&](const FunctionDecl *F) {
    if (!ChainIndex.try_emplace(F, Chain.size()).second)
      return false;
    KernelDef Def;
    Def.Written = F;
    Def.Bodies.push_back(F);
    Chain.push_back(std::move(Def));
    LoopsOf.emplace_back();
    return true;
  };
  auto ChainFunctions = [&] {
    std::vector<const FunctionDecl *> Out;
    Out.reserve(Chain.size());
    for (const KernelDef &K : Chain)
      Out.push_back(K.Written);
    return Out;
  };
  // For each function of Chain, the functions outside this file that refer
  // to it: its callers in headers, which run the header's original.
  std::vector<std::vector<const FunctionDecl *>> Outside;
  for (size_t Searched = 0; Searched < Chain.size();) {
    for (; Searched < Chain.size();) {
      std::vector<KernelDef> Frontier(llvm::drop_begin(Chain, Searched).begin(),
                                      Chain.end());
      Searched = Chain.size();
      for (std::vector<const FunctionDecl *> &Callers :
           findReferencesOutsideMainFile(RC.Ctx, Frontier)) {
        for (const FunctionDecl *Caller : Callers)
          if (Copyable(Caller))
            Join(Caller);
        Outside.push_back(std::move(Callers));
      }
    }
    // Where a template's call of a functor calls a chain's operator() in
    // one instantiation and another class's in another (cg_solve's
    // `matvec(A, p, Ap)` with matvec_std and matvec_overlap), the other
    // is copied too: the copies of call operators share a name, which the
    // one text then calls for every instantiation (HelperCloner).
    std::vector<const FunctionDecl *> Callers = ChainFunctions();
    for (const auto &Made : findMemberCallsAt(
             Callers, findReferencesFrom(Callers, Chain, /*MemberCalls=*/true)))
      if (const FunctionDecl *Callee = calledMember(Made.second);
          Callee && Callee->getOverloadedOperator() == OO_Call &&
          Copyable(Callee))
        Join(Callee);
  }
  // Used: referred to by this file, or called by a used function of the
  // chain (whose copy then calls this one's).
  std::vector<KernelReference> Uses =
      findKernelReferences(RC.Ctx, Chain, /*MemberCalls=*/true);
  std::vector<bool> Used(Chain.size());
  for (const KernelReference &R : Uses)
    Used[R.Kernel] = true;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Chain.size(); ++I)
      if (!Used[I] && llvm::any_of(Outside[I], [&](const FunctionDecl *F) {
            auto It = ChainIndex.find(F);
            return It != ChainIndex.end() && Used[It->second];
          }))
        Used[I] = Changed = true;
  }

  auto Directive = [](const OmpLoop &L) {
    return "'#pragma omp " +
           getOpenMPDirectiveName(
               L.Instances.front().Directive->getDirectiveKind())
               .str() +
           "'";
  };
  // Said of the directive, as of a header's other constructs, when the
  // function is not used here; of the loop, as of this file's, otherwise.
  auto ReportLoops = [&](size_t I, const std::string &Reason,
                         const char *Suffix) {
    for (const OmpLoop *L : LoopsOf[I])
      // A template this file never instantiates runs no code: nothing to
      // say.
      if (!L->OnlyDependent)
        RC.untraced(L->Instances.front().Directive->getBeginLoc(),
                    Directive(*L) + Suffix, Reason, kernelName(L->Function));
  };
  bool Traced = false;
  // The index in Copied (from KernelBase) of each function of Chain copied.
  std::vector<std::optional<size_t>> CopyOf(Chain.size());
  auto IsCopied = [&](const FunctionDecl *F) {
    auto It = ChainIndex.find(F);
    return It != ChainIndex.end() && CopyOf[It->second].has_value();
  };
  for (size_t I = 0; I < Chain.size(); ++I) {
    const FunctionDecl *F = Chain[I].Written;
    if (!Used[I]) {
      ReportLoops(I, kOmpInHeaderReason, "");
      continue;
    }
    std::string Why;
    if (I < HolderCount) {
      Why = whyNotCopyableForLoops(F);
      if (Why.empty() && Cloner.copies(F))
        Why = "it is copied already, as a helper of a kernel";
    }
    if (!Why.empty()) {
      ReportLoops(I,
                  "it is in a header, in '" + kernelName(F) +
                      "', which this file uses but which cannot be "
                      "copied here to trace it (" +
                      Why + ")",
                  " loop");
      continue;
    }
    RewriteContext &Copy = Cloner.addKernel(Chain[I], false);
    if (I < HolderCount) {
      SourceLocation Defined = SM.getExpansionLoc(F->getLocation());
      SmallString<256> File(SM.getFilename(Defined));
      SM.getFileManager().makeAbsolutePath(File);
      sys::path::remove_dots(File, /*remove_dot_dot=*/false);
      for (const OmpLoop *L : LoopsOf[I])
        Traced |= instrumentOmpLoop(Copy, File, *L, Functions, Sites, Scanned);
    }
    CopyOf[I] = KernelBase + Copied.size();
    Copied.push_back(Chain[I]);
  }
  // The header's own callers (those not copied) run the original: the
  // loops that a copy reaches are not recorded in their runs.
  for (size_t I = 0; I < Chain.size(); ++I) {
    if (!CopyOf[I])
      continue;
    std::vector<size_t> Reached{I};
    llvm::DenseSet<size_t> Seen{I};
    for (size_t Next = 0; Next < Reached.size(); ++Next)
      for (size_t J = 0; J < Chain.size(); ++J)
        if (CopyOf[J] && !Seen.count(J) &&
            llvm::is_contained(Outside[J], Chain[Reached[Next]].Written)) {
          Seen.insert(J);
          Reached.push_back(J);
        }
    const FunctionDecl *F = Chain[I].Written;
    for (const FunctionDecl *Caller : Outside[I]) {
      if (IsCopied(Caller))
        continue;
      for (size_t J : Reached)
        for (const OmpLoop *L : LoopsOf[J])
          RC.untraced(
              L->Instances.front().Directive->getBeginLoc(),
              Directive(*L) + " loop",
              "it is traced in the copy of '" + kernelName(F) +
                  "' that this file's uses call, but '" + kernelName(Caller) +
                  "' (" +
                  SM.getFilename(SM.getExpansionLoc(Caller->getLocation()))
                      .str() +
                  ") uses the header's original, whose runs are not recorded",
              kernelName(L->Function));
    }
  }
  // This file's uses call the copies, and the copies each other.
  std::vector<const FunctionDecl *> Callers;
  for (size_t I = 0; I < Chain.size(); ++I)
    if (CopyOf[I])
      Callers.push_back(Chain[I].Written);
  std::vector<KernelReference> Inside =
      findReferencesFrom(Callers, Chain, /*MemberCalls=*/true);
  // A member call that one text of a template makes to a copied member in
  // one instantiation and to a function that is not copied in another
  // cannot call the copy.
  llvm::DenseSet<SourceLocation> Mixed;
  for (const std::vector<KernelReference> *List : {&Uses, &Inside}) {
    // Each template once, as written: its instantiations are its bodies.
    llvm::SetVector<const FunctionDecl *> In;
    for (const KernelReference &R : *List)
      if (const auto *FD = dyn_cast_or_null<FunctionDecl>(R.Enclosing))
        In.insert(FD->getTemplateInstantiationPattern()
                      ? FD->getTemplateInstantiationPattern()
                      : FD);
    for (const auto &Made : findMemberCallsAt(In.getArrayRef(), *List))
      if (!IsCopied(calledMember(Made.second)))
        Mixed.insert(Made.second->getRParenLoc());
  }
  for (const std::vector<KernelReference> *List : {&Uses, &Inside})
    for (const KernelReference &R : *List) {
      if (!CopyOf[R.Kernel])
        continue;
      if (R.Ref)
        References.push_back({R.Ref, R.Enclosing, *CopyOf[R.Kernel]});
      if (!R.Call)
        continue;
      const auto *Caller = dyn_cast_or_null<FunctionDecl>(R.Enclosing);
      if (Caller && Caller->getTemplateInstantiationPattern())
        Caller = Caller->getTemplateInstantiationPattern();
      const std::string Callee = kernelName(Chain[R.Kernel].Written);
      if (!Caller || Mixed.count(R.Call->getRParenLoc())) {
        // Made in a variable's initializer, perhaps in a lambda there
        // (miniBUDE's `kernel = {{Ns, [&p](...) { ... bude.fasten(...);
        // }}...}` in the function template `run`): the variable, and the
        // function that declares it, are what the reason names.
        const auto *Variable = dyn_cast_or_null<VarDecl>(R.Enclosing);
        const auto *Declaring = Variable
                                    ? dyn_cast_or_null<FunctionDecl>(
                                          Variable->getParentFunctionOrMethod())
                                    : nullptr;
        std::string Where = "it is not made in a function";
        if (Variable)
          Where = "it is made in the initializer of the variable '" +
                  Variable->getNameAsString() + "'" +
                  (Declaring ? " of '" + kernelName(Declaring) + "'" : "");
        RC.untraced(R.Call->getBeginLoc(), "call of '" + Callee + "'",
                    Caller ? "it is not redirected to the copy of '" + Callee +
                                 "': some instantiations of the template it "
                                 "is in call a function that is not copied, "
                                 "and one text cannot call both; the OpenMP "
                                 "loops it reaches are not recorded"
                           : Where
                                 .append(", and is not redirected to the copy "
                                         "of '")
                                 .append(Callee)
                                 .append("': the OpenMP loops it reaches are "
                                         "not recorded"),
                    Caller      ? kernelName(Caller)
                    : Declaring ? kernelName(Declaring)
                                : std::string());
        continue;
      }
      MemberCalls.push_back(
          {Caller, Chain[R.Kernel].Written, R.Call, /*TowardLoops=*/true});
    }
  for (const OmpUntracedConstruct &C : OpenMP.HeaderUntraced) {
    const bool Copied = C.Function && IsCopied(C.Function);
    if (Copied && C.Reason.empty())
      continue;
    RC.untraced(C.Loc, C.What, Copied ? C.Reason : kOmpInHeaderReason,
                C.Function ? kernelName(C.Function) : std::string());
  }
  return Traced;
}

void RewriteConsumer::HandleTranslationUnit(ASTContext &Ctx) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  if (Diags.hasErrorOccurred())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
  StringRef Code = SM.getBufferData(Main);
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(Main))
    Result.OpenedPath = FE->getName().str();
  else
    Result.OpenedPath = GivenPath;
  Result.Original = Code.str();

  if (isAlreadyInstrumented(Code, PP)) {
    Diags.Report(SM.getLocForStartOfFile(Main),
                 Diags.getCustomDiagID(
                     DiagnosticsEngine::Error,
                     "input is already instrumented (it includes "
                     "<wgtrace/instrument.h> or mentions "
                     "WGTRACE_INSTRUMENTED); refusing to instrument it "
                     "twice"));
    return;
  }

  FoundEntities Found = findKernelsAndCalls(Ctx);
  std::vector<KernelReference> References =
      findKernelReferences(Ctx, Found.HeaderKernels);
  // A launch written in a header (a launcher function it defines) that
  // this file uses runs the kernel as it is: untraced, since nothing of it
  // is recorded (and listed, so the file gets a module even without
  // kernels of its own).
  std::vector<std::pair<const DispatchCall *, const FunctionDecl *>>
      HeaderLaunches;
  // Built only for a file that launches kernels.
  std::optional<UserCodeParents> Parents;
  if (!Found.Calls.empty() || !Found.CallsInHeaders.empty())
    Parents.emplace(Ctx);
  for (const DispatchCall &C : Found.CallsInHeaders)
    if (const FunctionDecl *In = usedEnclosingFunction(*Parents, C.Call))
      HeaderLaunches.emplace_back(&C, In);

  FoundOpenMP OpenMP = Options.OpenMP ? findOpenMP(Ctx) : FoundOpenMP();
  std::vector<const FunctionDecl *> Exported;
  if (Options.WholeTarget)
    Exported = exportedFunctions(Ctx);

  if (Found.Kernels.empty() && Found.Calls.empty() && References.empty() &&
      HeaderLaunches.empty() && Exported.empty() && OpenMP.Loops.empty() &&
      OpenMP.Untraced.empty() && OpenMP.HeaderLoops.empty() &&
      OpenMP.HeaderUntraced.empty()) {
    Result.Rewritten = Result.Original;
    Result.Ok = true;
    return;
  }
  // What the rewriter writes (inline variables, the runtime's headers) is
  // C++17: a file parsed as C++14 would be rewritten into one that its own
  // compile command cannot build, with errors deep in wgtrace's headers.
  if (!Ctx.getLangOpts().CPlusPlus17) {
    Diags.Report(SM.getLocForStartOfFile(Main),
                 Diags.getCustomDiagID(
                     DiagnosticsEngine::Error,
                     "instrumented code needs C++17 or later, and this file "
                     "is compiled as %0; compile it with -std=c++17 (or "
                     "gnu++17) or later, which C++14 code nearly always "
                     "builds with"))
        << (Ctx.getLangOpts().CPlusPlus14   ? "C++14"
            : Ctx.getLangOpts().CPlusPlus11 ? "C++11"
            : Ctx.getLangOpts().CPlusPlus   ? "C++98"
                                            : "C");
    return;
  }

  EditSet Edits(Result.OpenedPath);
  ModuleTables Tables;
  Tables.MainPath = GivenPath;
  Tables.Strict = Options.Strict;
  Tables.OpenMP = Options.OpenMP;
  RewriteContext RC(Ctx, Edits, Tables);
  RC.Macros = Macros.get();
  std::vector<FunctionMeta> Functions;
  for (auto [C, In] : HeaderLaunches)
    RC.untraced(
        C->Loc, "launch of '" + calleeName(Ctx, C->Call->getArg(0)) + "'",
        "it is written in " + SM.getFilename(SM.getExpansionLoc(C->Loc)).str() +
            ", which is not rewritten: its workgroups are not "
            "recorded (launch the kernel from a source file, where "
            "the launch is instrumented)",
        kernelName(In));
  nameLambdaKernels(SM, Found.Kernels);
  {
    std::map<std::string, unsigned> Count;
    for (const std::vector<KernelDef> *List :
         {&Found.Kernels, &Found.HeaderKernels})
      for (const KernelDef &K : *List)
        if (!K.Lambda)
          ++Count[kernelName(K.Written)];
    for (const auto &[Name, N] : Count)
      if (N > 1)
        OverloadedKernels.insert(Name);
  }
  for (SourceLocation L : Found.LambdasInKernels)
    RC.remark(L, "lambda dispatched from inside a kernel: its accesses are "
                 "recorded as the enclosing kernel's, not as a kernel of its "
                 "own");
  for (const KernelDef &K : Found.Kernels) {
    std::string Name = K.Lambda ? LambdaKernelNames[K.Closures.front()]
                                : exportName(K.Written);
    std::vector<ParamMeta> Params = describeBufferParams(K.Written, K.Bodies);
    PrologueTag = K.Lambda ? "" : instanceTagInPattern(K.Written).value_or("");
    if (!addPrologue(RC, K, Name, Functions.size(), Params))
      continue;
    // Watched variables are values, recorded even when accesses are not.
    WatchCollector Watches(RC);
    for (const FunctionDecl *Body : K.Bodies)
      Watches.collect(Body);
    std::string Layout = describeLayout(K.Written);
    if (K.Lambda && K.Lambda->capture_begin() != K.Lambda->capture_end())
      Layout += " captures: " + lambdaCaptures(K.Lambda);
    if (!Watches.watched().empty()) {
      Layout += " watch:";
      for (const WatchedVariable &W : Watches.watched())
        Layout += " " + std::to_string(W.Ordinal) + "=" + W.Name;
    }
    SourceLocation Defined = SM.getExpansionLoc(
        K.Lambda ? K.Lambda->getBeginLoc() : K.Written->getLocation());
    unsigned Kind = 0;
    if (K.Lambda)
      Kind = 2;
    else if (K.Written->getTemplatedKind() == FunctionDecl::TK_FunctionTemplate)
      Kind = 1;
    Functions.push_back(
        {Name, Target, Layout,
         K.Lambda ? lambdaText(K.Lambda) : definitionText(K.Written), GivenPath,
         SM.getExpansionLineNumber(Defined),
         SM.getExpansionColumnNumber(Defined), Kind, std::move(Params)});
    if (!PrologueTag.empty())
      addInstances(K, Functions.back(), "wgtrace_module_",
                   static_cast<unsigned>(Functions.size() - 1));
    RC.Scope = Name;
    if (K.Bodies.empty())
      RC.untraced(
          K.Lambda ? K.Lambda->getBeginLoc() : K.Written->getLocation(),
          (K.Lambda ? "generic lambda kernel '" : "template kernel '") + Name +
              "'",
          "it is not instantiated in this file, and only its instantiations "
          "say which of its expressions access memory: it records its "
          "workgroups, not its accesses");
    // An opted-out kernel still records its workgroups, not its accesses.
    if (!K.Lambda && isOptedOut(K.Written))
      continue;
    AccessCollector Accesses(RC);
    for (const FunctionDecl *Body : K.Bodies)
      Accesses.collect(Body, K.Lambda);
  }

  // OpenMP loops: dispatches of their own, their sites first.
  std::vector<SiteMeta> Sites;
  std::vector<KernelDef> OmpScanned;
  bool UsesOpenMP = false;
  for (const OmpLoop &L : OpenMP.Loops)
    UsesOpenMP |=
        instrumentOmpLoop(RC, GivenPath, L, Functions, Sites, OmpScanned);
  for (const OmpUntracedConstruct &C : OpenMP.Untraced)
    RC.untraced(C.Loc, C.What, C.Reason,
                C.Function ? kernelName(C.Function) : std::string());
  // On its line: no line is added.
  for (const OmpRegionStatement &Region : OpenMP.Regions) {
    const unsigned Begin = SM.getFileOffset(Region.Begin);
    if (Region.End.isInvalid()) {
      RC.Edits.insert(Begin + 1, " WGTRACE_OMP_REGION();");
    } else {
      RC.Edits.insert(Begin, "{ WGTRACE_OMP_REGION(); ");
      RC.Edits.insert(SM.getFileOffset(Region.End), " }");
    }
    UsesOpenMP = true;
  }

  // Kernels of project headers that this file uses: copied here,
  // instrumented, recording under a module that their copies in every file
  // share (HeaderKernels.h).
  HelperCloner Cloner(RC, GivenPath);
  std::vector<KernelDef> Scanned = Found.Kernels;
  Scanned.insert(Scanned.end(), OmpScanned.begin(), OmpScanned.end());
  std::vector<SourceLocation> FirstUse(Found.HeaderKernels.size());
  for (const KernelReference &R : References)
    if (FirstUse[R.Kernel].isInvalid())
      FirstUse[R.Kernel] = R.Ref->getBeginLoc();
  for (size_t I = 0; I < Found.HeaderKernels.size(); ++I) {
    const KernelDef &K = Found.HeaderKernels[I];
    if (FirstUse[I].isInvalid())
      continue;
    std::string Name = exportName(K.Written);
    SourceLocation Defined = SM.getExpansionLoc(K.Written->getLocation());
    std::string Why = whyNotCopyable(K.Written);
    if (!Why.empty()) {
      RC.untraced(FirstUse[I], "kernel '" + Name + "'",
                  "it is defined in " + SM.getFilename(Defined).str() +
                      ", which is not rewritten, and cannot be copied here (" +
                      Why + "): its workgroups and accesses are not recorded",
                  Name);
      continue;
    }
    RewriteContext &Copy = Cloner.addKernel(K, !isOptedOut(K.Written));
    SmallString<256> File(SM.getFilename(Defined));
    SM.getFileManager().makeAbsolutePath(File);
    sys::path::remove_dots(File, /*remove_dot_dot=*/false);
    unsigned Line = SM.getExpansionLineNumber(Defined);
    std::string Module = sharedModuleName(File, Line, Name);
    // Every file that copies the kernel defines its module alike: a
    // template's parameters are classified by its pattern, which they all
    // share, not by the instantiations this file makes.
    bool IsTemplate =
        K.Written->getTemplatedKind() == FunctionDecl::TK_FunctionTemplate;
    std::vector<ParamMeta> Params =
        IsTemplate ? describeBufferParams(K.Written, {})
                   : describeBufferParams(K.Written, K.Bodies);
    PrologueTag = instanceTagInPattern(K.Written).value_or("");
    if (!addPrologue(Copy, K, Name, 0, Params, Module, File))
      continue;
    WatchCollector Watches(Copy);
    for (const FunctionDecl *Body : K.Bodies)
      Watches.collect(Body);
    std::string Layout = describeLayout(K.Written);
    if (!Watches.watched().empty()) {
      Layout += " watch:";
      for (const WatchedVariable &W : Watches.watched())
        Layout += " " + std::to_string(W.Ordinal) + "=" + W.Name;
    }
    FunctionMeta Meta{Name,
                      Target,
                      Layout,
                      definitionText(K.Written),
                      std::string(File),
                      Line,
                      SM.getExpansionColumnNumber(Defined),
                      IsTemplate ? 1u : 0u,
                      std::move(Params)};
    if (!PrologueTag.empty())
      addInstances(K, Meta, "::" + Module, 0);
    Cloner.setSharedModule(K.Written, emitSharedModule(Meta, Module));
    Scanned.push_back(K);
  }

  // OpenMP loops of project headers' functions that this file uses: traced
  // in copies of the functions, which this file's uses call.
  std::vector<KernelDef> HeaderKernels = Found.HeaderKernels;
  std::vector<HelperCall> MemberCalls;
  UsesOpenMP |= traceHeaderOmp(RC, Cloner, OpenMP, Functions, Sites, Scanned,
                               HeaderKernels, References, MemberCalls,
                               Found.HeaderKernels.size());

  // Helpers called from kernels: their accesses, no prologue. Those in
  // project headers are copied into this file, instrumented.
  FoundHelpers Helpers =
      findHelpers(Ctx, Scanned, Options.WholeTarget ? &Exported : nullptr);
  // The calls a traced loop makes are reported in its function's name
  // (HelperCall::Caller), which is quiet when the function is exported:
  // what the loop cannot record is reported all the same, since the loop
  // runs in this program (CLAMR's Mesh::calc_celltype lost its loop's
  // call of a mesh.h member in silence).
  for (const KernelDef &K : Scanned)
    for (const Stmt *Region : K.Regions) {
      SourceLocation B = SM.getExpansionLoc(Region->getBeginLoc());
      SourceLocation E = SM.getExpansionLoc(Region->getEndLoc());
      if (SM.isInMainFile(B) && SM.isInMainFile(E))
        RC.LoopBodies.emplace_back(SM.getFileOffset(B), SM.getFileOffset(E));
    }
  std::map<std::string, const FunctionDecl *> QuietOwner;
  for (const std::vector<KernelDef> *List :
       {&Helpers.InMainFile, &Helpers.InHeaders})
    for (const KernelDef &H : *List) {
      if (!Helpers.EntryOnly.contains(H.Written))
        continue;
      QuietOwner[kernelName(H.Written)] = H.Written;
      for (const FunctionDecl *Body : H.Bodies)
        QuietOwner[kernelName(Body)] = H.Written;
    }
  for (const auto &[Name, Function] : QuietOwner)
    RC.QuietScopes.insert(Name);
  for (const KernelDef &H : Helpers.InMainFile) {
    AccessCollector Accesses(RC);
    for (const FunctionDecl *Body : H.Bodies)
      Accesses.collect(Body);
  }
  addPlainCopies(RC, Helpers, Exported, GivenPath);
  for (const KernelDef &H : Helpers.InHeaders) {
    // A function copied for the OpenMP loops it holds or calls (through
    // other copies): its copy records those loops only.
    if (Cloner.copies(H.Written)) {
      RC.untraced(SM.getExpansionLoc(H.Written->getLocation()),
                  "function '" + kernelName(H.Written) + "'",
                  "it is called from a kernel and holds or calls OpenMP "
                  "loops that are traced as dispatches of their own: its "
                  "accesses outside them are not recorded");
      continue;
    }
    Cloner.add(H);
  }
  // Every access is wrapped by now: the copies take their text next.
  RC.gateInstanceWraps();
  Tables.finishSites();
  std::vector<const FunctionDecl *> IndirectRoots;
  IndirectRoots.reserve(Helpers.IndirectTargets.size());
  for (const IndirectTarget &T : Helpers.IndirectTargets)
    IndirectRoots.push_back(writtenFunction(T.Function));
  // The calls toward the copied members' loops are redirected as a
  // kernel's calls of copied members are.
  std::vector<HelperCall> Calls = Helpers.Calls;
  Calls.insert(Calls.end(), MemberCalls.begin(), MemberCalls.end());
  Cloner.finish(Calls, References, HeaderKernels, IndirectRoots, [&] {
    RC.gateInstanceWraps(
        [&](const FunctionDecl *Pattern) { return Cloner.copyPlace(Pattern); });
  });
  for (const UnrewrittenHelper &H : Helpers.Unrewritten)
    RC.untraced(
        H.CallLoc, "call of '" + kernelName(H.Written) + "'",
        "'" + kernelName(H.Written) + "' is defined in " +
            SM.getFilename(SM.getExpansionLoc(H.Written->getLocation())).str() +
            ", which is not rewritten, and cannot be copied into this file (" +
            H.Reason + ")",
        H.Caller ? kernelName(H.Caller) : std::string());
  for (const UnrewrittenHelper &H : Helpers.Undefined)
    RC.untraced(H.CallLoc, "call of '" + kernelName(H.Written) + "'", H.Reason,
                H.Caller ? kernelName(H.Caller) : std::string());
  for (const ElsewhereCall &C : Helpers.Elsewhere) {
    const auto *M = dyn_cast<CXXMethodDecl>(C.Callee);
    FunctionSpelling Spelled =
        spellFunction(Ctx, C.Callee, M && !M->isStatic());
    if (!RC.wrapElsewhereCall(C.Call, Spelled.Type, Spelled.Name,
                              kernelName(C.Caller)))
      RC.untraced(C.Call->getBeginLoc(),
                  "call of '" + kernelName(C.Callee) + "'",
                  "it is defined in another file, and the call is written "
                  "in a macro expansion, where wgtrace cannot check at run "
                  "time that the function is instrumented",
                  kernelName(C.Caller));
  }
  std::string Registration =
      emitKernelInstances(Instances) +
      emitIndirectTargets(indirectTargets(
          Ctx, Helpers, Cloner, partialTargets(Helpers, RC, QuietOwner)));

  for (const DispatchCall &C : Found.Calls) {
    unsigned Line = SM.getExpansionLineNumber(C.Loc);
    std::string Place = (GivenPath + ":" + Twine(Line)).str();
    const bool InTemplate = inTemplateInstantiation(*Parents, C.Call);
    // A kernel launched through a function pointer: the site is chosen at
    // run time, one per kernel of this file the pointer can hold, each
    // naming its kernel (and so its buffer parameters); a kernel of
    // another file records under its direct-call site.
    const Expr *Kernel = C.Call->getArg(0);
    bool InMacro = false;
    std::optional<std::pair<unsigned, unsigned>> KernelText =
        Kernel->getType()->isFunctionPointerType() && !calleeFunction(Kernel)
            ? RC.editRange(Kernel->getSourceRange(), InMacro)
            : std::nullopt;
    if (KernelText && !InTemplate) {
      // A kernel expression that has side effects is evaluated once: the
      // kernel that runs records under its direct-call site.
      std::string Site = "::wgtrace::detail::SiteRef{}";
      std::vector<SiteMeta> Added;
      if (!Kernel->HasSideEffects(Ctx)) {
        std::string Call = "::wgtrace::detail::siteOfKernel(";
        Call += Code.substr(KernelText->first,
                            KernelText->second - KernelText->first);
        Call += ", ";
        Call += Site;
        Site = std::move(Call);
        // The kernels of headers too: PRK's stencil-vector picks one of
        // star1..grid5, generated into stencil_vector.hpp.
        auto Targets = pointerDispatchTargets(Ctx, Found.Kernels, C);
        auto InHeaders = headerPointerDispatchTargets(Ctx, Found.HeaderKernels,
                                                      Cloner, FirstUse, C);
        Targets.insert(Targets.end(), InHeaders.begin(), InHeaders.end());
        for (const auto &[Target, Address] : Targets) {
          Site += ", " + Address + ", WGTRACE_SITE(" +
                  std::to_string(Sites.size() + Added.size()) + ")";
          Added.push_back({exportName(Target), Place});
        }
        Site += ")";
      }
      if (!addSite(RC, Code, C.Call, Site + ", ")) {
        RC.warning(C.Loc, "dispatch call in a macro expansion has no dispatch "
                          "site: its workgroups are recorded under the "
                          "kernel's direct-call site");
        continue;
      }
      Sites.insert(Sites.end(), Added.begin(), Added.end());
      continue;
    }
    // A launch written in a template names the instantiation it launches
    // where the template's text can tell them apart.
    std::vector<SiteMeta> PerInstance;
    std::string Choice =
        InTemplate ? instanceSiteChoice(Ctx, *Parents, C, Sites.size(), Place,
                                        PerInstance)
                   : "";
    if (Choice.empty())
      Choice = "WGTRACE_SITE(" + std::to_string(Sites.size()) + ")";
    if (!addSite(RC, Code, C.Call, Choice + ", ")) {
      RC.warning(C.Loc, "dispatch call in a macro expansion has no dispatch "
                        "site: its workgroups are recorded under the "
                        "kernel's direct-call site");
      continue;
    }
    if (!PerInstance.empty()) {
      Sites.insert(Sites.end(), PerInstance.begin(), PerInstance.end());
      continue;
    }
    // Otherwise a launch written in a template launches one instantiation
    // of the kernel per instantiation of the template through one site: it
    // names the kernel's template.
    std::string Callee = calleeName(Ctx, C.Call->getArg(0));
    if (InTemplate)
      if (const FunctionDecl *Kernel = calleeFunction(C.Call->getArg(0)))
        if (const FunctionDecl *Pattern =
                Kernel->getTemplateInstantiationPattern())
          Callee = exportName(Pattern);
    Sites.push_back({Callee, Place});
  }

  // Last of the edits of the file's text: the macro invocations written out
  // take in the wraps of their arguments.
  RC.writeOutExpansions();
  if (Diags.hasErrorOccurred())
    return;
  // After every other edit of the statements: a statement is reserved only
  // when its plain access forms are all that changes in it.
  if (Options.ReserveRecords)
    reserveStatements(Ctx, Edits);

  // The block goes first, after a byte-order mark if the file has one.
  unsigned Top = Code.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  // A file that makes atomic operations records with ordinary stores: a
  // locked instruction waits for the non-temporal stores before it
  // (<wgtrace/detail/thread_state.h>). First: before any wgtrace header.
  if (Tables.HasAtomics)
    Edits.insert(Top, "#ifndef WGTRACE_TEMPORAL_RECORDS\n"
                      "#define WGTRACE_TEMPORAL_RECORDS 1\n"
                      "#endif\n");
  // Standard algorithms redirected to their recording versions: before the
  // block, whose #line must stay last.
  if (RC.UsesAlgorithms || Cloner.usesAlgorithms())
    Edits.insert(Top, "#include <wgtrace/algorithms.h>\n");
  if (UsesOpenMP || Tables.UsesOmpCritical)
    Edits.insert(Top, "#include <wgtrace/detail/openmp.h>\n");
  if (RC.UsesValarrays || Cloner.usesValarrays())
    Edits.insert(Top, "#include <wgtrace/detail/valarray.h>\n");
  Edits.insert(Top, emitModuleBlock(Functions, Sites, Tables, GivenPath));
  if (!Registration.empty())
    Edits.insert(static_cast<unsigned>(Code.size()),
                 (Code.ends_with("\n") || Code.empty() ? "" : "\n") +
                     Registration);

  Expected<tooling::Replacements> Replacements = Edits.toReplacements();
  if (!Replacements) {
    RC.error(SM.getLocForStartOfFile(Main),
             "internal error: " + toString(Replacements.takeError()));
    return;
  }
  Expected<std::string> Rewritten =
      tooling::applyAllReplacements(Code, *Replacements);
  if (!Rewritten) {
    RC.error(SM.getLocForStartOfFile(Main),
             "internal error: " + toString(Rewritten.takeError()));
    return;
  }
  Result.Replacements = std::move(*Replacements);
  Result.Rewritten = std::move(*Rewritten);
  Result.Changed = true;
  Result.Ok = true;
}

class RewriteAction : public ASTFrontendAction {
public:
  RewriteAction(std::string GivenPath, RewriteResult &Result,
                RewriteOptions Options)
      : GivenPath(std::move(GivenPath)), Result(Result),
        Options(std::move(Options)) {}

  // The preprocessor exists by now; the main file is entered later, when
  // parsing starts, so the collector sees it and every include.
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // Before parsing: preprocessor output of another compiler (GCC's)
    // holds attributes clang rejects, whose errors would hide why.
    const SourceManager &SM = CI.getSourceManager();
    if (FileID Main = SM.getMainFileID(); Main.isValid())
      if (auto Entered = enteredHeader(SM.getBufferData(Main))) {
        DiagnosticsEngine &Diags = CI.getDiagnostics();
        Diags.Report(SM.getLocForStartOfFile(Main),
                     Diags.getCustomDiagID(
                         DiagnosticsEngine::Error,
                         "input is preprocessor output (its line %0 enters "
                         "'%1', whose text is pasted in without its include "
                         "guards): the wgtrace headers a rewrite adds would "
                         "declare the standard library a second time; "
                         "rewrite the source before it is preprocessed"))
            << Entered->first << Entered->second;
        return false;
      }
    Included = std::make_shared<IncludedFiles>();
    Included->attachToPreprocessor(CI.getPreprocessor());
    Macros = std::make_shared<MacroTokens>();
    Macros->attach(CI.getPreprocessor());
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    return std::make_unique<RewriteConsumer>(CI, GivenPath, Result, Options,
                                             Macros);
  }

  // Names are as the preprocessor opened them, relative to the compile
  // command's directory: the build tool that reads the dependency file may
  // run elsewhere, so they are made absolute.
  void EndSourceFileAction() override {
    const FileManager &FM = getCompilerInstance().getFileManager();
    for (const std::string &Name : Included->getDependencies()) {
      SmallString<256> Path(Name);
      FM.makeAbsolutePath(Path);
      // Only `.`: `dir/..` is not `` when dir is a symbolic link.
      sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
      Result.Dependencies.push_back(std::string(Path));
    }
  }

private:
  std::string GivenPath;
  RewriteResult &Result;
  RewriteOptions Options;
  std::shared_ptr<IncludedFiles> Included;
  std::shared_ptr<MacroTokens> Macros;
};

class RewriteActionFactory : public tooling::FrontendActionFactory {
public:
  RewriteActionFactory(std::string GivenPath, RewriteResult &Result,
                       RewriteOptions Options)
      : GivenPath(std::move(GivenPath)), Result(Result),
        Options(std::move(Options)) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteAction>(GivenPath, Result, Options);
  }

private:
  std::string GivenPath;
  RewriteResult &Result;
  RewriteOptions Options;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newRewriteActionFactory(std::string GivenPath, RewriteResult &Result,
                        RewriteOptions Options) {
  return std::make_unique<RewriteActionFactory>(std::move(GivenPath), Result,
                                                std::move(Options));
}

} // namespace rewriter
} // namespace wgtrace
