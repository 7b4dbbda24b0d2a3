//===- workgroup_filter.h - Which workgroups record their accesses --------===//
//
// WGTRACE_FILTER (or wgtrace::setFilter, or wgtrace_instrument_target's
// FILTER) selects the workgroups whose records are kept. Every workgroup
// still writes its WORKGROUP record, so that a trace says which workgroups
// ran; an unselected one records nothing else (no accesses, values,
// prints or buffer VALUEs). docs/RUNTIME.md ("Selective tracing") gives the
// syntax:
//
//   kernel=GLOB[,GLOB...]     the kernel's name matches one (fnmatch)
//   dispatch=RANGE[,RANGE...] the process's launch number (0 = its first
//                             wgtrace::dispatch); a direct call has none
//   workgroup=X[,Y[,Z]]       each a RANGE or *, missing ones *
//   sample=N                  one workgroup in N: linear id a multiple of N
//
// RANGE is N, N-M (inclusive) or N- (open); clauses are joined by ';' and
// must all hold.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_WORKGROUP_FILTER_H
#define WGTRACE_RUNTIME_WORKGROUP_FILTER_H

#include "wgtrace/instrument.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wgtrace::runtime {

class WorkgroupFilter;

/// Parses \p Spec; null and the reason in \p Error when it is not one.
std::unique_ptr<WorkgroupFilter> parseFilter(std::string_view Spec,
                                             std::string *Error);

/// What is wrong with \p Spec as a filter, or "" if nothing.
std::string filterProblem(std::string_view Spec);

/// Makes \p Filter (null: none) the one workgroups are selected by from now
/// on. The previous one is kept alive: a workgroup may be reading it.
void installFilter(std::unique_ptr<WorkgroupFilter> Filter);

/// Whether the workgroup \p WG of \p M's function \p Function, launched by
/// dispatch number \p Dispatch (kNoDispatch for a direct call), records
/// more than its WORKGROUP record.
bool selectWorkgroup(const detail::Module &M, uint32_t Function,
                     uint64_t Dispatch, const Workgroup &WG);

/// The filter in force, as written; empty when there is none.
std::string filterSpec();

/// Every filter installed during the run, as written, each once, in the
/// order first installed (the metadata's WgtraceDef.filters).
std::vector<std::string> installedFilters();

/// The index in installedFilters() of the filter in force (an Unselected
/// VALUE's bits); 0 when there is none.
uint32_t activeFilterIndex();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_WORKGROUP_FILTER_H
