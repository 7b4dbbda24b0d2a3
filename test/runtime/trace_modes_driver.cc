//===- trace_modes_driver.cc - A program whose trace the tests inspect ----===//
//
// Written as wgtrace-rewrite writes instrumented code (module table,
// WGTRACE_WORKGROUP, access macros) so that the runtime is tested on its
// own. Usage: trace_modes_driver <scenario> <workgroups> <accesses>
//   records  every workgroup loads and stores <accesses> floats
//   crash    like records, then workgroup <workgroups> writes through null
//   crash-in-loop  like records, then workgroup <workgroups> writes through
//            null at its 11th store, in the middle of its loop
//   crash-threads  like records, then two threads each call fill
//            directly for workgroup t (t = 0, 1), which waits after its
//            loop for the other and writes through null: two faults at once
//   abort    like records, then calls abort() inside a kernel
//   exit     like records, then calls exit(3) inside a kernel
//   terminate like records, then calls std::terminate() inside a kernel
//   timing   like records, on the local-task device
//   varied   workgroup i loads and stores <accesses> + (7 i mod 23) floats,
//            and every fifth prints a 5000-character line halfway
//   api      records, then snapshotTrace(), flushTrace(<accesses>.flushed
//            path in WGTRACE_API_FLUSH), resetTrace(), and one more
//            dispatch of one workgroup that the exit trace alone holds
//   threads  <workgroups> threads one after another, each started when the
//            previous one ended, thread t calling fill directly for
//            workgroup t with processor id t (loads and stores <accesses>)
//   threads2 the same with two threads alive at a time
//   raise    like records, then a direct call of fill that sends the
//            process signal $DRIVER_SIGNAL halfway through its loop
//   dispatches  three dispatches of fill over <workgroups> workgroups,
//            then one of vary; with DRIVER_API_FILTER set, the program
//            calls wgtrace::setFilter with it before the second and with ""
//            before the fourth
//   fork     like records, then forks: the child runs one more workgroup,
//            both exit 0
//   none     runs no kernel (exits 0); none-signal sends itself
//            $DRIVER_SIGNAL instead, before any kernel ran
//   checked3 / reserved3  workgroup i adds 1 to each of <accesses> floats
//            of its row with three records (two loads, a store), through
//            the checked access forms or after WGTRACE_RESERVE(3) through
//            the reserved ones (this file is built with
//            WGTRACE_CHECK_RESERVATIONS=1): the traces must hold the same
//            records
//   nested   workgroup i of "outer" names its row as buffer 0, loads and
//            stores <accesses> floats of it, and after every 16th calls the
//            kernel "inner" directly, which names 8 floats of a scratch
//            buffer as its buffer 0 and stores them
//
// Before the module below registers (and wgtrace installs its signal
// handlers), DRIVER_OWN_HANDLER=exit or =return gives SIGTERM a handler of
// the program's that prints "handled" and calls _exit(7) or returns, and
// DRIVER_IGNORE_SIGTERM=1 ignores SIGTERM. DRIVER_FILE_SIZE=N limits the
// files the process writes to N bytes (writing more fails with EFBIG).
// DRIVER_GATE=PATH: when its kernels are done the program creates
// PATH.ready.<pid> and waits until PATH exists before it exits, so that a
// test can have several processes exit at the same moment.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/instrument.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {
struct ProgramSignalSetup {
  ProgramSignalSetup() {
    // Signals that dump core by default: no core files from the tests.
    struct rlimit NoCore = {0, 0};
    setrlimit(RLIMIT_CORE, &NoCore);
    const char *Own = std::getenv("DRIVER_OWN_HANDLER");
    if (Own && !std::strcmp(Own, "exit"))
      std::signal(SIGTERM, [](int) {
        ssize_t Ignored = write(2, "handled\n", 8);
        (void)Ignored;
        _exit(7);
      });
    if (Own && !std::strcmp(Own, "return"))
      std::signal(SIGTERM, [](int) {
        ssize_t Ignored = write(2, "handled\n", 8);
        (void)Ignored;
      });
    if (std::getenv("DRIVER_IGNORE_SIGTERM"))
      std::signal(SIGTERM, SIG_IGN);
    if (const char *Size = std::getenv("DRIVER_FILE_SIZE")) {
      std::signal(SIGXFSZ, SIG_IGN);
      rlim_t Bytes = std::strtoull(Size, nullptr, 10);
      struct rlimit Limit = {Bytes, Bytes};
      setrlimit(RLIMIT_FSIZE, &Limit);
    }
  }
} SignalSetup;

/// DRIVER_GATE (above): returns when the test opens the gate.
void waitAtGate() {
  const char *Gate = std::getenv("DRIVER_GATE");
  if (!Gate)
    return;
  std::string Ready = std::string(Gate) + ".ready." + std::to_string(getpid());
  if (FILE *F = std::fopen(Ready.c_str(), "w"))
    std::fclose(F);
  // Not forever: a test that died before opening the gate must not leave
  // its programs behind.
  for (int Waited = 0; access(Gate, F_OK) != 0 && Waited < 120000; ++Waited)
    usleep(1000);
}
} // namespace

namespace {
// The buffer each of outer and inner names (nameBuffer below): a reader
// checks a buffer VALUE's ordinal against its kernel's parameters.
const ::wgtrace::detail::ParamInfo wgtrace_params_[] = {
    {"row", "float *", 1, 0, 4, true}, {"cells", "float *", 1, 0, 4, true}};
const ::wgtrace::detail::FunctionInfo wgtrace_functions_[] = {
    {"fill", "test", "(wg, data, accesses, fault)", "void fill(...)"},
    {"vary", "test", "(wg, data, accesses)", "void vary(...)"},
    {"outer", "test", "(wg, row, accesses, scratch)", "void outer(...)",
     nullptr, 0, 0, 0, wgtrace_params_ + 0, 1},
    {"inner", "test", "(wg, cells, count)", "void inner(...)", nullptr, 0, 0, 0,
     wgtrace_params_ + 1, 1}};
const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
    {"fill", "trace_modes_driver.cc:1"},
    {"vary", "trace_modes_driver.cc:2"},
    {"outer", "trace_modes_driver.cc:3"}};
::wgtrace::detail::Module wgtrace_module_(wgtrace_functions_, 4, wgtrace_sites_,
                                          3);
} // namespace

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

enum class Fault {
  None,
  Segv,
  SegvInLoop,
  SegvTogether,
  Abort,
  Exit,
  Terminate,
  Raise
};

/// The threads of crash-threads that reached their fault.
static std::atomic<int> AtFault{0};

static void fill(const wgtrace::Workgroup &wg, float *data, int accesses,
                 Fault fault) {
  WGTRACE_WORKGROUP(wg, 0);
  float *row = data + size_t(wg.id[0]) * accesses;
  for (int i = 0; i < accesses; ++i) {
    float *target = fault == Fault::SegvInLoop && i == 10 ? nullptr : &row[i];
    WGTRACE_STORE(*target) = WGTRACE_LOAD(row[i]) + 1.0f;
    if (fault == Fault::Raise && i == accesses / 2)
      kill(getpid(), std::atoi(std::getenv("DRIVER_SIGNAL")));
  }
  if (fault == Fault::None)
    return;
  switch (fault) {
  case Fault::SegvTogether:
    // Both threads fault at the same moment, with their loops recorded.
    AtFault.fetch_add(1);
    while (AtFault.load() < 2) {
    }
    [[fallthrough]];
  case Fault::Segv: {
    volatile float *null = nullptr;
    WGTRACE_STORE(*null) = 1.0f;
    break;
  }
  case Fault::SegvInLoop:
  case Fault::Raise:
    break;
  case Fault::Abort:
    std::abort();
  case Fault::Exit:
    std::exit(3);
  case Fault::Terminate:
    std::terminate();
  case Fault::None:
    break;
  }
}

// checked3 and reserved3: one kernel (one function id, one site) so that
// the two traces are alike but for how the records were appended.
static void fill3(const wgtrace::Workgroup &wg, float *data, int accesses,
                  bool reserved) {
  WGTRACE_WORKGROUP(wg, 0);
  float *row = data + size_t(wg.id[0]) * accesses;
  if (reserved)
    for (int i = 0; i < accesses; ++i) {
      WGTRACE_RESERVE(3);
      WGTRACE_STORE_RESERVED(row[i]) = WGTRACE_LOAD_RESERVED(row[i]) * 0.5f +
                                       WGTRACE_LOAD_RESERVED(row[i]) * 0.5f +
                                       1.0f;
    }
  else
    for (int i = 0; i < accesses; ++i)
      WGTRACE_STORE(row[i]) =
          WGTRACE_LOAD(row[i]) * 0.5f + WGTRACE_LOAD(row[i]) * 0.5f + 1.0f;
}

static void vary(const wgtrace::Workgroup &wg, float *data, int accesses) {
  WGTRACE_WORKGROUP(wg, 1);
  int count = accesses + int(wg.id[0] * 7 % 23);
  float *row = data + size_t(wg.id[0]) * (accesses + 23);
  for (int i = 0; i < count; ++i) {
    WGTRACE_STORE(row[i]) = WGTRACE_LOAD(row[i]) + 1.0f;
    if (wg.id[0] % 5 == 0 && i == count / 2)
      WGTRACE_PRINTF("{}", std::string(5000, 'x'));
  }
}

// What the rewriter's prologue writes for a buffer parameter.
static void nameBuffer(uint8_t ordinal, const void *base, uint64_t bytes) {
  ::wgtrace::detail::recordValueBits(::wgtrace::format::ValueType::BufferBase,
                                     ordinal,
                                     reinterpret_cast<uintptr_t>(base));
  ::wgtrace::detail::recordValueBits(::wgtrace::format::ValueType::BufferExtent,
                                     ordinal, bytes);
}

static void inner(const wgtrace::Workgroup &wg, float *cells, int count) {
  WGTRACE_WORKGROUP(wg, 3);
  nameBuffer(0, cells, sizeof(float) * count);
  for (int i = 0; i < count; ++i)
    WGTRACE_STORE(cells[i]) = 1.0f;
}

static void outer(const wgtrace::Workgroup &wg, float *rows, int accesses,
                  float *scratch) {
  WGTRACE_WORKGROUP(wg, 2);
  float *row = rows + size_t(wg.id[0]) * accesses;
  nameBuffer(0, row, sizeof(float) * accesses);
  for (int i = 0; i < accesses; ++i) {
    WGTRACE_STORE(row[i]) = WGTRACE_LOAD(row[i]) + 1.0f;
    if (i % 16 == 15) {
      wgtrace::Workgroup in{};
      inner(in, scratch, 8);
    }
  }
}

static int run(int argc, char **argv);

int main(int argc, char **argv) {
  int Status = run(argc, argv);
  waitAtGate();
  return Status;
}

static int run(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <scenario> <workgroups> <accesses>\n",
                 argv[0]);
    return 2;
  }
  std::string scenario = argv[1];
  int workgroups = std::atoi(argv[2]);
  int accesses = std::atoi(argv[3]);
  Fault fault = scenario == "crash"           ? Fault::Segv
                : scenario == "crash-in-loop" ? Fault::SegvInLoop
                : scenario == "abort"         ? Fault::Abort
                : scenario == "exit"          ? Fault::Exit
                : scenario == "terminate"     ? Fault::Terminate
                : scenario == "raise"         ? Fault::Raise
                                              : Fault::None;
  if (scenario == "none")
    return 0;
  if (scenario == "none-signal") {
    kill(getpid(), std::atoi(std::getenv("DRIVER_SIGNAL")));
    return 0;
  }
  if (scenario == "varied") {
    std::vector<float> rows(size_t(workgroups) * (accesses + 23), 1.0f);
    wgtrace::dispatch(WGTRACE_SITE(1), vary,
                      wgtrace::Grid{uint32_t(workgroups), 1, 1}, rows.data(),
                      accesses);
    return 0;
  }
  if (scenario == "dispatches") {
    std::vector<float> data(size_t(workgroups) * accesses, 1.0f);
    std::vector<float> rows(size_t(workgroups) * (accesses + 23), 1.0f);
    const char *api = std::getenv("DRIVER_API_FILTER");
    for (int d = 0; d < 3; ++d) {
      if (api && d == 1) {
        std::string error;
        if (!wgtrace::setFilter(api, &error)) {
          std::fprintf(stderr, "setFilter: %s\n", error.c_str());
          return 4;
        }
      }
      wgtrace::dispatch(WGTRACE_SITE(0), fill,
                        wgtrace::Grid{uint32_t(workgroups), 1, 1}, data.data(),
                        accesses, Fault::None);
    }
    if (api)
      wgtrace::setFilter("");
    wgtrace::dispatch(WGTRACE_SITE(1), vary,
                      wgtrace::Grid{uint32_t(workgroups), 1, 1}, rows.data(),
                      accesses);
    return 0;
  }
  if (scenario == "threads" || scenario == "threads2") {
    std::vector<float> data(size_t(workgroups) * accesses, 1.0f);
    auto launch = [&](int t) {
      return std::thread([&data, t, workgroups, accesses] {
        wgtrace::Workgroup wg{};
        wg.id[0] = uint32_t(t);
        wg.count[0] = uint32_t(workgroups);
        wg.processor_id = uint32_t(t);
        fill(wg, data.data(), accesses, Fault::None);
      });
    };
    int together = scenario == "threads2" ? 2 : 1;
    for (int t = 0; t < workgroups; t += together) {
      std::vector<std::thread> running;
      for (int u = t; u < t + together && u < workgroups; ++u)
        running.push_back(launch(u));
      for (std::thread &r : running)
        r.join();
    }
    for (float v : data)
      if (v != 2.0f)
        return 1;
    return 0;
  }
  if (scenario == "checked3" || scenario == "reserved3") {
    std::vector<float> data(size_t(workgroups) * accesses, 1.0f);
    wgtrace::dispatch(WGTRACE_SITE(0), fill3,
                      wgtrace::Grid{uint32_t(workgroups), 1, 1}, data.data(),
                      accesses, scenario == "reserved3");
    for (float v : data)
      if (v != 2.0f)
        return 1;
    return 0;
  }
  if (scenario == "nested") {
    std::vector<float> rows(size_t(workgroups) * accesses, 1.0f);
    std::vector<float> scratch(8);
    wgtrace::dispatch(WGTRACE_SITE(2), outer,
                      wgtrace::Grid{uint32_t(workgroups), 1, 1}, rows.data(),
                      accesses, scratch.data());
    for (float v : rows)
      if (v != 2.0f)
        return 1;
    return 0;
  }
  if (scenario == "timing")
    wgtrace::setDevice(wgtrace::Device::LocalTask);
  std::vector<float> data(size_t(workgroups) * accesses, 1.0f);
  wgtrace::dispatch(WGTRACE_SITE(0), fill,
                    wgtrace::Grid{uint32_t(workgroups), 1, 1}, data.data(),
                    accesses, Fault::None);
  if (scenario == "api") {
    std::vector<uint8_t> snapshot = wgtrace::snapshotTrace();
    std::printf("snapshot %zu bytes\n", snapshot.size());
    std::string error;
    if (!wgtrace::flushTrace(std::getenv("WGTRACE_API_FLUSH"), &error)) {
      std::printf("flush failed: %s\n", error.c_str());
      return 0;
    }
    wgtrace::resetTrace();
    wgtrace::dispatch(WGTRACE_SITE(0), fill, wgtrace::Grid{1, 1, 1},
                      data.data(), accesses, Fault::None);
    return 0;
  }
  if (scenario == "fork") {
    pid_t child = fork();
    if (child == 0) {
      wgtrace::dispatch(WGTRACE_SITE(0), fill, wgtrace::Grid{1, 1, 1},
                        data.data(), accesses, Fault::None);
      return 0;
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  if (scenario == "crash-threads") {
    // Neither thread faults before both are at the fault: the second
    // fault comes while the first one's handler writes the trace.
    std::vector<float> rows(2 * size_t(accesses), 1.0f);
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
      threads.emplace_back([&, t] {
        wgtrace::Workgroup wg{};
        wg.id[0] = uint32_t(t);
        wg.count[0] = 2;
        wg.processor_id = uint32_t(t);
        fill(wg, rows.data(), accesses, Fault::SegvTogether);
      });
    for (std::thread &t : threads)
      t.join();
    return 0;
  }
  if (fault != Fault::None) {
    // One more workgroup, called directly, that fails.
    wgtrace::Workgroup wg{};
    wg.id[0] = 0;
    fill(wg, data.data(), accesses, fault);
    // Still here: the signal's handler returned (or it is ignored).
    return 0;
  }
  for (float v : data)
    if (v != 2.0f)
      return 1;
  return 0;
}
