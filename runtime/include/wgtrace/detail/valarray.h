//===- wgtrace/detail/valarray.h - std::valarray operations that record ---===//
//
// std::valarray computes its expressions in library code, element by
// element, through expression templates whose leaves read the arrays'
// storage directly: nothing a macro can wrap. The rewriter instead wraps
// each valarray that takes part in an operation (an operand of an
// operator, the object of a compound assignment or of sum(), min(), max(),
// apply(), shift(), cshift()) in `::wgtrace::detail::va::recorded(site,
// A)`, and sends the math functions (std::sqrt(A), ...) to their versions
// here. The operators and functions of this namespace then build the same
// expressions as libstdc++'s, evaluated in the same order, each element
// read from or written to a valarray recorded when the library would read
// or write it:
//
//   - an expression's element i evaluates its operands left to right
//     (libstdc++'s closures call `f(left[i], right[i])`, whose arguments
//     Clang evaluates left to right), a leaf's read recorded then;
//   - `A op= e` computes e's element i, then loads and stores A[i];
//   - `A = e` computes e's element i, then stores A[i]; a valarray built
//     from an expression (a local, a temporary) computes each element into
//     its new storage, whose writes are not recorded, as a container's
//     construction is not;
//   - sum() loads the elements in order; min() and max() are
//     std::min_element / std::max_element over the elements, then a load of
//     the one found; shift() and cshift() read the elements they keep, in
//     order, into new storage.
//
// Every record carries the site of the valarray it reads or writes. A
// valarray that is not wrapped (a temporary a function returned) is read
// without records, as a temporary is not memory.
//
// Included by rewritten files that use it; not meant to be written by hand.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_VALARRAY_H
#define WGTRACE_DETAIL_VALARRAY_H

#include "wgtrace/detail/thread_state.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#include <valarray>

namespace wgtrace::detail::va {
inline namespace WGTRACE_DETAIL_ACCESSES {

template <class T> class Recorded;
template <class T> class Scalar;
template <class F, class T> class Closure;
template <class T> class Unrecorded;

template <class X> struct IsOurs : std::false_type {};
template <class T> struct IsOurs<Recorded<T>> : std::true_type {};
template <class F, class T> struct IsOurs<Closure<F, T>> : std::true_type {};

template <class X> struct IsScalar : std::false_type {};
template <class T> struct IsScalar<Scalar<T>> : std::true_type {};
template <class X>
inline constexpr bool IsScalarV = IsScalar<std::decay_t<X>>::value;
template <class X>
inline constexpr bool IsOursV = IsOurs<std::decay_t<X>>::value;

/// A std::valarray, or an expression of the library's over valarrays that
/// are not the kernel's (temporaries: `A.shift(1) + B.cshift(2)`), which
/// only ever combines what no wrap records.
template <class X, class = void> struct IsValarray : std::false_type {};
template <class T> struct IsValarray<std::valarray<T>> : std::true_type {};
template <class X>
struct IsValarray<X, std::void_t<typename X::value_type,
                                 decltype(std::declval<const X &>().size()),
                                 decltype(std::declval<const X &>()[0])>>
    : std::bool_constant<!std::is_arithmetic_v<X>> {};
template <class X>
inline constexpr bool IsValarrayV = IsValarray<std::decay_t<X>>::value;

/// A leaf whose reads are recorded: a valarray's elements or a scalar of
/// kernel memory, read when the operation reads its argument.
template <class X> struct IsRecorded : std::false_type {};
template <class T> struct IsRecorded<Recorded<T>> : std::true_type {};
template <class T> struct IsRecorded<Scalar<T>> : std::true_type {};
template <class X>
inline constexpr bool IsRecordedV = IsRecorded<std::decay_t<X>>::value;

template <class Leaf> struct Deferred;
template <class X> struct IsDeferred : std::false_type {};
template <class Leaf> struct IsDeferred<Deferred<Leaf>> : std::true_type {};

/// An expression's operand: one of this namespace, or a std::valarray.
template <class X>
inline constexpr bool IsOperandV = IsOursV<X> || IsValarrayV<X>;

/// The element type of an operand; a scalar's is itself (where an
/// expression mixes them).
template <class X> struct ElementOf {
  using Type = X;
};
template <class T> struct ElementOf<Recorded<T>> {
  using Type = T;
};
template <class F, class T> struct ElementOf<Closure<F, T>> {
  using Type = T;
};
template <class T> struct ElementOf<std::valarray<T>> {
  using Type = T;
};
template <template <class, class> class E, class C, class T>
struct ElementOf<E<C, T>> {
  using Type = T;
};
template <class T> struct ElementOf<Scalar<T>> {
  using Type = T;
};
template <class X> using ElementT = typename ElementOf<std::decay_t<X>>::Type;

/// A scalar of kernel memory that an operation takes by reference
/// (`scalar * C` with a captured `scalar`): an expression reads it once,
/// when it is built (hold()); `A op= scalar` and `A = scalar` read it for
/// every element, as libstdc++'s loops do. Each read is recorded.
template <class T> class Scalar {
public:
  Scalar(uint64_t SiteBits, const T &Value)
      : SiteBits(SiteBits), Value(&Value) {}
  T at(size_t) const {
    recordAccess(false, Value, sizeof(T), SiteBits);
    return *Value;
  }

private:
  uint64_t SiteBits;
  const T *Value;
};

template <class T> Scalar<T> scalar(uint64_t SiteBits, const T &Value) {
  return Scalar<T>(SiteBits, Value);
}

/// A valarray that is not the kernel's (a temporary a function returned):
/// read without records, held by reference as libstdc++ holds it.
template <class X> class Unrecorded {
public:
  explicit Unrecorded(const X &Array) : Array(&Array) {}
  auto at(size_t I) const { return (*Array)[I]; }
  size_t size() const { return Array->size(); }

private:
  const X *Array;
};

/// How an expression holds an operand: ours by value (they hold pointers),
/// a valarray by reference, a scalar by value: libstdc++'s closures copy
/// a scalar when they are built, so one of kernel memory is read (and the
/// read recorded) then, once.
template <class X> auto hold(const X &Operand) {
  if constexpr (IsValarrayV<X>)
    return Unrecorded<X>(Operand);
  else if constexpr (IsScalarV<X>)
    return Operand.at(0);
  else
    return Operand;
}

/// Element I of a held operand: a recorded leaf's read is recorded; a
/// scalar is itself.
template <class X> auto element(const X &Operand, size_t I) {
  if constexpr (std::is_arithmetic_v<X>)
    return Operand;
  else
    return Operand.at(I);
}

/// An expression over valarrays, evaluated element by element as
/// libstdc++'s _Expr is. Converts to a std::valarray by building one.
template <class F, class T> class Closure {
public:
  Closure(F Fn, size_t Size) : Fn(std::move(Fn)), Size(Size) {}
  T at(size_t I) const { return Fn(I); }
  size_t size() const { return Size; }
  /// A valarray built from the expression: each element computed, in
  /// order, into new storage, whose writes are not recorded (building a
  /// container is not, as a local's construction is not; what the kernel
  /// then does with a local valarray is).
  operator std::valarray<T>() const {
    std::valarray<T> Result(Size);
    for (size_t I = 0; I < Size; ++I)
      Result[I] = at(I);
    return Result;
  }
  T operator[](size_t I) const { return at(I); }

  // The rest of libstdc++'s _Expr, each computing the elements in its
  // order, so that the leaves' reads are recorded in it.

  /// _Expr::sum adds from the last element to the first.
  T sum() const {
    if (Size == 0)
      return T();
    size_t I = Size;
    T Sum = at(--I);
    while (I != 0)
      Sum += at(--I);
    return Sum;
  }
  /// __valarray_min and __valarray_max: element 0, then each next one
  /// computed once and compared with the best so far.
  T min() const {
    return best(
        [](const T &Candidate, const T &Best) { return Candidate < Best; });
  }
  T max() const {
    return best(
        [](const T &Candidate, const T &Best) { return Candidate > Best; });
  }
  /// The expression computed into a valarray first, as _Expr does.
  std::valarray<T> shift(int N) const {
    return std::valarray<T>(*this).shift(N);
  }
  std::valarray<T> cshift(int N) const {
    return std::valarray<T>(*this).cshift(N);
  }
  std::valarray<T> apply(T Fn(T)) const {
    return std::valarray<T>(std::valarray<T>(*this).apply(Fn));
  }
  std::valarray<T> apply(T Fn(const T &)) const {
    return std::valarray<T>(std::valarray<T>(*this).apply(Fn));
  }

private:
  template <class Better> T best(Better IsBetter) const {
    T Best = Size == 0 ? T() : at(0);
    for (size_t I = 1; I < Size; ++I) {
      T Candidate = at(I);
      if (IsBetter(Candidate, Best))
        Best = Candidate;
    }
    return Best;
  }

  F Fn;
  size_t Size;
};

template <class T, class F> auto closure(F Fn, size_t Size) {
  return Closure<F, T>(std::move(Fn), Size);
}

/// Element I of any operand an assignment or a compound assignment takes.
template <class X> auto operandElement(const X &Operand, size_t I) {
  if constexpr (IsValarrayV<X>)
    return Operand[I];
  else if constexpr (IsOursV<X> || IsScalarV<X>)
    return Operand.at(I);
  else
    return Operand;
}

/// A valarray of the kernel's that takes part in an operation: its reads
/// and writes are recorded, with the site of the expression that names it.
template <class T> class Recorded {
public:
  Recorded(uint64_t SiteBits, std::valarray<T> &Array)
      : SiteBits(SiteBits), Array(&Array), Const(&Array) {}
  Recorded(uint64_t SiteBits, const std::valarray<T> &Array)
      : SiteBits(SiteBits), Array(nullptr), Const(&Array) {}
  Recorded(const Recorded &) = default;

  size_t size() const { return Const->size(); }
  /// Element I, its read recorded.
  T at(size_t I) const {
    const T &E = (*Const)[I];
    recordAccess(false, &E, sizeof(T), SiteBits);
    return E;
  }

  // `A op= e`: element i of e, then A[i] loaded and stored (the
  // compound assignment of libstdc++'s element loop).
#define WGTRACE_VALARRAY_COMPOUND(OP)                                          \
  template <class X> Recorded &operator OP##=(const X & Operand) {             \
    std::valarray<T> &A = *Array;                                              \
    for (size_t I = 0, N = A.size(); I < N; ++I) {                             \
      auto V = operandElement(Operand, I);                                     \
      recordAccess(false, &A[I], sizeof(T), SiteBits);                         \
      recordAccess(true, &A[I], sizeof(T), SiteBits);                          \
      A[I] OP## = V;                                                           \
    }                                                                          \
    return *this;                                                              \
  }
  WGTRACE_VALARRAY_COMPOUND(+)
  WGTRACE_VALARRAY_COMPOUND(-)
  WGTRACE_VALARRAY_COMPOUND(*)
  WGTRACE_VALARRAY_COMPOUND(/)
  WGTRACE_VALARRAY_COMPOUND(%)
  WGTRACE_VALARRAY_COMPOUND(&)
  WGTRACE_VALARRAY_COMPOUND(|)
  WGTRACE_VALARRAY_COMPOUND(^)
  WGTRACE_VALARRAY_COMPOUND(<<)
  WGTRACE_VALARRAY_COMPOUND(>>)
#undef WGTRACE_VALARRAY_COMPOUND

  /// `A = e` or `A = B`: element i computed (or read), then A[i] stored;
  /// storage of another size is replaced first, as libstdc++ does.
  template <class X> Recorded &operator=(const X &Operand) {
    std::valarray<T> &A = *Array;
    if constexpr (IsOperandV<X>) {
      if (Operand.size() != A.size())
        A.resize(Operand.size());
    }
    for (size_t I = 0, N = A.size(); I < N; ++I) {
      auto V = operandElement(Operand, I);
      recordAccess(true, &A[I], sizeof(T), SiteBits);
      A[I] = V;
    }
    return *this;
  }
  Recorded &operator=(const Recorded &Other) {
    return operator= <Recorded>(Other);
  }

  T sum() const {
    T Sum = T();
    for (size_t I = 0, N = size(); I < N; ++I)
      Sum += at(I);
    return Sum;
  }
  /// libstdc++: *std::min_element(data, data + size), which compares
  /// `*it < *best` (the candidate loaded first), then loads the one found.
  T min() const {
    size_t Best = 0;
    for (size_t I = 1, N = size(); I < N; ++I) {
      T Candidate = at(I);
      T Current = at(Best);
      if (Candidate < Current)
        Best = I;
    }
    return at(Best);
  }
  /// libstdc++: *std::max_element(data, data + size), which compares
  /// `*best < *it` (the best so far loaded first).
  T max() const {
    size_t Best = 0;
    for (size_t I = 1, N = size(); I < N; ++I) {
      T Current = at(Best);
      T Candidate = at(I);
      if (Current < Candidate)
        Best = I;
    }
    return at(Best);
  }

  auto apply(T Fn(T)) const {
    Recorded Self = *this;
    return closure<T>([Self, Fn](size_t I) { return Fn(Self.at(I)); }, size());
  }
  auto apply(T Fn(const T &)) const {
    Recorded Self = *this;
    return closure<T>([Self, Fn](size_t I) { return Fn(Self.at(I)); }, size());
  }

  /// A new valarray of the same size: the elements kept read in order into
  /// it (its new storage's writes unrecorded, as a closure's conversion),
  /// the others zero.
  std::valarray<T> shift(int N) const {
    const long long Size = static_cast<long long>(size());
    std::valarray<T> Result(size());
    const long long By = std::clamp<long long>(N, -Size, Size);
    for (long long I = 0; I < Size; ++I)
      if (I + By >= 0 && I + By < Size)
        store(Result, size_t(I), at(size_t(I + By)));
    return Result;
  }
  std::valarray<T> cshift(int N) const {
    const long long Size = static_cast<long long>(size());
    std::valarray<T> Result(size());
    if (Size == 0)
      return Result;
    const long long By = ((N % Size) + Size) % Size;
    // libstdc++ copies [By, Size) to the front, then [0, By) after it.
    for (long long I = By; I < Size; ++I)
      store(Result, size_t(I - By), at(size_t(I)));
    for (long long I = 0; I < By; ++I)
      store(Result, size_t(Size - By + I), at(size_t(I)));
    return Result;
  }

private:
  static void store(std::valarray<T> &Into, size_t I, T V) { Into[I] = V; }

  uint64_t SiteBits;
  std::valarray<T> *Array;
  const std::valarray<T> *Const;
};

template <class T>
Recorded<T> recorded(uint64_t SiteBits, std::valarray<T> &Array) {
  return Recorded<T>(SiteBits, Array);
}
template <class T>
Recorded<T> recorded(uint64_t SiteBits, const std::valarray<T> &Array) {
  return Recorded<T>(SiteBits, Array);
}

template <class L, class R>
using CommonElement =
    std::conditional_t<IsOperandV<L>, ElementT<L>, ElementT<R>>;

/// What an operation gets of one held operand, as libstdc++'s closures
/// hand it over: a valarray's element by reference, read only when the
/// operation reads it (a Recorded leaf defers its load), anything else
/// (a sub-expression's value, a scalar) computed when the argument is.
template <class Leaf> struct Deferred {
  const Leaf *From;
  size_t I;
};
template <class X> auto argument(const X &Operand, size_t I) {
  if constexpr (IsRecordedV<X>)
    return Deferred<X>{&Operand, I};
  else
    return element(Operand, I);
}
template <class X> auto value(const X &Argument) {
  if constexpr (IsDeferred<X>::value)
    return Argument.From->at(Argument.I);
  else
    return Argument;
}

/// `left op right`, element by element, in libstdc++'s order: the
/// arguments are evaluated left to right (a sub-expression computes its
/// value, loading its own leaves, then), and the operation reads its
/// leaves' elements left to right.
template <class L, class R, class Op>
auto binary(const L &Left, const R &Right, Op Fn) {
  using T = CommonElement<L, R>;
  using Result = decltype(Fn(std::declval<T>(), std::declval<T>()));
  size_t Size = 0;
  if constexpr (IsOperandV<L>)
    Size = Left.size();
  else
    Size = Right.size();
  return closure<Result>(
      [X = hold(Left), Y = hold(Right), Fn](size_t I) {
        auto A = argument(X, I);
        auto B = argument(Y, I);
        auto VA = value(A);
        auto VB = value(B);
        return Fn(VA, VB);
      },
      Size);
}

template <class X, class Op> auto unary(const X &Operand, Op Fn) {
  using T = ElementT<X>;
  using Result = decltype(Fn(std::declval<T>()));
  return closure<Result>(
      [H = hold(Operand), Fn](size_t I) { return Fn(value(argument(H, I))); },
      Operand.size());
}

/// Operators and functions apply where an operand is of this namespace
/// (one that is not is a std::valarray or a scalar).
template <class X>
inline constexpr bool IsScalarOperandV =
    std::is_arithmetic_v<std::decay_t<X>> || IsScalarV<X>;
template <class L, class R>
inline constexpr bool Binary =
    (IsOursV<L> || IsOursV<R> || (IsScalarV<L> && IsOperandV<R>) ||
     (IsOperandV<L> && IsScalarV<R>)) &&
    (IsOperandV<L> || IsScalarOperandV<L>) &&
    (IsOperandV<R> || IsScalarOperandV<R>);

#define WGTRACE_VALARRAY_BINARY(OP)                                            \
  template <class L, class R, std::enable_if_t<Binary<L, R>, int> = 0>         \
  auto operator OP(const L &Left, const R &Right) {                            \
    return binary(Left, Right, [](auto X, auto Y) { return X OP Y; });         \
  }
WGTRACE_VALARRAY_BINARY(+)
WGTRACE_VALARRAY_BINARY(-)
WGTRACE_VALARRAY_BINARY(*)
WGTRACE_VALARRAY_BINARY(/)
WGTRACE_VALARRAY_BINARY(%)
WGTRACE_VALARRAY_BINARY(&)
WGTRACE_VALARRAY_BINARY(|)
WGTRACE_VALARRAY_BINARY(^)
WGTRACE_VALARRAY_BINARY(<<)
WGTRACE_VALARRAY_BINARY(>>)
WGTRACE_VALARRAY_BINARY(&&)
WGTRACE_VALARRAY_BINARY(||)
WGTRACE_VALARRAY_BINARY(==)
WGTRACE_VALARRAY_BINARY(!=)
WGTRACE_VALARRAY_BINARY(<)
WGTRACE_VALARRAY_BINARY(>)
WGTRACE_VALARRAY_BINARY(<=)
WGTRACE_VALARRAY_BINARY(>=)
#undef WGTRACE_VALARRAY_BINARY

#define WGTRACE_VALARRAY_UNARY(OP)                                             \
  template <class X, std::enable_if_t<IsOursV<X>, int> = 0>                    \
  auto operator OP(const X &Operand) {                                         \
    return unary(Operand, [](auto V) { return OP V; });                        \
  }
WGTRACE_VALARRAY_UNARY(+)
WGTRACE_VALARRAY_UNARY(-)
WGTRACE_VALARRAY_UNARY(~)
WGTRACE_VALARRAY_UNARY(!)
#undef WGTRACE_VALARRAY_UNARY

// The math functions std::valarray has (the rewriter calls these instead
// of std::sqrt(A), ...): element by element, as libstdc++'s closures.
#define WGTRACE_VALARRAY_FUNCTION(NAME)                                        \
  template <class X, std::enable_if_t<IsOperandV<X>, int> = 0>                 \
  auto NAME(const X &Operand) {                                                \
    return unary(Operand, [](auto V) {                                         \
      using std::NAME;                                                         \
      return NAME(V);                                                          \
    });                                                                        \
  }
WGTRACE_VALARRAY_FUNCTION(abs)
WGTRACE_VALARRAY_FUNCTION(exp)
WGTRACE_VALARRAY_FUNCTION(log)
WGTRACE_VALARRAY_FUNCTION(log10)
WGTRACE_VALARRAY_FUNCTION(sqrt)
WGTRACE_VALARRAY_FUNCTION(sin)
WGTRACE_VALARRAY_FUNCTION(cos)
WGTRACE_VALARRAY_FUNCTION(tan)
WGTRACE_VALARRAY_FUNCTION(asin)
WGTRACE_VALARRAY_FUNCTION(acos)
WGTRACE_VALARRAY_FUNCTION(atan)
WGTRACE_VALARRAY_FUNCTION(sinh)
WGTRACE_VALARRAY_FUNCTION(cosh)
WGTRACE_VALARRAY_FUNCTION(tanh)
#undef WGTRACE_VALARRAY_FUNCTION

template <class L, class R,
          std::enable_if_t<IsOperandV<L> || IsOperandV<R>, int> = 0>
auto pow(const L &Left, const R &Right) {
  return binary(Left, Right, [](auto X, auto Y) {
    using std::pow;
    return pow(X, Y);
  });
}
template <class L, class R,
          std::enable_if_t<IsOperandV<L> || IsOperandV<R>, int> = 0>
auto atan2(const L &Left, const R &Right) {
  return binary(Left, Right, [](auto X, auto Y) {
    using std::atan2;
    return atan2(X, Y);
  });
}

} // namespace WGTRACE_DETAIL_ACCESSES
} // namespace wgtrace::detail::va

#endif // WGTRACE_DETAIL_VALARRAY_H
