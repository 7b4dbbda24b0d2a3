//===- PrivateAccess.h - Non-public members named by generated code -*- C++
//-*-===//
//
// A header member's copy (MemberCopy.h) is a free function: the private
// and protected members its body uses are out of its reach. C++ leaves
// generated code one door: access is not checked on the names of an
// explicit instantiation ([temp.spec.general]/6 in C++20,
// [temp.explicit]/12 in C++17). So
//
//   struct Domain_m_numElem { using type = WgtraceMember<int, ::Domain>;
//                             friend type wgtrace_member(Domain_m_numElem); };
//   template struct WgtraceAccess<Domain_m_numElem, &::Domain::m_numElem>;
//
// defines a friend function of the tag that returns the member pointer,
// and the copy says `(self.*wgtrace_member(Domain_m_numElem{}))` for
// `m_numElem`. A member function's pointer type picks its overload; a
// static member's pointer is a plain one. Everything lives in an unnamed
// namespace inside `wgtrace_access`: each rewritten file has its own tags,
// so two files' tags of one name never meet at link time. The pointer is a
// constant: the call costs nothing at -O2. A class template's member is
// named in its function template copy through a tag template keyed by the
// class, `wgtrace_member(Box_v<::Box<T>>{})`, specialized with its own
// explicit instantiation for each specialization the copy is instantiated
// for.
//
// What the idiom cannot name stays out of reach, and the member using it
// is not copied (reported): a member whose type names a private or
// protected type (the tag's type would have to spell it), a bit-field or
// a reference member (no pointer to member), a member template, a member
// of an anonymous struct or union, one reached through a base that is not
// a public one, a static constant (its uses may need its value as a
// constant, and it may have no definition to point to).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_PRIVATEACCESS_H
#define WGTRACE_REWRITER_PRIVATEACCESS_H

#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace wgtrace {
namespace rewriter {

/// Whether generated code can name the member D of a class only through
/// an explicit instantiation: it is private or protected where it is
/// found (Found: the access of the name as the expression found it).
bool needsPrivateAccess(clang::AccessSpecifier Found);

class PrivateAccess {
public:
  /// Why D, a non-public member used on an object of class Object (null
  /// for a static member), cannot be reached through an explicit
  /// instantiation; empty if it can.
  static std::string whyNotReachable(const clang::ValueDecl *D,
                                     const clang::CXXRecordDecl *Object);

  /// The expression giving D's pointer: a pointer to member for a
  /// non-static member (`.*` it onto the object), a plain pointer for a
  /// static one. Its tag is declared by declarations().
  std::string pointer(const clang::ValueDecl *D);

  /// A class template's members (in the copy of a member of the class
  /// template: a function template) are named through a tag template,
  /// `wgtrace_member(Box_v<::Box<T>>{})`, specialized for each of the
  /// class's specializations the file uses, `template <> struct
  /// Box_v<::Box<float>> {...}; template struct WgtraceAccess<
  /// Box_v<::Box<float>>, &::Box<float>::v>;`: pointer() takes the
  /// pattern's member, declarations() each specialization's.

  /// The class template Pattern as its own members name it, from the
  /// global scope (`::ns::Box<T, N>`).
  static std::string currentInstantiation(const clang::CXXRecordDecl *Pattern);

  /// The member of Spec (a specialization of a class template) that the
  /// pattern's member Pattern was instantiated as, or null.
  static const clang::ValueDecl *instantiated(const clang::ValueDecl *Pattern,
                                              const clang::CXXRecordDecl *Spec);

  /// The definitions that the pointers of Needed require, those this file
  /// has not had yet: the templates the first time, then a tag and an
  /// explicit instantiation per member. They go at namespace scope, before
  /// the first copy that uses them.
  std::string declarations(llvm::ArrayRef<const clang::ValueDecl *> Needed);

private:
  /// D's tag (`Domain_m_numElem`), named once, unique in the file.
  llvm::StringRef tag(const clang::ValueDecl *D);

  llvm::DenseMap<const clang::ValueDecl *, std::string> Tags;
  llvm::StringSet<> Used;
  /// The tag templates declared (class templates' members).
  llvm::StringSet<> TagTemplates;
  llvm::DenseSet<const clang::ValueDecl *> Emitted;
  bool TemplatesEmitted = false;
};

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_PRIVATEACCESS_H
