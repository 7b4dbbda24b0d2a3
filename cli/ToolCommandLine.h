//===- ToolCommandLine.h - Parse a tool's options, report errors -*- C++
//-*-===//
//
// llvm::cl prints its own errors as "<argv[0]>: message", which next to the
// tools' own "<tool>: error: message" gave two styles (and, passed through
// an llvm::Error, "<tool>: error: <tool>: message"). Both tools parse their
// command line here, so every error reads "<tool>: error: ...".
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_CLI_TOOLCOMMANDLINE_H
#define WGTRACE_CLI_TOOLCOMMANDLINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace wgtrace::cli {

/// Parses the options registered with llvm::cl, after removing the options
/// HideUnrelatedOptions hid (other libraries'; call it first), so that the
/// tool accepts only the options it lists. On an error prints each of
/// llvm::cl's messages as "<Tool>: error: ..." (its suggestions as
/// "<Tool>: note: ...") and returns false. --help and --version print and
/// exit as usual.
bool parseToolCommandLine(llvm::StringRef Tool, int Argc,
                          const char *const *Argv, llvm::StringRef Overview);

/// "<Tool>: error: " on stderr (in colour on a terminal); the message and
/// its newline follow.
llvm::raw_ostream &error(llvm::StringRef Tool);

/// "<Tool>: note: " on stderr.
llvm::raw_ostream &note(llvm::StringRef Tool);

} // namespace wgtrace::cli

#endif // WGTRACE_CLI_TOOLCOMMANDLINE_H
