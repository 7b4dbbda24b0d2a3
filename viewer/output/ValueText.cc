//===- ValueText.cc -------------------------------------------------------===//

#include "output/ValueText.h"

#include <cstdio>
#include <cstring>
#include <iterator>

namespace wgtrace::viewer {

/// C's "%e %f", because IREE prints floats with printf and its rounding and
/// spelling of inf/nan are the reference.
static void appendFloat(fmt::memory_buffer &Out, double Value) {
  char Buf[1024];
  int N = std::snprintf(Buf, sizeof(Buf), "%e %f", Value, Value);
  if (N < 0)
    return;
  if (static_cast<size_t>(N) < sizeof(Buf)) {
    Out.append(Buf, Buf + N);
    return;
  }
  // %f of a huge double has up to ~310 digits; size exactly and retry.
  std::string Big(static_cast<size_t>(N) + 1, '\0');
  std::snprintf(Big.data(), Big.size(), "%e %f", Value, Value);
  Out.append(Big.data(), Big.data() + N);
}

void formatValue(fmt::memory_buffer &Out, uint8_t Type, uint64_t Bits,
                 bool IreeCompat) {
  auto It = std::back_inserter(Out);
  // IREE reads the bits through a union of signed integers and passes the
  // narrow ones through varargs, which sign-extends them to int.
  const int8_t I8 = static_cast<int8_t>(Bits);
  const int16_t I16 = static_cast<int16_t>(Bits);
  const int32_t I32 = static_cast<int32_t>(Bits);
  switch (static_cast<format::ValueType>(Type)) {
  case format::ValueType::SInt8:
    fmt::format_to(It, "{}", int(I8));
    return;
  case format::ValueType::UInt8:
    if (IreeCompat)
      fmt::format_to(It, "{}", static_cast<uint32_t>(int32_t(I8)));
    else
      fmt::format_to(It, "{}", unsigned(uint8_t(Bits)));
    return;
  case format::ValueType::SInt16:
    fmt::format_to(It, "{}", int(I16));
    return;
  case format::ValueType::UInt16:
    if (IreeCompat)
      fmt::format_to(It, "{}", static_cast<uint32_t>(int32_t(I16)));
    else
      fmt::format_to(It, "{}", unsigned(uint16_t(Bits)));
    return;
  case format::ValueType::SInt32:
    fmt::format_to(It, "{}", I32);
    return;
  case format::ValueType::UInt32:
    fmt::format_to(It, "{}", static_cast<uint32_t>(Bits));
    return;
  case format::ValueType::SInt64:
    fmt::format_to(It, "{}", static_cast<int64_t>(Bits));
    return;
  case format::ValueType::UInt64:
    fmt::format_to(It, "{}", Bits);
    return;
  case format::ValueType::Pointer:
    fmt::format_to(It, "{:16X}", Bits);
    return;
  case format::ValueType::Float16:
  case format::ValueType::BFloat16:
    if (IreeCompat)
      fmt::format_to(It, "{:4X}", static_cast<uint32_t>(int32_t(I16)));
    else
      fmt::format_to(It, "{:4X}", unsigned(uint16_t(Bits)));
    return;
  case format::ValueType::Float32: {
    float F;
    uint32_t B = static_cast<uint32_t>(Bits);
    std::memcpy(&F, &B, sizeof(F));
    appendFloat(Out, F);
    return;
  }
  case format::ValueType::Float64: {
    double D;
    std::memcpy(&D, &Bits, sizeof(D));
    appendFloat(Out, D);
    return;
  }
  case format::ValueType::Atomic:
    // Readable unless IREE's output is asked for: the line stays where
    // IREE's tool prints one, with the operation the records after it make.
    if (!IreeCompat && Bits <= uint64_t(format::AtomicOp::Update)) {
      static const char *const Ops[] = {"none", "load", "store", "update"};
      fmt::format_to(It, "atomic {}", Ops[Bits]);
      return;
    }
    break;
  case format::ValueType::BufferBase:
  case format::ValueType::BufferExtent:
  case format::ValueType::Continuation:
  case format::ValueType::UninstrumentedCall:
  case format::ValueType::Launch:
  case format::ValueType::Critical:
  case format::ValueType::CriticalSection:
  case format::ValueType::Unselected:
  case format::ValueType::ThreadStack:
    // wgtrace's own types: printed as IREE's tool prints them, below.
    break;
  }
  fmt::format_to(It, "<<unknown type: {:02X}>>", unsigned(Type));
}

} // namespace wgtrace::viewer
