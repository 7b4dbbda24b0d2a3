//===- trace_writer.cc - Writing the chunked trace file -------------------===//

#include "trace_writer.h"

#include "config.h"
#include "crash_handler.h"
#include "metadata_builder.h"
#include "module_registry.h"
#include "ring_chunk.h"
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

/// "wgtrace: ring N wrapped: X of Y bytes overwritten (...)", composed
/// without allocation, for the crash path too.
void reportLoss(const ThreadRing &TR, const TrailerLoss &Loss) {
  char Line[320];
  char *At = appendText(Line, "wgtrace: ring ");
  At = appendNumber(At, TR.Ordinal);
  At = appendText(At, " wrapped: ");
  At = appendNumber(At, Loss.Bytes);
  At = appendText(At, " of ");
  At = appendNumber(At, TR.head() - TR.Floor);
  At = appendText(At, " bytes overwritten (");
  At = appendNumber(At, Loss.Records);
  At = appendText(At, " records, ");
  At = appendNumber(At, Loss.Workgroups);
  At = appendText(At, " workgroups); raise WGTRACE_BUFFER_SIZE or set "
                      "WGTRACE_MODE=stream to keep them\n");
  ssize_t Ignored = ::write(2, Line, static_cast<size_t>(At - Line));
  (void)Ignored;
}

/// Writes the ring-mode trace: the metadata, every ring that holds records
/// as one chunk, then the timing chunks (IREE's dump tool stops at the
/// first chunk type it does not know, so every ring comes first). \p Crash
/// marks the chunks as written by the crash handler, which must not wait
/// for a lock the faulting thread may hold: the rings are listed without
/// it.
void writeRingTrace(Sink &Out, bool Report, bool Crash = false) {
  writeMetadataChunk(Out);
  // The visitors capture one pointer, which std::function holds without
  // allocating (the crash handler must not).
  struct State {
    Sink &Out;
    bool Report;
    bool Crash;
    uint32_t Chunks = 0;
    uint32_t Written = 0;
  } S{Out, Report, Crash};
  auto Each = [Crash](const std::function<void(ThreadRing &)> &Visit) {
    if (Crash)
      forEachRingUnlocked(Visit);
    else
      forEachRing(Visit);
  };
  Each([P = &S](ThreadRing &TR) {
    if (TR.head() == TR.Floor)
      return;
    planRingChunk(TR);
    writeRingChunk(P->Out, TR, P->Crash ? format::kTrailerCrash : 0);
    TrailerLoss Loss = ringLoss(TR);
    if (Loss.Bytes && P->Report)
      reportLoss(TR, Loss);
    ++P->Chunks;
  });
  if (!config().Timing)
    return;
  Each([P = &S](ThreadRing &TR) {
    if (TR.head() == TR.Floor)
      return;
    writeRingTimingChunk(P->Out, TR, P->Chunks - P->Written);
    ++P->Written;
  });
}

} // namespace

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
  writeRingTrace(Out, /*Report=*/true, /*Crash=*/true);
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
