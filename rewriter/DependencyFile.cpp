//===- DependencyFile.cpp - Makefile-style dependency files ---------------===//

#include "DependencyFile.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace wgtrace {
namespace rewriter {

std::string escapeMakePath(StringRef Path) {
  std::string Out;
  for (size_t I = 0; I < Path.size(); ++I) {
    char C = Path[I];
    if (C == ' ') {
      // Make reads `\ ` as a space; backslashes right before it would then
      // escape each other, so they are doubled.
      for (size_t J = I; J > 0 && Path[J - 1] == '\\'; --J)
        Out += '\\';
      Out += '\\';
    } else if (C == '#') {
      Out += '\\';
    } else if (C == '$') {
      Out += '$';
    }
    Out += C;
  }
  return Out;
}

std::string formatDependencyFile(ArrayRef<DependencyRule> Rules) {
  std::string Out;
  raw_string_ostream OS(Out);
  for (const DependencyRule &R : Rules) {
    OS << escapeMakePath(R.Target) << ":";
    for (const std::string &P : R.Prerequisites)
      OS << " \\\n  " << escapeMakePath(P);
    OS << "\n";
  }
  return Out;
}

} // namespace rewriter
} // namespace wgtrace
