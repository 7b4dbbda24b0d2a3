//===- critical_sections.h - Names of OpenMP critical sections ------------===//

#ifndef WGTRACE_RUNTIME_CRITICAL_SECTIONS_H
#define WGTRACE_RUNTIME_CRITICAL_SECTIONS_H

#include <string>
#include <vector>

namespace wgtrace::runtime {

/// The names of the critical sections every rewritten file registered
/// (detail::OmpCriticalNames), each once, in the order first registered.
std::vector<std::string> criticalSectionNames();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_CRITICAL_SECTIONS_H
