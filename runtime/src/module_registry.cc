//===- module_registry.cc - Instrumented translation units ----------------===//

#include "module_registry.h"

#include "trace_writer.h"

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

} // namespace wgtrace::detail
