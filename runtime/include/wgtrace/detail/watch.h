//===- wgtrace/detail/watch.h - Records of watched variables --------------===//
//
// What wgtrace-rewrite inserts around a change of a WGTRACE_WATCH variable:
// `x += v` becomes
// `::wgtrace::detail::watched(3, __builtin_addressof(x), x += v)`. The
// arguments are evaluated first (the change happens), then x is read and
// recorded, then the change's own result is passed on: an lvalue as the
// same lvalue (`++x`, `x = v`), a prvalue by value (`x++` still yields the
// old value). x goes by address, not by reference: `int x; x = n;` would
// otherwise pass x uninitialised to a reference, which compilers warn of.
// Included by <wgtrace/instrument.h>; not meant to be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_WATCH_H
#define WGTRACE_DETAIL_WATCH_H

#include "wgtrace/wgtrace.h"

namespace wgtrace::detail {

template <class V, class R>
WGTRACE_ALWAYS_INLINE R watched(unsigned Ordinal, const V *Variable,
                                R &&Result) {
  recordValue(Ordinal, *Variable);
  return static_cast<R &&>(Result);
}

} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_WATCH_H
