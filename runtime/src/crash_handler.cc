//===- crash_handler.cc - A trace even when the program is cut short ------===//
//
// A kernel that faults is when a trace is needed most, and a run stopped by
// Ctrl-C, `timeout` or a batch system's time limit should not lose it
// either. The handlers write what was recorded with async-signal-safe
// calls only, then let the process end as the signal would have ended it
// (same signal, so core dumps, debuggers and parent processes see it as
// before).
//
//===----------------------------------------------------------------------===//

#include "crash_handler.h"

#include "trace_writer.h"

#include <csignal>
#include <cstring>
#include <exception>

namespace wgtrace::runtime {
namespace {

/// Faults: the trace is written and the process dies of the signal.
constexpr int kFaults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
/// Requests to end (Ctrl-C, kill, hang-up, quit, CPU time limit): the trace
/// is written, then the program's own handler runs if it has one, else the
/// process ends as the signal's default action says.
constexpr int kTerminations[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU};

constexpr size_t kFaultCount = sizeof(kFaults) / sizeof(kFaults[0]);
constexpr size_t kTerminationCount =
    sizeof(kTerminations) / sizeof(kTerminations[0]);

struct sigaction PreviousFault[kFaultCount];
struct sigaction PreviousTermination[kTerminationCount];
std::terminate_handler PreviousTerminate = nullptr;

void onFault(int Signal, siginfo_t *Info, void *) {
  writeFinalTrace({format::RunEnd::Crash, -1, Signal},
                  /*InSignalHandler=*/true);
  for (size_t I = 0; I < kFaultCount; ++I)
    if (kFaults[I] == Signal)
      sigaction(Signal, &PreviousFault[I], nullptr);
  // Returning re-executes a faulting instruction, which now meets the
  // previous handler; abort() and signals sent by a process need raising
  // again.
  if (Signal == SIGABRT || Info->si_code <= 0)
    raise(Signal);
}

bool isFunction(const struct sigaction &Action) {
  if (Action.sa_flags & SA_SIGINFO)
    return Action.sa_sigaction != nullptr;
  return Action.sa_handler != SIG_DFL && Action.sa_handler != SIG_IGN;
}

void onTermination(int Signal, siginfo_t *Info, void *Context) {
  size_t I = 0;
  while (I < kTerminationCount && kTerminations[I] != Signal)
    ++I;
  if (I == kTerminationCount)
    return;
  const struct sigaction &Previous = PreviousTermination[I];
  if (!isFunction(Previous)) {
    // The default action ends the process: write the trace, then end it
    // with the same signal, which is blocked while this handler runs and
    // is delivered when it returns.
    writeFinalTrace({format::RunEnd::Signal, -1, Signal},
                    /*InSignalHandler=*/true);
    sigaction(Signal, &Previous, nullptr);
    raise(Signal);
    return;
  }
  // The program handles the signal itself and may go on, or end the
  // process in a way no exit handler sees (_exit, or raising it again
  // with the default action): write the trace so far first. If it goes
  // on, the trace is written again at exit.
  writeTraceBeforeHandler(Signal);
  if (Previous.sa_flags & SA_SIGINFO)
    Previous.sa_sigaction(Signal, Info, Context);
  else
    Previous.sa_handler(Signal);
}

[[noreturn]] void onTerminate() {
  // std::terminate ends the process with abort().
  writeFinalTrace({format::RunEnd::Crash, -1, SIGABRT},
                  /*InSignalHandler=*/false);
  if (PreviousTerminate)
    PreviousTerminate();
  std::abort();
}

} // namespace

void installCrashHandlers() {
  // The handler may run on a thread whose stack overflowed.
  static char AlternateStack[64 * 1024];
  stack_t Stack = {};
  Stack.ss_sp = AlternateStack;
  Stack.ss_size = sizeof(AlternateStack);
  sigaltstack(&Stack, nullptr);

  struct sigaction Action = {};
  Action.sa_sigaction = onFault;
  Action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&Action.sa_mask);
  for (size_t I = 0; I < kFaultCount; ++I)
    sigaction(kFaults[I], &Action, &PreviousFault[I]);

  // Termination signals: the program's handler, if any, runs after the
  // trace is written; a signal the process ignores (nohup, a background
  // job's SIGINT) stays ignored.
  Action.sa_sigaction = onTermination;
  Action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  for (size_t I = 0; I < kTerminationCount; ++I) {
    struct sigaction Current;
    if (sigaction(kTerminations[I], nullptr, &Current) != 0 ||
        (!(Current.sa_flags & SA_SIGINFO) && Current.sa_handler == SIG_IGN))
      continue;
    PreviousTermination[I] = Current;
    sigaction(kTerminations[I], &Action, nullptr);
  }
  PreviousTerminate = std::set_terminate(onTerminate);
}

} // namespace wgtrace::runtime
