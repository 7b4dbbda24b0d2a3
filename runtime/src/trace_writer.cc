//===- trace_writer.cc - Writing the chunked trace file -------------------===//

#include "trace_writer.h"

#include "compressed_chunk_sink.h"
#include "config.h"
#include "crash_handler.h"
#include "metadata_builder.h"
#include "module_registry.h"
#include "ring_chunk.h"
#include "stream_writer.h"
#include "trace_path.h"
#include "uninstrumented.h"
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
#include <sys/syscall.h>
#include <time.h>
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
void writeRingTrace(Sink &Out, bool Report, const RunEnding &How,
                    bool Crash = false) {
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
    // The crash handler must not allocate: its chunks stay plain.
    writeChunkCompressed(
        P->Out, P->Crash ? 0 : config().CompressLevel, [&](Sink &Out) {
          writeRingChunk(Out, TR, P->Crash ? format::kTrailerCrash : 0);
        });
    TrailerLoss Loss = ringLoss(TR);
    if (Loss.Bytes && P->Report)
      reportLoss(TR, Loss);
    ++P->Chunks;
  });
  if (config().Timing)
    Each([P = &S](ThreadRing &TR) {
      if (TR.head() == TR.Floor)
        return;
      writeRingTimingChunk(P->Out, TR, P->Chunks - P->Written);
      ++P->Written;
    });
  // Last: how the run ended. A file that lacks it was cut short.
  writeRunRecordChunk(Out, How, Crash);
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

bool openTraceFile(const char *Path, TraceFileWrite &W) {
  size_t Length = std::strlen(Path);
  if (Length >= sizeof(W.Path)) {
    reportNotWritten("the path is too long:", Path, ENAMETOOLONG);
    return false;
  }
  std::memcpy(W.Path, Path, Length + 1);
  const char *Where = traceFileFor(Path, W.Baseline);
  if (int Error = output::resolve(Where, W.Target)) {
    reportNotWritten("cannot write to", Where, Error);
    return false;
  }
  if (int Error = output::open(W.Target, W.File)) {
    reportNotWritten(W.Target.How == output::Kind::Replace
                         ? "cannot create a temporary file beside"
                         : "cannot open",
                     W.Target.Path, Error);
    return false;
  }
  return true;
}

bool commitTraceFile(TraceFileWrite &W, int WriteError) {
  if (WriteError) {
    output::discard(W.File);
    reportNotWritten("cannot write", W.Target.Path, WriteError);
    return false;
  }
  char Written[PATH_MAX];
  bool KeptOther = false;
  if (int Error = output::commitExclusive(W.Target, W.File, W.Baseline,
                                          format::kChunkMagic, Written,
                                          sizeof(Written), KeptOther)) {
    reportNotWritten(W.Target.How == output::Kind::Replace
                         ? "cannot rename the temporary file to"
                         : "cannot write",
                     W.Target.Path, Error);
    return false;
  }
  if (std::strcmp(Written, W.Target.Path) != 0) {
    // Another process wrote the path since this one began, or it holds
    // what is no trace: it is kept, and this one's trace is beside it.
    char Line[3 * PATH_MAX];
    char *At = appendText(Line, "wgtrace: warning: '");
    At = appendText(At, W.Target.Path);
    At = appendText(At, KeptOther
                            ? "' is not a trace file, and is kept; this "
                              "process's trace is in '"
                            : "' was written by another process since this "
                              "one started; this process's trace is in '");
    At = appendText(At, Written);
    At = appendText(At, KeptOther ? "' (remove it, or name another file in "
                                    "WGTRACE_FILE)\n"
                                  : "' (put %p in WGTRACE_FILE for one file "
                                    "per process)\n");
    ssize_t Ignored = ::write(2, Line, static_cast<size_t>(At - Line));
    (void)Ignored;
  }
  noteTraceFileWritten(W.Path, Written);
  return true;
}

namespace {

/// The final trace is written once, by the first thread to end the run (an
/// exit, a fault, a signal). Until it is complete no other thread may end
/// the process: a second fault (two threads of an OpenMP loop can fault
/// at the same moment) would die of its signal, an exit would exit, both
/// in the middle of the write, leaving a half-written file or only its
/// temporary one.
std::atomic<bool> FinalTraceStarted{false};
std::atomic<bool> FinalTraceDone{false};
/// The thread writing it (a kernel thread id, which a signal handler may
/// read): a fault of the writer itself must not wait for itself.
std::atomic<long> FinalTraceWriter{0};

long currentThreadId() { return syscall(SYS_gettid); }

/// Waits until the thread writing the final trace is done, with
/// async-signal-safe calls only. Not forever: a writer blocked on a lock
/// that the waiting thread holds would hang a crashed program; a minute
/// is far more than writing takes.
void waitForFinalTrace() {
  if (FinalTraceWriter.load() == currentThreadId())
    return;
  const struct timespec Step = {0, 1000000};
  for (int Waited = 0; !FinalTraceDone.load() && Waited < 60000; ++Waited)
    nanosleep(&Step, nullptr);
}

/// Writes the ring-mode trace to the expanded path \p Path, with
/// async-signal-safe calls when \p FromSignal. Returns false, and reports
/// why on stderr, when it could not.
bool writeRingTraceFile(const char *Path, const RunEnding &How,
                        bool FromSignal) {
  // Static: the crash handler's stack is small, and one trace is written
  // at a time.
  static TraceFileWrite W;
  if (!openTraceFile(Path, W))
    return false;
  output::SigpipeBlock NoSigpipe;
  FdSink Out(W.File.Fd);
  if (FromSignal)
    forEachRingUnlocked([](ThreadRing &TR) { TR.recoverRecords(); });
  writeRingTrace(Out, /*Report=*/!config().Quiet, How, /*Crash=*/FromSignal);
  return commitTraceFile(W, Out.error());
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
               "others recorded only their WORKGROUP record, marked not "
               "selected\n",
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

/// Registers, once, the exit handler that writes the trace.
void registerExitWriter() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    // on_exit: the trace says with which status the program exited.
    on_exit(
        [](int Status, void *) {
          writeFinalTrace({format::RunEnd::Exit, Status, 0},
                          /*InSignalHandler=*/false);
        },
        nullptr);
  });
}

__attribute__((constructor)) void registerExitStatus() {
  on_exit(onExitStatus, nullptr);
  // What is at the trace path before this process writes anything there
  // (trace_path.h).
  const char *Pattern = std::getenv("WGTRACE_FILE");
  if (Pattern && *Pattern && tracePathProblem(Pattern).empty())
    noteTraceFileAtStart(Pattern);
}

// A run asked to be traced always leaves its file, even one that neither
// registered an instrumented module nor launched a kernel (whose exit
// handler is then never registered). The trace is written here, when the
// runtime is unloaded at exit, only then: exit handlers registered while
// the runtime loads would run as late, after the program's static
// destructors, which the tables of its modules may not survive.
__attribute__((destructor)) void writeTraceIfNoneWas() {
  // The exit status is not known here.
  writeFinalTrace({format::RunEnd::Exit, -1, 0}, /*InSignalHandler=*/false);
}

} // namespace

void noteTraceNotWritten() { TraceNotWritten.store(true); }

bool writeTrace(const std::string &Path, bool Report, std::string *Error) {
  refreshMetadata();
  output::Target T;
  if (int E = output::resolve(Path.c_str(), T)) {
    *Error = "cannot write to '" + Path + "': " + std::strerror(E);
    return false;
  }
  output::Open File;
  if (int E = output::open(T, File)) {
    *Error = (T.How == output::Kind::Replace
                  ? "cannot create a temporary file beside '"
                  : "cannot open '") +
             std::string(T.Path) + "': " + std::strerror(E);
    return false;
  }
  output::SigpipeBlock NoSigpipe;
  FdSink Out(File.Fd);
  writeRingTrace(Out, Report, RunEnding());
  if (int E = Out.error()) {
    output::discard(File);
    *Error = "cannot write '" + std::string(T.Path) + "': " + std::strerror(E);
    return false;
  }
  if (int E = output::commitReplace(T, File)) {
    *Error = "cannot write '" + std::string(T.Path) + "': " + std::strerror(E);
    return false;
  }
  return true;
}

std::vector<uint8_t> snapshotTrace() {
  refreshMetadata();
  std::vector<uint8_t> Bytes;
  VectorSink Out(Bytes);
  writeRingTrace(Out, /*Report=*/false, RunEnding());
  return Bytes;
}

void writeFinalTrace(const RunEnding &How, bool InSignalHandler) {
  if (FinalTraceStarted.exchange(true)) {
    waitForFinalTrace();
    return;
  }
  FinalTraceWriter.store(currentThreadId());
  // Whichever way this returns, the trace is as complete as it will be.
  struct MarkDone {
    ~MarkDone() { FinalTraceDone.store(true); }
  } Done;
  if (!InSignalHandler) {
    reportFilter();
    if (*tracePath() || moduleCount())
      reportUninstrumentedLaunches();
  }
  if (!*tracePath()) {
    if (!InSignalHandler)
      reportNoTraceFile();
    return;
  }
  if (config().TraceMode == Mode::Stream) {
    streamWriter().finish(How, InSignalHandler);
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
  writeRingTraceFile(Path, How, InSignalHandler);
}

void writeTraceBeforeHandler(int Signal) {
  if (config().TraceMode == Mode::Stream || !*tracePath())
    return;
  char Path[PATH_MAX];
  if (expandedTracePath(Path, sizeof(Path)))
    writeRingTraceFile(Path, {format::RunEnd::Signal, -1, Signal},
                       /*FromSignal=*/true);
}

void writeTraceAtExit() {
  registerExitWriter();
  static std::once_flag Once;
  std::call_once(Once, [] { installCrashHandlers(); });
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
  noteTraceFileAtStart(TracePathBuffer);
  writeTraceAtExit();
}

} // namespace wgtrace
