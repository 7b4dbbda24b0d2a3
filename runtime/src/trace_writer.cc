//===- trace_writer.cc - Writing the chunked trace file -------------------===//

#include "trace_writer.h"

#include "config.h"
#include "crash_handler.h"
#include "metadata_builder.h"
#include "module_registry.h"
#include "stream_writer.h"

#include "wgtrace/wgtrace.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <unistd.h>

namespace wgtrace::runtime {
namespace {

// The trace path and metadata live in leaked or static storage: the exit
// handler and the crash handler read them after static destructors may
// have run, and the crash handler must not allocate.
char TracePathBuffer[PATH_MAX];
std::atomic<bool> TracePathOverridden{false};

std::mutex &metadataLock() {
  static std::mutex *Lock = new std::mutex;
  return *Lock;
}
std::vector<uint8_t> &cachedMetadata() {
  static std::vector<uint8_t> *Bytes = new std::vector<uint8_t>;
  return *Bytes;
}

void writeChunkHeader(Sink &Out, format::ChunkType Type, uint64_t Length) {
  format::ChunkHeader Header = {format::kChunkMagic,
                                static_cast<uint16_t>(Type), 0, Length};
  Out.write(&Header, sizeof(Header));
}

void writeChunkPadding(Sink &Out, uint64_t Length) {
  static const uint8_t Zeros[format::kChunkAlignment] = {};
  Out.write(Zeros, format::alignUp(Length, format::kChunkAlignment) - Length);
}

/// Writes \p Length bytes of \p Byte, without allocating (the crash
/// handler uses it too).
void writeRepeated(Sink &Out, uint8_t Byte, uint64_t Length) {
  uint8_t Block[4096];
  std::memset(Block, Byte, std::min<uint64_t>(Length, sizeof(Block)));
  while (Length) {
    uint64_t Piece = std::min<uint64_t>(Length, sizeof(Block));
    Out.write(Block, Piece);
    Length -= Piece;
  }
}

void writeZeros(Sink &Out, uint64_t Length) { writeRepeated(Out, 0, Length); }

void writeFiller(Sink &Out, uint64_t Length) {
  writeRepeated(Out, 0xFF, Length);
}

void writeTimingChunk(Sink &Out, const std::vector<TimingEntry> &Timing,
                      uint64_t OldestVirtual, uint64_t KeyBase = 0,
                      uint64_t KeyMask = ~uint64_t{0}) {
  uint64_t Count = 0;
  for (const TimingEntry &T : Timing)
    Count += T.Virtual >= OldestVirtual;
  uint64_t Length = Count * sizeof(format::TimingRecord);
  writeChunkHeader(Out, format::ChunkType::WorkgroupTiming, Length);
  for (const TimingEntry &T : Timing) {
    if (T.Virtual < OldestVirtual)
      continue;
    format::TimingRecord R = {(T.Key - KeyBase) & KeyMask, T.StartNs, T.EndNs,
                              T.Processor, 0};
    Out.write(&R, sizeof(R));
  }
  writeChunkPadding(Out, Length);
}

/// Appends the decimal digits of \p Value without allocating.
char *appendNumber(char *At, uint64_t Value) {
  char Digits[24];
  int N = 0;
  do {
    Digits[N++] = static_cast<char>('0' + Value % 10);
    Value /= 10;
  } while (Value);
  while (N)
    *At++ = Digits[--N];
  return At;
}

char *appendText(char *At, const char *Text) {
  size_t Length = std::strlen(Text);
  // Not terminated: the message is written out by its length.
  // NOLINTNEXTLINE(bugprone-not-null-terminated-result)
  std::memcpy(At, Text, Length);
  return At + Length;
}

/// "wgtrace: ring of thread N wrapped: X of Y bytes overwritten; ..."
/// composed without allocation, for the crash path too.
void reportWrap(uint32_t Ordinal, uint64_t Lost, uint64_t Head) {
  char Line[256];
  char *At = appendText(Line, "wgtrace: ring of thread ");
  At = appendNumber(At, Ordinal);
  At = appendText(At, " wrapped: ");
  At = appendNumber(At, Lost);
  At = appendText(At, " of ");
  At = appendNumber(At, Head);
  At = appendText(At, " bytes overwritten; raise WGTRACE_BUFFER_SIZE or set "
                      "WGTRACE_MODE=stream to keep them\n");
  ssize_t Ignored = ::write(2, Line, static_cast<size_t>(At - Line));
  (void)Ignored;
}

/// Writes the ring-mode trace. \p Locked is false in the crash handler,
/// which must not wait for a lock the faulting thread may hold.
void writeRingTrace(Sink &Out, bool Report, bool Locked = true) {
  writeMetadataChunk(Out);
  auto WriteOne = [&](ThreadRing &TR) {
    uint64_t Head = TR.head();
    if (Head == 0)
      return;
    uint64_t Lost = writeRingChunk(Out, TR);
    if (Lost && Report)
      reportWrap(TR.Ordinal, Lost, Head);
  };
  if (Locked)
    forEachRing(WriteOne);
  else
    forEachRingUnlocked(WriteOne);
}

} // namespace

void FdSink::write(const void *Data, uint64_t Length) {
  const auto *Bytes = static_cast<const uint8_t *>(Data);
  while (Length && !Failed) {
    ssize_t Written = ::write(Fd, Bytes, Length);
    if (Written < 0 && errno == EINTR)
      continue;
    if (Written <= 0) {
      Failed = true;
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

void refreshMetadata() {
  std::vector<uint8_t> Bytes = buildMetadata();
  std::lock_guard<std::mutex> Guard(metadataLock());
  cachedMetadata().swap(Bytes);
}

void writeMetadataChunk(Sink &Out) {
  const std::vector<uint8_t> &Bytes = cachedMetadata();
  writeChunkHeader(Out, format::ChunkType::DispatchMetadata, Bytes.size());
  Out.write(Bytes.data(), Bytes.size());
  writeChunkPadding(Out, Bytes.size());
}

uint64_t writeRingChunk(Sink &Out, const ThreadRing &TR) {
  uint64_t Head = TR.head();
  uint64_t Size = TR.size();
  uint64_t Length = format::ringChunkContentLength(Size);
  uint64_t Body = Length - format::kRingHeadSize;
  uint64_t Oldest = TR.oldestIntactWorkgroup(Head);
  writeChunkHeader(Out, format::ChunkType::DispatchRingBuffer, Length);
  if (Head <= Size) {
    Out.write(TR.Data, Body);
  } else {
    // The overwritten part of the last lap, virtual [Head - Size, Oldest),
    // starts at the head's ring offset and may wrap past the ring's end:
    // dead bytes are [0, Wrapped) and [DeadBegin, DeadEnd).
    uint64_t DeadBegin = Head & TR.mask();
    uint64_t DeadLength = Oldest - (Head - Size);
    uint64_t DeadEnd = std::min(DeadBegin + DeadLength, Size);
    uint64_t Wrapped = DeadBegin + DeadLength - DeadEnd;
    writeFiller(Out, Wrapped);
    Out.write(TR.Data + Wrapped, DeadBegin - Wrapped);
    writeFiller(Out, DeadEnd - DeadBegin);
    Out.write(TR.Data + DeadEnd, Body - DeadEnd);
  }
  Out.write(&Head, sizeof(Head));
  writeChunkPadding(Out, Length);
  if (config().Timing)
    writeTimingChunk(Out, TR.Timing, Oldest);
  return Oldest;
}

/// Writes the records of a stream buffer that start at ring offset
/// B.Start, in order from there, with keys made relative to it. Runs on the
/// writer thread over every record, so the 16-byte records take a short
/// path, and writes as it goes so that each piece is still in the cache.
static void writeRotated(Sink &Out, const StreamBuffer &B) {
  constexpr uint64_t PieceSize = uint64_t{256} << 10;
  uint64_t Mask = B.Size - 1;
  uint64_t Offset = B.Start;
  uint64_t Pending = B.Start; // first offset not yet written
  uint64_t Done = 0;
  while (Done < B.Used) {
    uint8_t *Record = B.Data + Offset;
    uint64_t Word;
    std::memcpy(&Word, Record, sizeof(Word));
    auto Tag = static_cast<format::Tag>(Word & 0xFF);
    uint64_t Size = format::kMemoryRecordSize;
    if (Tag == format::Tag::Workgroup || Tag == format::Tag::Print)
      Size = format::recordSize(Record);
    else if (Tag != format::Tag::MemoryLoad &&
             Tag != format::Tag::MemoryStore && Tag != format::Tag::Value)
      break; // not a record: the rest is written as it is
    if (Tag != format::Tag::Workgroup) {
      uint64_t Key = (format::wordWorkgroupOffset(Word) - B.Start) & Mask;
      Word = (Word & 0xFFFFFF) | format::keyBits(Key);
      std::memcpy(Record, &Word, sizeof(Word));
    }
    Done += Size;
    Offset += Size;
    if (Offset >= B.Size) {
      // The record reached the buffer's end or spilled into the padding;
      // the next starts where the spill ends.
      Out.write(B.Data + Pending, Offset - Pending);
      Offset -= B.Size;
      Pending = Offset;
    } else if (Offset - Pending >= PieceSize) {
      Out.write(B.Data + Pending, Offset - Pending);
      Pending = Offset;
    }
  }
  // What is left, up to Used bytes in all.
  uint64_t Written = Done - (Offset - Pending);
  if (Written < B.Used) {
    uint64_t Rest = B.Used - Written;
    uint64_t InPlace = std::min(Rest, B.Size + format::kRingPadding -
                                          format::kRingHeadSize - Pending);
    Out.write(B.Data + Pending, InPlace);
    writeZeros(Out, Rest - InPlace);
  }
}

void writeBufferChunk(Sink &Out, const StreamBuffer &B,
                      const std::vector<TimingEntry> &Timing) {
  uint64_t Mask = B.Size - 1;
  uint64_t Length = format::ringChunkContentLength(B.Size);
  writeChunkHeader(Out, format::ChunkType::DispatchRingBuffer, Length);
  if (B.Start == 0) {
    Out.write(B.Data, B.Used);
  } else {
    // The records run from ring offset Start around the end (the one that
    // crosses it spilling into the padding) and on from the front. Written
    // from Start, with keys made relative to it, they form a buffer that
    // never wrapped.
    writeRotated(Out, B);
  }
  // Past Used the buffer holds what its previous use left there.
  writeZeros(Out, Length - format::kRingHeadSize - B.Used);
  Out.write(&B.Used, sizeof(B.Used));
  writeChunkPadding(Out, Length);
  if (config().Timing) {
    // Keys relative to Start as well; every entry is of this buffer.
    writeTimingChunk(Out, Timing, 0, B.Start, Mask);
  }
}

const char *tracePath() {
  if (!TracePathOverridden.load(std::memory_order_acquire)) {
    const char *Env = std::getenv("WGTRACE_FILE");
    return Env ? Env : "";
  }
  return TracePathBuffer;
}

/// Opens "<path>.tmp" for writing; -1 on failure.
static int openTemporary(const char *Path, char *Temporary) {
  size_t Length = std::strlen(Path);
  if (Length + 5 > PATH_MAX)
    return -1;
  // NOLINTNEXTLINE(bugprone-not-null-terminated-result): terminated below.
  std::memcpy(Temporary, Path, Length);
  std::memcpy(Temporary + Length, ".tmp", 5);
  return ::open(Temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

bool writeTrace(const std::string &Path, bool Report, std::string *Error) {
  refreshMetadata();
  char Temporary[PATH_MAX];
  int Fd = openTemporary(Path.c_str(), Temporary);
  if (Fd < 0) {
    *Error = "cannot open '" + Path + ".tmp': " + std::strerror(errno);
    return false;
  }
  FdSink Out(Fd);
  writeRingTrace(Out, Report);
  bool Failed = Out.failed();
  if (::close(Fd) != 0)
    Failed = true;
  if (Failed) {
    *Error = "cannot write '" + std::string(Temporary) +
             "': " + std::strerror(errno);
    ::unlink(Temporary);
    return false;
  }
  if (::rename(Temporary, Path.c_str()) != 0) {
    *Error = "cannot rename '" + std::string(Temporary) + "' to '" + Path +
             "': " + std::strerror(errno);
    ::unlink(Temporary);
    return false;
  }
  return true;
}

std::vector<uint8_t> snapshotTrace() {
  refreshMetadata();
  std::vector<uint8_t> Bytes;
  VectorSink Out(Bytes);
  writeRingTrace(Out, /*Report=*/false);
  return Bytes;
}

void writeFinalTrace(bool InSignalHandler) {
  static std::atomic<bool> Written{false};
  if (Written.exchange(true))
    return;
  if (config().TraceMode == Mode::Stream) {
    streamWriter().finish(InSignalHandler);
    return;
  }
  const char *Path = tracePath();
  if (!*Path)
    return;
  if (!InSignalHandler) {
    std::string Error;
    if (!writeTrace(Path, /*Report=*/true, &Error))
      std::fprintf(stderr, "wgtrace: error: trace not written: %s\n",
                   Error.c_str());
    return;
  }
  // The metadata was cached when the modules registered; nothing here
  // allocates or locks.
  char Temporary[PATH_MAX];
  int Fd = openTemporary(Path, Temporary);
  if (Fd < 0)
    return;
  FdSink Out(Fd);
  forEachRingUnlocked([](ThreadRing &TR) { TR.recoverRecords(); });
  writeRingTrace(Out, /*Report=*/true, /*Locked=*/false);
  ::close(Fd);
  if (!Out.failed())
    ::rename(Temporary, Path);
}

void writeTraceAtExit() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    std::atexit([] { writeFinalTrace(/*InSignalHandler=*/false); });
    installCrashHandlers();
  });
}

} // namespace wgtrace::runtime

namespace wgtrace {

// By value: the signature is the public API's (wgtrace.h).
// NOLINTNEXTLINE(performance-unnecessary-value-param)
void setTraceFile(std::string Path) {
  using namespace runtime;
  if (Path.size() >= PATH_MAX)
    fatal("trace file path is longer than PATH_MAX: " + Path);
  std::memcpy(TracePathBuffer, Path.c_str(), Path.size() + 1);
  TracePathOverridden.store(true, std::memory_order_release);
}

} // namespace wgtrace
