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

#include <cstdint>

namespace wgtrace::runtime {

/// [Low, High) of the calling thread's stack; both 0 if the system does
/// not say.
struct StackRange {
  uintptr_t Low = 0;
  uintptr_t High = 0;
};

/// The calling thread's stack, found out once per thread.
const StackRange &threadStack();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_THREAD_STACK_H
