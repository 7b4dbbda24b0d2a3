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
  /// Where the chunk is in the file (FileOffset) and where it would be in
  /// the same file with every compressed chunk decompressed (PlainOffset),
  /// which is the offset the readers work with, so that a file and its
  /// compressed copy give the same answers. Equal unless a compressed
  /// chunk precedes or is this chunk. chunkError() names file offsets.
  uint64_t FileOffset = 0;
  uint64_t PlainOffset = 0;
  /// The chunk is the content of a compressed chunk (at FileOffset).
  bool Compressed = false;
};

/// The name used for a chunk type in messages.
std::string chunkTypeName(uint16_t Type);

/// What chunkError() returns: its message is the line above, and a program
/// that reports errors its own way (the Python module's TraceError) reads
/// the location from the fields instead of parsing the text.
class ChunkErrorInfo : public llvm::ErrorInfo<ChunkErrorInfo> {
public:
  static char ID;
  ChunkErrorInfo(ChunkLocation Where, uint64_t FileOffset, std::string Problem)
      : Where(std::move(Where)), FileOffset(FileOffset),
        Problem(std::move(Problem)) {}

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

  const ChunkLocation &where() const { return Where; }
  uint64_t fileOffset() const { return FileOffset; }
  const std::string &problem() const { return Problem; }

private:
  ChunkLocation Where;
  uint64_t FileOffset;
  std::string Problem;
};

/// An error at \p FileOffset inside the chunk \p Where: a plain offset,
/// which the error names as the file offset it is at (for a chunk read from
/// a compressed one: the compressed chunk's offset, and the offset in the
/// decompressed chunk after the problem).
llvm::Error chunkError(const ChunkLocation &Where, uint64_t FileOffset,
                       const llvm::Twine &Problem);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_CHUNKERROR_H
