//===- wgtrace/detail/value_type.h - C++ types to VALUE record types ------===//

#ifndef WGTRACE_DETAIL_VALUE_TYPE_H
#define WGTRACE_DETAIL_VALUE_TYPE_H

#include "wgtrace/format.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace wgtrace::detail {

/// The VALUE record type of T, and its bits zero-extended to 64.
template <class T, class Enable = void> struct ValueTraits;

template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_integral_v<T>>> {
  static constexpr format::ValueType Type = [] {
    constexpr bool S = std::is_signed_v<T>;
    switch (sizeof(T)) {
    case 1:
      return S ? format::ValueType::SInt8 : format::ValueType::UInt8;
    case 2:
      return S ? format::ValueType::SInt16 : format::ValueType::UInt16;
    case 4:
      return S ? format::ValueType::SInt32 : format::ValueType::UInt32;
    default:
      return S ? format::ValueType::SInt64 : format::ValueType::UInt64;
    }
  }();
  static uint64_t bits(T V) {
    // Store sign-extended: a reader truncates to the type's width.
    return static_cast<uint64_t>(
        static_cast<std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>(
            V));
  }
};

template <class T>
struct ValueTraits<T, std::enable_if_t<std::is_enum_v<T>>>
    : ValueTraits<std::underlying_type_t<T>> {
  static uint64_t bits(T V) {
    return ValueTraits<std::underlying_type_t<T>>::bits(
        static_cast<std::underlying_type_t<T>>(V));
  }
};

template <class T> struct ValueTraits<T *> {
  static constexpr format::ValueType Type = format::ValueType::Pointer;
  static uint64_t bits(T *V) { return reinterpret_cast<uintptr_t>(V); }
};

template <class T, format::ValueType K> struct FloatValueTraits {
  static constexpr format::ValueType Type = K;
  static uint64_t bits(T V) {
    std::conditional_t<sizeof(T) == 2, uint16_t,
                       std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>
        B;
    static_assert(sizeof(B) == sizeof(T));
    std::memcpy(&B, &V, sizeof(B));
    return B;
  }
};

template <>
struct ValueTraits<float>
    : FloatValueTraits<float, format::ValueType::Float32> {};
template <>
struct ValueTraits<double>
    : FloatValueTraits<double, format::ValueType::Float64> {};
#if defined(__FLT16_MAX__)
template <>
struct ValueTraits<_Float16>
    : FloatValueTraits<_Float16, format::ValueType::Float16> {};
#endif
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 13)
#if defined(__x86_64__) || defined(__aarch64__)
template <>
struct ValueTraits<__bf16>
    : FloatValueTraits<__bf16, format::ValueType::BFloat16> {};
#endif
#endif

} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_VALUE_TYPE_H
