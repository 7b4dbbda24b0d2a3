//===- StringCalls.h - std::basic_string members that record ----*- C++ -*-===//
//
// The members of a std::basic_string that copy characters into it
// (append, +=, push_back, assign, =, insert, replace, resize; the forms
// taking a string, a pointer and a count, a null-terminated pointer, or a
// count and a character) or out of it (copy), and compare with another string,
// read and write its characters in library code. Called on a string whose
// characters are kernel memory, the string is wrapped in
// `::wgtrace::detail::recorded::string<Roles...>(site, s)`
// (<wgtrace/detail/string.h>), whose members call the string's and record
// the loads and stores libstdc++ made, in its order: `s += t` becomes
// `::wgtrace::detail::recorded::string<'-'>(WGTRACE_ACCESS_SITE(1), s) +=
// t`. The roles are those of the arguments: 'M' a pointer to characters of
// kernel memory, '-' anything else.
//
// Not handled (reported untraced as other library members are): the other
// forms (iterator ranges, initializer lists, string views, a substring of
// a string by position given to insert or replace), substr (it makes a
// new string), compare's other forms, a null-terminated pointer to kernel
// memory (its length is measured by strlen, whose reads the library does
// not show), other character traits or allocators.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_STRINGCALLS_H
#define WGTRACE_REWRITER_STRINGCALLS_H

#include "MemoryModel.h"
#include "RewriteContext.h"

#include "clang/AST/ExprCXX.h"

namespace wgtrace {
namespace rewriter {

/// If E is a call of a std::basic_string member wgtrace records, on Object
/// (a string whose characters are kernel memory), wraps Object and returns
/// true. Sets RC.UsesAlgorithms when it wrapped it.
bool redirectStringMember(RewriteContext &RC, const MemoryModel &Model,
                          const clang::CallExpr *E,
                          const clang::CXXMethodDecl *M,
                          const clang::Expr *Object);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_STRINGCALLS_H
