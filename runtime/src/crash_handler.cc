//===- crash_handler.cc - A trace even when the kernel faults -------------===//
//
// A kernel that faults is when a trace is needed most. The handlers write
// what was recorded with async-signal-safe calls only, restore the previous
// disposition and re-raise, so the process still dies with the original
// signal (and core dumps, debuggers and parent processes see it as before).
//
//===----------------------------------------------------------------------===//

#include "crash_handler.h"

#include "trace_writer.h"

#include <csignal>
#include <cstring>
#include <exception>

namespace wgtrace::runtime {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction Previous[sizeof(kSignals) / sizeof(kSignals[0])];
std::terminate_handler PreviousTerminate = nullptr;

void onSignal(int Signal, siginfo_t *Info, void *) {
  writeFinalTrace(/*InSignalHandler=*/true);
  for (size_t I = 0; I < sizeof(kSignals) / sizeof(kSignals[0]); ++I)
    if (kSignals[I] == Signal)
      sigaction(Signal, &Previous[I], nullptr);
  // Returning re-executes a faulting instruction, which now meets the
  // previous handler; abort() and signals sent by a process need raising
  // again.
  if (Signal == SIGABRT || Info->si_code <= 0)
    raise(Signal);
}

[[noreturn]] void onTerminate() {
  writeFinalTrace(/*InSignalHandler=*/false);
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
  Action.sa_sigaction = onSignal;
  Action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&Action.sa_mask);
  for (size_t I = 0; I < sizeof(kSignals) / sizeof(kSignals[0]); ++I)
    sigaction(kSignals[I], &Action, &Previous[I]);
  PreviousTerminate = std::set_terminate(onTerminate);
}

} // namespace wgtrace::runtime
