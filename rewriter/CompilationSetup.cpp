//===- CompilationSetup.cpp - The command line and the compile flags ------===//

#include "CompilationSetup.h"

#include "ToolCommandLine.h"
#include "ToolIdentity.h"

#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#ifndef WGTRACE_CLANG_RESOURCE_DIR
#error "WGTRACE_CLANG_RESOURCE_DIR must name clang's resource directory"
#endif
#if !defined(WGTRACE_INCLUDE_DIR_FROM_BIN) ||                                  \
    !defined(WGTRACE_BUILD_BIN_DIR) || !defined(WGTRACE_SOURCE_INCLUDE_DIR)
#error "CMake names where wgtrace's headers are, installed and in the build"
#endif

using namespace clang::tooling;
using namespace llvm;

namespace wgtrace::rewriter {

cl::OptionCategory &toolOptions() {
  static cl::OptionCategory Category("wgtrace-rewrite options");
  return Category;
}

namespace {

cl::list<std::string> SourcePaths(cl::Positional,
                                  cl::desc("<source>... [-- <compiler args>]"),
                                  cl::cat(toolOptions()));
cl::opt<std::string> BuildPath(
    "p",
    cl::desc("Read the compile commands from compile_commands.json (or "
             "compile_flags.txt) in <dir> or the nearest parent that has one "
             "(default: look from the first source's directory upwards)"),
    cl::value_desc("dir"), cl::cat(toolOptions()));
cl::list<std::string>
    ArgsAfter("extra-arg",
              cl::desc("Append <arg> to every compile command (repeatable)"),
              cl::value_desc("arg"), cl::cat(toolOptions()));
cl::list<std::string> ArgsBefore(
    "extra-arg-before",
    cl::desc("Insert <arg> before the arguments of every compile command "
             "(repeatable)"),
    cl::value_desc("arg"), cl::cat(toolOptions()));

cl::extrahelp FlagsHelp(R"(
Compile flags: each source is parsed with the flags its build compiles it
with, taken from (the first that applies):
  -- <compiler args>      the arguments after --, for every source
  -p <dir>                <dir>/compile_commands.json (CMake writes one with
                          -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
  (neither)               compile_commands.json or compile_flags.txt in the
                          first source's directory or a parent
Without any, wgtrace-rewrite stops with exit status 1. Clang's resource
directory and wgtrace's own headers are added to every command.
)");

/// argv[0], for finding the tool's own executable.
const char *Argv0 = "";

/// The compile commands in the nearest directory from \p Start upwards that
/// holds compile_commands.json or compile_flags.txt. Unlike LibTooling's own
/// search, a file there that does not load is an error, not a reason to
/// look further up (and take another build's commands).
std::unique_ptr<CompilationDatabase> loadNearest(StringRef Start, bool &Found) {
  Found = false;
  SmallString<256> Path(Start);
  (void)sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  for (StringRef Dir = Path; !Dir.empty(); Dir = sys::path::parent_path(Dir))
    for (StringRef Name : {"compile_commands.json", "compile_flags.txt"}) {
      SmallString<256> File(Dir);
      sys::path::append(File, Name);
      if (!sys::fs::exists(File))
        continue;
      Found = true;
      std::string Why;
      if (std::unique_ptr<CompilationDatabase> DB =
              CompilationDatabase::loadFromDirectory(Dir, Why))
        return DB;
      // One line per kind of database ("json-compilation-database: ...");
      // keep the one of the file that is there.
      StringRef Reason = StringRef(Why).trim();
      SmallVector<StringRef, 4> Lines;
      Reason.split(Lines, '\n');
      StringRef Kind =
          Name.starts_with("compile_commands") ? "json-" : "fixed-";
      for (StringRef Line : Lines)
        if (Line.starts_with(Kind))
          Reason = Line.split(": ").second;
      cli::error(kToolName) << File << ": " << Reason << "\n";
      return nullptr;
    }
  return nullptr;
}

std::unique_ptr<CompilationDatabase> findCompilations(StringRef FirstSource) {
  StringRef Start = BuildPath;
  if (Start.empty())
    Start = sys::path::parent_path(FirstSource);
  if (Start.empty())
    Start = ".";
  bool Found = false;
  if (std::unique_ptr<CompilationDatabase> DB = loadNearest(Start, Found))
    return DB;
  if (Found)
    return nullptr;
  if (!BuildPath.empty())
    cli::error(kToolName) << "-p " << BuildPath
                          << ": no compile_commands.json or compile_flags.txt "
                             "there or in a parent directory\n";
  else
    cli::error(kToolName) << "no compile flags for " << FirstSource
                          << ": no compile_commands.json or compile_flags.txt "
                             "in its directory or a parent, and no '--'\n";
  cli::note(kToolName)
      << "give the flags after '--' (" << kToolName << " " << FirstSource
      << " -- -std=c++17 -Iinclude), or the build directory that holds "
         "compile_commands.json with -p <dir> (CMake: "
         "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)\n";
  return nullptr;
}

/// Each input exists and is a file; one line per one that is not.
bool inputsExist(ArrayRef<std::string> Sources) {
  bool Ok = true;
  for (const std::string &Source : Sources) {
    sys::fs::file_status Status;
    if (std::error_code EC = sys::fs::status(Source, Status)) {
      cli::error(kToolName) << Source << ": " << EC.message() << "\n";
      Ok = false;
    } else if (sys::fs::is_directory(Status)) {
      cli::error(kToolName) << Source << ": is a directory\n";
      Ok = false;
    }
  }
  return Ok;
}

/// Each input has a compile command (LibTooling would skip one that has
/// not, with a line of its own).
bool haveCommands(const CompilationDatabase &DB,
                  ArrayRef<std::string> Sources) {
  bool Ok = true;
  for (const std::string &Source : Sources) {
    SmallString<256> Absolute(Source);
    (void)sys::fs::make_absolute(Absolute);
    sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    if (DB.getCompileCommands(Absolute).empty()) {
      cli::error(kToolName) << Source
                            << ": not in the compilation database, and no "
                               "entry there to infer its flags from\n";
      Ok = false;
    }
  }
  return Ok;
}

} // namespace

std::optional<Invocation> parseInvocation(int Argc, const char **Argv,
                                          StringRef Overview) {
  Argv0 = Argv[0];
  cl::HideUnrelatedOptions(toolOptions());
  cli::setVersionPrinter(kToolName);

  // Takes the arguments after "--", if any, off the command line.
  std::string FixedError;
  std::unique_ptr<CompilationDatabase> DB =
      FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, FixedError);
  if (!FixedError.empty()) {
    cli::error(kToolName) << "after '--': " << FixedError << "\n";
    return std::nullopt;
  }
  if (!cli::parseToolCommandLine(kToolName, Argc, Argv, Overview))
    return std::nullopt;
  if (SourcePaths.empty()) {
    cli::error(kToolName) << "no input files (usage: " << kToolName
                          << " [options] <source>... [-- <compiler args>]; "
                             "--help lists the options)\n";
    return std::nullopt;
  }
  if (!inputsExist(SourcePaths))
    return std::nullopt;
  if (!sys::fs::is_directory(WGTRACE_CLANG_RESOURCE_DIR "/include"))
    WithColor::warning(errs(), kToolName)
        << "clang's resource directory " WGTRACE_CLANG_RESOURCE_DIR
           " (of the clang 19 this tool was built against) is missing: "
           "builtin headers such as <stddef.h> will not be found unless "
           "--extra-arg=-resource-dir=<dir> names another\n";
  if (!DB)
    DB = findCompilations(SourcePaths.front());
  if (!DB || !haveCommands(*DB, SourcePaths))
    return std::nullopt;

  auto Adjusted =
      std::make_unique<ArgumentsAdjustingCompilations>(std::move(DB));
  Adjusted->appendArgumentsAdjuster(combineAdjusters(
      getInsertArgumentAdjuster(ArgsBefore, ArgumentInsertPosition::BEGIN),
      getInsertArgumentAdjuster(ArgsAfter, ArgumentInsertPosition::END)));
  return Invocation{std::move(Adjusted), SourcePaths};
}

namespace {

bool hasWgtraceHeaders(StringRef Dir) {
  SmallString<256> Header(Dir);
  sys::path::append(Header, "wgtrace", "wgtrace.h");
  return sys::fs::exists(Header);
}

/// The directory that holds <wgtrace/wgtrace.h> for this copy of the tool:
/// the installed one beside it (<prefix>/bin/../include), or, for the tool
/// in the build tree, the source tree's. Empty when neither is there.
std::string wgtraceIncludeDir() {
  std::string Executable = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&wgtraceIncludeDir));
  StringRef BinDir = sys::path::parent_path(Executable);
  SmallString<256> Installed(BinDir);
  sys::path::append(Installed, WGTRACE_INCLUDE_DIR_FROM_BIN);
  sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
  if (hasWgtraceHeaders(Installed))
    return Installed.str().str();
  if (sys::fs::equivalent(BinDir, WGTRACE_BUILD_BIN_DIR) &&
      hasWgtraceHeaders(WGTRACE_SOURCE_INCLUDE_DIR))
    return WGTRACE_SOURCE_INCLUDE_DIR;
  return "";
}

/// The tool is not installed inside the LLVM tree, so clang cannot find its
/// builtin headers from the executable's path: point it at the directory of
/// the clang it was built against, unless the command line already does.
CommandLineArguments addResourceDir(const CommandLineArguments &Args,
                                    StringRef) {
  for (const std::string &A : Args)
    if (StringRef(A).starts_with("-resource-dir"))
      return Args;
  CommandLineArguments Out(Args);
  Out.insert(Out.begin() + (Out.empty() ? 0 : 1),
             "-resource-dir=" WGTRACE_CLANG_RESOURCE_DIR);
  return Out;
}

} // namespace

void dropUnknownFlags(ClangTool &Tool, std::vector<std::string> &Dropped) {
  Tool.appendArgumentsAdjuster([&Dropped](const CommandLineArguments &Args,
                                          StringRef) {
    if (Args.empty())
      return Args;
    const opt::OptTable &Table = clang::driver::getDriverOptTable();
    std::vector<const char *> Argv;
    Argv.reserve(Args.size() - 1);
    for (size_t I = 1; I < Args.size(); ++I)
      Argv.push_back(Args[I].c_str());
    // The options a `cl`-style command takes are another set.
    bool CL = clang::driver::IsClangCL(
        clang::driver::getDriverMode(Args.front(), Argv));
    opt::Visibility Visible(CL ? clang::driver::options::CLOption
                               : clang::driver::options::ClangOption);
    unsigned MissingIndex = 0, MissingCount = 0;
    opt::InputArgList Parsed =
        Table.ParseArgs(Argv, MissingIndex, MissingCount, Visible);
    // Each parsed argument knows which of the command's words it took.
    std::vector<bool> Drop(Args.size(), false);
    for (const opt::Arg *A : Parsed) {
      const opt::Option &O = A->getOption();
      if (!O.matches(clang::driver::options::OPT_UNKNOWN) &&
          !O.hasFlag(clang::driver::options::Unsupported))
        continue;
      unsigned First = A->getIndex();
      unsigned Words = 1;
      if (O.getKind() == opt::Option::SeparateClass ||
          O.getKind() == opt::Option::JoinedOrSeparateClass)
        Words = static_cast<unsigned>(A->getNumValues()) + 1;
      std::string Text;
      for (unsigned W = First; W < First + Words && W + 1 < Args.size(); ++W) {
        Drop[W + 1] = true;
        Text += (Text.empty() ? "" : " ") + Args[W + 1];
      }
      if (!llvm::is_contained(Dropped, Text))
        Dropped.push_back(Text);
    }
    CommandLineArguments Out;
    for (size_t I = 0; I < Args.size(); ++I)
      if (!Drop[I])
        Out.push_back(Args[I]);
    return Out;
  });
}

void addToolArguments(ClangTool &Tool) {
  Tool.appendArgumentsAdjuster(addResourceDir);
  // A system directory at the end: searched after the command's own -I and
  // -isystem directories (a build that names a wgtrace of its own keeps
  // it), before the compiler's standard ones.
  static const std::string IncludeDir = wgtraceIncludeDir();
  if (!IncludeDir.empty())
    Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
        {"-isystem", IncludeDir}, ArgumentInsertPosition::END));
}

} // namespace wgtrace::rewriter
