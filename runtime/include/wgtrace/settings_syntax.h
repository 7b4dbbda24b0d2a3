//===- settings_syntax.h - How sizes, switches and counts are spelled -----===//
//
// One set of rules for the values users type: the runtime's WGTRACE_*
// variables, wgtrace-view's options and wgtrace_instrument_target's
// arguments (cmake/WgtraceInstrument.cmake spells the same rules in CMake).
// Without it each place grew its own: the runtime took "16mib" but refused
// "16m" while the viewer took "48k", and WGTRACE_QUIET=true stopped the
// program. Header-only and free of LLVM: the runtime includes it too.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_SETTINGS_SYNTAX_H
#define WGTRACE_SETTINGS_SYNTAX_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace wgtrace::settings {

/// What parseSize accepts, for error messages.
inline constexpr std::string_view kSizeSpelling =
    "bytes, or with a k/kib, m/mib or g/gib suffix in any case (e.g. 64k, "
    "16m, 16MiB)";
/// What parseSwitch accepts, for error messages.
inline constexpr std::string_view kSwitchSpelling =
    "1/0, true/false, yes/no or on/off";

namespace detail {
inline char lower(char C) {
  return C >= 'A' && C <= 'Z' ? static_cast<char>(C - 'A' + 'a') : C;
}
inline bool equalsLower(std::string_view Text, std::string_view Lower) {
  if (Text.size() != Lower.size())
    return false;
  for (size_t I = 0; I < Text.size(); ++I)
    if (lower(Text[I]) != Lower[I])
      return false;
  return true;
}
} // namespace detail

/// A whole number of bytes: digits, then nothing or one of k, kib, m, mib,
/// g, gib (binary units: 16m is 16 MiB), in any case. No sign, space or
/// fraction; nullopt also when the value does not fit in 64 bits.
inline std::optional<uint64_t> parseSize(std::string_view Text) {
  size_t Digits = 0;
  uint64_t Value = 0;
  for (; Digits < Text.size() && Text[Digits] >= '0' && Text[Digits] <= '9';
       ++Digits) {
    uint64_t Digit = static_cast<uint64_t>(Text[Digits] - '0');
    if (Value > (UINT64_MAX - Digit) / 10)
      return std::nullopt;
    Value = Value * 10 + Digit;
  }
  if (Digits == 0)
    return std::nullopt;
  std::string_view Suffix = Text.substr(Digits);
  unsigned Shift = 0;
  if (Suffix.empty())
    Shift = 0;
  else if (detail::equalsLower(Suffix, "k") ||
           detail::equalsLower(Suffix, "kib"))
    Shift = 10;
  else if (detail::equalsLower(Suffix, "m") ||
           detail::equalsLower(Suffix, "mib"))
    Shift = 20;
  else if (detail::equalsLower(Suffix, "g") ||
           detail::equalsLower(Suffix, "gib"))
    Shift = 30;
  else
    return std::nullopt;
  if (Value > (UINT64_MAX >> Shift))
    return std::nullopt;
  return Value << Shift;
}

/// On: 1, true, yes, on; off: 0, false, no, off; in any case.
inline std::optional<bool> parseSwitch(std::string_view Text) {
  for (std::string_view On : {"1", "true", "yes", "on"})
    if (detail::equalsLower(Text, On))
      return true;
  for (std::string_view Off : {"0", "false", "no", "off"})
    if (detail::equalsLower(Text, Off))
      return false;
  return std::nullopt;
}

/// A whole number from \p Min to \p Max, in decimal digits only.
inline std::optional<uint64_t> parseCount(std::string_view Text, uint64_t Min,
                                          uint64_t Max) {
  if (Text.empty())
    return std::nullopt;
  uint64_t Value = 0;
  for (char C : Text) {
    if (C < '0' || C > '9')
      return std::nullopt;
    uint64_t Digit = static_cast<uint64_t>(C - '0');
    if (Value > (UINT64_MAX - Digit) / 10)
      return std::nullopt;
    Value = Value * 10 + Digit;
  }
  if (Value < Min || Value > Max)
    return std::nullopt;
  return Value;
}

/// The compression levels a trace may ask for: zstd's ordinary levels
/// (its "ultra" levels 20-22 need hundreds of MiB per chunk in flight).
inline constexpr int kMinCompressionLevel = 1;
inline constexpr int kMaxCompressionLevel = 19;
/// The level "zstd" alone means: zstd's fastest ordinary level, which
/// already shrinks traces 20x (docs/FORMAT.md).
inline constexpr int kDefaultCompressionLevel = 1;
/// What parseCompression accepts, for error messages.
inline constexpr std::string_view kCompressionSpelling =
    "zstd, zstd:LEVEL (LEVEL from 1 to 19) or none (also off, 0, false, no)";

/// A compression setting (WGTRACE_COMPRESS, COMPRESS of
/// wgtrace_instrument_target): "zstd" (kDefaultCompressionLevel),
/// "zstd:LEVEL", or none: "none" or a switch's off spelling. Returns the
/// zstd level, 0 for none; nullopt for anything else.
inline std::optional<int> parseCompression(std::string_view Text) {
  if (detail::equalsLower(Text, "none"))
    return 0;
  if (std::optional<bool> On = parseSwitch(Text); On && !*On)
    return 0;
  std::string_view Name = Text.substr(0, Text.find(':'));
  if (!detail::equalsLower(Name, "zstd"))
    return std::nullopt;
  if (Name.size() == Text.size())
    return kDefaultCompressionLevel;
  std::optional<uint64_t> Level = parseCount(
      Text.substr(Name.size() + 1), kMinCompressionLevel, kMaxCompressionLevel);
  if (!Level)
    return std::nullopt;
  return static_cast<int>(*Level);
}

} // namespace wgtrace::settings

#endif // WGTRACE_SETTINGS_SYNTAX_H
