//===- KernelInstances.h - Template kernels, one export each ----*- C++ -*-===//
//
// Every instantiation of a template kernel is an export of its own, named
// with its template arguments as Clang prints them ("scale_k<float>") and
// with the buffer parameters that instantiation has. The template's text
// is one for all of them, so its prologue names a tag type built from the
// template's parameters (`InstanceTag<T, Value<N>>`); the end of the
// rewritten file registers each instantiation with the same tag spelled
// from its arguments (`InstanceTag<float, Value<4>>`), and the runtime
// matches the addresses of the two kInstanceId<tag> variables
// (detail::KernelInstances, Module::instance).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_KERNELINSTANCES_H
#define WGTRACE_REWRITER_KERNELINSTANCES_H

#include "clang/AST/Decl.h"
#include "clang/AST/TemplateBase.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace wgtrace {
namespace rewriter {

/// The tag type of template kernel Pattern in its own terms, for its
/// prologue; none when a template parameter cannot be put in a type
/// (a template template parameter, an unnamed one).
std::optional<std::string>
instanceTagInPattern(const clang::FunctionDecl *Pattern);

/// The tag type of the instantiation Instance, spelled so that the end of
/// the rewritten file can name it; none when an argument cannot be named
/// there (a local or unnamed class, a lambda, a private member type, a
/// pointer or reference argument).
std::optional<std::string> instanceTag(const clang::FunctionDecl *Instance);

/// Whether Check holds for every class and enumeration that T names: T
/// itself, what it points or refers to, its elements, a function type's
/// return and parameter types, and the template arguments of the class
/// template specializations among them, down to the last.
bool everyNamedTag(clang::QualType T,
                   llvm::function_ref<bool(const clang::TagDecl *)> Check);
/// The same for a template argument (a value's type; false for a
/// template template argument or an expression).
bool everyNamedTag(const clang::TemplateArgument &A,
                   llvm::function_ref<bool(const clang::TagDecl *)> Check);

/// The export name of Instance: Base followed by its template arguments as
/// Clang prints them ("scale_k<float>"), or Base alone for a function that
/// is not an instantiation.
std::string instanceName(const clang::FunctionDecl *Instance,
                         const std::string &Base);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_KERNELINSTANCES_H
