//===- thread_stack.cc - Where the calling thread's stack lies ------------===//

#include "thread_stack.h"

#include "wgtrace/detail/thread_state.h"

#include <pthread.h>

namespace wgtrace::runtime {

namespace {
StackRange findThreadStack() {
  StackRange Range;
  pthread_attr_t Attributes;
  if (pthread_getattr_np(pthread_self(), &Attributes) != 0)
    return Range;
  void *Base = nullptr;
  size_t Size = 0;
  if (pthread_attr_getstack(&Attributes, &Base, &Size) == 0 && Base) {
    Range.Low = reinterpret_cast<uintptr_t>(Base);
    Range.High = Range.Low + Size;
  }
  pthread_attr_destroy(&Attributes);
  return Range;
}
} // namespace

WGTRACE_TLS StackRange StackRangeTLS;
WGTRACE_TLS bool StackRangeKnownTLS;

const StackRange &findThreadStackOnce() {
  StackRangeTLS = findThreadStack();
  StackRangeKnownTLS = true;
  return StackRangeTLS;
}

} // namespace wgtrace::runtime
