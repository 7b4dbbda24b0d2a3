//===- metadata_builder.h - The metadata chunk's content ------------------===//

#ifndef WGTRACE_RUNTIME_METADATA_BUILDER_H
#define WGTRACE_RUNTIME_METADATA_BUILDER_H

#include <cstdint>
#include <vector>

namespace wgtrace::runtime {

/// Serialises the metadata of every registered module: a FlatBuffer with
/// identifier "IDBD" (IREE's tables, plus wgtrace's extension table).
std::vector<uint8_t> buildMetadata();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_METADATA_BUILDER_H
