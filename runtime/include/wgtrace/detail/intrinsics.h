//===- wgtrace/detail/intrinsics.h - Access helpers for library calls -----===//
//
// What wgtrace-rewrite inserts where an access is not a plain lvalue that
// WGTRACE_LOAD/STORE/UPDATE can wrap: the element copies of a range-for, and
// (further down) the memory functions and SIMD load/store intrinsics. Each
// helper records what the wrapped operation reads or writes and then does
// exactly that operation, so the program computes the same results.
// Included by <wgtrace/instrument.h>; not meant to be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_INTRINSICS_H
#define WGTRACE_DETAIL_INTRINSICS_H

#include "wgtrace/detail/thread_state.h"

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace wgtrace::detail {

//===-- Range-for by value ------------------------------------------------===//
//
// `for (float x : v)` copies each element out of v: a load per iteration
// that no expression in the source spells. The rewriter turns the range into
// `::wgtrace::detail::loads(v)`, a view whose iterators record a load of the
// element each time they are dereferenced. A range passed as an lvalue is
// referred to; a temporary range is moved into the view, so it lives as
// long as the loop, as it would without the view.

template <class Iterator> class LoadingIterator {
public:
  explicit LoadingIterator(Iterator I) : I(std::move(I)) {}

  decltype(auto) operator*() const {
    using Ref = decltype(*I);
    if constexpr (std::is_lvalue_reference_v<Ref>) {
      Ref Element = *I;
      recordAccess(false, __builtin_addressof(Element), sizeof(Element));
      return static_cast<Ref>(Element);
    } else {
      return *I;
    }
  }
  LoadingIterator &operator++() {
    ++I;
    return *this;
  }
  template <class Other>
  bool operator!=(const LoadingIterator<Other> &O) const {
    return I != O.base();
  }
  const Iterator &base() const { return I; }

private:
  Iterator I;
};

template <class Range> class LoadingRange {
public:
  explicit LoadingRange(Range &&R) : R(std::forward<Range>(R)) {}

  auto begin() {
    using std::begin;
    return LoadingIterator<decltype(begin(R))>(begin(R));
  }
  auto end() {
    using std::end;
    return LoadingIterator<decltype(end(R))>(end(R));
  }

private:
  /// A reference for an lvalue range, the range itself for a temporary.
  Range R;
};

template <class Range> LoadingRange<Range> loads(Range &&R) {
  return LoadingRange<Range>(std::forward<Range>(R));
}

} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_INTRINSICS_H
