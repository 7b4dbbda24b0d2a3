//===- TraceRecompressor.cc -----------------------------------------------===//

#include "output/TraceRecompressor.h"

#include "compressed_chunk_sink.h"
#include "sink.h"

#include <cerrno>
#include <cstring>
#include <system_error>

using namespace llvm;

namespace wgtrace::viewer {
namespace {

/// The runtime's Sink over a stream.
class StreamSink final : public runtime::Sink {
public:
  explicit StreamSink(raw_ostream &OS) : OS(OS) {}
  void write(const void *Data, uint64_t Length) override {
    OS.write(static_cast<const char *>(Data), Length);
  }

private:
  raw_ostream &OS;
};

/// The chunk's bytes in the file, header and padding included.
ArrayRef<uint8_t> fileBytes(const TraceFile &In, const Chunk &C) {
  return In.bytes().slice(C.Where.FileOffset, C.FileLength);
}

/// Runs \p Each on every chunk of \p In; stops at damage that hides where
/// the next chunk is, and at a compressed chunk that cannot be read.
template <typename EachChunk>
Error forEachChunk(const TraceFile &In, RecompressCounts &Counts,
                   EachChunk &&Each) {
  TraceFile::ChunkIterator It = In.chunks();
  Chunk C;
  while (true) {
    Expected<bool> More = It.next(C);
    if (Error Skipped = It.takeSkipped()) {
      consumeError(More.takeError());
      return Skipped;
    }
    if (!More)
      return More.takeError();
    if (!*More)
      return Error::success();
    ++Counts.Chunks;
    if (Error E = Each(C))
      return E;
  }
}

} // namespace

Error compressTrace(const TraceFile &In, raw_ostream &OS, int Level,
                    RecompressCounts &Counts) {
  if (!runtime::compressionBuiltIn())
    return createStringError(std::errc::not_supported,
                             "this wgtrace-view was built without libzstd");
  StreamSink Out(OS);
  return forEachChunk(In, Counts, [&](const Chunk &C) -> Error {
    ArrayRef<uint8_t> Bytes = fileBytes(In, C);
    // Ring chunks with records; the run record (a 16-byte ring) stays
    // plain, as the runtime writes it.
    if (C.Where.Compressed ||
        C.type() != format::ChunkType::DispatchRingBuffer ||
        C.Header.ContentLength < format::ringChunkContentLength(4096)) {
      OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
      return Error::success();
    }
    const uint64_t Before = OS.tell();
    runtime::CompressedChunkSink Compressed(Out, Level);
    Compressed.write(&C.Header, sizeof(C.Header));
    Compressed.write(C.Content.data(), C.Content.size());
    Compressed.finish();
    if (Compressed.failed())
      return createStringError(
          std::errc::io_error,
          "chunk %u at offset 0x%llx: zstd could not "
          "compress it",
          C.Where.Index, static_cast<unsigned long long>(C.Where.FileOffset));
    ++Counts.Changed;
    Counts.BytesBefore += Bytes.size();
    Counts.BytesAfter += OS.tell() - Before;
    return Error::success();
  });
}

Error decompressTrace(const TraceFile &In, raw_ostream &OS,
                      RecompressCounts &Counts) {
  return forEachChunk(In, Counts, [&](const Chunk &C) -> Error {
    ArrayRef<uint8_t> Bytes = fileBytes(In, C);
    if (!C.Where.Compressed) {
      OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
      return Error::success();
    }
    OS.write(reinterpret_cast<const char *>(&C.Header), sizeof(C.Header));
    OS.write(reinterpret_cast<const char *>(C.Content.data()),
             C.Content.size());
    OS.write_zeros(format::alignUp(C.Content.size(), format::kChunkAlignment) -
                   C.Content.size());
    ++Counts.Changed;
    Counts.BytesBefore += Bytes.size();
    Counts.BytesAfter += format::nextChunkOffset(0, C.Content.size());
    return Error::success();
  });
}

} // namespace wgtrace::viewer
