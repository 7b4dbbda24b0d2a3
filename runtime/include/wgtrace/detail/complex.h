//===- wgtrace/detail/complex.h - Parts of a std::complex that record -----===//
//
// A std::complex<T> (T float, double or long double) is two T, the real
// part then the imaginary one: the standard lets a program read it as
// `T[2]`. Its members `real()` and `imag()` read one part, and
// `real(x)`/`imag(x)` write one, in library code. The rewriter wraps the
// object of such a call (a std::complex of kernel memory) in
// `::wgtrace::detail::cx::part<Part, Store, Referenced>(site, z)`, which
// records the part's access, sizeof(T) bytes at its offset, and hands back
// the object itself, so that the member runs as written. A read is
// recorded where the object is evaluated (the getters take no argument); a
// write when the setter is called, after its argument, as the library
// stores the value it is given.
//
// Included by <wgtrace/instrument.h>; not meant to be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_COMPLEX_H
#define WGTRACE_DETAIL_COMPLEX_H

#include "wgtrace/detail/thread_state.h"

#include <cstdint>
#include <type_traits>

namespace wgtrace::detail::cx {
inline namespace WGTRACE_DETAIL_ACCESSES {

template <int Part, bool Store, bool Referenced, class C>
WGTRACE_ALWAYS_INLINE void recordPart(const C *Z, uint64_t SiteBits) noexcept {
  using T = typename C::value_type;
  static_assert(sizeof(C) == 2 * sizeof(T), "std::complex is two parts");
  // [complex.numbers]: a complex is read as `T[2]` through this cast.
  const volatile void *Address = reinterpret_cast<const T *>(Z) + Part;
  if constexpr (Referenced)
    referencedAccess(Store, Address, sizeof(T), SiteBits);
  else
    recordAccess(Store, Address, sizeof(T), SiteBits);
}

/// The object of a setter: records the part's store when the setter runs.
template <int Part, bool Referenced, class C> class PartStore {
public:
  using T = typename C::value_type;
  PartStore(C &Z, uint64_t SiteBits) noexcept : Z(Z), SiteBits(SiteBits) {}
  void real(T Value) {
    recordPart<Part, true, Referenced>(&Z, SiteBits);
    Z.real(Value);
  }
  void imag(T Value) {
    recordPart<Part, true, Referenced>(&Z, SiteBits);
    Z.imag(Value);
  }
  /// `p->real(x)` through a pointer to the object.
  PartStore *operator->() noexcept { return this; }

private:
  C &Z;
  uint64_t SiteBits;
};

/// `z.real()`, `p->imag()`, `std::real(z)`: the part is read now.
template <int Part, bool Store, bool Referenced, class C>
WGTRACE_ALWAYS_INLINE std::enable_if_t<!Store, C &> part(uint64_t SiteBits,
                                                         C &Z) noexcept {
  recordPart<Part, false, Referenced>(&Z, SiteBits);
  return Z;
}
template <int Part, bool Store, bool Referenced, class C>
WGTRACE_ALWAYS_INLINE std::enable_if_t<!Store, C *> part(uint64_t SiteBits,
                                                         C *Z) noexcept {
  recordPart<Part, false, Referenced>(Z, SiteBits);
  return Z;
}
/// `z.real(x)`, `p->imag(x)`: the part is written when the setter runs.
template <int Part, bool Store, bool Referenced, class C>
WGTRACE_ALWAYS_INLINE std::enable_if_t<Store, PartStore<Part, Referenced, C>>
part(uint64_t SiteBits, C &Z) noexcept {
  return {Z, SiteBits};
}
template <int Part, bool Store, bool Referenced, class C>
WGTRACE_ALWAYS_INLINE std::enable_if_t<Store, PartStore<Part, Referenced, C>>
part(uint64_t SiteBits, C *Z) noexcept {
  return {*Z, SiteBits};
}

} // namespace WGTRACE_DETAIL_ACCESSES
} // namespace wgtrace::detail::cx

#endif // WGTRACE_DETAIL_COMPLEX_H
