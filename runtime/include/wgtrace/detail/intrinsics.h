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
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>
#include <utility>

namespace wgtrace::detail {
inline namespace WGTRACE_DETAIL_ACCESSES {

//===-- Range-for by value ------------------------------------------------===//
//
// `for (float x : v)` copies each element out of v: a load per iteration
// that no expression in the source spells. The rewriter turns the range into
// `::wgtrace::detail::loads(site, v)`, a view whose iterators record a load
// of the element each time they are dereferenced. A range passed as an
// lvalue is referred to; a temporary range is moved into the view, so it
// lives as long as the loop, as it would without the view.
//
// Every helper here takes the access site's bits (its id in place, what
// WGTRACE_ACCESS_SITE(n) spells) first: its records name the expression
// that made them.

template <class Iterator> class LoadingIterator {
public:
  LoadingIterator(Iterator I, uint64_t SiteBits)
      : I(std::move(I)), SiteBits(SiteBits) {}

  decltype(auto) operator*() const {
    using Ref = decltype(*I);
    if constexpr (std::is_lvalue_reference_v<Ref>) {
      Ref Element = *I;
      recordAccess(false, __builtin_addressof(Element), sizeof(Element),
                   SiteBits);
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
  uint64_t SiteBits;
};

template <class Range> class LoadingRange {
public:
  LoadingRange(uint64_t SiteBits, Range &&R)
      : SiteBits(SiteBits), R(std::forward<Range>(R)) {}

  auto begin() {
    using std::begin;
    return LoadingIterator<decltype(begin(R))>(begin(R), SiteBits);
  }
  auto end() {
    using std::end;
    return LoadingIterator<decltype(end(R))>(end(R), SiteBits);
  }

private:
  uint64_t SiteBits;
  /// A reference for an lvalue range, the range itself for a temporary.
  Range R;
};

template <class Range> LoadingRange<Range> loads(uint64_t SiteBits, Range &&R) {
  return LoadingRange<Range>(SiteBits, std::forward<Range>(R));
}

//===-- memcpy, memmove, memset -------------------------------------------===//
//
// The rewriter replaces the callee's name with one of these, called with
// the site: `memcpy(d, s, n)` becomes
// `::wgtrace::detail::tracedMemcpy<true, true>(site)(d, s, n)`. The flags
// say which ranges are recorded memory (a copy out of a local array records
// the store only). A range longer than a record's 16-bit length field
// becomes several records (recordAccess splits it). Zero-length calls
// record nothing.

/// memcpy, or memmove when Overlapping: the same records either way.
template <bool RecordStore, bool RecordLoad, bool Overlapping>
struct TracedCopy {
  uint64_t SiteBits;
  WGTRACE_ALWAYS_INLINE void *operator()(void *Dst, const void *Src,
                                         size_t Size) const {
    if (Size && RecordLoad)
      recordAccess(false, Src, Size, SiteBits);
    if (Size && RecordStore)
      recordAccess(true, Dst, Size, SiteBits);
    if constexpr (Overlapping)
      return std::memmove(Dst, Src, Size);
    else
      return std::memcpy(Dst, Src, Size);
  }
};

struct TracedMemset {
  uint64_t SiteBits;
  WGTRACE_ALWAYS_INLINE void *operator()(void *Dst, int Value,
                                         size_t Size) const {
    if (Size)
      recordAccess(true, Dst, Size, SiteBits);
    return std::memset(Dst, Value, Size);
  }
};

template <bool RecordStore, bool RecordLoad>
WGTRACE_ALWAYS_INLINE TracedCopy<RecordStore, RecordLoad, false>
tracedMemcpy(uint64_t SiteBits) {
  return {SiteBits};
}

template <bool RecordStore, bool RecordLoad>
WGTRACE_ALWAYS_INLINE TracedCopy<RecordStore, RecordLoad, true>
tracedMemmove(uint64_t SiteBits) {
  return {SiteBits};
}

WGTRACE_ALWAYS_INLINE TracedMemset tracedMemset(uint64_t SiteBits) {
  return {SiteBits};
}

//===-- std::min, std::max, std::minmax, std::clamp -----------------------===//
//
// `std::max(a[i], x)` over a number becomes
// `::wgtrace::detail::tracedMax<true, false>(site)(a[i], x)`: the flags say
// which arguments are recorded memory (never a temporary, a local or a
// by-value parameter). Each reads its arguments as libstdc++'s own does
// (std::max compares a < b, std::min and std::minmax b < a, std::clamp is
// min(max(v, lo), hi)): one load per memory argument read, in that order,
// and the same reference returned, whose later read the caller's own wrap
// records.
//
// Where only some arguments are memory and the caller reads the result at
// once, the rewriter calls `choose` instead, which returns the argument
// chosen and whether it is memory, and wraps the call in readChosen: the
// read of the result is recorded when it is of memory, never when the call
// returned a temporary or a local (`i < std::min(n, it + tile)`).

/// The load of one argument, when \p Record says it is kernel memory.
template <bool Record, class T>
WGTRACE_ALWAYS_INLINE void recordRead(const T &Value, uint64_t SiteBits) {
  if (Record)
    recordAccess(false, &Value, sizeof(T), SiteBits);
}

/// The argument a traced std::min, std::max or std::clamp returned, and
/// whether it is recorded memory.
template <class T> struct Chosen {
  const T &Value;
  bool IsMemory;
};

/// The caller's read of a Chosen result: recorded when it is of memory.
template <class T>
WGTRACE_ALWAYS_INLINE T readChosen(uint64_t SiteBits, Chosen<T> C) {
  if (C.IsMemory)
    recordAccess(false, &C.Value, sizeof(T), SiteBits);
  return C.Value;
}

template <bool RecordA, bool RecordB> struct TracedMax {
  uint64_t SiteBits;
  template <class T>
  WGTRACE_ALWAYS_INLINE Chosen<T> choose(const T &A, const T &B) const {
    recordRead<RecordA>(A, SiteBits);
    recordRead<RecordB>(B, SiteBits);
    return A < B ? Chosen<T>{B, RecordB} : Chosen<T>{A, RecordA};
  }
  template <class T>
  WGTRACE_ALWAYS_INLINE const T &operator()(const T &A, const T &B) const {
    return choose(A, B).Value;
  }
};

template <bool RecordA, bool RecordB> struct TracedMin {
  uint64_t SiteBits;
  template <class T>
  WGTRACE_ALWAYS_INLINE Chosen<T> choose(const T &A, const T &B) const {
    recordRead<RecordB>(B, SiteBits);
    recordRead<RecordA>(A, SiteBits);
    return B < A ? Chosen<T>{B, RecordB} : Chosen<T>{A, RecordA};
  }
  template <class T>
  WGTRACE_ALWAYS_INLINE const T &operator()(const T &A, const T &B) const {
    return choose(A, B).Value;
  }
};

template <bool RecordA, bool RecordB> struct TracedMinmax {
  uint64_t SiteBits;
  template <class T>
  WGTRACE_ALWAYS_INLINE std::pair<const T &, const T &>
  operator()(const T &A, const T &B) const {
    recordRead<RecordB>(B, SiteBits);
    recordRead<RecordA>(A, SiteBits);
    if (B < A)
      return {B, A};
    return {A, B};
  }
};

template <bool RecordValue, bool RecordLow, bool RecordHigh>
struct TracedClamp {
  uint64_t SiteBits;
  template <class T>
  WGTRACE_ALWAYS_INLINE Chosen<T> choose(const T &Value, const T &Low,
                                         const T &High) const {
    // min(max(Value, Low), High): the min reads High, then whichever of
    // Value and Low the max returned.
    Chosen<T> Larger =
        TracedMax<RecordValue, RecordLow>{SiteBits}.choose(Value, Low);
    recordRead<RecordHigh>(High, SiteBits);
    if (Larger.IsMemory)
      recordAccess(false, &Larger.Value, sizeof(T), SiteBits);
    return High < Larger.Value ? Chosen<T>{High, RecordHigh} : Larger;
  }
  template <class T>
  WGTRACE_ALWAYS_INLINE const T &operator()(const T &Value, const T &Low,
                                            const T &High) const {
    return choose(Value, Low, High).Value;
  }
};

template <bool RecordA, bool RecordB>
WGTRACE_ALWAYS_INLINE TracedMax<RecordA, RecordB> tracedMax(uint64_t Bits) {
  return {Bits};
}
template <bool RecordA, bool RecordB>
WGTRACE_ALWAYS_INLINE TracedMin<RecordA, RecordB> tracedMin(uint64_t Bits) {
  return {Bits};
}
template <bool RecordA, bool RecordB>
WGTRACE_ALWAYS_INLINE TracedMinmax<RecordA, RecordB>
tracedMinmax(uint64_t Bits) {
  return {Bits};
}
template <bool RecordValue, bool RecordLow, bool RecordHigh>
WGTRACE_ALWAYS_INLINE TracedClamp<RecordValue, RecordLow, RecordHigh>
tracedClamp(uint64_t Bits) {
  return {Bits};
}

//===-- std::swap, std::exchange, std::ranges::swap -----------------------===//
//
// `std::swap(a[i], a[j])` of trivially copyable objects becomes
// `::wgtrace::detail::tracedSwap<true, true>(site)(a[i], a[j])`, which makes
// libstdc++'s accesses in its order: `tmp = a; a = b; b = tmp` loads a, loads
// b, stores a, stores b (std::ranges::swap and std::iter_swap do the same);
// arrays are swapped element by element, each element so. std::exchange(obj,
// v) loads obj, reads v, stores obj. The flags say which arguments are
// recorded memory.

template <bool Record, class T>
WGTRACE_ALWAYS_INLINE void recordWrite(const T &Object, uint64_t SiteBits) {
  if (Record)
    recordAccess(true, &Object, sizeof(T), SiteBits);
}

template <bool RecordA, bool RecordB> struct TracedSwap {
  uint64_t SiteBits;
  template <class T> WGTRACE_ALWAYS_INLINE void operator()(T &A, T &B) const {
    if constexpr (std::is_array_v<T>) {
      for (size_t I = 0; I < std::extent_v<T>; ++I)
        (*this)(A[I], B[I]);
    } else {
      static_assert(std::is_trivially_copyable_v<T>,
                    "wgtrace records swaps of trivially copyable objects");
      recordRead<RecordA>(A, SiteBits);
      T Held = A;
      recordRead<RecordB>(B, SiteBits);
      recordWrite<RecordA>(A, SiteBits);
      A = B;
      recordWrite<RecordB>(B, SiteBits);
      B = Held;
    }
  }
};

template <bool RecordObject, bool RecordValue> struct TracedExchange {
  uint64_t SiteBits;
  template <class T, class U = T>
  WGTRACE_ALWAYS_INLINE T operator()(T &Object, U &&Value) const {
    static_assert(std::is_trivially_copyable_v<T>,
                  "wgtrace records exchanges of trivially copyable objects");
    recordRead<RecordObject>(Object, SiteBits);
    T Old = Object;
    if constexpr (RecordValue)
      recordRead<true>(Value, SiteBits);
    recordWrite<RecordObject>(Object, SiteBits);
    Object = std::forward<U>(Value);
    return Old;
  }
};

template <bool RecordA, bool RecordB>
WGTRACE_ALWAYS_INLINE TracedSwap<RecordA, RecordB> tracedSwap(uint64_t Bits) {
  return {Bits};
}
template <bool RecordObject, bool RecordValue>
WGTRACE_ALWAYS_INLINE TracedExchange<RecordObject, RecordValue>
tracedExchange(uint64_t Bits) {
  return {Bits};
}

//===-- SIMD loads and stores ---------------------------------------------===//
//
// `_mm256_storeu_ps(p, v)` becomes
// `_mm256_storeu_ps(::wgtrace::detail::stored<32>(site, p), v)`: the address
// is recorded with the intrinsic's access size and passed on unchanged.

template <size_t Bytes, class T>
WGTRACE_ALWAYS_INLINE T *loaded(uint64_t SiteBits, T *Address) {
  recordAccess(false, Address, Bytes, SiteBits);
  return Address;
}

template <size_t Bytes, class T>
WGTRACE_ALWAYS_INLINE T *stored(uint64_t SiteBits, T *Address) {
  recordAccess(true, Address, Bytes, SiteBits);
  return Address;
}

//===-- Virtual calls -----------------------------------------------------===//
//
// A virtual call reads its object's virtual table pointer to find the
// function to run: under the Itanium C++ ABI, the first pointer-sized
// bytes of the polymorphic (sub)object the call is made on. The read is
// recorded (not when the object is the running kernel's own stack, which
// is no kernel memory: referencedAccess) where the compiler makes it,
// after the arguments: `p->f()` becomes
// `::wgtrace::detail::vtableRead(site, p)->f()`, and `p->f(a, b)`
// `p->f(a, ::wgtrace::detail::vtableReadAfter(site, (p), b))`, the last
// argument passed on unchanged (a reference or a scalar: its value
// category does not change what the parameter is).

template <class T>
WGTRACE_ALWAYS_INLINE T *vtableRead(uint64_t SiteBits, T *Object) {
  referencedAccess(false, Object, sizeof(void *), SiteBits);
  return Object;
}

// `delete p` with a virtual destructor reads p's table pointer to find
// the destructor, when p is not null: `delete
// ::wgtrace::detail::deletedTableRead(site, p)`.
template <class T>
WGTRACE_ALWAYS_INLINE T *deletedTableRead(uint64_t SiteBits, T *Object) {
  if (Object)
    referencedAccess(false, Object, sizeof(void *), SiteBits);
  return Object;
}

template <class T, class A>
WGTRACE_ALWAYS_INLINE A &&vtableReadAfter(uint64_t SiteBits, T *Object,
                                          A &&Argument) {
  referencedAccess(false, Object, sizeof(void *), SiteBits);
  return static_cast<A &&>(Argument);
}

// A call through a member function pointer, `(b->*pm)()`, reads the
// object's virtual table pointer when pm names a virtual function: under
// the Itanium C++ ABI its first word is then 1 plus the function's offset
// in the table, its second the adjustment of `this`, and the compiler
// reads the table pointer of the adjusted object once it has evaluated
// the object and the pointer, before the arguments. The pointer becomes
// `::wgtrace::detail::memberTableRead(site, (b), pm)`, which records the
// read then (not when the object is the running kernel's own stack) and
// hands pm on.

template <class M> struct MemberClass;
template <class F, class C> struct MemberClass<F C::*> {
  using type = C;
};

template <class T, class M>
WGTRACE_ALWAYS_INLINE M memberTableRead(uint64_t SiteBits,
                                        const volatile T *Object, M Pointer) {
  static_assert(sizeof(M) == 2 * sizeof(uintptr_t),
                "an Itanium member function pointer");
  uintptr_t Words[2];
  std::memcpy(Words, &Pointer, sizeof Words);
  if (Words[0] & 1) {
    const volatile typename MemberClass<M>::type *Base = Object;
    referencedAccess(false,
                     reinterpret_cast<const volatile unsigned char *>(Base) +
                         static_cast<intptr_t>(Words[1]),
                     sizeof(void *), SiteBits);
  }
  return Pointer;
}

//===-- Objects a new-expression makes
//-------------------------------------===//
//
// `new T(args)` writes the object it makes (a scalar's value; a class's
// virtual table pointers and fields, as its constructors store them),
// with no expression of the kernel to wrap. The rewriter lists those
// stores, in the order the compiler makes them, as pairs of offset and
// length: `new T(x)` becomes
// `::wgtrace::detail::constructed<0, 8, 8, 4>(site, new T(x))`, which
// records them once the object is built (not on the running kernel's own
// stack, a placement new's: referencedAccess) and hands the pointer on.

template <size_t... OffsetsAndLengths, class T>
WGTRACE_ALWAYS_INLINE T *constructed(uint64_t SiteBits, T *Object) {
  static_assert(sizeof...(OffsetsAndLengths) % 2 == 0,
                "stores come as pairs of offset and length");
  constexpr size_t Pairs[] = {OffsetsAndLengths...};
  const auto *Bytes = reinterpret_cast<const unsigned char *>(Object);
  for (size_t I = 0; I < sizeof...(OffsetsAndLengths); I += 2)
    referencedAccess(true, Bytes + Pairs[I], Pairs[I + 1], SiteBits);
  return Object;
}

//===-- Bit-fields --------------------------------------------------------===//
//
// A bit-field has no address. `p->bits = v` becomes
// `::wgtrace::detail::bitfieldAccess<Offset, Length, true, false>(site,
// p)->bits = v`: the bytes at Offset..Offset+Length of the containing
// object, those that hold the field's bits, are recorded, and the object's
// address is passed on unchanged (for `s.bits`, through
// __builtin_addressof(s)).

template <size_t Offset, size_t Length, bool IsStore, bool IsLoad, class T>
WGTRACE_ALWAYS_INLINE T *bitfieldAccess(uint64_t SiteBits, T *Object) {
  const volatile char *Bytes =
      reinterpret_cast<const volatile char *>(Object) + Offset;
  if (IsLoad)
    recordAccess(false, Bytes, Length, SiteBits);
  if (IsStore)
    recordAccess(true, Bytes, Length, SiteBits);
  return Object;
}

//===-- Atomic operations -------------------------------------------------===//
//
// The rewriter wraps the object of an atomic operation on kernel memory,
// never the operation: `counter.fetch_add(1)` becomes
// `WGTRACE_ATOMIC_UPDATE_AT(site, counter).fetch_add(1)` and
// `__atomic_load_n(p, o)` becomes `__atomic_load_n(WGTRACE_ATOMIC_LOAD_AT(
// site, p), o)` (<wgtrace/instrument.h>). The helper records the operation
// (recordAtomic: an Atomic VALUE and its LOAD and/or STORE) and yields its
// operand unchanged, so the operation itself runs as written, atomically.
// The records are made just before it.

/// Whether A is a std::atomic_ref (or a library base of one): of the
/// standard's atomic classes the only one that can be copied (std::atomic
/// and std::atomic_flag cannot), and one that holds nothing but a pointer
/// to the object it operates on. Told apart this way so that this header
/// need not include <atomic>.
template <class A, class = void> struct IsAtomicRef : std::false_type {};
template <class A>
struct IsAtomicRef<A, std::void_t<typename A::value_type>>
    : std::bool_constant<std::is_copy_constructible_v<A> &&
                         sizeof(A) == sizeof(typename A::value_type *)> {};

template <format::AtomicOp Op, bool MayBeKernelStack>
WGTRACE_ALWAYS_INLINE void recordAtomicObject(const volatile void *Address,
                                              uint64_t Length,
                                              uint64_t SiteBits) {
  if constexpr (MayBeKernelStack)
    referencedAtomic(Op, Address, Length, SiteBits);
  else
    recordAtomic(Op, Address, Length, SiteBits);
}

/// A pointer to the object of an atomic operation (a builtin's first
/// argument, the object of `p->fetch_add(1)`): its sizeof(A) bytes.
template <format::AtomicOp Op, bool MayBeKernelStack = false, class A>
WGTRACE_ALWAYS_INLINE A *atomicAccess(uint64_t SiteBits, A *Pointer) {
  static_assert(!std::is_void_v<A>, "an atomic object has a type");
  recordAtomicObject<Op, MayBeKernelStack>(Pointer, sizeof(A), SiteBits);
  return Pointer;
}

/// An atomic object (std::atomic<T>, std::atomic_flag: its own bytes) or a
/// std::atomic_ref<T>, an lvalue or a temporary (the T it refers to).
template <
    format::AtomicOp Op, bool MayBeKernelStack = false, class A,
    std::enable_if_t<!std::is_pointer_v<std::remove_reference_t<A>>, int> = 0>
WGTRACE_ALWAYS_INLINE A &&atomicAccess(uint64_t SiteBits, A &&Object) {
  using Class = std::remove_cv_t<std::remove_reference_t<A>>;
  if constexpr (IsAtomicRef<Class>::value) {
    // The pointer it holds, as its bytes: std::atomic_ref has no accessor
    // for it before C++26.
    using Value = typename Class::value_type;
    Value *Referenced;
    std::memcpy(static_cast<void *>(&Referenced),
                static_cast<const void *>(__builtin_addressof(Object)),
                sizeof(Referenced));
    recordAtomicObject<Op, MayBeKernelStack>(Referenced, sizeof(Value),
                                             SiteBits);
  } else {
    recordAtomicObject<Op, MayBeKernelStack>(__builtin_addressof(Object),
                                             sizeof(Class), SiteBits);
  }
  return std::forward<A>(Object);
}

/// The flag byte of __atomic_test_and_set and __atomic_clear, which take
/// any pointer and operate on one byte at it.
template <class T>
WGTRACE_ALWAYS_INLINE volatile unsigned char *atomicByte(T *Pointer) {
  return reinterpret_cast<volatile unsigned char *>(Pointer);
}

} // namespace WGTRACE_DETAIL_ACCESSES
} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_INTRINSICS_H
