//===- OutputWriter.h - Where rewritten files go ----------------*- C++ -*-===//
//
// Output is written only after every input rewrote successfully, and each
// file is written whole through a temporary in its target directory and a
// rename, so that a build never sees a half-written source.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_OUTPUTWRITER_H
#define WGTRACE_REWRITER_OUTPUTWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace wgtrace {
namespace rewriter {

/// Replaces Path's contents with Text atomically (temporary file in the same
/// directory, then rename). Creates missing parent directories. Keeps the
/// permissions of an existing file.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text);

/// The deepest directory that contains every path (all absolute).
std::string commonDirectory(llvm::ArrayRef<std::string> Paths);

/// Where Input (absolute) goes under OutputDir so that the tree below Root
/// is mirrored. Fails if Input is not below Root.
llvm::Expected<std::string> mirroredPath(llvm::StringRef OutputDir,
                                         llvm::StringRef Root,
                                         llvm::StringRef Input);

/// A unified diff of Before and After (whole lines), labelled with Path.
/// Empty if they are equal.
std::string unifiedDiff(llvm::StringRef Path, llvm::StringRef Before,
                        llvm::StringRef After);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_OUTPUTWRITER_H
