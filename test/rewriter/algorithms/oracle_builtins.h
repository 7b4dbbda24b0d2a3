//===- oracle_builtins.h - Block moves as element loops, for the oracle ---===//
//
// Force-included (-include) into the oracle build, with
//   -D'__builtin_memmove(D,S,N)=::wgtrace_oracle::memmove(D,S,N,__builtin_FUNCTION())'
// and the same for memcpy (std::valarray's copies), memset and memcmp.
// libstdc++ hands a contiguous range of trivially copyable elements to memmove
// (std::copy, std::move, the block shifts inside std::sort and std::rotate),
// memset (std::fill of bytes) or memcmp (std::equal of integers), whose loads
// and stores the coverage instrumentation does not see. Here they become the
// element loops of the algorithms they stand for, compiled with the coverage
// instrumentation: forward for copy and move, backward for copy_backward and
// move_backward (told apart by the calling function's name) and for a move
// into an overlapping range above its source, element by element to the
// first difference for equal.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_ALGORITHMS_ORACLE_BUILTINS_H
#define WGTRACE_TEST_ALGORITHMS_ORACLE_BUILTINS_H

#include <stddef.h>

#include <type_traits>

namespace wgtrace_oracle {

constexpr bool isBackward(const char *Caller) {
  // std::__copy_move_backward_a... calls __copy_move_b; std::ranges calls
  // from __copy_or_move_backward.
  const char *End = Caller;
  while (*End)
    ++End;
  size_t Length = static_cast<size_t>(End - Caller);
  if (Length >= 2 && End[-2] == '_' && End[-1] == 'b')
    return true;
  for (const char *P = Caller; *P; ++P) {
    const char *Word = "backward";
    const char *Q = P;
    while (*Word && *Q == *Word) {
      ++Q;
      ++Word;
    }
    if (!*Word)
      return true;
  }
  return false;
}

// Element loops for arithmetic and pointer elements, the ones the test's
// kernels use; anything else (libstdc++'s own bookkeeping) byte by byte.
template <class T>
constexpr T *memmove(T *Dst, const T *Src, size_t Bytes, const char *Caller) {
  if constexpr (std::is_scalar_v<T>) {
    size_t N = Bytes / sizeof(T);
    // A move into an overlapping range above its source (std::string's
    // insert shifting its tail) goes from the last element back, as it
    // must to copy what it moves.
    if (isBackward(Caller) || (Dst > Src && Dst < Src + N)) {
      for (size_t I = N; I-- > 0;)
        Dst[I] = Src[I];
    } else {
      for (size_t I = 0; I < N; ++I)
        Dst[I] = Src[I];
    }
  } else {
    auto *D = reinterpret_cast<unsigned char *>(Dst);
    auto *S = reinterpret_cast<const unsigned char *>(Src);
    if (D > S) {
      for (size_t I = Bytes; I-- > 0;)
        D[I] = S[I];
    } else {
      for (size_t I = 0; I < Bytes; ++I)
        D[I] = S[I];
    }
  }
  return Dst;
}

// A copy between two types (libstdc++'s char_traits copies through
// unsigned char): byte by byte.
template <class T, class U>
constexpr T *memmove(T *Dst, const U *Src, size_t Bytes, const char *) {
  auto *D = reinterpret_cast<unsigned char *>(Dst);
  auto *S = reinterpret_cast<const unsigned char *>(Src);
  for (size_t I = 0; I < Bytes; ++I)
    D[I] = S[I];
  return Dst;
}

template <class T>
constexpr T *memset(T *Dst, int Value, size_t Bytes, const char *) {
  if constexpr (std::is_scalar_v<T> && sizeof(T) == 1) {
    for (size_t I = 0; I < Bytes; ++I)
      Dst[I] = static_cast<T>(Value);
  } else {
    auto *D = reinterpret_cast<unsigned char *>(Dst);
    for (size_t I = 0; I < Bytes; ++I)
      D[I] = static_cast<unsigned char>(Value);
  }
  return Dst;
}

template <class T, class U>
constexpr int memcmp(const T *A, const U *B, size_t Bytes, const char *) {
  for (size_t I = 0; I < Bytes / sizeof(T); ++I) {
    T X = A[I];
    U Y = B[I];
    if (!(X == Y))
      return X < Y ? -1 : 1;
  }
  return 0;
}

} // namespace wgtrace_oracle

#endif // WGTRACE_TEST_ALGORITHMS_ORACLE_BUILTINS_H
