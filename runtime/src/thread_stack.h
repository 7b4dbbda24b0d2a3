//===- thread_stack.h - Where the calling thread's stack lies -------------===//
//
// A kernel's own locals, and whatever the functions it calls keep on the
// stack, are not kernel memory. The workgroup prologue bounds them: the
// thread's stack from its lowest address up to the frame of the kernel's
// caller (ThreadState::KernelStack).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_THREAD_STACK_H
#define WGTRACE_RUNTIME_THREAD_STACK_H

#include "wgtrace/detail/thread_state.h"

#include <cstdint>

namespace wgtrace::runtime {

/// [Low, High) of the calling thread's stack; both 0 if the system does
/// not say.
struct StackRange {
  uintptr_t Low = 0;
  uintptr_t High = 0;
};

/// The calling thread's stack once threadStack() has found it out.
/// Initial-exec and constant-initialised: a thread_local with a dynamic
/// initialiser would cost a TLS lookup through __tls_get_addr at every
/// workgroup.
extern WGTRACE_TLS StackRange StackRangeTLS;
extern WGTRACE_TLS bool StackRangeKnownTLS;

/// threadStack()'s first call on a thread: finds the stack out.
const StackRange &findThreadStackOnce();

/// The calling thread's stack, found out once per thread. Inline: every
/// workgroup's prologue asks.
inline const StackRange &threadStack() {
  if (WGTRACE_UNLIKELY(!StackRangeKnownTLS))
    return findThreadStackOnce();
  return StackRangeTLS;
}

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_THREAD_STACK_H
