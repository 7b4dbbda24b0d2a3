//===- ChunkError.cc ------------------------------------------------------===//

#include "reader/ChunkError.h"

#include "wgtrace/format.h"

#include "llvm/Support/raw_ostream.h"

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
  case format::ChunkType::Compressed:
    return "compressed";
  }
  return fmt::format("type {}", Type);
}

char ChunkErrorInfo::ID = 0;

void ChunkErrorInfo::log(llvm::raw_ostream &OS) const {
  OS << fmt::format("offset {:#x}: chunk {} ({}): {}", FileOffset, Where.Index,
                    Where.TypeName, Problem);
}

std::error_code ChunkErrorInfo::convertToErrorCode() const {
  return std::make_error_code(std::errc::illegal_byte_sequence);
}

llvm::Error chunkError(const ChunkLocation &Where, uint64_t FileOffset,
                       const llvm::Twine &Problem) {
  if (Where.Compressed)
    return llvm::make_error<ChunkErrorInfo>(
        Where, Where.FileOffset,
        fmt::format("{} (at byte {:#x} of the chunk decompressed)",
                    Problem.str(), FileOffset - Where.PlainOffset));
  return llvm::make_error<ChunkErrorInfo>(
      Where, FileOffset - Where.PlainOffset + Where.FileOffset, Problem.str());
}

} // namespace wgtrace::viewer
