//===- ToolIdentity.cpp - Name and version of a wgtrace tool --------------===//

#include "ToolIdentity.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#ifndef WGTRACE_VERSION
#error "WGTRACE_VERSION must be the project's version (CMake sets it)"
#endif

namespace wgtrace::cli {

llvm::StringRef projectVersion() { return WGTRACE_VERSION; }

std::string versionLine(llvm::StringRef Tool) {
  return (Tool + " " + projectVersion() + " (LLVM " LLVM_VERSION_STRING ")")
      .str();
}

void setVersionPrinter(llvm::StringRef Tool) {
  llvm::cl::SetVersionPrinter(
      [Tool](llvm::raw_ostream &OS) { OS << versionLine(Tool) << "\n"; });
}

} // namespace wgtrace::cli
