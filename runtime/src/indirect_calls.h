//===- indirect_calls.h - Calls through pointers --------------------------===//

#ifndef WGTRACE_RUNTIME_INDIRECT_CALLS_H
#define WGTRACE_RUNTIME_INDIRECT_CALLS_H

#include "wgtrace/detail/indirect.h"

#include <functional>

namespace wgtrace::runtime {

/// Calls \p Visit on every file's table of calls through pointers, in the
/// order of their ids.
void forEachIndirectCalls(
    const std::function<void(const detail::IndirectCalls &)> &Visit);

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_INDIRECT_CALLS_H
