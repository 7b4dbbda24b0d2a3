//===- wgtrace/detail/vector.h - std::vector members that record ----------===//
//
// A std::vector member that writes the vector's elements (push_back, resize,
// reserve, assign, insert) does so in library code that wgtrace-rewrite cannot
// rewrite. The rewriter sends such a call on a vector of kernel memory,
// `v.push_back(a[i])`, to `::wgtrace::detail::recorded::vector<'M'>(site,
// v).push_back(a[i])`: the member runs as written, on the same arguments,
// and then the loads and stores libstdc++ made in it are recorded, in its
// order, with the access site of the call. They follow from the vector
// before the call (its storage, size and capacity) and after it (its
// storage, new when it grew), as libstdc++ 12's vector.tcc writes each
// member for elements of scalar type (the rewriter sends no other):
//
//   - a new element is constructed from its value (a load of the value
//     when it is kernel memory, then the store);
//   - growing beyond the capacity allocates new storage, constructs the
//     new elements there first, then moves the old ones over (a memmove:
//     a load of each old element and a store of it in the new storage,
//     element by element, forward); the old storage is freed (reserve
//     only moves);
//   - elements shifted to make room in place are moved by memmove too:
//     those past the end forward, the others backward (move_backward);
//   - a fill (std::fill, std::fill_n) reads its value once, before the
//     stores (std::fill even when it stores nothing, std::fill_n only when
//     it stores something); insert and resize with a value first copy it
//     into a temporary (one load), and their fills read the temporary;
//   - resize without a value stores the first new element, then, when
//     there are more, reads it back and stores it into the others.
//
// The template arguments are the roles of the call's arguments, one
// character each: 'M' a value of kernel memory (its load is recorded) or an
// iterator into kernel memory (each element read from it is recorded);
// '-' anything else (a position, a count, a local value, a temporary).
//
// Included by <wgtrace/algorithms.h>; not meant to be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_VECTOR_H
#define WGTRACE_DETAIL_VECTOR_H

#include "wgtrace/detail/thread_state.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace wgtrace::detail::recorded {
inline namespace WGTRACE_DETAIL_ACCESSES {

/// A std::vector of kernel memory whose member the kernel calls, with the
/// roles of the member's arguments.
template <class V, char... Roles> class VectorMembers {
  using T = typename V::value_type;
  static_assert(std::is_scalar_v<T>,
                "recorded vector members are for elements of scalar type");

public:
  VectorMembers(uint64_t SiteBits, V &Vector)
      : SiteBits(SiteBits), Vector(&Vector), Before(Vector.data()),
        Size(Vector.size()), Capacity(Vector.capacity()) {}

  /// `p->push_back(x)` on a pointer to the vector.
  VectorMembers *operator->() { return this; }

  void push_back(const T &Value) {
    const T *From = std::addressof(Value);
    Vector->push_back(Value);
    appended(From, role<0>());
  }
  void push_back(T &&Value) {
    const T *From = std::addressof(Value);
    Vector->push_back(std::move(Value));
    appended(From, role<0>());
  }
  template <class... A> decltype(auto) emplace_back(A &&...Args) {
    static_assert(sizeof...(A) <= 1, "a scalar is made from one value");
    const T *From = valueAddress(Args...);
    if constexpr (std::is_void_v<decltype(Vector->emplace_back(
                      std::forward<A>(Args)...))>) {
      Vector->emplace_back(std::forward<A>(Args)...);
      appended(From, sizeof...(A) == 1 && role<0>());
    } else {
      decltype(auto) Result = Vector->emplace_back(std::forward<A>(Args)...);
      appended(From, sizeof...(A) == 1 && role<0>());
      return Result;
    }
  }

  void reserve(size_t Count) {
    Vector->reserve(Count);
    if (Count > Capacity)
      move(Before, Vector->data(), Size);
  }

  void resize(size_t Count) {
    Vector->resize(Count);
    if (Count <= Size)
      return;
    size_t Added = Count - Size;
    const T *Into = grows(Added) ? Vector->data() : Before;
    store(Into + Size);
    if (Added > 1) {
      load(Into + Size);
      for (size_t I = Size + 1; I < Count; ++I)
        store(Into + I);
    }
    if (grows(Added))
      move(Before, Into, Size);
  }
  void resize(size_t Count, const T &Value) {
    const T *From = std::addressof(Value);
    Vector->resize(Count, Value);
    if (Count > Size)
      filledIn(Size, Count - Size, From, role<1>());
  }

  void assign(size_t Count, const T &Value) {
    const T *From = std::addressof(Value);
    Vector->assign(Count, Value);
    const bool Memory = role<1>();
    T *Data = Vector->data();
    if (Count > Capacity) {
      valueLoad(From, Memory);
      stores(Data, Count);
    } else if (Count > Size) {
      valueLoad(From, Memory); // std::fill over the old elements
      stores(Data, Size);
      valueLoad(From, Memory); // std::fill_n of the new ones
      stores(Data + Size, Count - Size);
    } else if (Count > 0) {
      valueLoad(From, Memory);
      stores(Data, Count);
    }
  }
  template <class It,
            class = std::enable_if_t<!std::is_integral_v<std::decay_t<It>>>>
  void assign(It First, It Last) {
    const T *From = elementAddress(First);
    size_t Count = size_t(std::distance(First, Last));
    Vector->assign(First, Last);
    copy(From, Vector->data(), Count, role<0>());
  }
  void assign(std::initializer_list<T> List) {
    Vector->assign(List);
    copy(List.begin(), Vector->data(), List.size(), false);
  }

  auto insert(typename V::const_iterator At, const T &Value) {
    const T *From = std::addressof(Value);
    size_t Index = size_t(At - Vector->cbegin());
    auto Result = Vector->insert(At, Value);
    inserted(Index, From, role<1>());
    return Result;
  }
  auto insert(typename V::const_iterator At, T &&Value) {
    size_t Index = size_t(At - Vector->cbegin());
    auto Result = Vector->insert(At, std::move(Value));
    inserted(Index, nullptr, false);
    return Result;
  }
  template <class... A>
  auto emplace(typename V::const_iterator At, A &&...Args) {
    static_assert(sizeof...(A) <= 1, "a scalar is made from one value");
    const T *From = valueAddress(Args...);
    size_t Index = size_t(At - Vector->cbegin());
    auto Result = Vector->emplace(At, std::forward<A>(Args)...);
    inserted(Index, From, sizeof...(A) == 1 && role<1>());
    return Result;
  }
  auto insert(typename V::const_iterator At, size_t Count, const T &Value) {
    const T *From = std::addressof(Value);
    size_t Index = size_t(At - Vector->cbegin());
    auto Result = Vector->insert(At, Count, Value);
    filledIn(Index, Count, From, role<2>());
    return Result;
  }
  template <class It,
            class = std::enable_if_t<!std::is_integral_v<std::decay_t<It>>>>
  auto insert(typename V::const_iterator At, It First, It Last) {
    const T *From = elementAddress(First);
    size_t Count = size_t(std::distance(First, Last));
    size_t Index = size_t(At - Vector->cbegin());
    auto Result = Vector->insert(At, First, Last);
    copiedIn(Index, From, Count, role<1>());
    return Result;
  }
  auto insert(typename V::const_iterator At, std::initializer_list<T> List) {
    size_t Index = size_t(At - Vector->cbegin());
    auto Result = Vector->insert(At, List);
    copiedIn(Index, List.begin(), List.size(), false);
    return Result;
  }

  /// Exchanges the two vectors' storage: no element is read or written.
  void swap(V &With) { Vector->swap(With); }

private:
  template <size_t I> static constexpr bool role() {
    constexpr char Chars[] = {Roles..., '-', '-', '-'};
    return Chars[I] == 'M';
  }

  static const T *valueAddress() { return nullptr; }
  template <class A> static const T *valueAddress(A &Value) {
    if constexpr (std::is_same_v<std::remove_cv_t<A>, T>)
      return std::addressof(Value);
    else
      return nullptr;
  }
  template <class It> static const T *elementAddress(const It &I) {
    if constexpr (std::is_pointer_v<It>)
      return I;
    else
      return I.base();
  }

  bool grows(size_t Added) const { return Capacity - Size < Added; }

  void load(const T *P) const { recordAccess(false, P, sizeof(T), SiteBits); }
  void store(const T *P) const { recordAccess(true, P, sizeof(T), SiteBits); }
  void valueLoad(const T *From, bool Memory) const {
    if (Memory && From)
      load(From);
  }
  void stores(const T *Into, size_t Count) const {
    for (size_t I = 0; I < Count; ++I)
      store(Into + I);
  }
  /// memmove of Count elements, forward (libstdc++'s relocation, copy and
  /// uninitialized move).
  void move(const T *From, const T *Into, size_t Count) const {
    for (size_t I = 0; I < Count; ++I) {
      load(From + I);
      store(Into + I);
    }
  }
  /// memmove from the last element back (std::move_backward).
  void moveBackward(const T *From, const T *Into, size_t Count) const {
    for (size_t I = Count; I-- > 0;) {
      load(From + I);
      store(Into + I);
    }
  }
  /// A copy from a range whose loads are recorded when it is kernel memory.
  void copy(const T *From, const T *Into, size_t Count, bool Memory) const {
    for (size_t I = 0; I < Count; ++I) {
      if (Memory)
        load(From + I);
      store(Into + I);
    }
  }

  /// push_back, emplace_back: the new element, then the old ones moved
  /// when the storage grew.
  void appended(const T *From, bool Memory) const {
    T *Data = Vector->data();
    valueLoad(From, Memory);
    store(Data + Size);
    if (grows(1))
      move(Before, Data, Size);
  }

  /// insert and emplace of one element at Index.
  void inserted(size_t Index, const T *From, bool Memory) const {
    T *Data = Vector->data();
    valueLoad(From, Memory);
    if (grows(1)) {
      store(Data + Index);
      move(Before, Data, Index);
      move(Before + Index, Data + Index + 1, Size - Index);
    } else if (Index == Size) {
      store(Data + Size);
    } else {
      // The last element moved to the end, the rest shifted backward, the
      // value (a temporary copy) stored.
      load(Data + Size - 1);
      store(Data + Size);
      moveBackward(Data + Index, Data + Index + 1, Size - 1 - Index);
      store(Data + Index);
    }
  }

  /// insert of Count copies of a value at Index (_M_fill_insert; resize
  /// with a value inserts at the end).
  void filledIn(size_t Index, size_t Count, const T *From, bool Memory) const {
    if (Count == 0)
      return;
    T *Data = Vector->data();
    valueLoad(From, Memory);
    if (grows(Count)) {
      stores(Data + Index, Count);
      move(Before, Data, Index);
      move(Before + Index, Data + Index + Count, Size - Index);
      return;
    }
    size_t After = Size - Index;
    if (After > Count) {
      move(Data + Size - Count, Data + Size, Count);
      moveBackward(Data + Index, Data + Index + Count, After - Count);
      stores(Data + Index, Count);
    } else {
      stores(Data + Size, Count - After);
      move(Data + Index, Data + Size + Count - After, After);
      stores(Data + Index, After);
    }
  }

  /// insert of Count elements copied from a range at Index
  /// (_M_range_insert).
  void copiedIn(size_t Index, const T *From, size_t Count, bool Memory) const {
    if (Count == 0)
      return;
    T *Data = Vector->data();
    if (grows(Count)) {
      move(Before, Data, Index);
      copy(From, Data + Index, Count, Memory);
      move(Before + Index, Data + Index + Count, Size - Index);
      return;
    }
    size_t After = Size - Index;
    if (After > Count) {
      move(Data + Size - Count, Data + Size, Count);
      moveBackward(Data + Index, Data + Index + Count, After - Count);
      copy(From, Data + Index, Count, Memory);
    } else {
      copy(From + After, Data + Size, Count - After, Memory);
      move(Data + Index, Data + Size + Count - After, After);
      copy(From, Data + Index, After, Memory);
    }
  }

  uint64_t SiteBits;
  V *Vector;
  const T *Before;
  size_t Size;
  size_t Capacity;
};

/// The range [First, Last) a std::vector is constructed from
/// (`std::vector<T> v(first, last)`), which the rewriter hands over as
/// `std::vector<T> v(::wgtrace::detail::recorded::vectorFrom<'M',
/// 'M'>(site, first, last))`: converted to the vector (the only type it
/// converts to), it constructs it from the range, as written, then
/// records what libstdc++ 12 did there (_M_range_initialize: the storage
/// allocated for the whole range, then std::uninitialized_copy, a memmove
/// for elements of scalar type: a load of each element of the range, when
/// it is kernel memory, and its store into the new storage, forward). The
/// vector then moves into place, which touches no element.
template <class It, char... Roles> class VectorFromRange {
  using T = std::remove_cv_t<
      std::remove_pointer_t<decltype(std::addressof(*std::declval<It &>()))>>;
  static constexpr bool memory() {
    constexpr char Chars[] = {Roles..., '-'};
    return Chars[0] == 'M';
  }

public:
  VectorFromRange(uint64_t SiteBits, It First, It Last)
      : SiteBits(SiteBits), First(First), Last(Last) {}

  template <class V, class = std::enable_if_t<
                         std::is_same_v<V, std::vector<T, std::allocator<T>>>>>
  operator V() const {
    V Made(First, Last);
    // The rewriter sends only elements of scalar type; another
    // instantiation of a template that shares the text is reported
    // untraced where it is written.
    if (!std::is_scalar_v<T> || Made.empty())
      return Made;
    const T *From = std::addressof(*First);
    const T *Into = Made.data();
    for (size_t I = 0; I < Made.size(); ++I) {
      // The range may be reached through a helper's pointer parameter,
      // which may point into the kernel's own stack.
      if (memory())
        referencedAccess(false, From + I, sizeof(T), SiteBits);
      recordAccess(true, Into + I, sizeof(T), SiteBits);
    }
    return Made;
  }

private:
  uint64_t SiteBits;
  It First;
  It Last;
};

template <char... Roles, class It>
VectorFromRange<It, Roles...> vectorFrom(uint64_t SiteBits, It First, It Last) {
  return VectorFromRange<It, Roles...>(SiteBits, First, Last);
}

/// A copy of a std::vector of scalar elements (`std::vector<T> w(v)`, `w
/// = v` in a declaration, a vector given or returned by value), which the
/// rewriter hands over as `w(::wgtrace::detail::recorded::vectorCopy<>(site,
/// v))`: the copy is made as written, then what libstdc++ 12 did there is
/// recorded (the storage allocated for v's size, then
/// std::uninitialized_copy, a memmove: a load of each element of v, on the
/// heap and so kernel memory, and its store into the new storage,
/// forward). The copy is returned by value: the vector declared is it, or
/// takes its storage over, which touches no element.
template <class T>
std::vector<T> vectorCopy(uint64_t SiteBits, const std::vector<T> &From) {
  std::vector<T> Made(From);
  if constexpr (std::is_scalar_v<T>) {
    const T *Source = From.data();
    const T *Into = Made.data();
    for (size_t I = 0; I < Made.size(); ++I) {
      recordAccess(false, Source + I, sizeof(T), SiteBits);
      recordAccess(true, Into + I, sizeof(T), SiteBits);
    }
  }
  return Made;
}

/// The count (and value) a std::vector is constructed from
/// (`std::vector<T> v(n)`, `v(n, x)`), which the rewriter hands over as
/// `v(::wgtrace::detail::recorded::vectorFilled<>(site, n))` or
/// `vectorFilled<'M'>(site, n, x)`: converted to the vector, it constructs
/// it as written, then records what libstdc++ 12 stored there. `v(n)`
/// (__uninitialized_default_n: the first element value-initialized, then
/// std::fill_n of the others from it): a store of the first element and,
/// when there are more, a load of it and a store of each other one.
/// `v(n, x)` (__uninitialized_fill_n, a std::fill_n), when n is positive:
/// a load of x (Role 'M': kernel memory), then a store of each element.
template <class Value, char... Roles> class VectorFilled {
  static constexpr bool memory() {
    constexpr char Chars[] = {Roles..., '-'};
    return Chars[0] == 'M';
  }

public:
  VectorFilled(uint64_t SiteBits, size_t Count, const Value *From)
      : SiteBits(SiteBits), Count(Count), From(From) {}

  template <class V, class T = typename V::value_type,
            class = std::enable_if_t<
                std::is_same_v<V, std::vector<T, std::allocator<T>>>>>
  operator V() const {
    if constexpr (std::is_void_v<Value>) {
      V Made(Count);
      // Only elements of scalar type are sent here (see vectorFrom).
      if (!std::is_scalar_v<T> || Made.empty())
        return Made;
      const T *Into = Made.data();
      recordAccess(true, Into, sizeof(T), SiteBits);
      if (Made.size() > 1)
        recordAccess(false, Into, sizeof(T), SiteBits);
      for (size_t I = 1; I < Made.size(); ++I)
        recordAccess(true, Into + I, sizeof(T), SiteBits);
      return Made;
    } else {
      V Made(Count, *From);
      if (!std::is_scalar_v<T> || Made.empty())
        return Made;
      if (memory())
        referencedAccess(false, From, sizeof(Value), SiteBits);
      const T *Into = Made.data();
      for (size_t I = 0; I < Made.size(); ++I)
        recordAccess(true, Into + I, sizeof(T), SiteBits);
      return Made;
    }
  }

private:
  uint64_t SiteBits;
  size_t Count;
  const Value *From;
};

template <char... Roles>
VectorFilled<void, Roles...> vectorFilled(uint64_t SiteBits, size_t Count) {
  return VectorFilled<void, Roles...>(SiteBits, Count, nullptr);
}
template <char... Roles, class Value>
VectorFilled<Value, Roles...> vectorFilled(uint64_t SiteBits, size_t Count,
                                           const Value &From) {
  return VectorFilled<Value, Roles...>(SiteBits, Count, std::addressof(From));
}

template <char... Roles, class V>
VectorMembers<V, Roles...> vector(uint64_t SiteBits, V &Vector) {
  return VectorMembers<V, Roles...>(SiteBits, Vector);
}
template <char... Roles, class V>
VectorMembers<V, Roles...> vector(uint64_t SiteBits, V *Vector) {
  return VectorMembers<V, Roles...>(SiteBits, *Vector);
}

} // namespace WGTRACE_DETAIL_ACCESSES
} // namespace wgtrace::detail::recorded

#endif // WGTRACE_DETAIL_VECTOR_H
