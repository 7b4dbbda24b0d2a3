//===- crash_handler.h - A trace even when the kernel faults --------------===//

#ifndef WGTRACE_RUNTIME_CRASH_HANDLER_H
#define WGTRACE_RUNTIME_CRASH_HANDLER_H

namespace wgtrace::runtime {

/// Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT and a
/// std::terminate handler that write the trace, then let the process die
/// as it would have (same signal, or the previous terminate handler); and
/// for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGXCPU, unless ignored, that
/// write it and then run the program's own handler, or end the process
/// with the signal when it has none.
void installCrashHandlers();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_CRASH_HANDLER_H
