//===- compressed_chunk_sink.cc -------------------------------------------===//

#include "compressed_chunk_sink.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#ifdef WGTRACE_HAVE_ZSTD
#include <zstd.h>
#endif

namespace wgtrace::runtime {

#ifdef WGTRACE_HAVE_ZSTD

bool compressionBuiltIn() { return true; }

namespace {
/// The content is encoded a block at a time, so that the block zstd reads
/// is still in the cache and the chunk is not copied whole.
constexpr uint64_t kEncodedBlock = uint64_t{128} << 10;

/// One compression context per writing thread (the exit handler, the
/// stream writer), kept for its chunks: creating one costs more than a
/// small chunk. Never freed: the exit handler runs after the thread's
/// thread_local objects are destroyed, and a process has few such threads.
ZSTD_CCtx *threadContext() {
  static thread_local ZSTD_CCtx *Context = nullptr;
  if (!Context)
    Context = ZSTD_createCCtx();
  return Context;
}

/// How much of a chunk's content decides its codec: both are tried on it.
constexpr uint64_t kSampleBytes = uint64_t{256} << 10;

/// The codec that compresses \p Sample smaller at \p Level: word deltas
/// win where each record steps from the one before (a loop over one
/// access), plain records where a few accesses interleave and repeat with
/// a period (PRK's stencil: four loads of locals around each array load,
/// whose deltas change twice per period where the records change once).
format::Codec sampleCodec(const std::vector<uint8_t> &Sample, int Level) {
  static thread_local ZSTD_CCtx *Trial = nullptr;
  if (!Trial)
    Trial = ZSTD_createCCtx();
  if (!Trial)
    return format::Codec::Zstd;
  std::vector<uint8_t> Encoded(format::WordDeltaEncoder::bound(Sample.size()));
  format::WordDeltaEncoder Deltas;
  uint64_t Length =
      Deltas.transform(Sample.data(), Sample.size(), Encoded.data());
  Length += Deltas.finish(Encoded.data() + Length);
  std::vector<uint8_t> Frame(ZSTD_compressBound(Sample.size()));
  const size_t Plain = ZSTD_compressCCtx(Trial, Frame.data(), Frame.size(),
                                         Sample.data(), Sample.size(), Level);
  const size_t OfDeltas = ZSTD_compressCCtx(Trial, Frame.data(), Frame.size(),
                                            Encoded.data(), Length, Level);
  if (ZSTD_isError(Plain) || ZSTD_isError(OfDeltas))
    return format::Codec::Zstd;
  return OfDeltas <= Plain ? format::Codec::ZstdWordDeltas
                           : format::Codec::Zstd;
}
} // namespace

CompressedChunkSink::CompressedChunkSink(Sink &Out, int Level)
    : Out(Out), Level(Level), Context(threadContext()) {}

CompressedChunkSink::~CompressedChunkSink() = default;

void CompressedChunkSink::compress(const uint8_t *Data, uint64_t Length,
                                   bool Last) {
  auto *Z = static_cast<ZSTD_CCtx *>(Context);
  if (!Z) {
    fail(ENOMEM);
    return;
  }
  ZSTD_inBuffer In = {Data, Length, 0};
  for (;;) {
    // Room for what zstd may emit at once, grown geometrically: the
    // chunk arrives in small pieces.
    const size_t Room = ZSTD_CStreamOutSize();
    if (Frame.size() - FrameUsed < Room)
      Frame.resize(std::max(FrameUsed + Room, Frame.size() * 2));
    ZSTD_outBuffer O = {Frame.data() + FrameUsed, Frame.size() - FrameUsed, 0};
    size_t Left =
        ZSTD_compressStream2(Z, &O, &In, Last ? ZSTD_e_end : ZSTD_e_continue);
    FrameUsed += O.pos;
    if (ZSTD_isError(Left)) {
      fail(EIO);
      return;
    }
    if (Last ? Left == 0 : In.pos == In.size)
      return;
  }
}

void CompressedChunkSink::write(const void *Data, uint64_t Length) {
  const auto *P = static_cast<const uint8_t *>(Data);
  if (HeaderFill < sizeof(HeaderBytes)) {
    const uint64_t Take =
        std::min<uint64_t>(Length, sizeof(HeaderBytes) - HeaderFill);
    std::memcpy(HeaderBytes + HeaderFill, P, Take);
    HeaderFill += Take;
    P += Take;
    Length -= Take;
    if (HeaderFill < sizeof(HeaderBytes))
      return;
    std::memcpy(&Inner, HeaderBytes, sizeof(Inner));
    if (auto *Z = static_cast<ZSTD_CCtx *>(Context)) {
      ZSTD_CCtx_reset(Z, ZSTD_reset_session_and_parameters);
      ZSTD_CCtx_setParameter(Z, ZSTD_c_compressionLevel, Level);
      // The frame says its size, and checks what it decompresses to.
      ZSTD_CCtx_setParameter(Z, ZSTD_c_contentSizeFlag, 1);
      ZSTD_CCtx_setParameter(Z, ZSTD_c_checksumFlag, 1);
      ZSTD_CCtx_setPledgedSrcSize(
          Z, Inner.ContentLength -
                 format::compressedTailLength(Inner.ContentLength));
    }
    FrameUsed = 0;
  }
  const uint64_t Take = std::min<uint64_t>(Length, Inner.ContentLength - Taken);
  const uint64_t TailBegin =
      Inner.ContentLength - format::compressedTailLength(Inner.ContentLength);
  // The tail (head, trailer, checksums) goes to a frame of its own.
  uint64_t Records = Taken < TailBegin ? std::min(Take, TailBegin - Taken) : 0;
  TailBytes.insert(TailBytes.end(), P + Records, P + Take);
  Taken += Take;
  if (!Chosen) {
    const uint64_t Want = std::min(kSampleBytes, TailBegin);
    const uint64_t Sampled = std::min<uint64_t>(Records, Want - Sample.size());
    Sample.insert(Sample.end(), P, P + Sampled);
    P += Sampled;
    Records -= Sampled;
    if (Sample.size() < Want || Want == 0)
      return;
    choose();
  }
  feed(P, Records);
}

void CompressedChunkSink::choose() {
  Chosen = true;
  Codec = sampleCodec(Sample, Level);
  feed(Sample.data(), Sample.size());
  Sample = {};
}

void CompressedChunkSink::feed(const uint8_t *Data, uint64_t Length) {
  if (!format::storesWordDeltas(Codec)) {
    compress(Data, Length, false);
    return;
  }
  if (Encoded.size() < format::WordDeltaEncoder::bound(kEncodedBlock))
    Encoded.resize(format::WordDeltaEncoder::bound(kEncodedBlock));
  for (uint64_t Done = 0; Done < Length;) {
    const uint64_t Piece = std::min(kEncodedBlock, Length - Done);
    compress(Encoded.data(),
             Deltas.transform(Data + Done, Piece, Encoded.data()), false);
    Done += Piece;
  }
}

void CompressedChunkSink::compressTail() {
  auto *Z = static_cast<ZSTD_CCtx *>(Context);
  if (!Z) {
    fail(ENOMEM);
    return;
  }
  // A new frame with the records' frame's parameters (its level, its
  // size and checksum said).
  const size_t Room = ZSTD_compressBound(TailBytes.size());
  if (Frame.size() - FrameUsed < Room)
    Frame.resize(FrameUsed + Room);
  const size_t Got = ZSTD_compress2(Z, Frame.data() + FrameUsed, Room,
                                    TailBytes.data(), TailBytes.size());
  if (ZSTD_isError(Got)) {
    fail(EIO);
    return;
  }
  FrameUsed += Got;
}

void CompressedChunkSink::finish() {
  if (!Chosen)
    choose();
  uint8_t LastWord[8];
  compress(LastWord,
           format::storesWordDeltas(Codec) ? Deltas.finish(LastWord) : 0, true);
  if (HeaderFill < sizeof(HeaderBytes) || Taken != Inner.ContentLength)
    fail(EIO);
  else
    compressTail();
  // The chunk cannot be written: the trace's write fails, as a full disk
  // fails it, rather than lose the chunk unsaid.
  if (Failed) {
    Out.fail(Error);
    return;
  }
  format::CompressedChunkHeader H = {};
  H.Magic = format::kCompressedChunkMagic;
  H.InnerType = Inner.Type;
  H.InnerVersion = Inner.Version;
  H.InnerLength = Inner.ContentLength;
  H.CompressedLength = FrameUsed;
  H.Codec = static_cast<uint16_t>(format::storesWordDeltas(Codec)
                                      ? format::Codec::ZstdWordDeltasTail
                                      : format::Codec::ZstdTail);
  H.Checksum = format::compressedChunkChecksum(H, Frame.data(), FrameUsed);
  const uint64_t Length = sizeof(H) + FrameUsed;
  writeChunkHeader(Out, format::ChunkType::Compressed, Length);
  Out.write(&H, sizeof(H));
  Out.write(Frame.data(), FrameUsed);
  writeChunkPadding(Out, Length);
}

#else

bool compressionBuiltIn() { return false; }

// Never constructed: the settings refuse WGTRACE_COMPRESS in such a build.
CompressedChunkSink::CompressedChunkSink(Sink &Out, int Level)
    : Out(Out), Level(Level) {}
CompressedChunkSink::~CompressedChunkSink() = default;
void CompressedChunkSink::compress(const uint8_t *, uint64_t, bool) {}
void CompressedChunkSink::choose() {}
void CompressedChunkSink::compressTail() {}
void CompressedChunkSink::feed(const uint8_t *, uint64_t) {}
void CompressedChunkSink::write(const void *, uint64_t) { fail(ENOTSUP); }
void CompressedChunkSink::finish() { Out.fail(ENOTSUP); }

#endif

} // namespace wgtrace::runtime
