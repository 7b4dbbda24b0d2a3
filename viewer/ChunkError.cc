//===- ChunkError.cc ------------------------------------------------------===//

#include "ChunkError.h"

#include "wgtrace/format.h"

#include <fmt/format.h>

namespace wgtrace::viewer {

std::string chunkTypeName(uint16_t Type) {
  switch (static_cast<format::ChunkType>(Type)) {
  case format::ChunkType::DispatchMetadata:
    return "metadata";
  case format::ChunkType::DispatchRingBuffer:
    return "ring";
  case format::ChunkType::WorkgroupTiming:
    return "timing";
  }
  return fmt::format("type {}", Type);
}

llvm::Error chunkError(const ChunkLocation &Where, uint64_t FileOffset,
                       const llvm::Twine &Problem) {
  return llvm::createStringError(
      std::make_error_code(std::errc::illegal_byte_sequence),
      fmt::format("offset {:#x}: chunk {} ({}): {}", FileOffset, Where.Index,
                  Where.TypeName, Problem.str()));
}

} // namespace wgtrace::viewer
