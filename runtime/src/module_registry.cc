//===- module_registry.cc - Instrumented translation units ----------------===//

#include "module_registry.h"

#include "trace_writer.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <vector>

namespace wgtrace::runtime {
namespace {

struct ModuleList {
  std::mutex Lock;
  std::vector<const detail::Module *> Modules;
  uint32_t NextSite = 0;
  uint32_t NextFunction = 0;
  /// Access site ids are 1-based; 0 is "no site".
  uint32_t NextAccessSite = 1;
  bool ToldAccessSitesRanOut = false;
};

// Leaked on purpose, like the ring list: read by the exit handler.
ModuleList &moduleList() {
  static ModuleList *List = new ModuleList;
  return *List;
}

} // namespace

void forEachModule(const std::function<void(const detail::Module &)> &Visit) {
  ModuleList &List = moduleList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  for (const detail::Module *M : List.Modules)
    Visit(*M);
}

size_t moduleCount() {
  ModuleList &List = moduleList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  return List.Modules.size();
}

} // namespace wgtrace::runtime

namespace wgtrace::detail {

Module::Module(const FunctionInfo *Functions, size_t NumFunctions,
               const SiteInfo *Sites, size_t NumSites,
               const ModuleExtras &Extras)
    : Functions(Functions), NumFunctions(NumFunctions), Sites(Sites),
      NumSites(NumSites), Extras(Extras) {
  runtime::ModuleList &List = runtime::moduleList();
  {
    std::lock_guard<std::mutex> Guard(List.Lock);
    SiteBase = List.NextSite;
    FunctionBase = List.NextFunction;
    AccessSiteBase = List.NextAccessSite - 1;
    List.NextAccessSite += static_cast<uint32_t>(Extras.NumAccessSites);
    if (Extras.AccessSiteBits) {
      Extras.AccessSiteBits[0] = accessSiteBaseBits();
      for (uint32_t I = 1; I <= Extras.NumAccessSites; ++I)
        Extras.AccessSiteBits[I] = format::accessSiteBits(accessSite(I));
    }
    // The address word has 16 bits for a site id: beyond them ids wrap
    // and name other sites. The metadata's table then has more entries
    // than ids, which tells readers not to trust them; said here once.
    if (List.NextAccessSite - 1 > format::kMaxAccessSite &&
        !List.ToldAccessSitesRanOut) {
      List.ToldAccessSitesRanOut = true;
      std::fprintf(stderr,
                   "wgtrace: more than %u access sites in this process, more "
                   "than a record's 16 bits can name: no access is attributed "
                   "to its source location\n",
                   format::kMaxAccessSite);
    }
    // Each function also gets a site standing for its direct calls.
    List.NextSite += static_cast<uint32_t>(NumSites + NumFunctions);
    List.NextFunction += static_cast<uint32_t>(NumFunctions);
    List.Modules.push_back(this);
  }
  // Cached now so that the crash handler never builds it.
  runtime::refreshMetadata();
  runtime::writeTraceAtExit();
}

/// A module's registered instances: an array that registration replaces by
/// a longer copy (under the module list's lock) and publishes, so that the
/// prologue and the filter read it without a lock. Neither the arrays nor
/// the instances are ever freed.
struct ModuleInstances {
  std::atomic<const runtime::InstanceArray *> Published{nullptr};
};

static const runtime::InstanceArray *published(const ModuleInstances *I) {
  return I ? I->Published.load(std::memory_order_acquire) : nullptr;
}

} // namespace wgtrace::detail

std::vector<const wgtrace::runtime::Instance *>
wgtrace::runtime::moduleInstances(const detail::Module &M) {
  if (const InstanceArray *A = detail::published(M.instances()))
    return A->Items;
  return {};
}

namespace wgtrace::detail {

static const runtime::Instance &instanceOf(const Module &M,
                                           const ModuleInstances *Instances,
                                           uint32_t Function) {
  // Function >= NumFunctions names a registered instance: the array holds
  // it (a prologue only names what Module::instance returned).
  return *published(Instances)->Items[Function - M.NumFunctions];
}

uint32_t Module::directSite(uint32_t Function) const {
  if (Function < NumFunctions)
    return SiteBase + static_cast<uint32_t>(NumSites) + Function;
  return instanceOf(*this, Instances, Function).DirectSite;
}

uint32_t Module::functionId(uint32_t Function) const {
  if (Function < NumFunctions)
    return FunctionBase + Function;
  return instanceOf(*this, Instances, Function).FunctionId;
}

const FunctionInfo &Module::function(uint32_t Function) const {
  if (Function < NumFunctions)
    return Functions[Function];
  return *instanceOf(*this, Instances, Function).Info;
}

uint32_t Module::instance(uint32_t Pattern, const void *Tag) const {
  if (const runtime::InstanceArray *A = published(Instances))
    for (size_t I = 0; I < A->Items.size(); ++I)
      if (A->Items[I]->Pattern == Pattern && A->Items[I]->Tag == Tag)
        return static_cast<uint32_t>(NumFunctions + I);
  return Pattern;
}

KernelInstances::KernelInstances(Module &M, const InstanceInfo *Instances,
                                 size_t Count) {
  runtime::ModuleList &List = runtime::moduleList();
  {
    std::lock_guard<std::mutex> Guard(List.Lock);
    if (!M.Instances)
      M.Instances = new ModuleInstances;
    auto *Grown = new runtime::InstanceArray;
    if (const runtime::InstanceArray *Old = published(M.Instances))
      Grown->Items = Old->Items;
    for (size_t I = 0; I < Count; ++I) {
      const InstanceInfo &Info = Instances[I];
      bool Known = false;
      for (const runtime::Instance *Existing : Grown->Items)
        Known = Known || (Existing->Pattern == Info.Pattern &&
                          Existing->Tag == Info.Tag);
      if (Known)
        continue;
      Grown->Items.push_back(
          new runtime::Instance{Info.Tag, Info.Pattern, &Info.Function,
                                List.NextFunction++, List.NextSite++});
    }
    M.Instances->Published.store(Grown, std::memory_order_release);
  }
  runtime::refreshMetadata();
}

} // namespace wgtrace::detail
