//===- CompilationSetup.h - The command line and the compile flags -*- C++
//-*-===//
//
// wgtrace-rewrite parses each source as its build compiles it. The flags
// come from the arguments after `--`, from `-p <build dir>`, or from a
// compile_commands.json or compile_flags.txt found from the first source's
// directory upwards. With none of these the tool stops and says how to give
// them: parsed without the build's include paths and definitions, a kernel
// would be instrumented as some other program, or not at all.
//
// What the tool knows itself it adds to every compile command: clang's
// resource directory (builtin headers such as <immintrin.h>) and
// wgtrace's own headers, installed beside the tool or, in the build tree,
// in the source tree.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_COMPILATIONSETUP_H
#define WGTRACE_REWRITER_COMPILATIONSETUP_H

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::rewriter {

inline constexpr const char *kToolName = "wgtrace-rewrite";

/// The category --help lists the tool's options under.
llvm::cl::OptionCategory &toolOptions();

struct Invocation {
  /// The compile commands, with --extra-arg and --extra-arg-before applied.
  std::unique_ptr<clang::tooling::CompilationDatabase> Compilations;
  std::vector<std::string> Sources;
};

/// Parses the command line and finds the compile commands. Reports every
/// problem (a bad option, no input, an input that is not there, no compile
/// flags) as "wgtrace-rewrite: error: ..." and returns nothing.
std::optional<Invocation> parseInvocation(int Argc, const char **Argv,
                                          llvm::StringRef Overview);

/// Adds what the tool supplies itself to each compile command of \p Tool:
/// clang's resource directory unless the command names one, and wgtrace's
/// headers after every include directory of the command's own.
void addToolArguments(clang::tooling::ClangTool &Tool);

/// Drops from each compile command of \p Tool the flags clang's driver does
/// not know or does not support (another compiler's: GCC's
/// -fopt-info-vec-missed=..., -fno-tree-pre, ...), as clangd does, so that
/// a build by any compiler can be rewritten. What was dropped is added to
/// \p Dropped, once each, for the caller to name in one note.
void dropUnknownFlags(clang::tooling::ClangTool &Tool,
                      std::vector<std::string> &Dropped);

} // namespace wgtrace::rewriter

#endif // WGTRACE_REWRITER_COMPILATIONSETUP_H
