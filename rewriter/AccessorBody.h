//===- AccessorBody.h - What an accessor's body touches ---------*- C++ -*-===//
//
// A class's accessors and bookkeeping (constructors, conversions, operators,
// members returning a reference or a pointer, const one-return getters) are
// not helpers when all they do is name memory: `T &operator[](size_t i)
// { return data_[i]; }` computes the element's address from the object's
// own fields and its parameters, and the kernel's use of the element it
// returns is recorded where the kernel uses it. One whose body reads or
// writes memory beyond that (`return &list_[start_[i]];` loads an element
// of start_ to compute the address, a functor's loop over an array, a
// constructor filling the buffer it is given) does work whose accesses
// would be lost in silence if it were skipped: it is a helper.
//
// This file answers the question for one definition: does its body access
// memory other than the object's own storage (its fields, through `this`,
// and what holds its data inline in them, such as member arrays) and the
// function's own locals and by-value parameters? The returned lvalue is not
// an access by itself (a reference or an address is handed out, nothing is
// loaded); a load of it for a by-value result is.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_ACCESSORBODY_H
#define WGTRACE_REWRITER_ACCESSORBODY_H

#include "clang/AST/Decl.h"

#include <cstdint>

namespace wgtrace {
namespace rewriter {

/// What the body of an accessor touches besides the object's own storage,
/// its locals and its by-value parameters.
enum class BeyondObject : uint8_t {
  /// Nothing: it only names memory.
  Nothing,
  /// Only what its reference and pointer parameters designate (`o.x` of a
  /// `const Vec &o`): nothing beyond the object when a call hands them
  /// temporaries (`v = make()` with a user-written operator=).
  Parameters,
  /// Other memory: an element its fields point to, a global, what library
  /// code it hands memory to reads or writes.
  Elsewhere,
};

/// The accesses of the object's own storage a body writes.
struct ObjectUse {
  /// Loads and stores (a compound assignment counts once).
  unsigned Accesses = 0;
  /// Stores: assignments (compound ones too), increments and decrements.
  unsigned Stores = 0;
  /// Loads of a value that is not a pointer (`e[0]`, `n_`, not `p_` whose
  /// load only computes an address): the object's data.
  unsigned DataLoads = 0;
};

/// What the body of Def (a definition, an instantiation for a template),
/// a constructor's member initializers included, loads, stores or hands to
/// library code beyond the object's own storage, its locals and its
/// by-value parameters. Calls of other project functions are not looked
/// into (the caller decides whether they are work). Object, if given,
/// receives the accesses of the object's own storage written in the body
/// (until the walk stops, when it is Elsewhere).
BeyondObject memoryBeyondObject(const clang::FunctionDecl *Def,
                                ObjectUse *Object = nullptr);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_ACCESSORBODY_H
