//===- MetadataEmitter.h - The module block of a rewritten file -*- C++ -*-===//
//
// A rewritten file opens with a block that includes <wgtrace/instrument.h>
// and defines the translation unit's wgtrace::detail::Module: its kernels
// (name, target, parameter layout, original source), dispatch sites
// (callee, file:line), access sites (every access expression wrapped) and
// untraced accesses (every one that could not be). The runtime writes these
// into the trace's metadata chunk. The block ends with a #line directive so
// that every line after it keeps its original number and file name.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_METADATAEMITTER_H
#define WGTRACE_REWRITER_METADATAEMITTER_H

#include "RewriteContext.h"

#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// A buffer parameter of a kernel (detail::ParamInfo): the prologue records
/// its address (and size, where the type says it) for every workgroup.
struct ParamMeta {
  std::string Name;
  /// The type as written, without the name ("const float *").
  std::string Type;
  /// Position in the kernel's parameter list (0 is the Workgroup).
  unsigned Position = 0;
  /// fb::ParamKind: 0 pointer, 1 reference, 2 span (by value, data() and
  /// size()), 3 array of known bound, 4 reference to a contiguous
  /// container.
  unsigned Kind = 0;
  /// sizeof the element (the pointee); 0 when void, incomplete or
  /// dependent on a template parameter.
  unsigned ElementSize = 0;
  bool HasExtent = false;
  /// The argument of WGTRACE_BUFFERS that records it.
  std::string Argument;
};

struct FunctionMeta {
  std::string Name;
  std::string Target;
  std::string Layout;
  std::string Source;
  /// Where the definition is (the path as the rewriter was given it).
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  /// fb::FunctionKind: 0 function, 1 template instance, 2 lambda, 3 OpenMP
  /// loop.
  unsigned Kind = 0;
  std::vector<ParamMeta> Params;
};

struct SiteMeta {
  std::string Callee;
  std::string Location;
};

/// The text inserted at the top of the file: the kernels, the dispatch
/// sites, and Tables' access sites and untraced accesses.
std::string emitModuleBlock(llvm::ArrayRef<FunctionMeta> Functions,
                            llvm::ArrayRef<SiteMeta> Sites,
                            const ModuleTables &Tables,
                            llvm::StringRef FilePath);

/// A function calls through pointers may reach, as the end of the file
/// registers it (detail::IndirectTarget).
struct IndirectTargetMeta {
  /// The function's type ("void (int, float *)"), or for a member function
  /// its member function pointer's type.
  std::string Type;
  /// How the end of the file names the function as written, and its
  /// instrumented version (the same name when it is instrumented in place).
  std::string Plain;
  std::string Instrumented;
  bool Member = false;
  /// Instrumented only in part (detail::IndirectTarget::Partial).
  bool Partial = false;
};

/// An instantiation of a template kernel, as the end of the file registers
/// it (detail::InstanceInfo).
struct InstanceMeta {
  /// `::wgtrace::detail::InstanceTag<float>`: what the prologue's tag is
  /// in this instantiation, spelled from the end of the file.
  std::string Tag;
  /// The module the template is a function of (`wgtrace_module_`, or a
  /// header kernel's shared module) and its index there.
  std::string Module;
  unsigned Pattern = 0;
  /// The instance's own entry: its name with its template arguments, its
  /// parameters.
  FunctionMeta Function;
};

/// The text appended to the file: the registration of the instances of its
/// template kernels ("" when there are none).
std::string emitKernelInstances(llvm::ArrayRef<InstanceMeta> Instances);

/// The text appended to the file: the registration of the functions calls
/// through pointers may reach ("" when there are none).
std::string emitIndirectTargets(llvm::ArrayRef<IndirectTargetMeta> Targets);

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

/// The buffer parameters of kernel Written (pointers, references, spans,
/// arrays, references to contiguous containers), in parameter order. For a
/// template, the kind of each parameter is read off its instantiations
/// (Bodies), which must agree; a parameter whose kind they do not agree on,
/// or that depends on a template parameter in a way no instantiation
/// settles, is not a buffer parameter.
std::vector<ParamMeta>
describeBufferParams(const clang::FunctionDecl *Written,
                     llvm::ArrayRef<const clang::FunctionDecl *> Bodies);

/// The buffers of an OpenMP loop: the variables its iterations share,
/// named as its parameters would be (a pointer's target, a container's
/// elements, an array, any other variable's own bytes), in order.
std::vector<ParamMeta>
describeSharedBuffers(llvm::ArrayRef<const clang::VarDecl *> Shared);

/// What the prologue adds after WGTRACE_WORKGROUP to record Params:
/// " WGTRACE_BUFFERS(a, b, ...);", or "" when there are none.
std::string bufferPrologue(llvm::ArrayRef<ParamMeta> Params);

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
