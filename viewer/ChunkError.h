//===- ChunkError.h - Errors that name where a trace is damaged -*- C++ -*-===//
//
// Every decoding problem is reported the same way, so that a user (or a
// script) can find the damaged bytes with a hex editor:
//
//   offset 0x<file offset>: chunk <N> (<type>): <problem>
//
// The tool prefixes "wgtrace-view: error: <file>: ".
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_CHUNKERROR_H
#define WGTRACE_VIEWER_CHUNKERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace wgtrace::viewer {

/// Where a chunk lies in the file, for error messages.
struct ChunkLocation {
  /// 0-based position of the chunk in the file.
  unsigned Index = 0;
  /// Human name of the chunk type: "metadata", "ring", "type 7", or
  /// "unknown" when the header itself is unreadable.
  std::string TypeName = "unknown";
};

/// The name used for a chunk type in messages.
std::string chunkTypeName(uint16_t Type);

/// An error at \p FileOffset inside the chunk \p Where.
llvm::Error chunkError(const ChunkLocation &Where, uint64_t FileOffset,
                       const llvm::Twine &Problem);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_CHUNKERROR_H
