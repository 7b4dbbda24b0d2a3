//===- wgtrace/algorithms.h - Standard algorithms that record -------------===//
//
// A standard algorithm called in a kernel touches the kernel's buffers in
// library code that wgtrace-rewrite cannot rewrite. The rewriter redirects
// such a call, `std::copy(a, a + n, b)`, to the function of the same name
// here, `::wgtrace::detail::recorded::copy<'M', 'M', 'M'>(site)(a, a + n,
// b)`, which runs the standard library's own algorithm on the same
// arguments, with the iterators and ranges into kernel memory wrapped so
// that every element access the algorithm makes through them is recorded,
// at the moment it makes it, with the access site of the call (`site` is
// WGTRACE_ACCESS_SITE(n) of the call's site, as for memcpy: each record
// names the algorithm call that made it):
//
//   - Recorded<It> is a random-access (or weaker) iterator whose `*it` and
//     `it[n]` give an Element, a reference to one element that records a
//     load when the algorithm reads it (converts it to its value), a store
//     when it assigns to it, and a load of each, then a store of each, when
//     it swaps two (as std::swap does). So `*out = *in` records the load of
//     *in, then the store of *out; `init + *it` a load.
//   - A callable the algorithm calls (a predicate, a comparison, the
//     operation of transform or accumulate, a projection) is wrapped too,
//     and gets the plain element reference: never an Element. The rewriter
//     says, per callable, which elements it hands over are recorded at the
//     hand-over: none, when the callable is instrumented itself (a lambda
//     written in the kernel that takes the element by reference records
//     its own reads and writes); one load per element otherwise (a lambda
//     taking it by value copies it, a library functor reads it). An lvalue
//     reference a callable returns is treated as an element (a projection
//     `&S::key`, a transform operation returning a reference).
//
// The template arguments are the rewriter's roles of the call's arguments,
// one character each:
//   'M'  an iterator or a range into kernel memory: wrapped;
//   '-'  anything else (a value, a count, an iterator into a local array):
//        passed as it is;
//   'L'  a callable: every element handed to it is recorded as a load
//        (unless it returns an lvalue reference);
//   'R'  a callable that records its own accesses: nothing recorded at the
//        hand-over;
//   'A'  a callable that records the accesses of its first element
//        parameter and takes its second by value (its load is recorded at
//        the hand-over); 'B' the other way round.
//
// The algorithm's results are unwrapped: a returned iterator is the
// caller's own type again, a returned function object the caller's own.
// Elements are recorded whole (sizeof of the element type); the rewriter
// only redirects calls over trivially copyable elements, since an Element
// copies where the algorithm may move, with one exception: the algorithms
// that only assign elements (copy, copy_n, copy_backward, move,
// move_backward, fill, fill_n) over a class whose copy assignment is
// written by the user and that has no move assignment (a move is then a
// copy). The call's factory is then given that assignment,
// `copy<'M', 'M', 'M'>(site, assign)`: an instrumented copy of the class's
// operator= (or the operator itself, instrumented in place), which records
// what it reads and writes, in its order and under its own sites, as the
// compiled `*out = *in` calling it does. See docs/REWRITER.md, "Standard
// algorithms", for the list and the order of each algorithm's records.
//
// Included by rewritten files that call a recorded algorithm; not meant to
// be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_ALGORITHMS_H
#define WGTRACE_ALGORITHMS_H

#include "wgtrace/detail/string.h"
#include "wgtrace/detail/thread_state.h"
#include "wgtrace/detail/vector.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <numeric>
#include <type_traits>
#include <utility>

#if __cplusplus >= 202002L && __has_include(<ranges>)
#include <ranges>
#define WGTRACE_RECORDED_RANGES 1
#endif

namespace wgtrace::detail::recorded {
inline namespace WGTRACE_DETAIL_ACCESSES {

/// How an Element is assigned: as one load of the whole source and one
/// store of the whole target.
struct Whole {};

/// An element's own assignment, instrumented in place (a class of the
/// rewritten file): the operator records its own accesses.
struct OwnAssignment {
  template <class T, class U> void operator()(T &To, U &&From) const {
    To = std::forward<U>(From);
  }
};

template <class T, class Assign = Whole> class Element;

template <class T> struct IsElement : std::false_type {};
template <class T, class A> struct IsElement<Element<T, A>> : std::true_type {};
template <class T>
inline constexpr bool IsElementV =
    IsElement<std::remove_cv_t<std::remove_reference_t<T>>>::value;

/// One element of kernel memory, as the algorithm sees it through a
/// Recorded iterator. T may be const. Assign: how it is assigned, Whole or
/// a callable `Assign(T &, const T &)` that records its own accesses.
template <class T, class Assign> class Element {
public:
  using Value = std::remove_const_t<T>;

  /// \p SiteBits: the access site of the algorithm call, as
  /// WGTRACE_ACCESS_SITE gives it; every record of the element carries it.
  Element(T *Address, uint64_t SiteBits, Assign Assignment = Assign())
      : Address(Address), SiteBits(SiteBits), Assignment(Assignment) {}
  Element(const Element &) = default;

  /// The element itself, unrecorded: what a callable gets.
  T &get() const { return *Address; }

  /// A load of the element recorded without reading it: what is handed
  /// over to a callable that reads it itself, uninstrumented.
  void recordLoad() const { recordAccess(false, Address, sizeof(T), SiteBits); }
  Value load() const {
    recordLoad();
    return *Address;
  }
  template <class U> void store(U &&V) const {
    recordAccess(true, Address, sizeof(T), SiteBits);
    *Address = std::forward<U>(V);
  }

  /// The algorithm reads the element.
  operator Value() const { return load(); }

  /// The algorithm writes the element: `*out = *in` loads *in first, as the
  /// compiled assignment does. A class's own assignment is run on the
  /// elements themselves, and records what it does.
  const Element &operator=(const Element &Other) const {
    assign(Other);
    return *this;
  }
  template <class U>
  const Element &operator=(const Element<U, Assign> &Other) const {
    assign(Other);
    return *this;
  }
  template <class U,
            std::enable_if_t<
                !IsElementV<U> && std::is_assignable_v<Value &, U &&>, int> = 0>
  const Element &operator=(U &&V) const {
    if constexpr (std::is_same_v<Assign, Whole>)
      store(std::forward<U>(V));
    else
      Assignment(*Address, std::forward<U>(V));
    return *this;
  }

  /// std::swap's order: load both, store both.
  friend void swap(Element A, Element B) {
    Value First = A.load();
    Value Second = B.load();
    A.store(std::move(Second));
    B.store(std::move(First));
  }

  // A class-type element's own operators (a member operator< cannot take
  // an Element on its left); arithmetic and pointer elements use the
  // built-in operators through the conversion above.
#define WGTRACE_ELEMENT_OPERATOR(OP)                                           \
  template <class U, class V = Value,                                          \
            std::enable_if_t<std::is_class_v<V>, int> = 0>                     \
  friend auto operator OP(const Element &A, const U &B)                        \
      ->decltype(std::declval<const V &>() OP B) {                             \
    return A.load() OP B;                                                      \
  }                                                                            \
  template <class U, class V = Value,                                          \
            std::enable_if_t<std::is_class_v<V> && !IsElementV<U>, int> = 0>   \
  friend auto operator OP(const U &A, const Element &B)                        \
      ->decltype(A OP std::declval<const V &>()) {                             \
    return A OP B.load();                                                      \
  }
  WGTRACE_ELEMENT_OPERATOR(==)
  WGTRACE_ELEMENT_OPERATOR(!=)
  WGTRACE_ELEMENT_OPERATOR(<)
  WGTRACE_ELEMENT_OPERATOR(>)
  WGTRACE_ELEMENT_OPERATOR(<=)
  WGTRACE_ELEMENT_OPERATOR(>=)
  WGTRACE_ELEMENT_OPERATOR(+)
  WGTRACE_ELEMENT_OPERATOR(-)
  WGTRACE_ELEMENT_OPERATOR(*)
  WGTRACE_ELEMENT_OPERATOR(/)
#undef WGTRACE_ELEMENT_OPERATOR

private:
  template <class U> void assign(const Element<U, Assign> &Other) const {
    if constexpr (std::is_same_v<Assign, Whole>)
      store(Other.load());
    else
      Assignment(*Address, Other.get());
  }

  T *Address;
  uint64_t SiteBits;
  // Every Assign is an empty callable (Whole, OwnAssignment, a lambda that
  // captures nothing): without the attribute it would pad an Element to 24
  // bytes, which the ABI then passes in memory instead of two registers.
  [[no_unique_address]] Assign Assignment;
};

template <class It, class = void> struct IsRecordable : std::false_type {};
/// An iterator whose `*it` is a real lvalue reference (not an inserter, not
/// a proxy of its own).
template <class It>
struct IsRecordable<
    It, std::void_t<typename std::iterator_traits<It>::iterator_category>>
    : std::bool_constant<std::is_lvalue_reference_v<
          typename std::iterator_traits<It>::reference>> {};

template <class Category>
using AtMostRandomAccess = std::conditional_t<
    std::is_base_of_v<std::random_access_iterator_tag, Category>,
    std::random_access_iterator_tag, Category>;

/// An iterator into kernel memory whose elements are Elements, assigned
/// as Assign says.
template <class It, class Assign = Whole> class Recorded {
  using Traits = std::iterator_traits<It>;

public:
  using value_type = typename Traits::value_type;
  using difference_type = typename Traits::difference_type;
  using reference =
      Element<std::remove_reference_t<typename Traits::reference>, Assign>;
  using pointer = void;
  using iterator_category =
      AtMostRandomAccess<typename Traits::iterator_category>;
#ifdef WGTRACE_RECORDED_RANGES
  using iterator_concept = iterator_category;
#endif

  Recorded() = default;
  /// \p SiteBits: the access site of the algorithm call (Element).
  Recorded(It I, uint64_t SiteBits, Assign Assignment = Assign())
      : I(std::move(I)), SiteBits(SiteBits), Assignment(Assignment) {}

  const It &base() const & { return I; }
  It base() && { return std::move(I); }

  reference operator*() const {
    return reference(std::addressof(*I), SiteBits, Assignment);
  }
  reference operator[](difference_type N) const {
    return reference(std::addressof(I[N]), SiteBits, Assignment);
  }

  Recorded &operator++() {
    ++I;
    return *this;
  }
  Recorded operator++(int) { return Recorded(I++, SiteBits, Assignment); }
  Recorded &operator--() {
    --I;
    return *this;
  }
  Recorded operator--(int) { return Recorded(I--, SiteBits, Assignment); }
  Recorded &operator+=(difference_type N) {
    I += N;
    return *this;
  }
  Recorded &operator-=(difference_type N) {
    I -= N;
    return *this;
  }
  friend Recorded operator+(const Recorded &R, difference_type N) {
    return Recorded(R.I + N, R.SiteBits, R.Assignment);
  }
  friend Recorded operator+(difference_type N, const Recorded &R) {
    return Recorded(R.I + N, R.SiteBits, R.Assignment);
  }
  friend Recorded operator-(const Recorded &R, difference_type N) {
    return Recorded(R.I - N, R.SiteBits, R.Assignment);
  }
  template <class Other>
  friend auto operator-(const Recorded &A, const Recorded<Other, Assign> &B)
      -> decltype(std::declval<const It &>() - std::declval<const Other &>()) {
    return A.I - B.base();
  }
  template <class Other>
  friend bool operator==(const Recorded &A, const Recorded<Other, Assign> &B) {
    return A.I == B.base();
  }
  template <class Other>
  friend bool operator!=(const Recorded &A, const Recorded<Other, Assign> &B) {
    return !(A.I == B.base());
  }
  template <class Other>
  friend bool operator<(const Recorded &A, const Recorded<Other, Assign> &B) {
    return A.I < B.base();
  }
  template <class Other>
  friend bool operator>(const Recorded &A, const Recorded<Other, Assign> &B) {
    return B.base() < A.I;
  }
  template <class Other>
  friend bool operator<=(const Recorded &A, const Recorded<Other, Assign> &B) {
    return !(B.base() < A.I);
  }
  template <class Other>
  friend bool operator>=(const Recorded &A, const Recorded<Other, Assign> &B) {
    return !(A.I < B.base());
  }

  /// What ranges::iter_move and ranges::iter_swap do with Recorded
  /// iterators: the element, and std::swap's records.
  friend reference iter_move(const Recorded &R) { return *R; }
  friend void iter_swap(const Recorded &A, const Recorded &B) { swap(*A, *B); }

private:
  It I{};
  uint64_t SiteBits = 0;
  Assign Assignment{};
};

/// A callable the algorithm calls, wrapped. An element the algorithm hands
/// to a callable that records its own accesses (role 'R', or the reference
/// parameter of 'A' and 'B') is handed over as the element itself, and
/// nothing is recorded for it. Any other callable gets the Element, when it
/// accepts one (a library functor, a by-value parameter): its reads are
/// recorded where they happen, `greater(a, b)` loading b before a as it
/// compares `b < a`. A callable that needs the element itself (a
/// non-const reference parameter) gets it, with one load recorded at the
/// hand-over; one that returns a reference into it (a projection such as
/// `&S::key`) gets it with nothing recorded, and its result is an Element.
template <char Role, class F> class Callable {
public:
  /// \p SiteBits: the access site of the algorithm call, which the loads
  /// recorded at the hand-over carry.
  Callable(F Fn, uint64_t SiteBits) : Fn(std::move(Fn)), SiteBits(SiteBits) {}

  template <class... A> decltype(auto) operator()(A &&...Args) {
    return call<A...>(Fn, SiteBits, std::index_sequence_for<A...>(), Args...);
  }
  template <class... A> decltype(auto) operator()(A &&...Args) const {
    return call<A...>(Fn, SiteBits, std::index_sequence_for<A...>(), Args...);
  }

  F &&unwrap() && { return std::move(Fn); }

private:
  /// Whether the callable records its own accesses to the element at
  /// argument Index.
  template <size_t Index> static constexpr bool recordsItself() {
    switch (Role) {
    case 'R':
      return true;
    case 'A':
      return Index == 0;
    case 'B':
      return Index == 1;
    default:
      return false;
    }
  }

  /// The argument as handed over: the element itself where Plain is set,
  /// an Element stays an Element otherwise; anything else keeps its value
  /// category.
  template <class A, bool Plain>
  static decltype(auto) hand(std::remove_reference_t<A> &Arg) {
    if constexpr (IsElementV<A> && Plain)
      return Arg.get();
    else
      return std::forward<A>(Arg);
  }

  template <class... A, class G, size_t... Index>
  static decltype(auto) call(G &Fn, uint64_t SiteBits,
                             std::index_sequence<Index...>,
                             std::remove_reference_t<A> &...Args) {
    constexpr bool TakesElements =
        std::is_invocable_v<G &,
                            decltype(hand<A, recordsItself<Index>()>(Args))...>;
    // Only what refers into an element can be kernel memory: a reference
    // into the algorithm's own copy of one (a projection of the value
    // insertion sort holds) is not.
    constexpr bool FromElements = (IsElementV<A> || ...);
    if constexpr (TakesElements) {
      return invoke<FromElements>(Fn, SiteBits,
                                  hand<A, recordsItself<Index>()>(Args)...);
    } else {
      using Result =
          std::invoke_result_t<G &, decltype(hand<A, true>(Args))...>;
      // A callable that returns a reference into what it is given reads
      // nothing itself: what the algorithm does with the reference is
      // recorded instead.
      if constexpr (!std::is_lvalue_reference_v<Result>) {
        auto RecordLoad = [](auto &Arg, bool Record) {
          if constexpr (IsElementV<decltype(Arg)>)
            if (Record)
              Arg.recordLoad();
        };
        // Left to right, as the compiled call evaluates its arguments.
        (RecordLoad(Args, !recordsItself<Index>()), ...);
      }
      return invoke<FromElements>(Fn, SiteBits, hand<A, true>(Args)...);
    }
  }

  /// Calls the callable; what the algorithm gets back is an Element by
  /// value, a reference to a trivially copyable object as an Element when
  /// the callable was handed elements (\p FromElements), or the result as
  /// it is.
  template <bool FromElements, class G, class... P>
  static decltype(auto) invoke(G &Fn, uint64_t SiteBits, P &&...Args) {
    using R = std::invoke_result_t<G &, P...>;
    using D = std::remove_cv_t<std::remove_reference_t<R>>;
    if constexpr (std::is_void_v<R>) {
      std::invoke(Fn, std::forward<P>(Args)...);
    } else if constexpr (IsElementV<R>) {
      return D(std::invoke(Fn, std::forward<P>(Args)...));
    } else if constexpr (FromElements && std::is_lvalue_reference_v<R> &&
                         std::is_trivially_copyable_v<D>) {
      return Element<std::remove_reference_t<R>>(
          std::addressof(std::invoke(Fn, std::forward<P>(Args)...)), SiteBits);
    } else {
      return std::invoke(Fn, std::forward<P>(Args)...);
    }
  }

  F Fn;
  uint64_t SiteBits;
};

template <class T> struct IsRecordedIterator : std::false_type {};
template <class It, class A>
struct IsRecordedIterator<Recorded<It, A>> : std::true_type {};

#ifdef WGTRACE_RECORDED_RANGES
/// The view of a range into kernel memory: its iterators are Recorded.
template <class R> auto recordedRange(R &&Range, uint64_t SiteBits) {
  using It = std::ranges::iterator_t<R>;
  using Sentinel = std::ranges::sentinel_t<R>;
  if constexpr (std::is_same_v<It, Sentinel>)
    return std::ranges::subrange(
        Recorded<It>(std::ranges::begin(Range), SiteBits),
        Recorded<It>(std::ranges::end(Range), SiteBits));
  else
    return std::ranges::subrange(
        Recorded<It>(std::ranges::begin(Range), SiteBits),
        Recorded<It>(std::ranges::next(std::ranges::begin(Range),
                                       std::ranges::end(Range)),
                     SiteBits));
}
#endif

/// An argument as the algorithm gets it; what it records carries
/// \p SiteBits, the access site of the call, and its elements are assigned
/// by \p Assignment.
template <char Role, class Assign, class A>
decltype(auto) wrap(uint64_t SiteBits, const Assign &Assignment, A &&Arg) {
  using D = std::remove_cv_t<std::remove_reference_t<A>>;
  (void)SiteBits; // Not every branch records.
  (void)Assignment;
  if constexpr (Role == 'M') {
    if constexpr (IsRecordable<D>::value && !std::is_array_v<D>) {
      return Recorded<D, Assign>(std::forward<A>(Arg), SiteBits, Assignment);
    }
#ifdef WGTRACE_RECORDED_RANGES
    else if constexpr (std::ranges::range<A> &&
                       IsRecordable<std::ranges::iterator_t<A>>::value) {
      return recordedRange(std::forward<A>(Arg), SiteBits);
    }
#endif
    else {
      return std::forward<A>(Arg);
    }
  } else if constexpr (Role == '-') {
    return std::forward<A>(Arg);
  } else {
    return Callable<Role, std::decay_t<A>>(std::forward<A>(Arg), SiteBits);
  }
}

/// A result as the caller gets it: a reference the algorithm returned stays
/// one; a value (accumulate's sum, count's count) is returned as a value,
/// never as a reference to the temporary that held it in run().
template <class T> decltype(auto) unwrap(T &&Result) {
  using D = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (IsRecordedIterator<D>::value) {
    return std::move(Result).base();
  } else if constexpr (std::is_lvalue_reference_v<T>) {
    return std::forward<T>(Result);
  } else {
    return D(std::move(Result));
  }
}
template <char Role, class F> F unwrap(Callable<Role, F> &&Result) {
  return std::move(Result).unwrap();
}
template <class A, class B> auto unwrap(std::pair<A, B> &&Result) {
  return std::pair(unwrap(std::move(Result.first)),
                   unwrap(std::move(Result.second)));
}
#ifdef WGTRACE_RECORDED_RANGES
template <class I, class F> auto unwrap(std::ranges::in_fun_result<I, F> &&R) {
  return std::ranges::in_fun_result{unwrap(std::move(R.in)),
                                    unwrap(std::move(R.fun))};
}
template <class I, class O> auto unwrap(std::ranges::in_out_result<I, O> &&R) {
  return std::ranges::in_out_result{unwrap(std::move(R.in)),
                                    unwrap(std::move(R.out))};
}
template <class I1, class I2>
auto unwrap(std::ranges::in_in_result<I1, I2> &&R) {
  return std::ranges::in_in_result{unwrap(std::move(R.in1)),
                                   unwrap(std::move(R.in2))};
}
template <class I1, class I2, class O>
auto unwrap(std::ranges::in_in_out_result<I1, I2, O> &&R) {
  return std::ranges::in_in_out_result{unwrap(std::move(R.in1)),
                                       unwrap(std::move(R.in2)),
                                       unwrap(std::move(R.out))};
}
template <class I> auto unwrap(std::ranges::in_found_result<I> &&R) {
  return std::ranges::in_found_result{unwrap(std::move(R.in)), R.found};
}
template <class I> auto unwrap(std::ranges::min_max_result<I> &&R) {
  return std::ranges::min_max_result{unwrap(std::move(R.min)),
                                     unwrap(std::move(R.max))};
}
template <class I, class S, std::ranges::subrange_kind K>
auto unwrap(std::ranges::subrange<I, S, K> &&R) {
  return std::ranges::subrange(unwrap(R.begin()), unwrap(R.end()));
}
#endif

/// Runs the algorithm (a generic lambda that calls it) on the wrapped
/// arguments; every record carries \p SiteBits.
template <char... Roles, class Assign, class Algorithm, class... A>
decltype(auto) run(uint64_t SiteBits, const Assign &Assignment, Algorithm &&Run,
                   A &&...Args) {
  static_assert(sizeof...(Roles) == sizeof...(A),
                "one role per argument of the algorithm call");
  using Result = decltype(Run(
      wrap<Roles>(SiteBits, Assignment, std::forward<A>(Args))...));
  if constexpr (std::is_void_v<Result>)
    Run(wrap<Roles>(SiteBits, Assignment, std::forward<A>(Args))...);
  else
    return unwrap(
        Run(wrap<Roles>(SiteBits, Assignment, std::forward<A>(Args))...));
}

/// What `recorded::NAME<Roles...>(site)` gives the call's arguments: the
/// algorithm run with its records naming the call's access site, and its
/// elements assigned by \p Assignment.
template <char... Roles, class Assign, class Algorithm>
auto atSite(uint64_t SiteBits, Assign Assignment, Algorithm Run) {
  return [SiteBits, Assignment, Run](auto &&...Args) -> decltype(auto) {
    return ::wgtrace::detail::recorded::run<Roles...>(
        SiteBits, Assignment, Run, std::forward<decltype(Args)>(Args)...);
  };
}

template <class In, class Out, class Operation = std::plus<>>
Out scanSeededWithFirst(In First, In Last, Out Result,
                        Operation Op = Operation()) {
  if (First != Last) {
    typename std::iterator_traits<In>::value_type Init = *First;
    *Result++ = Init;
    ++First;
    if (First != Last)
      Result = std::inclusive_scan(First, Last, Result, Op, std::move(Init));
  }
  return Result;
}

#define WGTRACE_RECORDED_ALGORITHM(NAMESPACE, NAME)                            \
  template <char... Roles, class Assign = Whole>                               \
  auto NAME(uint64_t SiteBits, Assign Assignment = Assign()) {                 \
    return ::wgtrace::detail::recorded::atSite<Roles...>(                      \
        SiteBits, Assignment, [](auto &&...X) -> decltype(auto) {              \
          return NAMESPACE::NAME(std::forward<decltype(X)>(X)...);             \
        });                                                                    \
  }

// The recorded form of each algorithm the rewriter redirects.
#define WGTRACE_STD_ALGORITHM(NAME, ...) WGTRACE_RECORDED_ALGORITHM(std, NAME)
#define WGTRACE_STD_ALGORITHM_BY_HAND(NAME, ...)
#include "wgtrace/detail/recorded_algorithms.def"

/// inclusive_scan without an initial value: libstdc++ writes
/// `auto __init = *__first`, which with an Element would refer to the first
/// element instead of copying it. This is the same code with the copy
/// spelled out: the first element read (a load) and stored, then the form
/// with an initial value over the rest.
template <char... Roles> auto inclusive_scan(uint64_t SiteBits) {
  return ::wgtrace::detail::recorded::atSite<Roles...>(
      SiteBits, Whole(), [](auto &&...X) -> decltype(auto) {
        if constexpr (sizeof...(X) == 3 || sizeof...(X) == 4) {
          return scanSeededWithFirst(std::forward<decltype(X)>(X)...);
        } else {
          return std::inclusive_scan(std::forward<decltype(X)>(X)...);
        }
      });
}

#ifdef WGTRACE_RECORDED_RANGES
namespace ranges {
#define WGTRACE_RANGES_ALGORITHM(NAME, ...)                                    \
  WGTRACE_RECORDED_ALGORITHM(std::ranges, NAME)
#include "wgtrace/detail/recorded_algorithms.def"
} // namespace ranges
#endif

#undef WGTRACE_RECORDED_ALGORITHM

/// A std::array of kernel memory whose fill() or swap() the kernel calls:
/// the rewriter writes `recorded::array<Self, Other>(site, B).fill(v)`.
/// libstdc++ writes them as std::fill_n(begin(), size(), u) and
/// std::swap_ranges(begin(), end(), other.begin()), so they are those
/// calls, recorded; Self and Other are the roles of this array's and the
/// other array's elements.
template <char Self, char Other, class A> class ArrayMembers {
public:
  ArrayMembers(uint64_t SiteBits, A &Array)
      : SiteBits(SiteBits), Array(&Array) {}
  void fill(const typename A::value_type &Value) {
    fill_n<Self, '-', '-'>(SiteBits)(Array->begin(), Array->size(), Value);
  }
  void swap(A &With) {
    swap_ranges<Self, Self, Other>(SiteBits)(Array->begin(), Array->end(),
                                             With.begin());
  }
  /// `p->fill(v)` on a pointer to the array.
  ArrayMembers *operator->() { return this; }

private:
  uint64_t SiteBits;
  A *Array;
};
template <char Self, char Other, class A>
ArrayMembers<Self, Other, A> array(uint64_t SiteBits, A &Array) {
  return ArrayMembers<Self, Other, A>(SiteBits, Array);
}
template <char Self, char Other, class A>
ArrayMembers<Self, Other, A> array(uint64_t SiteBits, A *Array) {
  return ArrayMembers<Self, Other, A>(SiteBits, *Array);
}

} // namespace WGTRACE_DETAIL_ACCESSES
} // namespace wgtrace::detail::recorded

#ifdef WGTRACE_RECORDED_RANGES
// What an Element and its value have in common: the value (as for
// std::vector<bool>::reference in C++23), which the ranges concepts ask for.
template <class T, template <class> class TQ, template <class> class UQ>
struct std::basic_common_reference<::wgtrace::detail::recorded::Element<T>,
                                   std::remove_const_t<T>, TQ, UQ> {
  using type = std::remove_const_t<T>;
};
template <class T, template <class> class TQ, template <class> class UQ>
struct std::basic_common_reference<
    std::remove_const_t<T>, ::wgtrace::detail::recorded::Element<T>, TQ, UQ> {
  using type = std::remove_const_t<T>;
};
#endif

#endif // WGTRACE_ALGORITHMS_H
