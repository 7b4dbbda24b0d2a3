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

namespace {
// Initial-exec and constant-initialised, found on first use: a
// thread_local with a dynamic initialiser would cost a TLS lookup through
// __tls_get_addr at every workgroup.
WGTRACE_TLS StackRange RangeTLS;
WGTRACE_TLS bool RangeKnownTLS;
} // namespace

const StackRange &threadStack() {
  if (WGTRACE_UNLIKELY(!RangeKnownTLS)) {
    RangeTLS = findThreadStack();
    RangeKnownTLS = true;
  }
  return RangeTLS;
}

} // namespace wgtrace::runtime
