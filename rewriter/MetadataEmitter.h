//===- MetadataEmitter.h - The module block of a rewritten file -*- C++ -*-===//
//
// A rewritten file opens with a block that includes <wgtrace/instrument.h>
// and defines the translation unit's wgtrace::detail::Module: its kernels
// (name, target, parameter layout, original source) and dispatch sites
// (callee, file:line). The runtime writes these into the trace's metadata
// chunk. The block ends with a #line directive so that every line after it
// keeps its original number and file name.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_METADATAEMITTER_H
#define WGTRACE_REWRITER_METADATAEMITTER_H

#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace wgtrace {
namespace rewriter {

struct FunctionMeta {
  std::string Name;
  std::string Target;
  std::string Layout;
  std::string Source;
  /// Where the definition is (the path as the rewriter was given it).
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  /// fb::FunctionKind: 0 function, 1 template instance, 2 lambda.
  unsigned Kind = 0;
};

struct SiteMeta {
  std::string Callee;
  std::string Location;
};

/// The text inserted at the top of the file.
std::string emitModuleBlock(llvm::ArrayRef<FunctionMeta> Functions,
                            llvm::ArrayRef<SiteMeta> Sites,
                            llvm::StringRef FilePath);

/// The definition of a module of one kernel that several translation units
/// define alike (inline variables, C++17): a kernel of a project header,
/// whose instrumented copies in every file record under it, so that it is
/// registered once. Name is HeaderKernels' sharedModuleName.
std::string emitSharedModule(const FunctionMeta &Function,
                             llvm::StringRef Name);

/// Escapes Text for the inside of a C string literal, on one line.
std::string escapeCString(llvm::StringRef Text);

/// "<triple> <flags that change generated code>", e.g.
/// "x86_64-pc-linux-gnu -O2 -mavx2".
std::string describeTarget(const clang::CompilerInstance &CI);

/// "(const wgtrace::Workgroup &wg, const float *a, ...)".
std::string describeLayout(const clang::FunctionDecl *FD);

/// Where the definition's text begins: its template header, or the first
/// attribute written before it (WGTRACE_DISPATCH), or its first token. An
/// expansion location.
clang::SourceLocation definitionBegin(const clang::FunctionDecl *FD);

/// The definition's text, from the first token of its declaration (template
/// header and WGTRACE_DISPATCH included) to its closing brace.
std::string definitionText(const clang::FunctionDecl *FD);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_METADATAEMITTER_H
