//===- trace_writer.cc - Writing the chunked trace file -------------------===//

#include "trace_writer.h"

#include "config.h"
#include "crash_handler.h"
#include "metadata_builder.h"
#include "module_registry.h"
#include "ring_chunk.h"
#include "stream_writer.h"
#include "trace_path.h"
#include "workgroup_filter.h"

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

bool expandedTracePath(char *Out, size_t Size) {
  return expandTracePath(tracePath(), Out, Size);
}

namespace {

/// Set when a trace could not be written: a process that would have exited
/// 0 exits with kExitTraceNotWritten instead (onExitStatus()).
std::atomic<bool> TraceNotWritten{false};

/// Describes \p Error without allocating (strerror may).
const char *errorText(int Error) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
  const char *Text = strerrordesc_np(Error);
  return Text ? Text : "unknown error";
#else
  (void)Error;
  return "error";
#endif
}

} // namespace

void reportNotWritten(const char *What, const char *Path, int Error) {
  char Line[PATH_MAX + 256];
  char *At = appendText(Line, "wgtrace: error: trace not written: ");
  At = appendText(At, What);
  At = appendText(At, " '");
  size_t Room = sizeof(Line) - size_t(At - Line) - 128;
  size_t Length = std::min(std::strlen(Path), Room);
  std::memcpy(At, Path, Length);
  At += Length;
  At = appendText(At, "': ");
  At = appendText(At, errorText(Error));
  At = appendText(At, "\n");
  ssize_t Ignored = ::write(2, Line, static_cast<size_t>(At - Line));
  (void)Ignored;
  TraceNotWritten.store(true);
}

namespace {

/// Opens "<path>.tmp" for writing; -1 on failure.
int openTemporary(const char *Path, char *Temporary) {
  size_t Length = std::strlen(Path);
  if (Length + 5 > PATH_MAX) {
    errno = ENAMETOOLONG;
    return -1;
  }
  // NOLINTNEXTLINE(bugprone-not-null-terminated-result): terminated below.
  std::memcpy(Temporary, Path, Length);
  std::memcpy(Temporary + Length, ".tmp", 5);
  return ::open(Temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/// Writes the ring-mode trace to \p Path through "<path>.tmp", with
/// async-signal-safe calls when \p FromSignal. Returns false, and reports
/// why on stderr, when it could not.
bool writeRingTraceFile(const char *Path, bool FromSignal) {
  char Temporary[PATH_MAX];
  int Fd = openTemporary(Path, Temporary);
  if (Fd < 0) {
    reportNotWritten("cannot create", errno == ENAMETOOLONG ? Path : Temporary,
                     errno);
    return false;
  }
  FdSink Out(Fd);
  if (FromSignal)
    forEachRingUnlocked([](ThreadRing &TR) { TR.recoverRecords(); });
  writeRingTrace(Out, /*Report=*/!config().Quiet, /*Crash=*/FromSignal);
  int Error = Out.error();
  if (::close(Fd) != 0 && !Error)
    Error = errno;
  if (Error) {
    reportNotWritten("cannot write", Temporary, Error);
    ::unlink(Temporary);
    return false;
  }
  if (::rename(Temporary, Path) != 0) {
    reportNotWritten("cannot rename the temporary file to", Path, errno);
    ::unlink(Temporary);
    return false;
  }
  return true;
}

/// At exit without a trace file: one line saying what was not written and
/// how to write it (WGTRACE_QUIET=1 silences it).
void reportNoTraceFile() {
  if (config().Quiet)
    return;
  uint64_t Workgroups = 0;
  forEachRing([&](ThreadRing &TR) { Workgroups += TR.Counts.Workgroups; });
  if (Workgroups == 0)
    return;
  std::fprintf(stderr,
               "wgtrace: no trace written: %llu workgroups were recorded but "
               "WGTRACE_FILE is not set; set WGTRACE_FILE=PATH (or call "
               "wgtrace::setTraceFile) to write them, WGTRACE_QUIET=1 to "
               "silence this\n",
               static_cast<unsigned long long>(Workgroups));
}

/// At exit with a filter: how many workgroups it selected, so that an
/// empty selection does not pass for an empty program.
void reportFilter() {
  std::string Spec = filterSpec();
  if (Spec.empty() || config().Quiet)
    return;
  uint64_t Workgroups = 0, Selected = 0;
  forEachRing([&](ThreadRing &TR) {
    Workgroups += TR.Counts.Workgroups;
    Selected += TR.Counts.Selected;
  });
  std::fprintf(stderr,
               "wgtrace: filter '%s' selected %llu of %llu workgroups; the "
               "others recorded only their WORKGROUP record\n",
               Spec.c_str(), static_cast<unsigned long long>(Selected),
               static_cast<unsigned long long>(Workgroups));
}

/// Runs last at exit (registered before any other exit handler of the
/// program): a process whose trace could not be written does not exit 0.
void onExitStatus(int Status, void *) {
  if (Status == 0 && TraceNotWritten.load()) {
    std::fflush(nullptr);
    std::_Exit(kExitTraceNotWritten);
  }
}

__attribute__((constructor)) void registerExitStatus() {
  on_exit(onExitStatus, nullptr);
}

} // namespace

void noteTraceNotWritten() { TraceNotWritten.store(true); }

bool writeTrace(const std::string &Path, bool Report, std::string *Error) {
  refreshMetadata();
  char Temporary[PATH_MAX];
  int Fd = openTemporary(Path.c_str(), Temporary);
  if (Fd < 0) {
    *Error = "cannot create '" + Path + ".tmp': " + std::strerror(errno);
    return false;
  }
  FdSink Out(Fd);
  writeRingTrace(Out, Report);
  int WriteError = Out.error();
  if (::close(Fd) != 0 && !WriteError)
    WriteError = errno;
  if (WriteError) {
    *Error = "cannot write '" + std::string(Temporary) +
             "': " + std::strerror(WriteError);
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
  if (!InSignalHandler)
    reportFilter();
  if (!*tracePath()) {
    if (!InSignalHandler)
      reportNoTraceFile();
    return;
  }
  if (config().TraceMode == Mode::Stream) {
    streamWriter().finish(InSignalHandler);
    return;
  }
  char Path[PATH_MAX];
  if (!expandedTracePath(Path, sizeof(Path))) {
    reportNotWritten("the expanded trace file name is too long:", tracePath(),
                     ENAMETOOLONG);
    return;
  }
  // In a signal handler: the metadata was cached when the modules
  // registered; nothing allocates or locks.
  if (!InSignalHandler)
    refreshMetadata();
  writeRingTraceFile(Path, InSignalHandler);
}

void writeTraceBeforeHandler() {
  if (config().TraceMode == Mode::Stream || !*tracePath())
    return;
  char Path[PATH_MAX];
  if (expandedTracePath(Path, sizeof(Path)))
    writeRingTraceFile(Path, /*FromSignal=*/true);
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
  std::string Problem = tracePathProblem(Path);
  if (!Problem.empty())
    fatal("trace file '" + Path + "' " + Problem);
  std::memcpy(TracePathBuffer, Path.c_str(), Path.size() + 1);
  TracePathOverridden.store(true, std::memory_order_release);
}

} // namespace wgtrace
