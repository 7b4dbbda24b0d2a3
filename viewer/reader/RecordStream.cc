//===- RecordStream.cc ----------------------------------------------------===//

#include "reader/RecordStream.h"

#ifdef WGTRACE_HAVE_ZSTD
#include <zstd.h>
#endif

#include <cstring>

using namespace llvm;

namespace wgtrace::viewer {

#ifdef WGTRACE_HAVE_ZSTD
ZSTD_DCtx *threadDecompressor() {
  struct Holder {
    ZSTD_DCtx *Context = ZSTD_createDCtx();
    ~Holder() { ZSTD_freeDCtx(Context); }
  };
  static thread_local Holder H;
  return H.Context;
}
#else
ZSTD_DCtx_s *threadDecompressor() { return nullptr; }
#endif

namespace {
std::atomic<uint64_t> Slides{0};
} // namespace

uint64_t RecordStream::slides() {
  return Slides.load(std::memory_order_relaxed);
}

std::atomic<uint64_t> &recordFramesDecompressed() {
  static std::atomic<uint64_t> Frames{0};
  return Frames;
}

Error frameLengthError(const char *Which, uint64_t Got, uint64_t Want) {
  return createStringError(
      "zstd frame%s decompressed to %llu bytes, the header says %llu", Which,
      static_cast<unsigned long long>(Got),
      static_cast<unsigned long long>(Want));
}

RecordStream::RecordStream(ArrayRef<uint8_t> Frame, uint64_t Length,
                           bool WordDeltas, uint64_t WindowBytes)
    : Frame(Frame), Length(Length), WordDeltas(WordDeltas),
      Capacity(WindowBytes + 8), Window(new uint8_t[WindowBytes + 8]) {}

void RecordStream::rewind() {
  Begin = End = Raw = 0;
  Read = 0;
  Ended = false;
  Deltas = format::WordDeltaDecoder();
  Context = threadDecompressor();
  recordFramesDecompressed().fetch_add(1, std::memory_order_relaxed);
#ifdef WGTRACE_HAVE_ZSTD
  ZSTD_DCtx_reset(Context, ZSTD_reset_session_only);
#endif
}

Error RecordStream::fill() {
#ifdef WGTRACE_HAVE_ZSTD
  // Word deltas are undone in place: the raw bytes go after the words
  // already undone, and each word is read before it is written over.
  ZSTD_outBuffer Out = {Window.get() + (Raw - Begin), Capacity - (Raw - Begin),
                        0};
  ZSTD_inBuffer In = {Frame.data(), Frame.size(), Read};
  const size_t Left = ZSTD_decompressStream(Context, &Out, &In);
  if (ZSTD_isError(Left))
    return createStringError("zstd: %s", ZSTD_getErrorName(Left));
  const bool Progress = Out.pos || In.pos != Read;
  Read = In.pos;
  Raw += Out.pos;
  if (Raw > Length)
    return createStringError(
        "zstd frame decompresses to more than the header's %llu bytes",
        static_cast<unsigned long long>(Length));
  uint8_t *Undone = Window.get() + (End - Begin);
  End += WordDeltas
             ? Deltas.transform(Undone + (Raw - Out.pos - End), Out.pos, Undone)
             : Out.pos;
  if (Left == 0) {
    Ended = true;
    if (WordDeltas)
      End += Deltas.finish(Window.get() + (End - Begin));
    if (Raw != Length)
      return frameLengthError("", Raw, Length);
    return Error::success();
  }
  if (!Progress)
    return createStringError(Read == Frame.size()
                                 ? "zstd: the frame is cut short"
                                 : "zstd: the frame makes no progress");
  return Error::success();
#else
  return createStringError("built without libzstd");
#endif
}

Expected<uint64_t> RecordStream::reach(uint64_t Keep, uint64_t Until) {
  Until = std::min(Until, Length);
  if (Until <= End)
    return 0;
  uint64_t Moved = 0;
  // A word of the window's end may be a word WordDeltas has not completed.
  const uint64_t Room = Capacity - 8;
  if (Until - Begin > Room) {
    // Slides the window: what is still needed goes to its start.
    if (Keep < Begin || Keep > End || Until - Keep > Room)
      return createStringError(
          "content [%llu, %llu) does not fit the %llu-byte window over "
          "[%llu, %llu)",
          static_cast<unsigned long long>(Keep),
          static_cast<unsigned long long>(Until),
          static_cast<unsigned long long>(Room),
          static_cast<unsigned long long>(Begin),
          static_cast<unsigned long long>(End));
    Slides.fetch_add(1, std::memory_order_relaxed);
    Moved = Keep - Begin;
    std::memmove(Window.get(), Window.get() + Moved, End - Keep);
    Begin = Keep;
  }
  while (End < Until) {
    if (Ended)
      return createStringError(
          "zstd frame ends at %llu bytes, before the %llu its header says",
          static_cast<unsigned long long>(End),
          static_cast<unsigned long long>(Length));
    if (Error E = fill())
      return E;
  }
  return Moved;
}

Error RecordStream::finish() {
  while (!Ended) {
    // Nothing is kept: the window starts over at what comes next.
    Begin = End;
    if (Error E = fill())
      return E;
  }
  if (Read != Frame.size())
    return createStringError("%zu bytes follow the zstd frame",
                             Frame.size() - Read);
  return Error::success();
}

} // namespace wgtrace::viewer
