//===- InstanceGates.h - Accesses some instantiations make ------*- C++ -*-===//
//
// A template's text is rewritten once for all its instantiations in the
// file. An expression that is an access in some of them and none in others
// (`less(x[i], x[0])` reads the elements where it is written with a
// function pointer taking doubles, and hands them on by reference to a
// functor taking `const double &`) is wrapped in a form that tests, at
// compile time, which instantiation it is in: WGTRACE_WHEN_LOAD_AT(site,
// (kInstanceIn<the template's tag, the tags of the instantiations that
// make the access>), x[i]). The tags are those KernelInstances spells
// (InstanceTag<Less>, InstanceTag<bool (*)(double, double)>), written in
// the template's own text, so that every type they name must be declared
// before the template (before the copy, for a header's template copied
// into the main file: HelperCloner.h).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_INSTANCEGATES_H
#define WGTRACE_REWRITER_INSTANCEGATES_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace wgtrace {
namespace rewriter {

/// The compile-time test, written in the text of template Pattern, that
/// holds in the instantiations Making and in no other
/// (`::wgtrace::detail::kInstanceIn<InstanceTag<Less>,
/// InstanceTag<Below>>`), its text placed after Before (the template, or
/// a header template's copy in the main file); none when it cannot be
/// written there: Pattern is not a function template of its own (a member
/// of a class template, a generic lambda), or an argument of Making cannot
/// be named before Before (a local, unnamed or private type, one declared
/// after it, a template template argument): then Why says which.
std::optional<std::string>
instanceTest(const clang::FunctionDecl *Pattern,
             llvm::ArrayRef<const clang::FunctionDecl *> Making,
             clang::SourceLocation Before, std::string &Why);

/// The opening of an access wrap made to record only when Test holds
/// (`WGTRACE_LOAD_AT(3, ` becomes `WGTRACE_WHEN_LOAD_AT(3, (Test), `), or
/// "" when Open is no access form that has such a variant.
std::string gatedOpen(llvm::StringRef Open, llvm::StringRef Test);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_INSTANCEGATES_H
