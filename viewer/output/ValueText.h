//===- ValueText.h - How VALUE records print --------------------*- C++ -*-===//

#ifndef WGTRACE_VIEWER_VALUETEXT_H
#define WGTRACE_VIEWER_VALUETEXT_H

#include "wgtrace/format.h"

#include <fmt/format.h>

namespace wgtrace::viewer {

/// Appends the text of a VALUE of \p Type with raw \p Bits, as IREE's tool
/// prints it. With \p IreeCompat false, 8/16-bit unsigned values and 16-bit
/// float bits print as themselves instead of IREE's sign-extended 32 bits,
/// and an Atomic mark as `atomic load|store|update|none` instead of IREE's
/// `<<unknown type: 43>>`.
void formatValue(fmt::memory_buffer &Out, uint8_t Type, uint64_t Bits,
                 bool IreeCompat);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_VALUETEXT_H
