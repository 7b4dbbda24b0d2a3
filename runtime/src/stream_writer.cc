//===- stream_writer.cc - Lossless tracing with bounded memory ------------===//

#include "stream_writer.h"

#include "compressed_chunk_sink.h"
#include "config.h"
#include "module_registry.h"
#include "ring_chunk.h"
#include "run_record.h"
#include "trace_writer.h"
#include "workgroup_filter.h"

#include <atomic>
#include <climits>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace wgtrace::runtime {
namespace {

/// The records \p TR holds in its current buffer.
BufferChunk currentBuffer(const ThreadRing &TR) {
  return {TR.Data,    TR.head() - TR.BufferBase, TR.Size,
          TR.Ordinal, TR.ChunkSequence,          TR.BufferBase};
}

/// A ring chunk and the timing entries of the workgroups that ended in it.
struct FullBuffer {
  ThreadRing *Owner;
  BufferChunk Buffer;
  std::vector<TimingEntry> Timing;
};

class FileStreamWriter final : public StreamWriter {
public:
  void begin() override {
    std::unique_lock<std::mutex> Lock(Mutex);
    startLocked();
  }

  void exchange(ThreadRing &TR) override {
    std::unique_lock<std::mutex> Lock(Mutex);
    startLocked();
    Returned.wait(Lock, [&] { return TR.Spare != nullptr; });
    Queue.push_back({&TR, currentBuffer(TR), std::move(TR.Timing)});
    TR.Timing.clear();
    uint64_t Head = TR.head();
    ++TR.ChunkSequence;
    TR.reset(TR.Spare, Head);
    TR.Spare = nullptr;
    Queued.notify_one();
  }

  void finish(const RunEnding &How, bool InSignalHandler) override {
    if (InSignalHandler) {
      finishInSignalHandler(How);
      return;
    }
    {
      std::unique_lock<std::mutex> Lock(Mutex);
      // A run in which no workgroup ran still leaves its file: the
      // metadata and the run record, written from here.
      openLocked();
      if (Fd < 0)
        return;
      Stopping = true;
      Queued.notify_one();
    }
    if (Writer.joinable())
      Writer.join();
    // The writer thread is gone: the rest is written from here.
    output::SigpipeBlock NoSigpipe;
    FdSink Out(Fd);
    // Modules loaded after the first chunk (dlopen), and filters installed
    // after it (wgtrace::setFilter), need a newer metadata chunk; readers
    // use the latest one for the chunks that follow it.
    if (moduleCount() != ModulesInMetadata ||
        installedFilters().size() != FiltersInMetadata) {
      refreshMetadata();
      writeMetadataChunk(Out);
    }
    forEachRing([&](ThreadRing &TR) {
      BufferChunk B = currentBuffer(TR);
      if (B.Used == 0)
        return;
      writeChunkCompressed(Out, config().CompressLevel, [&](Sink &S) {
        writeBufferChunk(S, B, 0, /*Compact=*/true);
      });
      Done.push_back({&TR, B, std::move(TR.Timing)});
    });
    writeTimingChunks(Out, Done.size(), 0, Done.data(), Done.size());
    writeRunRecordChunk(Out, How, /*Unlocked=*/false);
    if (!Error)
      Error = Out.error();
    commitTraceFile(File, Error);
    Fd = -1;
  }

private:
  /// Opens the file and starts the writer thread on first use. The first
  /// chunk is the metadata of every module registered by then, which is
  /// every module of the program but those loaded later with dlopen.
  void startLocked() {
    openLocked();
    if (!Writer.joinable())
      Writer = std::thread([this] { run(); });
  }

  /// Opens the file and writes the metadata chunk, once.
  void openLocked() {
    if (Started)
      return;
    Started = true;
    if (!*tracePath()) {
      fatal("WGTRACE_MODE=stream needs a trace file: set WGTRACE_FILE (or "
            "pass --instrument_file=PATH to the samples)");
    }
    char Path[PATH_MAX];
    if (!expandedTracePath(Path, sizeof(Path)))
      fatal(std::string("the trace file name that WGTRACE_FILE='") +
            tracePath() + "' makes is longer than PATH_MAX");
    // A FIFO waits here for its reader (and for another process writing
    // it to finish).
    if (!openTraceFile(Path, File)) {
      std::fflush(nullptr);
      std::_Exit(2);
    }
    Fd = File.File.Fd;
    refreshMetadata();
    FdSink Out(Fd);
    output::SigpipeBlock NoSigpipe;
    writeMetadataChunk(Out);
    ModulesInMetadata = moduleCount();
    FiltersInMetadata = installedFilters().size();
    Error = Out.error();
  }

  void run() {
    // Ctrl-C and the like go to the program's threads: their handler waits
    // for the chunk this thread is writing, which it could not do here.
    sigset_t Terminations;
    sigemptyset(&Terminations);
    for (int Signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU})
      sigaddset(&Terminations, Signal);
    // A FIFO or socket whose reader has gone fails the write (EPIPE,
    // reported at exit) instead of killing the process.
    sigaddset(&Terminations, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &Terminations, nullptr);

    FdSink Out(Fd);
    std::unique_lock<std::mutex> Lock(Mutex);
    for (;;) {
      Queued.wait(Lock, [&] { return !Queue.empty() || Stopping; });
      if (Queue.empty())
        break;
      // A signal handler that halted the writer writes the queue itself.
      int Expected = Idle;
      if (!State.compare_exchange_strong(Expected, Writing))
        break;
      FullBuffer Job = std::move(Queue.front());
      Queue.pop_front();
      Lock.unlock();
      writeChunkCompressed(Out, config().CompressLevel, [&](Sink &S) {
        writeBufferChunk(S, Job.Buffer, 0, /*Compact=*/false);
      });
      Lock.lock();
      Job.Owner->Spare = const_cast<uint8_t *>(Job.Buffer.Data);
      Done.push_back(std::move(Job));
      Expected = Writing;
      if (!State.compare_exchange_strong(Expected, Idle)) {
        State.store(HaltedAfterChunk);
        break;
      }
      Returned.notify_all();
    }
    if (!Error)
      Error = Out.error();
  }

  /// Writes the timing chunks of ring chunks \p First to First + \p Count
  /// of the file (\p Jobs, in file order), which has \p Total ring chunks;
  /// they follow all of them.
  static void writeTimingChunks(Sink &Out, size_t Total, size_t First,
                                const FullBuffer *Jobs, size_t Count) {
    for (size_t I = 0; I < Count; ++I) {
      const FullBuffer &J = Jobs[I];
      format::TimingChunkHeader Header = {
          static_cast<uint32_t>(Total - (First + I)), J.Buffer.RingId,
          J.Buffer.Sequence};
      writeTimingChunk(Out, Header, J.Timing);
    }
  }

  void finishInSignalHandler(const RunEnding &How) {
    if (!Started) {
      // No workgroup ran yet: the file is opened here, with
      // async-signal-safe calls (the metadata was cached when the modules
      // registered), so that the run still leaves its trace.
      Started = true;
      char Path[PATH_MAX];
      if (!expandedTracePath(Path, sizeof(Path)) || !openTraceFile(Path, File))
        return;
      Fd = File.File.Fd;
      FdSink Out(Fd);
      writeMetadataChunk(Out);
      Error = Out.error();
    }
    if (Fd < 0)
      return;
    // Stop the writer thread between chunks, or let the chunk it is in the
    // middle of complete (for a second at most).
    if (State.exchange(Halted) == Writing)
      for (int Spin = 0; Spin < 1000 && State.load() != HaltedAfterChunk;
           ++Spin)
        ::usleep(1000);
    // Nothing below allocates: the buffers still queued and the rings'
    // current ones are written where they are, their timing after them.
    output::SigpipeBlock NoSigpipe;
    FdSink Out(Fd);
    for (const FullBuffer &Job : Queue)
      writeBufferChunk(Out, Job.Buffer, 0, /*Compact=*/false);
    size_t Last = 0;
    forEachRingUnlocked([Count = &Last, Sink = &Out](ThreadRing &TR) {
      TR.recoverRecords();
      BufferChunk B = currentBuffer(TR);
      if (B.Used == 0)
        return;
      writeBufferChunk(*Sink, B, format::kTrailerCrash, /*Compact=*/true);
      ++*Count;
    });
    size_t Total = Done.size() + Queue.size() + Last;
    writeTimingChunks(Out, Total, 0, Done.data(), Done.size());
    size_t Index = Done.size();
    for (const FullBuffer &Job : Queue)
      writeTimingChunks(Out, Total, Index++, &Job, 1);
    struct Walk {
      Sink &Out;
      size_t Total;
      size_t Index;
    } W{Out, Total, Index};
    forEachRingUnlocked([P = &W](ThreadRing &TR) {
      BufferChunk B = currentBuffer(TR);
      if (B.Used == 0)
        return;
      format::TimingChunkHeader Header = {
          static_cast<uint32_t>(P->Total - P->Index++), B.RingId, B.Sequence};
      writeTimingChunk(P->Out, Header, TR.Timing);
    });
    writeRunRecordChunk(Out, How, /*Unlocked=*/true);
    if (!Error)
      Error = Out.error();
    commitTraceFile(File, Error);
    Fd = -1;
  }

  std::mutex Mutex;
  std::condition_variable Queued;
  std::condition_variable Returned;
  std::deque<FullBuffer> Queue;
  /// Ring chunks written, in file order (their timing entries are written
  /// after all of them).
  std::vector<FullBuffer> Done;
  std::thread Writer;
  /// The writer thread between chunks or writing one; a signal handler
  /// halts it, and it says when its last chunk is complete.
  enum WriterState : uint8_t { Idle, Writing, Halted, HaltedAfterChunk };
  std::atomic<int> State{Idle};
  bool Started = false;
  bool Stopping = false;
  /// errno of the first failed write.
  int Error = 0;
  /// The trace file, and its descriptor while it is open.
  TraceFileWrite File;
  int Fd = -1;
  size_t ModulesInMetadata = 0;
  size_t FiltersInMetadata = 0;
};

} // namespace

StreamWriter &streamWriter() {
  // Leaked: used by the exit and crash handlers.
  static FileStreamWriter *Writer = new FileStreamWriter;
  return *Writer;
}

} // namespace wgtrace::runtime
