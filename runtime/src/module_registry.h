//===- module_registry.h - Instrumented translation units -----------------===//

#ifndef WGTRACE_RUNTIME_MODULE_REGISTRY_H
#define WGTRACE_RUNTIME_MODULE_REGISTRY_H

#include "wgtrace/instrument.h"

#include <functional>
#include <vector>

namespace wgtrace::runtime {

/// An instance of a template kernel (detail::KernelInstances), as the
/// runtime keeps it.
struct Instance {
  const void *Tag;
  uint32_t Pattern;
  const detail::FunctionInfo *Info;
  uint32_t FunctionId;
  uint32_t DirectSite;
};

/// A module's instances, in registration order (Module::Instances).
struct InstanceArray {
  std::vector<const Instance *> Items;
};

/// The instances registered for \p M so far.
std::vector<const Instance *> moduleInstances(const detail::Module &M);

/// Calls \p Visit on every registered module in registration order, which
/// is the order of their function and site ids.
void forEachModule(const std::function<void(const detail::Module &)> &Visit);

/// How many modules have registered.
size_t moduleCount();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_MODULE_REGISTRY_H
