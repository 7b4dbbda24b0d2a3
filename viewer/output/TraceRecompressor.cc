//===- TraceRecompressor.cc -----------------------------------------------===//

#include "output/TraceRecompressor.h"

#include "output/OrderedBatches.h"

#include "compressed_chunk_sink.h"
#include "sink.h"

#include <cerrno>
#include <cstring>
#include <system_error>
#include <vector>

using namespace llvm;

namespace wgtrace::viewer {
namespace {

/// What the writing of the chunks shares: the input (its pages leave the
/// resident set once written), the counts, and the error that ended it.
struct Recompression {
  const TraceFile &In;
  RecompressCounts &Counts;
  Error Failure = Error::success();
  /// Where the bytes written so far end in the input.
  uint64_t Written = 0;
};

/// One chunk of the output, made by format() (on a pool thread when there
/// is one: compressing is most of the time) and written in file order by
/// writeTo(), which stops the writing at the first chunk that failed.
struct ChunkJob {
  enum class Action : uint8_t {
    /// Copied as it is in the file.
    Copy,
    /// A ring chunk compressed into Out.
    Compress,
    /// A compressed chunk decompressed into C.
    Decompress,
    /// A compressed chunk copied after checking that it decompresses (as
    /// reading it always did).
    Check,
  };
  Recompression *R = nullptr;
  Action What = Action::Copy;
  int Level = 0;
  Chunk C;
  std::vector<uint8_t> Out;
  /// Why format() failed; success when it did not.
  Error Failure = Error::success();

  ChunkJob() = default;
  ChunkJob(const ChunkJob &) = delete;
  ChunkJob &operator=(const ChunkJob &) = delete;
  ~ChunkJob() { consumeError(std::move(Failure)); }

  /// The chunk's bytes in the file, header and padding included.
  ArrayRef<uint8_t> fileBytes() const {
    return R->In.bytes().slice(C.Where.FileOffset, C.FileLength);
  }

  void format() {
    switch (What) {
    case Action::Copy:
      return;
    case Action::Compress: {
      runtime::VectorSink Sink(Out);
      runtime::CompressedChunkSink Compressed(Sink, Level);
      Compressed.write(&C.Header, sizeof(C.Header));
      Compressed.write(C.Content.data(), C.Content.size());
      Compressed.finish();
      if (Compressed.failed() || Sink.failed())
        Failure = joinErrors(
            std::move(Failure),
            createStringError(
                std::errc::io_error,
                "chunk %u at offset 0x%llx: zstd could not compress it",
                C.Where.Index,
                static_cast<unsigned long long>(C.Where.FileOffset)));
      return;
    }
    case Action::Decompress:
      Failure = joinErrors(std::move(Failure),
                           TraceFile::ChunkIterator::decompress(C));
      return;
    case Action::Check: {
      Chunk Inner = C;
      Failure = joinErrors(std::move(Failure),
                           TraceFile::ChunkIterator::decompress(Inner));
      return;
    }
    }
  }

  bool writeTo(raw_ostream &OS) {
    if (Failure) {
      R->Failure = joinErrors(std::move(R->Failure), std::move(Failure));
      Failure = Error::success();
      return false;
    }
    ArrayRef<uint8_t> Bytes = fileBytes();
    uint64_t After = 0;
    switch (What) {
    case Action::Copy:
    case Action::Check:
      OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
      break;
    case Action::Compress:
      OS.write(reinterpret_cast<const char *>(Out.data()), Out.size());
      After = Out.size();
      break;
    case Action::Decompress:
      OS.write(reinterpret_cast<const char *>(&C.Header), sizeof(C.Header));
      OS.write(reinterpret_cast<const char *>(C.Content.data()),
               C.Content.size());
      OS.write_zeros(
          format::alignUp(C.Content.size(), format::kChunkAlignment) -
          C.Content.size());
      After = format::nextChunkOffset(0, C.Content.size());
      break;
    }
    ++R->Counts.Chunks;
    if (What == Action::Compress || What == Action::Decompress) {
      ++R->Counts.Changed;
      R->Counts.BytesBefore += Bytes.size();
      R->Counts.BytesAfter += After;
    }
    // Streaming a mapped file would keep every page read resident.
    const uint64_t End = C.Where.FileOffset + C.FileLength;
    R->In.release(R->Written, End);
    R->Written = End;
    return true;
  }

  bool empty() const { return R == nullptr; }
  void clear() {
    R = nullptr;
    C = Chunk();
    Out.clear();
    consumeError(std::move(Failure));
    Failure = Error::success();
  }
};

/// Writes every chunk of \p In to \p OS, each made as \p Choose says (on
/// \p Threads threads, written in file order); stops at damage that hides
/// where the next chunk is, and at the first chunk that cannot be made.
/// Compressed chunks are handed out as they are in the file, decompressed
/// (or checked) by their job.
template <typename ChooseAction>
Error recompress(const TraceFile &In, raw_ostream &OS, unsigned Threads,
                 RecompressCounts &Counts, ChooseAction &&Choose) {
  Recompression R{In, Counts};
  OrderedBatches<ChunkJob> Jobs;
  Jobs.setThreads(Threads);
  ChunkJob Local;
  TraceFile::ChunkIterator It = In.chunks();
  It.keepCompressed();
  Chunk C;
  while (!Jobs.stopped()) {
    Expected<bool> More = It.next(C);
    if (!More) {
      // The chunks before the damage, or the error of one of them.
      Jobs.drain(OS);
      if (R.Failure) {
        consumeError(More.takeError());
        return std::move(R.Failure);
      }
      return More.takeError();
    }
    if (!*More)
      break;
    ChunkJob &J = Jobs.active() ? Jobs.open() : Local;
    J.R = &R;
    J.C = std::move(C);
    J.What = Choose(J.C, J.Level);
    if (Jobs.active()) {
      ++Counts.OnThreads;
      Jobs.submit(OS);
      continue;
    }
    J.format();
    bool Written = J.writeTo(OS);
    J.clear();
    if (!Written)
      break;
  }
  Jobs.drain(OS);
  return std::move(R.Failure);
}

} // namespace

Error compressTrace(const TraceFile &In, raw_ostream &OS, int Level,
                    unsigned Threads, RecompressCounts &Counts) {
  if (!runtime::compressionBuiltIn())
    return createStringError(std::errc::not_supported,
                             "this wgtrace-view was built without libzstd");
  using Action = ChunkJob::Action;
  return recompress(
      In, OS, Threads, Counts, [Level](const Chunk &C, int &JobLevel) {
        if (C.Where.Compressed)
          return Action::Check;
        // Ring chunks with records; the run record (a 16-byte
        // ring) stays plain, as the runtime writes it.
        if (C.type() != format::ChunkType::DispatchRingBuffer ||
            C.Header.ContentLength < format::ringChunkContentLength(4096))
          return Action::Copy;
        JobLevel = Level;
        return Action::Compress;
      });
}

Error decompressTrace(const TraceFile &In, raw_ostream &OS, unsigned Threads,
                      RecompressCounts &Counts) {
  using Action = ChunkJob::Action;
  return recompress(In, OS, Threads, Counts, [](const Chunk &C, int &) {
    return C.Where.Compressed ? Action::Decompress : Action::Copy;
  });
}

} // namespace wgtrace::viewer
