//===- sink.cc - Where the bytes of a trace go ----------------------------===//

#include "sink.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace wgtrace::runtime {

void FdSink::write(const void *Data, uint64_t Length) {
  const auto *Bytes = static_cast<const uint8_t *>(Data);
  while (Length && !Failed) {
    ssize_t Written = ::write(Fd, Bytes, Length);
    if (Written < 0 && errno == EINTR)
      continue;
    if (Written <= 0) {
      Failed = true;
      // write(2) returning 0 for a regular file means no room.
      Error = Written < 0 ? errno : ENOSPC;
      return;
    }
    Bytes += Written;
    Length -= static_cast<uint64_t>(Written);
  }
}

void VectorSink::write(const void *Data, uint64_t Length) {
  const auto *Bytes = static_cast<const uint8_t *>(Data);
  Out.insert(Out.end(), Bytes, Bytes + Length);
}

void writeRepeated(Sink &Out, uint8_t Byte, uint64_t Length) {
  uint8_t Block[4096];
  std::memset(Block, Byte, std::min<uint64_t>(Length, sizeof(Block)));
  while (Length) {
    uint64_t Piece = std::min<uint64_t>(Length, sizeof(Block));
    Out.write(Block, Piece);
    Length -= Piece;
  }
}

void writeChunkHeader(Sink &Out, format::ChunkType Type, uint64_t Length,
                      uint16_t Version) {
  format::ChunkHeader Header = {format::kChunkMagic,
                                static_cast<uint16_t>(Type), Version, Length};
  Out.write(&Header, sizeof(Header));
}

void writeChunkPadding(Sink &Out, uint64_t Length) {
  static const uint8_t Zeros[format::kChunkAlignment] = {};
  Out.write(Zeros, format::alignUp(Length, format::kChunkAlignment) - Length);
}

} // namespace wgtrace::runtime
