//===- ring_registry.h - Every thread's ring, for the writer --------------===//

#ifndef WGTRACE_RUNTIME_RING_REGISTRY_H
#define WGTRACE_RUNTIME_RING_REGISTRY_H

#include "wgtrace/detail/thread_state.h"

#include <functional>

namespace wgtrace::runtime {

/// The calling thread's ring, allocated on first use with the configured
/// size. Rings outlive their threads: the trace is written at exit.
detail::Ring &threadRing();

/// Calls \p Visit on every ring ever allocated, in allocation order.
void forEachRing(const std::function<void(const detail::Ring &)> &Visit);

/// Bytes of ring storage, excluding the format's padding.
inline uint64_t ringSize(const detail::Ring &R) { return R.Mask + 1; }

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_RING_REGISTRY_H
