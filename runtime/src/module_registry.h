//===- module_registry.h - Instrumented translation units -----------------===//

#ifndef WGTRACE_RUNTIME_MODULE_REGISTRY_H
#define WGTRACE_RUNTIME_MODULE_REGISTRY_H

#include "wgtrace/instrument.h"

#include <functional>

namespace wgtrace::runtime {

/// Calls \p Visit on every registered module in registration order, which
/// is the order of their function and site ids.
void forEachModule(const std::function<void(const detail::Module &)> &Visit);

/// How many modules have registered.
size_t moduleCount();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_MODULE_REGISTRY_H
