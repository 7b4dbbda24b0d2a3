//===- stream_writer.cc - Lossless tracing with bounded memory ------------===//

#include "stream_writer.h"

#include "config.h"
#include "module_registry.h"
#include "trace_writer.h"

#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace wgtrace::runtime {
namespace {

struct FullBuffer {
  ThreadRing *Owner;
  StreamBuffer Buffer;
  std::vector<TimingEntry> Timing;
};

StreamBuffer currentBuffer(const ThreadRing &TR) {
  return {TR.Data, TR.Size, TR.head(), TR.Start};
}

class FileStreamWriter final : public StreamWriter {
public:
  void exchange(ThreadRing &TR) override {
    std::unique_lock<std::mutex> Lock(Mutex);
    startLocked();
    Returned.wait(Lock, [&] { return TR.Spare != nullptr; });
    Queue.push_back({&TR, currentBuffer(TR), std::move(TR.Timing)});
    TR.Timing.clear();
    TR.reset(TR.Spare);
    TR.Spare = nullptr;
    ++TR.Generation;
    Queued.notify_one();
  }

  void finish(bool InSignalHandler) override {
    if (InSignalHandler) {
      finishInSignalHandler();
      return;
    }
    {
      std::unique_lock<std::mutex> Lock(Mutex);
      if (!tracePath()[0] && !Started)
        return;
      startLocked();
      if (Fd < 0)
        return;
      Stopping = true;
      Queued.notify_one();
    }
    Writer.join();
    // The writer thread is gone: the rest is written from here.
    FdSink Out(Fd);
    // Modules loaded after the first chunk (dlopen) need a newer metadata
    // chunk; readers use the latest one for the chunks that follow it.
    if (moduleCount() != ModulesInMetadata) {
      refreshMetadata();
      writeMetadataChunk(Out);
    }
    forEachRing([&](ThreadRing &TR) {
      if (TR.head() != 0)
        writeBufferChunk(Out, currentBuffer(TR), TR.Timing);
    });
    closeAndRename(Out.failed() || Failed);
  }

private:
  /// Opens the file and starts the writer thread on first use. The first
  /// chunk is the metadata of every module registered by then, which is
  /// every module of the program but those loaded later with dlopen.
  void startLocked() {
    if (Started)
      return;
    Started = true;
    const char *Path = tracePath();
    if (!*Path) {
      fatal("WGTRACE_MODE=stream needs a trace file: set WGTRACE_FILE (or "
            "pass --instrument_file=PATH to the samples)");
    }
    std::snprintf(FinalPath, sizeof(FinalPath), "%s", Path);
    std::snprintf(TemporaryPath, sizeof(TemporaryPath), "%s.tmp", Path);
    Fd = ::open(TemporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (Fd < 0)
      fatal(std::string("cannot open '") + TemporaryPath +
            "': " + std::strerror(errno));
    refreshMetadata();
    FdSink Out(Fd);
    writeMetadataChunk(Out);
    ModulesInMetadata = moduleCount();
    Failed = Out.failed();
    Writer = std::thread([this] { run(); });
  }

  void run() {
    FdSink Out(Fd);
    std::unique_lock<std::mutex> Lock(Mutex);
    for (;;) {
      Queued.wait(Lock, [&] { return !Queue.empty() || Stopping; });
      if (Queue.empty())
        break;
      FullBuffer Job = std::move(Queue.front());
      Queue.pop_front();
      Writing.store(true, std::memory_order_release);
      Lock.unlock();
      writeBufferChunk(Out, Job.Buffer, Job.Timing);
      Lock.lock();
      Writing.store(false, std::memory_order_release);
      Job.Owner->Spare = Job.Buffer.Data;
      Returned.notify_all();
    }
    Failed = Failed || Out.failed();
  }

  void finishInSignalHandler() {
    if (!Started || Fd < 0)
      return;
    // Let a chunk the writer thread is in the middle of complete.
    for (int Spin = 0; Spin < 1000 && Writing.load(std::memory_order_acquire);
         ++Spin)
      ::usleep(1000);
    FdSink Out(Fd);
    for (const FullBuffer &Job : Queue)
      writeBufferChunk(Out, Job.Buffer, Job.Timing);
    forEachRingUnlocked([&](ThreadRing &TR) {
      TR.recoverRecords();
      if (TR.head() != 0)
        writeBufferChunk(Out, currentBuffer(TR), TR.Timing);
    });
    ::close(Fd);
    ::rename(TemporaryPath, FinalPath);
  }

  void closeAndRename(bool WriteFailed) {
    if (::close(Fd) != 0)
      WriteFailed = true;
    Fd = -1;
    if (WriteFailed) {
      std::fprintf(stderr, "wgtrace: error: cannot write '%s': %s\n",
                   TemporaryPath, std::strerror(errno));
      return;
    }
    if (::rename(TemporaryPath, FinalPath) != 0)
      std::fprintf(stderr, "wgtrace: error: cannot rename '%s' to '%s': %s\n",
                   TemporaryPath, FinalPath, std::strerror(errno));
  }

  std::mutex Mutex;
  std::condition_variable Queued;
  std::condition_variable Returned;
  std::deque<FullBuffer> Queue;
  std::thread Writer;
  std::atomic<bool> Writing{false};
  bool Started = false;
  bool Stopping = false;
  bool Failed = false;
  int Fd = -1;
  size_t ModulesInMetadata = 0;
  char FinalPath[PATH_MAX] = {};
  char TemporaryPath[PATH_MAX + 4] = {};
};

} // namespace

StreamWriter &streamWriter() {
  // Leaked: used by the exit and crash handlers.
  static FileStreamWriter *Writer = new FileStreamWriter;
  return *Writer;
}

} // namespace wgtrace::runtime
