//===- critical_sections.cc - Names of OpenMP critical sections -----------===//

#include "critical_sections.h"

#include "wgtrace/detail/openmp.h"

#include <mutex>
#include <set>

namespace wgtrace::runtime {
namespace {

struct NameRegistry {
  std::mutex Lock;
  std::vector<const detail::OmpCriticalNames *> Tables;
};

// Leaked on purpose: read by the exit handler, after static destructors
// may have run.
NameRegistry &nameRegistry() {
  static NameRegistry *R = new NameRegistry;
  return *R;
}

} // namespace

std::vector<std::string> criticalSectionNames() {
  NameRegistry &R = nameRegistry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  std::vector<std::string> Names;
  std::set<std::string> Seen;
  for (const detail::OmpCriticalNames *T : R.Tables)
    for (size_t I = 0; I < T->NumNames; ++I)
      if (Seen.insert(T->Names[I]).second)
        Names.emplace_back(T->Names[I]);
  return Names;
}

} // namespace wgtrace::runtime

namespace wgtrace::detail {

OmpCriticalNames::OmpCriticalNames(const char *const *Names, size_t NumNames)
    : Names(Names), NumNames(NumNames) {
  runtime::NameRegistry &R = runtime::nameRegistry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Tables.push_back(this);
}

} // namespace wgtrace::detail
