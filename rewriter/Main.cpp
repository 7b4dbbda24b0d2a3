//===- Main.cpp - wgtrace-rewrite command line ----------------------------===//
//
// wgtrace-rewrite [options] <sources...> [-- <compiler args>]
//
// Rewrites each source so that its kernels record their workgroups and
// memory accesses. Every input is parsed and rewritten first; output is
// written only if all of them succeeded, so a failed run leaves nothing
// behind (not even partial text on stdout).
//
//===----------------------------------------------------------------------===//

#include "CompilationSetup.h"
#include "DependencyFile.h"
#include "DiagnosticsThenCount.h"
#include "FileRewriter.h"
#include "OutputWriter.h"
#include "ToolCommandLine.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::tooling;
using namespace llvm;
using namespace wgtrace::rewriter;

static cl::OptionCategory &Category = toolOptions();

static cl::opt<std::string>
    OutputDir("o",
              cl::desc("Write each rewritten file below <dir>, mirroring its "
                       "path relative to --root"),
              cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> InPlace("i", cl::desc("Rewrite the files in place"),
                             cl::cat(Category));
static cl::opt<std::string>
    Root("root",
         cl::desc("With -o: the directory whose tree is mirrored (default: "
                  "the deepest directory that holds every input)"),
         cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool>
    Diff("diff",
         cl::desc("Print a unified diff of each change and write nothing"),
         cl::cat(Category));
static cl::opt<std::string> ExportFixes(
    "export-fixes",
    cl::desc("Write the edits as YAML for clang-apply-replacements"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<unsigned>
    Jobs("jobs",
         cl::desc("Rewrite this many files in parallel (default: 1; 0: one "
                  "per hardware thread)"),
         cl::init(1), cl::cat(Category));
static cl::alias JobsShort("j", cl::desc("Alias for --jobs: -j <N>"),
                           cl::aliasopt(Jobs), cl::NotHidden,
                           cl::cat(Category));

static cl::opt<std::string> DependencyFile(
    "dependency-file",
    cl::desc("After a successful run, write a Makefile rule listing the "
             "source and every file it includes (like clang -MD -MF)"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> DependencyTarget(
    "dependency-target",
    cl::desc("The target of the --dependency-file rule (default: each "
             "output file, '-' for stdout)"),
    cl::value_desc("target"), cl::cat(Category));

static cl::opt<bool> Strict(
    "strict",
    cl::desc("Make every access or kernel that cannot be instrumented an "
             "error (the file is not rewritten) instead of a warning"),
    cl::cat(Category));

static cl::opt<bool> OpenMP(
    "openmp",
    cl::desc("Trace OpenMP worksharing loops ('omp for', 'omp parallel for', "
             "with collapse, simd and any schedule) as dispatches: each "
             "execution a launch, each iteration a workgroup (parses with "
             "-fopenmp)"),
    cl::cat(Category));

static cl::opt<bool> WholeTarget(
    "whole-target",
    cl::desc("The file is one of a target whose every source is rewritten: "
             "instrument and register the functions other files may call, "
             "and check at run time that the functions of other files the "
             "kernels call are instrumented (wgtrace_instrument_target "
             "passes it)"),
    cl::cat(Category));

static cl::opt<bool> ReserveRecords(
    "reserve-records",
    cl::desc("Before a statement whose records can be counted (plain "
             "accesses only: no call, constructor, lambda, atomic or "
             "OpenMP access, macro or template-dependent code), reserve "
             "room for all of them with one check (WGTRACE_RESERVE_AT) and "
             "append them unchecked, instead of checking the ring's end "
             "before each record"),
    cl::cat(Category));

static cl::opt<std::string> ProjectRoot(
    "project-root",
    cl::desc("Name lambda kernels after their file relative to <dir> "
             "(default: the current directory); a file outside it keeps "
             "its path as given"),
    cl::value_desc("dir"), cl::cat(Category));

static cl::extrahelp MoreHelp(R"(
With one input and no -o, -i, --diff or --export-fixes, the rewritten source
goes to stdout. A file without WGTRACE_DISPATCH kernels and wgtrace::dispatch
calls is output unchanged. A file that does not compile produces clang's
diagnostics, exit status 1 and no output.
)");

namespace {
/// Rewrites the inputs, serially or on a thread pool. Diagnostics of one
/// file are printed together, never interleaved with another file's.
class Runner {
public:
  Runner(const CompilationDatabase &DB, ArrayRef<std::string> Sources)
      : DB(DB), Sources(Sources), Results(Sources.size()) {}

  bool run(unsigned Threads) {
    if (Threads == 1 || Sources.size() == 1) {
      for (size_t I = 0; I < Sources.size(); ++I)
        rewriteOne(I);
    } else {
      DefaultThreadPool Pool(hardware_concurrency(Threads));
      for (size_t I = 0; I < Sources.size(); ++I)
        Pool.async([this, I] { rewriteOne(I); });
      Pool.wait();
    }
    return Failures == 0;
  }

  std::vector<RewriteResult> &results() { return Results; }

private:
  void rewriteOne(size_t I) {
    std::string Diagnostics;
    raw_string_ostream DiagStream(Diagnostics);
    auto DiagOpts = makeIntrusiveRefCnt<DiagnosticOptions>();
    DiagOpts->ShowColors = errs().has_colors();
    TextDiagnosticPrinter Printer(DiagStream, DiagOpts.get());

    ClangTool Tool(DB, {Sources[I]});
    Tool.setPrintErrorMessage(false);
    Tool.setDiagnosticConsumer(&Printer);
    addToolArguments(Tool);
    std::vector<std::string> Dropped;
    dropUnknownFlags(Tool, Dropped);
    // The rewriter is not the compiler: the compiler will warn about this
    // file when it builds the rewritten text. Warnings here would repeat
    // them (or, under -Werror, stop the rewrite).
    Tool.appendArgumentsAdjuster(
        getInsertArgumentAdjuster("-w", ArgumentInsertPosition::END));
    // OpenMP's directives are in the AST only when the parse enables it.
    if (OpenMP)
      Tool.appendArgumentsAdjuster(
          getInsertArgumentAdjuster("-fopenmp", ArgumentInsertPosition::END));
    std::unique_ptr<FrontendActionFactory> Factory =
        newRewriteActionFactory(Sources[I], Results[I],
                                RewriteOptions{Strict, ProjectRoot, OpenMP,
                                               WholeTarget, ReserveRecords});
    DiagnosticsThenCount Action(*Factory, DiagStream);
    int Status = Tool.run(&Action);
    if (Status != 0 || !Results[I].Ok) {
      Results[I].Ok = false;
      ++Failures;
    }

    std::lock_guard<std::mutex> Lock(OutputMutex);
    if (Sources.size() > 1)
      errs() << "[" << ++Done << "/" << Sources.size() << "] "
             << (Results[I].Ok ? "rewrote " : "failed ") << Sources[I] << "\n";
    // Another compiler's flags do not stop the rewrite: say which were left
    // out, once.
    if (!Dropped.empty()) {
      wgtrace::cli::note(kToolName)
          << Sources[I]
          << ": ignoring flags that clang does not know: " << join(Dropped, " ")
          << "\n";
    }
    errs() << Diagnostics;
  }

  const CompilationDatabase &DB;
  ArrayRef<std::string> Sources;
  std::vector<RewriteResult> Results;
  std::atomic<unsigned> Failures{0};
  std::mutex OutputMutex;
  unsigned Done = 0;
};
} // namespace

static int writeOutputs(ArrayRef<std::string> Sources,
                        std::vector<RewriteResult> &Results, bool ToStdout,
                        std::vector<std::string> &Outputs);

static int fail(const Twine &Message) {
  wgtrace::cli::error(kToolName) << Message << "\n";
  return 1;
}

static bool writeExportedFixes(StringRef Path,
                               ArrayRef<RewriteResult> Results) {
  TranslationUnitReplacements TU;
  TU.MainSourceFile = Results.empty() ? "" : Results.front().OpenedPath;
  for (const RewriteResult &R : Results)
    for (const Replacement &Rep : R.Replacements)
      TU.Replacements.push_back(Rep);
  std::string Text;
  raw_string_ostream OS(Text);
  yaml::Output YAML(OS);
  YAML << TU;
  OS.flush();
  if (Error E = writeFileAtomically(Path, Text)) {
    fail(toString(std::move(E)));
    return false;
  }
  return true;
}

/// The rules of the dependency file: one per output, or one rule for the
/// target the build named, which depends on every input's files.
static std::vector<DependencyRule>
dependencyRules(ArrayRef<RewriteResult> Results,
                ArrayRef<std::string> Outputs) {
  std::vector<DependencyRule> Rules;
  if (!DependencyTarget.empty()) {
    DependencyRule All{DependencyTarget, {}};
    StringSet<> Seen;
    for (const RewriteResult &R : Results)
      for (const std::string &D : R.Dependencies)
        if (Seen.insert(D).second)
          All.Prerequisites.push_back(D);
    Rules.push_back(std::move(All));
    return Rules;
  }
  for (size_t I = 0; I < Results.size(); ++I)
    Rules.push_back({Outputs[I], Results[I].Dependencies});
  return Rules;
}

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  std::optional<Invocation> Parsed = parseInvocation(
      argc, argv,
      "wgtrace-rewrite: instruments WGTRACE_DISPATCH kernels so that they "
      "record their workgroups and memory accesses\n");
  if (!Parsed)
    return 1;

  std::vector<std::string> Sources = Parsed->Sources;
  unsigned Modes = !OutputDir.empty() + InPlace + Diff;
  if (Modes > 1)
    return fail("-o, -i and --diff exclude each other");
  bool ToStdout = Modes == 0 && ExportFixes.empty();
  if (ToStdout && Sources.size() > 1)
    return fail("several inputs need -o <dir>, -i, --diff or --export-fixes");

  Runner R(*Parsed->Compilations, Sources);
  if (!R.run(Jobs))
    return 1;
  std::vector<RewriteResult> &Results = R.results();

  if (!ExportFixes.empty() && !writeExportedFixes(ExportFixes, Results))
    return 1;

  // What each input became, for the dependency file's default targets.
  std::vector<std::string> Outputs(Results.size(), "-");
  if (Modes == 0 && !ToStdout)
    Outputs.assign(Results.size(), ExportFixes);
  if (int Status = writeOutputs(Sources, Results, ToStdout, Outputs))
    return Status;

  // Last, and only when everything else succeeded: a build that sees the
  // dependency file may rely on the outputs being there.
  if (!DependencyFile.empty())
    if (Error E = writeFileAtomically(
            DependencyFile,
            formatDependencyFile(dependencyRules(Results, Outputs))))
      return fail(toString(std::move(E)));
  return 0;
}

/// Writes the rewritten text where the options say, and the path each
/// input was written to into Outputs ("-" for stdout).
static int writeOutputs(ArrayRef<std::string> Sources,
                        std::vector<RewriteResult> &Results, bool ToStdout,
                        std::vector<std::string> &Outputs) {
  if (ToStdout) {
    outs() << Results.front().Rewritten;
    outs().flush();
    return 0;
  }
  if (Diff) {
    for (size_t I = 0; I < Sources.size(); ++I)
      outs() << unifiedDiff(Sources[I], Results[I].Original,
                            Results[I].Rewritten);
    return 0;
  }
  if (InPlace) {
    for (size_t I = 0; I < Results.size(); ++I) {
      const RewriteResult &Result = Results[I];
      Outputs[I] = Result.OpenedPath;
      if (Result.Changed)
        if (Error E = writeFileAtomically(Result.OpenedPath, Result.Rewritten))
          return fail(toString(std::move(E)));
    }
    return 0;
  }
  if (!OutputDir.empty()) {
    std::vector<std::string> Opened;
    Opened.reserve(Results.size());
    for (const RewriteResult &Result : Results)
      Opened.push_back(Result.OpenedPath);
    SmallString<256> RootDir(Root);
    if (RootDir.empty())
      RootDir = commonDirectory(Opened);
    else if (std::error_code EC = sys::fs::make_absolute(RootDir))
      return fail("--root: " + EC.message());
    sys::path::remove_dots(RootDir, /*remove_dot_dot=*/true);
    // Check every destination before writing any.
    std::vector<std::string> Destinations;
    for (const std::string &P : Opened) {
      Expected<std::string> Dest = mirroredPath(OutputDir, RootDir, P);
      if (!Dest)
        return fail(toString(Dest.takeError()));
      Destinations.push_back(*Dest);
    }
    for (size_t I = 0; I < Results.size(); ++I)
      if (Error E = writeFileAtomically(Destinations[I], Results[I].Rewritten))
        return fail(toString(std::move(E)));
    Outputs = std::move(Destinations);
  }
  return 0;
}
