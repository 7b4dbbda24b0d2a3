//===- MemberCopy.h - Header members copied as free functions -*- C++ -*-===//
//
// A class's member functions in a project header do work on kernel memory
// (`out[i] += v` with vec3's `operator+=`, `p.length_squared()`), but the
// header is not rewritten and a class cannot be reopened to add an
// instrumented member. The copy is a free function instead, taking the
// object as its first parameter: `vec3 &operator+=(const vec3 &v)`
// becomes `static inline vec3 &vec3_operatorPlusEqual_wgtrace_0(::vec3
// &self, const vec3 &v)`, the body's `e[0]` becomes `self.e[0]` and
// `this` becomes `(&self)`; calls in operator syntax and member calls
// (`p.x()`, `q->x()`) are redirected to it (HelperCloner). A member of a
// class template is copied as a function template over the class's
// parameters (`template <class T> static inline T Box_get_wgtrace_0(const
// ::Box<T> &self)`), called with the object's arguments
// (`::Box_get_wgtrace_0<float>(b)`). A free function reaches what is
// public, and the private and protected members through explicit
// instantiations (PrivateAccess.h: LULESH's `Index_t numElem() const {
// return m_numElem; }` reads `(self.*P)`; a class template's through a tag
// template per specialization). The static members and enumerators of
// its class that a body names unqualified are named from the global scope
// (`::geo::Grid::stride`). A static member function is copied without an
// object (`Grid::sum(a, n)` calls `::geo::Grid_sum_wgtrace_0(a, n)`; a
// class template's with its arguments, which nothing deduces:
// `::Pack_sumAll_wgtrace_1<float, 2>(a, n)`). A member using what those
// cannot name (a non-public type, a bit-field, a class template's private
// member on another specialization), its class's own types unqualified,
// or a lambda (which may capture `this`) is not copied, and its calls are
// reported.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_MEMBERCOPY_H
#define WGTRACE_REWRITER_MEMBERCOPY_H

#include "EditSet.h"
#include "PrivateAccess.h"

#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace wgtrace {
namespace rewriter {

/// Why the member function M, defined in a project header (in its class,
/// or after it in its namespace), cannot be copied as a free function;
/// empty if it can. A call operator
/// is copied only when CallOperator is set: its calls (`f(a)`) are then
/// redirected to the copy (`copy(f, a)`), which only the copies made for
/// the OpenMP loops a function reaches do (FileRewriter's traceHeaderOmp).
std::string whyMemberNotCopyable(const clang::CXXMethodDecl *M,
                                 bool CallOperator = false);

/// The template head of the copy of M, a member of a class template (its
/// pattern): the class's parameters as written, without their defaults
/// (`template <class T, int N> `); empty for a member of another class.
std::string copyTemplateHead(const clang::CXXMethodDecl *M);

/// The class template Class's parameters as its arguments (`<T, N>`,
/// `<Ts...>`); empty if Class is no class template.
std::string templateParameterArguments(const clang::CXXRecordDecl *Class);

/// The explicit template arguments with which a call of Called (a member
/// of a class template's specialization) calls its copy: the
/// specialization's, every name from the global scope (`<float>`,
/// `<::ns::Cell, 3>`); empty for a member of another class. Those that
/// are the parameters' defaults are left out, unless WithDefaults: a
/// static member's copy deduces none of them from an object.
std::string copyTemplateArguments(const clang::CXXMethodDecl *Called,
                                  bool WithDefaults = false);

/// Whether a call of the copy of Called (a member of a class template's
/// specialization) that names no template arguments, with Args after the
/// object, deduces the specialization's arguments as the object gives
/// them: every argument whose parameter's type depends on the class's
/// parameters has that parameter's type exactly (no conversion, no pack),
/// so that deducing from it agrees with the object.
bool deducesFromObject(const clang::CXXMethodDecl *Called,
                       llvm::ArrayRef<const clang::Expr *> Args);

/// The object parameter the copy of M takes first (`const ::ns::vec3
/// &self`).
std::string selfParameter(const clang::CXXMethodDecl *M);

/// Edits of M's text (in Edits, the edits of its header) that make it a
/// free function taking its object as `self`, the name aside: the object
/// parameter, no cv-qualifier, `self.` before the members the body names
/// through `this` implicitly, `(&self)` for `this`. A call of another
/// member through `this` (`length_squared()`) becomes `self.name(`, which
/// HelperCloner turns into a call of that member's copy when it has one
/// (memberCallThroughThis gives the range). A private or protected member
/// is named through its pointer (`(self.*P)`, `(v.*P)`, `(*P)` for a
/// static one; PrivateAccess.h), and added to Private: the copy needs
/// Access's declarations of those.
void makeFreeFunction(const clang::CXXMethodDecl *M, EditSet &Edits,
                      PrivateAccess &Access,
                      std::vector<const clang::ValueDecl *> &Private);

/// For a call of a member through an implicit `this` (`length_squared()`
/// in another member): the text from its name to its '(' included, as
/// [Begin, End) offsets in its file; false if it is in a macro.
bool memberCallThroughThis(const clang::CXXMemberCallExpr &Call,
                           unsigned &Begin, unsigned &End);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_MEMBERCOPY_H
