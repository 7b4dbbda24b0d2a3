//===- TraceFile.cc -------------------------------------------------------===//

#include "reader/TraceFile.h"

#include "reader/RecordStream.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/Process.h"

#include <sys/mman.h>

#ifdef WGTRACE_HAVE_ZSTD
#include <zstd.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

using namespace llvm;

namespace wgtrace::viewer {

Expected<TraceFile> TraceFile::open(StringRef Path) {
  // No null terminator and no volatile-file copy: mmap whenever possible.
  const bool Stdin = Path == "-";
  auto BufferOrErr =
      Stdin ? MemoryBuffer::getSTDIN()
            : MemoryBuffer::getFile(Path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
  if (!BufferOrErr)
    return createStringError(BufferOrErr.getError(), "cannot open: %s",
                             BufferOrErr.getError().message().c_str());
  TraceFile File;
  File.Buffer = std::move(*BufferOrErr);
  File.Bytes = arrayRefFromStringRef(File.Buffer->getBuffer());
  return File;
}

TraceFile TraceFile::share() const {
  TraceFile File;
  File.Buffer = Buffer;
  File.Bytes = Bytes;
  return File;
}

void TraceFile::release(uint64_t Begin, uint64_t End) const {
  if (!Buffer || Buffer->getBufferKind() != MemoryBuffer::MemoryBuffer_MMap)
    return;
  End = std::min<uint64_t>(End, Bytes.size());
  // Whole pages only: the pages at either end may hold bytes still in use.
  const uintptr_t Page = sys::Process::getPageSizeEstimate();
  const uintptr_t Base = reinterpret_cast<uintptr_t>(Bytes.data());
  uintptr_t From = (Base + Begin + Page - 1) & ~(Page - 1);
  uintptr_t To = (Base + End) & ~(Page - 1);
  // The range as a pointer into Bytes, not one made from an integer.
  if (From < To)
    ::madvise(const_cast<uint8_t *>(Bytes.data()) + (From - Base), To - From,
              MADV_DONTNEED);
}

TraceFile TraceFile::fromBytes(ArrayRef<uint8_t> Bytes) {
  TraceFile File;
  File.Bytes = Bytes;
  return File;
}

Error TraceFile::ChunkIterator::takeSkipped() {
  Error All = Error::success();
  for (SkippedChunk &S : Skipped)
    All = joinErrors(std::move(All),
                     make_error<ChunkErrorInfo>(S.Where, S.FileOffset,
                                                std::move(S.Problem)));
  Skipped.clear();
  return All;
}

namespace {
/// zstd can shrink data at most about 32768 times (a run of one byte:
/// 128 KiB per 4-byte block); a frame claiming more is damaged or crafted,
/// and is refused before its size is allocated.
constexpr uint64_t kMaxCompressionRatio = 65536;

/// Said of a damaged compressed chunk whose size the reading cannot skip.
constexpr const char *kInnerLengthUnknown =
    "; its decompressed size is not known either";

#ifdef WGTRACE_HAVE_ZSTD
/// Decompresses codec 1's \p Frame into \p Out (room for \p Length
/// bytes); returns how many bytes it held.
Expected<uint64_t> decompressWhole(ArrayRef<uint8_t> Frame, uint8_t *Out,
                                   uint64_t Length) {
  const size_t Got = ZSTD_decompressDCtx(threadDecompressor(), Out, Length,
                                         Frame.data(), Frame.size());
  if (ZSTD_isError(Got))
    return createStringError("zstd: %s", ZSTD_getErrorName(Got));
  return Got;
}

/// Bytes zstd gives at once for codec 2, decoded while they are in the
/// cache (into Out), not after the whole chunk has gone to memory.
constexpr size_t kStagedBytes = size_t{128} << 10;

/// Decompresses codec 2's \p Frame into \p Out (room for \p Length
/// bytes), undoing the word deltas on the way; returns how many bytes the
/// frame held.
Expected<uint64_t> decompressWordDeltas(ArrayRef<uint8_t> Frame, uint8_t *Out,
                                        uint64_t Length) {
  static thread_local std::unique_ptr<uint8_t[]> Staged(
      new uint8_t[kStagedBytes]);
  ZSTD_DCtx *Context = threadDecompressor();
  ZSTD_DCtx_reset(Context, ZSTD_reset_session_only);
  ZSTD_inBuffer In = {Frame.data(), Frame.size(), 0};
  format::WordDeltaDecoder Deltas;
  uint64_t Got = 0, Written = 0;
  for (;;) {
    ZSTD_outBuffer Piece = {Staged.get(), kStagedBytes, 0};
    const size_t Left = ZSTD_decompressStream(Context, &Piece, &In);
    if (ZSTD_isError(Left))
      return createStringError("zstd: %s", ZSTD_getErrorName(Left));
    Got += Piece.pos;
    if (Got > Length)
      return createStringError(
          "zstd frame decompresses to more than the header's %llu bytes",
          static_cast<unsigned long long>(Length));
    Written += Deltas.transform(Staged.get(), Piece.pos, Out + Written);
    if (Left == 0 && In.pos != In.size)
      return createStringError("%zu bytes follow the zstd frame",
                               In.size - In.pos);
    if (Left == 0)
      break;
    // The frame ends before it says it does.
    if (In.pos == In.size && Piece.pos < Piece.size)
      return createStringError("zstd: the frame is cut short");
  }
  Deltas.finish(Out + Written);
  return Got;
}
#endif
} // namespace

/// The InnerLength of the compressed chunk \p Content when two witnesses
/// agree on it: the header's checksum matches, or the zstd frame declares
/// the same size (a bit flipped in one of them leaves the other). Either
/// witness must also find the frame exactly as long as the chunk's
/// content_length says: a content_length damaged into a larger one can
/// swallow the chunks after it whole, and reading on would give every
/// record after them another chunk's plain offset.
static std::optional<uint64_t> trustedInnerLength(ArrayRef<uint8_t> Content) {
  format::CompressedChunkHeader H;
  if (Content.size() < sizeof(H))
    return std::nullopt;
  std::memcpy(&H, Content.data(), sizeof(H));
  ArrayRef<uint8_t> Frame = Content.drop_front(sizeof(H));
  if (H.InnerLength < format::ringChunkContentLength(4096) ||
      H.InnerLength > format::kMaxInnerLength ||
      !format::isPowerOfTwo(H.InnerLength - format::kRingPadding))
    return std::nullopt;
  if (H.CompressedLength == Frame.size() &&
      format::compressedChunkChecksum(H, Frame.data(), Frame.size()) ==
          H.Checksum)
    return H.InnerLength;
#ifdef WGTRACE_HAVE_ZSTD
  // One frame, or the records' frame and the tail's (codecs 3 and 4).
  uint64_t Declared = 0;
  for (int Frames = 0; Frames < 2 && !Frame.empty(); ++Frames) {
    const unsigned long long Size =
        ZSTD_getFrameContentSize(Frame.data(), Frame.size());
    const size_t Bytes =
        ZSTD_findFrameCompressedSize(Frame.data(), Frame.size());
    if (Size > format::kMaxInnerLength || ZSTD_isError(Bytes))
      return std::nullopt;
    Declared += Size;
    Frame = Frame.drop_front(Bytes);
  }
  if (Frame.empty() && Declared == H.InnerLength)
    return H.InnerLength;
#endif
  return std::nullopt;
}

namespace {
/// A compressed chunk's header and its frames, checked before any is
/// decompressed.
struct CompressedFrames {
  format::CompressedChunkHeader H;
  format::Codec Codec;
  /// The frame of the content before its tail (all of it without a tail
  /// frame), and the tail's frame (codecs 3 and 4; else empty).
  ArrayRef<uint8_t> Records, Tail;
  uint64_t TailLength = 0;
};
} // namespace

#ifdef WGTRACE_HAVE_ZSTD
/// Whether zstd \p Frame says it holds \p Want bytes; \p What names it.
static Error checkDeclaredSize(ArrayRef<uint8_t> Frame, uint64_t Want,
                               const char *What) {
  const unsigned long long Declared =
      ZSTD_getFrameContentSize(Frame.data(), Frame.size());
  if (Declared == Want)
    return Error::success();
  return createStringError(
      "zstd frame%s %s, the header says %llu bytes", What,
      Declared == ZSTD_CONTENTSIZE_ERROR
          ? "is not a zstd frame"
          : (Declared == ZSTD_CONTENTSIZE_UNKNOWN
                 ? "does not say its size"
                 : ("holds " + std::to_string(Declared) + " bytes").c_str()),
      static_cast<unsigned long long>(Want));
}
#endif

/// The checks of compressed chunk \p Content before decompressing it.
static Expected<CompressedFrames> compressedFrames(ArrayRef<uint8_t> Content) {
  CompressedFrames F;
  format::CompressedChunkHeader &H = F.H;
  if (Content.size() < sizeof(H))
    return createStringError(
        "compressed chunk of %llu bytes has no room for its %zu-byte header",
        static_cast<unsigned long long>(Content.size()), sizeof(H));
  std::memcpy(&H, Content.data(), sizeof(H));
  ArrayRef<uint8_t> Frame = Content.drop_front(sizeof(H));
  if (H.Magic != format::kCompressedChunkMagic)
    return createStringError("compressed chunk header: bad magic 0x%x, "
                             "expected 0x%x (\"WGCZ\")",
                             H.Magic, format::kCompressedChunkMagic);
  if (H.CompressedLength != Frame.size())
    return createStringError(
        "compressed chunk header says %llu bytes of frame, the chunk holds "
        "%llu",
        static_cast<unsigned long long>(H.CompressedLength),
        static_cast<unsigned long long>(Frame.size()));
  if (uint32_t Sum =
          format::compressedChunkChecksum(H, Frame.data(), Frame.size());
      Sum != H.Checksum)
    return createStringError(
        "checksum mismatch in the compressed chunk (0x%08x, header says "
        "0x%08x): its header or frame is damaged",
        Sum, H.Checksum);
  if (H.Codec < uint16_t(format::Codec::Zstd) ||
      H.Codec > uint16_t(format::Codec::ZstdWordDeltasTail))
    return createStringError("unknown codec %u (1 is zstd, 2 zstd of word "
                             "deltas, 3 and 4 the same with the tail's frame)",
                             H.Codec);
  F.Codec = static_cast<format::Codec>(H.Codec);
  if (H.InnerType != uint16_t(format::ChunkType::DispatchRingBuffer) ||
      H.InnerVersion != 0)
    return createStringError("compressed chunk holds a chunk of type %u "
                             "version %u; only ring chunks (type 1, version "
                             "0) are compressed",
                             H.InnerType, H.InnerVersion);
  if (H.InnerLength > format::kMaxInnerLength ||
      H.InnerLength / kMaxCompressionRatio > Frame.size())
    return createStringError(
        "compressed chunk claims %llu bytes from a %zu-byte frame",
        static_cast<unsigned long long>(H.InnerLength), Frame.size());
#ifdef WGTRACE_HAVE_ZSTD
  F.Records = Frame;
  if (format::hasTailFrame(F.Codec)) {
    F.TailLength = format::compressedTailLength(H.InnerLength);
    const size_t First =
        ZSTD_findFrameCompressedSize(Frame.data(), Frame.size());
    if (ZSTD_isError(First))
      return createStringError("zstd: the records' frame: %s",
                               ZSTD_getErrorName(First));
    F.Records = Frame.take_front(First);
    F.Tail = Frame.drop_front(First);
    if (Error E = checkDeclaredSize(F.Tail, F.TailLength, " of the tail"))
      return E;
    const size_t TailBytes =
        ZSTD_findFrameCompressedSize(F.Tail.data(), F.Tail.size());
    if (ZSTD_isError(TailBytes))
      return createStringError("zstd: the tail's frame: %s",
                               ZSTD_getErrorName(TailBytes));
    if (TailBytes != F.Tail.size())
      return createStringError("%zu bytes follow the zstd frame of the tail",
                               F.Tail.size() - TailBytes);
  }
  if (Error E = checkDeclaredSize(F.Records, H.InnerLength - F.TailLength,
                                  F.TailLength ? " of the records" : ""))
    return E;
  return F;
#else
  return createStringError("this wgtrace-view was built without libzstd "
                           "(WGTRACE_ZSTD=OFF or libzstd-dev missing): it "
                           "cannot read compressed chunks");
#endif
}

#ifdef WGTRACE_HAVE_ZSTD
/// Decompresses the tail's frame of \p F into \p Out.
static Error decompressTailFrame(const CompressedFrames &F, uint8_t *Out) {
  Expected<uint64_t> Got = decompressWhole(F.Tail, Out, F.TailLength);
  if (!Got)
    return Got.takeError();
  if (*Got != F.TailLength)
    return frameLengthError(" of the tail", *Got, F.TailLength);
  return Error::success();
}
#endif

Error TraceFile::ChunkIterator::decompressFrame(Chunk &C, ChunkMemory *Memory) {
  Expected<CompressedFrames> F = compressedFrames(C.Content);
  if (!F)
    return F.takeError();
#ifdef WGTRACE_HAVE_ZSTD
  const format::CompressedChunkHeader &H = F->H;
  std::shared_ptr<uint8_t[]> Out =
      Memory ? Memory->take(H.InnerLength)
             : std::shared_ptr<uint8_t[]>(new uint8_t[H.InnerLength]);
  recordFramesDecompressed().fetch_add(1, std::memory_order_relaxed);
  const uint64_t RecordsLength = H.InnerLength - F->TailLength;
  Expected<uint64_t> Got =
      format::storesWordDeltas(F->Codec)
          ? decompressWordDeltas(F->Records, Out.get(), RecordsLength)
          : decompressWhole(F->Records, Out.get(), RecordsLength);
  if (!Got)
    return Got.takeError();
  if (*Got != RecordsLength)
    return frameLengthError("", *Got, RecordsLength);
  if (F->TailLength)
    if (Error E = decompressTailFrame(*F, Out.get() + RecordsLength))
      return E;
  C.Header = {format::kChunkMagic, H.InnerType, H.InnerVersion, H.InnerLength};
  C.Content = ArrayRef<uint8_t>(Out.get(), H.InnerLength);
  C.Decompressed = std::move(Out);
  C.Where.TypeName = chunkTypeName(H.InnerType);
  return Error::success();
#else
  (void)Memory;
  llvm_unreachable("compressedFrames() refuses every chunk without zstd");
#endif
}

Expected<std::optional<CompressedTail>>
TraceFile::ChunkIterator::decompressTail(const Chunk &C) {
  Expected<CompressedFrames> F = compressedFrames(C.Content);
  if (!F)
    return asChunkError(C, F.takeError());
  if (!F->TailLength)
    return std::nullopt;
#ifdef WGTRACE_HAVE_ZSTD
  CompressedTail T;
  T.ContentLength = F->H.InnerLength;
  T.Records = F->Records;
  T.WordDeltas = format::storesWordDeltas(F->Codec);
  T.Bytes.resize(F->TailLength);
  if (Error E = decompressTailFrame(*F, T.Bytes.data()))
    return asChunkError(C, std::move(E));
  return T;
#else
  llvm_unreachable("compressedFrames() refuses every chunk without zstd");
#endif
}

uint64_t TraceFile::ChunkIterator::framesDecompressed() {
  return recordFramesDecompressed().load(std::memory_order_relaxed);
}

Error TraceFile::ChunkIterator::asChunkError(const Chunk &C, Error E) {
  // As read() reports it: skipped or the end of the reading, the same
  // words but for the size.
  std::string Problem = toString(std::move(E));
  if (!trustedInnerLength(C.Content))
    Problem += kInnerLengthUnknown;
  return make_error<ChunkErrorInfo>(C.Where, C.Where.FileOffset,
                                    std::move(Problem));
}

Error TraceFile::ChunkIterator::decompress(Chunk &C, ChunkMemory *Memory) {
  if (Error E = decompressFrame(C, Memory))
    return asChunkError(C, std::move(E));
  return Error::success();
}

Error TraceFile::ChunkIterator::endOfReading(const Chunk &C) {
  // next() skips a chunk whose size is known, read or not; a frame that
  // fails its checksum or sizes fails before zstd runs.
  if (trustedInnerLength(C.Content))
    return Error::success();
  Chunk Copy = C;
  return decompress(Copy);
}

Expected<bool> TraceFile::ChunkIterator::next(Chunk &C) {
  // A loop, not a recursion: a file may hold many damaged chunks.
  for (;;) {
    bool Skip = false;
    Expected<bool> More = read(C, Skip);
    if (!More || !Skip)
      return More;
  }
}

Expected<bool> TraceFile::ChunkIterator::read(Chunk &C, bool &Skip) {
  if (Offset >= Bytes.size())
    return false;
  C = Chunk();
  C.Where.Index = Index;
  C.Where.FileOffset = Offset;
  C.Where.PlainOffset = Plain;
  C.Offset = Plain;
  uint64_t Left = Bytes.size() - Offset;
  if (Left < format::kChunkHeaderSize)
    return chunkError(C.Where, C.Offset,
                      Twine("truncated chunk header: ") + Twine(Left) + " of " +
                          Twine(format::kChunkHeaderSize) +
                          " bytes before the end of the file");
  std::memcpy(&C.Header, Bytes.data() + Offset, sizeof(C.Header));
  if (C.Header.Magic != format::kChunkMagic)
    return chunkError(C.Where, C.Offset,
                      Twine("bad magic 0x") + Twine::utohexstr(C.Header.Magic) +
                          ", expected 0x" +
                          Twine::utohexstr(format::kChunkMagic) +
                          " (\"IDB0\")");
  C.Where.TypeName = chunkTypeName(C.Header.Type);
  if (C.Header.Type != uint16_t(format::ChunkType::DispatchMetadata) &&
      C.Header.Type != uint16_t(format::ChunkType::DispatchRingBuffer) &&
      C.Header.Type != uint16_t(format::ChunkType::WorkgroupTiming) &&
      C.Header.Type != uint16_t(format::ChunkType::Compressed))
    return chunkError(C.Where, C.Offset,
                      Twine("unknown chunk type ") + Twine(C.Header.Type));
  // Version 1 timing chunks (format extension 1) start with a header.
  if (C.Header.Version != 0 &&
      !(C.Header.Type == uint16_t(format::ChunkType::WorkgroupTiming) &&
        C.Header.Version == format::kTimingChunkVersion))
    return chunkError(C.Where, C.Offset + 6,
                      Twine("unsupported chunk version ") +
                          Twine(C.Header.Version));
  uint64_t Available = Left - format::kChunkHeaderSize;
  if (C.Header.ContentLength > Available) {
    Missing = C.Header.ContentLength - Available;
    Cut = C;
    Cut->Content = Bytes.slice(Offset + format::kChunkHeaderSize, Available);
    Offset = Bytes.size();
    return chunkError(C.Where, C.Offset + 8,
                      Twine("truncated: content_length ") +
                          Twine(C.Header.ContentLength) + " but only " +
                          Twine(Available) + " bytes left in the file (" +
                          Twine(Missing) + " bytes missing)");
  }
  C.Content =
      Bytes.slice(Offset + format::kChunkHeaderSize, C.Header.ContentLength);
  // The last chunk's alignment padding may be missing: IREE's reader stops
  // at the end of the file as well.
  const uint64_t Next = std::min<uint64_t>(
      format::nextChunkOffset(Offset, C.Header.ContentLength), Bytes.size());
  C.FileLength = Next - Offset;
  Offset = Next;
  ++Index;
  if (C.Header.Type != uint16_t(format::ChunkType::Compressed)) {
    Plain += C.FileLength;
    return true;
  }
  // Handed out as the chunk it holds, at its plain offset.
  C.Where.Compressed = true;
  if (KeepCompressed) {
    format::CompressedChunkHeader H{};
    std::memcpy(&H, C.Content.data(),
                std::min<size_t>(sizeof(H), C.Content.size()));
    Plain = format::nextChunkOffset(Plain, H.InnerLength);
    return true;
  }
  if (Error E = decompressFrame(C, Memory.get())) {
    // Its header said where the next chunk starts: only it is lost, if
    // the size it had decompressed is known too (the chunks after it are
    // at plain offsets past it). Otherwise the reading stops here.
    std::optional<uint64_t> Length = trustedInnerLength(C.Content);
    if (!Length)
      return make_error<ChunkErrorInfo>(C.Where, C.Where.FileOffset,
                                        toString(std::move(E)) +
                                            kInnerLengthUnknown);
    Plain = format::nextChunkOffset(Plain, *Length);
    Skipped.push_back({C.Where, C.Where.FileOffset, toString(std::move(E))});
    Skip = true;
    return true;
  }
  Plain = format::nextChunkOffset(Plain, C.Header.ContentLength);
  return true;
}

} // namespace wgtrace::viewer
