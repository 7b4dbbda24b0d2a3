//===- launcher.cc - Running a grid of workgroups on a device -------------===//
//
// local-sync runs workgroups in order on the calling thread; local-task
// hands them to a fixed pool of workers that claim workgroup indices from a
// shared counter. The counter is touched once per workgroup, never per
// record, so it costs nothing next to a kernel's own work.
//
//===----------------------------------------------------------------------===//

#include "config.h"
#include "trace_writer.h"
#include "uninstrumented.h"

#include "wgtrace/detail/openmp.h"
#include "wgtrace/wgtrace.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace wgtrace {
namespace {

std::atomic<int> DeviceOverride{-1};

Workgroup workgroupAt(const Grid &G, uint64_t Index, uint32_t Processor) {
  Workgroup WG;
  WG.count[0] = G.x;
  WG.count[1] = G.y;
  WG.count[2] = G.z;
  WG.id[0] = static_cast<uint32_t>(Index % G.x);
  WG.id[1] = static_cast<uint32_t>((Index / G.x) % G.y);
  WG.id[2] = static_cast<uint32_t>(Index / (uint64_t(G.x) * G.y));
  WG.processor_id = Processor;
  return WG;
}

/// Launches so far: the next dispatch's number (WGTRACE_FILTER dispatch=).
/// Touched once per launch.
std::atomic<uint64_t> NextDispatch{0};

/// Runs one workgroup; returns whether its kernel is instrumented.
bool runOne(detail::SiteRef Site, uint64_t Dispatch,
            detail::WorkgroupThunk Thunk, void *Context, const Workgroup &WG) {
  // The kernel's prologue takes the site and dispatch number; a kernel that
  // is not instrumented leaves them, which tells it apart, and they are
  // cleared for the next direct call.
  detail::ThreadState &State = detail::ThreadStateTLS;
  State.PendingSite = Site.Id;
  State.PendingDispatch = Dispatch;
  Thunk(Context, WG);
  bool Instrumented = State.PendingDispatch != Dispatch;
  State.PendingSite = detail::kNoSite;
  State.PendingDispatch = detail::kNoDispatch;
  return Instrumented;
}

/// A fixed set of threads that run one grid at a time.
class WorkerPool {
public:
  explicit WorkerPool(uint32_t Count) {
    for (uint32_t I = 0; I < Count; ++I)
      Threads.emplace_back([this, I] { work(I); });
  }

  /// Runs the grid; returns how many of its workgroups ran a kernel that
  /// is not instrumented.
  uint64_t run(detail::SiteRef Site, uint64_t Dispatch, const Grid &G,
               detail::WorkgroupThunk Thunk, void *Context) {
    // One grid at a time: dispatches from several user threads queue here.
    std::lock_guard<std::mutex> Serial(RunLock);
    std::unique_lock<std::mutex> Lock(Mutex);
    Job = {Site, Dispatch, G, Thunk, Context};
    Total = uint64_t(G.x) * G.y * G.z;
    Next.store(0, std::memory_order_relaxed);
    Uninstrumented = 0;
    Busy = static_cast<uint32_t>(Threads.size());
    ++Generation;
    Wake.notify_all();
    Done.wait(Lock, [this] { return Busy == 0; });
    return Uninstrumented;
  }

  uint32_t size() const { return static_cast<uint32_t>(Threads.size()); }

private:
  struct GridJob {
    detail::SiteRef Site;
    uint64_t Dispatch;
    Grid G;
    detail::WorkgroupThunk Thunk;
    void *Context;
  };

  void work(uint32_t Processor) {
    uint64_t Seen = 0;
    for (;;) {
      GridJob J;
      uint64_t N;
      {
        std::unique_lock<std::mutex> Lock(Mutex);
        Wake.wait(Lock, [&] { return Generation != Seen; });
        Seen = Generation;
        J = Job;
        N = Total;
      }
      uint64_t NotInstrumented = 0;
      for (;;) {
        uint64_t Index = Next.fetch_add(1, std::memory_order_relaxed);
        if (Index >= N)
          break;
        NotInstrumented += !runOne(J.Site, J.Dispatch, J.Thunk, J.Context,
                                   workgroupAt(J.G, Index, Processor));
      }
      std::lock_guard<std::mutex> Lock(Mutex);
      Uninstrumented += NotInstrumented;
      if (--Busy == 0)
        Done.notify_one();
    }
  }

  std::mutex RunLock;
  std::mutex Mutex;
  std::condition_variable Wake;
  std::condition_variable Done;
  GridJob Job{};
  uint64_t Total = 0;
  /// Workgroups of the running grid whose kernel is not instrumented.
  uint64_t Uninstrumented = 0;
  uint64_t Generation = 0;
  uint32_t Busy = 0;
  std::atomic<uint64_t> Next{0};
  std::vector<std::thread> Threads;
};

// Leaked: idle workers block on the pool's condition variable until the
// process ends, so it must never be destroyed under them.
WorkerPool &workerPool() {
  static WorkerPool *Pool = new WorkerPool(runtime::config().Workers);
  return *Pool;
}

} // namespace

bool parseDevice(std::string_view Name, Device &Out) {
  if (Name == "local-sync") {
    Out = Device::LocalSync;
    return true;
  }
  if (Name == "local-task") {
    Out = Device::LocalTask;
    return true;
  }
  return false;
}

Device currentDevice() {
  int Override = DeviceOverride.load(std::memory_order_relaxed);
  if (Override >= 0)
    return static_cast<Device>(Override);
  return runtime::config().LocalTask ? Device::LocalTask : Device::LocalSync;
}

void setDevice(Device D) {
  DeviceOverride.store(static_cast<int>(D), std::memory_order_relaxed);
}

namespace detail {

void runLaunch(SiteRef Site, const LaunchGrid &G, const char *PrettyFunction,
               const void *KernelAddress, WorkgroupThunk Thunk, void *Context) {
  if (G.x == 0 || G.y == 0 || G.z == 0)
    return;
  // A program that launches kernels leaves its trace at exit, even when
  // none of them is instrumented.
  runtime::writeTraceAtExit();
  uint64_t Dispatch = NextDispatch.fetch_add(1, std::memory_order_relaxed);
  uint64_t NotInstrumented = 0;
  if (currentDevice() == Device::LocalTask) {
    NotInstrumented = workerPool().run(Site, Dispatch, G, Thunk, Context);
  } else {
    uint64_t Total = uint64_t(G.x) * G.y * G.z;
    for (uint64_t Index = 0; Index < Total; ++Index)
      NotInstrumented +=
          !runOne(Site, Dispatch, Thunk, Context, workgroupAt(G, Index, 0));
  }
  if (NotInstrumented)
    runtime::noteUninstrumentedLaunch(
        G.File, G.Line, Site.Id == kNoSite ? format::kNoDispatchSite : Site.Id,
        PrettyFunction, KernelAddress, NotInstrumented);
}

uint64_t beginOmpLaunch() {
  runtime::writeTraceAtExit();
  return NextDispatch.fetch_add(1, std::memory_order_relaxed);
}

void runGrid(SiteRef Site, const Grid &G, WorkgroupThunk Thunk, void *Context) {
  runLaunch(Site, LaunchGrid(G, nullptr, 0), nullptr, nullptr, Thunk, Context);
}

} // namespace detail
} // namespace wgtrace
