//===- ToolIdentity.h - Name and version of a wgtrace tool ------*- C++ -*-===//
//
// One place for what both command-line tools say about themselves: the
// project's version (CMake's project(VERSION), compiled in) and the LLVM
// they are built against.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_CLI_TOOLIDENTITY_H
#define WGTRACE_CLI_TOOLIDENTITY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace wgtrace::cli {

/// The project's version, "X.Y.Z".
llvm::StringRef projectVersion();

/// "<tool> X.Y.Z (LLVM A.B.C)": the first line of `--version`, in the form
/// help2man and package tools read.
std::string versionLine(llvm::StringRef Tool);

/// Makes `--version` print versionLine(Tool) instead of LLVM's own text.
/// Call before parsing the command line; Tool must outlive the program.
void setVersionPrinter(llvm::StringRef Tool);

} // namespace wgtrace::cli

#endif // WGTRACE_CLI_TOOLIDENTITY_H
