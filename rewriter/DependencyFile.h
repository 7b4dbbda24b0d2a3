//===- DependencyFile.h - Makefile-style dependency files -------*- C++ -*-===//
//
// A build reruns the rewriter when the source or any header it includes
// changes: the rewrite depends on all of them (a helper's definition, a
// macro, a type's layout). Like `clang -MD -MF`, the tool can write the
// list as a Makefile rule that Make and Ninja both read. System headers are
// listed too: the wgtrace runtime headers are often reached through
// -isystem (an installed package's include directory), and a change there
// changes what the rewritten file must look like.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_DEPENDENCYFILE_H
#define WGTRACE_REWRITER_DEPENDENCYFILE_H

#include "clang/Frontend/Utils.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// Records every file the preprocessor enters (main file, user and system
/// headers), in the order it first enters them.
class IncludedFiles : public clang::DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
};

/// One rule of a dependency file: Target depends on each of Prerequisites.
struct DependencyRule {
  std::string Target;
  std::vector<std::string> Prerequisites;
};

/// The rules as Make and Ninja read them, one prerequisite per continued
/// line. Spaces, '#' and '$' in paths are escaped as GNU Make expects (the
/// escapes clang's -MD writes, which Ninja's depfile parser also reads).
std::string formatDependencyFile(llvm::ArrayRef<DependencyRule> Rules);

/// Path escaped for a Makefile rule.
std::string escapeMakePath(llvm::StringRef Path);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_DEPENDENCYFILE_H
