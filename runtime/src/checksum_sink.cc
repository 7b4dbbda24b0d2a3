//===- checksum_sink.cc - A ring chunk's checksums as it is written -------===//

#include "checksum_sink.h"

#include <cstring>

namespace wgtrace::runtime {

ChecksumSink::ChecksumSink(Sink &Out, uint64_t RingSize)
    : Out(Out), BlockSize(format::checksumBlockSize(RingSize)),
      BlockCount(format::checksumBlockCount(RingSize)),
      TailBegin(uint64_t{BlockCount} * BlockSize),
      Hash(BlockCount ? 0 : format::tailChecksumSeed(RingSize)) {}

void ChecksumSink::write(const void *Data, uint64_t Length) {
  Out.write(Data, Length);
  const auto *P = static_cast<const uint8_t *>(Data);
  while (Length) {
    uint64_t Take = Length;
    if (Position < TailBegin) {
      const uint64_t BlockEnd = (Position / BlockSize + 1) * BlockSize;
      if (Take > BlockEnd - Position)
        Take = BlockEnd - Position;
    }
    Hash.update(P, Take);
    P += Take;
    Length -= Take;
    Position += Take;
    if (Position <= TailBegin && Position % BlockSize == 0) {
      // A block ends: the next one (or the tail) starts a hash of its own.
      const uint64_t Index = Position / BlockSize - 1;
      Sums[Index] = Hash.checksum();
      Hash = format::Xxh64(Index + 1);
    }
  }
}

void ChecksumSink::writeCopied(const void *Data, uint64_t Length) {
  const auto *P = static_cast<const uint8_t *>(Data);
  uint8_t Piece[4096];
  while (Length) {
    const uint64_t Take = Length < sizeof(Piece) ? Length : sizeof(Piece);
    std::memcpy(Piece, P, Take);
    write(Piece, Take);
    P += Take;
    Length -= Take;
  }
}

void ChecksumSink::finish(uint8_t *Last, uint64_t Length, uint64_t HeaderAt) {
  // Every block lies before Last: its table is complete.
  const uint64_t Table = HeaderAt - uint64_t{4} * BlockCount;
  std::memcpy(Last + (Table - Position), Sums, uint64_t{4} * BlockCount);
  const uint64_t Field =
      HeaderAt - Position + offsetof(format::ChecksumHeader, TailChecksum);
  Hash.update(Last, Length);
  const uint32_t Sum = Hash.checksum();
  std::memcpy(Last + Field, &Sum, sizeof(Sum));
  Out.write(Last, Length);
  Position += Length;
}

} // namespace wgtrace::runtime
