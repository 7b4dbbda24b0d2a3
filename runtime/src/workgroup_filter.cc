//===- workgroup_filter.cc - Which workgroups record their accesses -------===//

#include "workgroup_filter.h"

#include "config.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <fnmatch.h>
#include <mutex>
#include <vector>

namespace wgtrace::runtime {

/// Inclusive range of numbers.
struct NumberRange {
  uint64_t Low;
  uint64_t High;
  bool contains(uint64_t N) const { return N >= Low && N <= High; }
};

class WorkgroupFilter {
public:
  std::string Spec;
  /// Its index in installedFilters(), set when it is installed.
  uint32_t Index = 0;
  /// Kernel name globs; empty: any kernel.
  std::vector<std::string> Kernels;
  /// Dispatch numbers; empty: any (direct calls included).
  std::vector<NumberRange> Dispatches;
  /// Workgroup id ranges per dimension; empty: any.
  std::vector<NumberRange> Ids[3];
  uint64_t Sample = 1;

  bool selects(const detail::Module &M, uint32_t Function, uint64_t Dispatch,
               const Workgroup &WG) const {
    if (!Dispatches.empty() &&
        (Dispatch == detail::kNoDispatch || !inAny(Dispatches, Dispatch)))
      return false;
    for (int D = 0; D < 3; ++D)
      if (!Ids[D].empty() && !inAny(Ids[D], WG.id[D]))
        return false;
    if (Sample > 1) {
      uint64_t Linear =
          WG.id[0] +
          uint64_t(WG.count[0]) * (WG.id[1] + uint64_t(WG.count[1]) * WG.id[2]);
      if (Linear % Sample != 0)
        return false;
    }
    return Kernels.empty() || kernelMatches(M, Function);
  }

private:
  static bool inAny(const std::vector<NumberRange> &Ranges, uint64_t N) {
    for (const NumberRange &R : Ranges)
      if (R.contains(N))
        return true;
    return false;
  }

  /// Whether a glob matches the kernel's name, remembered per function id:
  /// a workgroup pays one load, not a pattern match.
  bool kernelMatches(const detail::Module &M, uint32_t Function) const {
    uint32_t Id = M.functionId(Function);
    if (Id < CachedFunctions) {
      uint8_t Known = Matches[Id].load(std::memory_order_relaxed);
      if (Known)
        return Known == 1;
    }
    const char *Name = M.function(Function).Name;
    bool Match = false;
    for (const std::string &Glob : Kernels)
      Match = Match || fnmatch(Glob.c_str(), Name ? Name : "", 0) == 0;
    if (Id < CachedFunctions)
      Matches[Id].store(Match ? 1 : 2, std::memory_order_relaxed);
    return Match;
  }

  static constexpr uint32_t CachedFunctions = 4096;
  mutable std::atomic<uint8_t> Matches[CachedFunctions] = {};
};

namespace {

std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(static_cast<unsigned char>(S.back())))
    S.remove_suffix(1);
  return S;
}

std::vector<std::string_view> split(std::string_view S, char Separator) {
  std::vector<std::string_view> Parts;
  for (;;) {
    size_t At = S.find(Separator);
    Parts.push_back(trim(S.substr(0, At)));
    if (At == std::string_view::npos)
      return Parts;
    S.remove_prefix(At + 1);
  }
}

bool parseNumber(std::string_view S, uint64_t &Out) {
  if (S.empty() || S.size() > 19)
    return false;
  Out = 0;
  for (char C : S) {
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
    Out = Out * 10 + uint64_t(C - '0');
  }
  return true;
}

/// N, N-M or N-.
bool parseRange(std::string_view S, NumberRange &Out) {
  size_t Dash = S.find('-');
  if (Dash == std::string_view::npos) {
    if (!parseNumber(S, Out.Low))
      return false;
    Out.High = Out.Low;
    return true;
  }
  if (!parseNumber(trim(S.substr(0, Dash)), Out.Low))
    return false;
  std::string_view High = trim(S.substr(Dash + 1));
  if (High.empty()) {
    Out.High = UINT64_MAX;
    return true;
  }
  return parseNumber(High, Out.High) && Out.High >= Out.Low;
}

bool parseRanges(std::string_view S, std::vector<NumberRange> &Out) {
  for (std::string_view Part : split(S, ',')) {
    NumberRange R;
    if (!parseRange(Part, R))
      return false;
    Out.push_back(R);
  }
  return true;
}

std::atomic<const WorkgroupFilter *> Active{nullptr};

/// The filter of the settings (WGTRACE_FILTER, else the build's FILTER),
/// installed on first use.
const WorkgroupFilter *activeFilter() {
  // Called at every workgroup: a function-local static costs one load once
  // done, where std::call_once costs two TLS lookups and pthread_once.
  static const bool FromSettings = [] {
    const std::string &Spec = config().FilterSpec;
    if (Spec.empty() || Active.load())
      return true;
    std::string Error;
    // config() checked it; a bad one never gets here.
    installFilter(parseFilter(Spec, &Error));
    return true;
  }();
  (void)FromSettings;
  return Active.load(std::memory_order_acquire);
}

} // namespace

std::unique_ptr<WorkgroupFilter> parseFilter(std::string_view Spec,
                                             std::string *Error) {
  auto F = std::make_unique<WorkgroupFilter>();
  F->Spec = std::string(trim(Spec));
  bool Seen[4] = {};
  for (std::string_view Clause : split(Spec, ';')) {
    if (Clause.empty())
      continue;
    size_t Equals = Clause.find('=');
    std::string_view Key = trim(Clause.substr(0, Equals));
    std::string_view Value =
        Equals == std::string_view::npos ? "" : trim(Clause.substr(Equals + 1));
    int Which = Key == "kernel"      ? 0
                : Key == "dispatch"  ? 1
                : Key == "workgroup" ? 2
                : Key == "sample"    ? 3
                                     : -1;
    auto Fail = [&](const std::string &Why) {
      *Error = "'" + std::string(Clause) + "' " + Why;
      return nullptr;
    };
    if (Which < 0 || Equals == std::string_view::npos)
      return Fail("is not a clause; expected kernel=GLOB[,GLOB...], "
                  "dispatch=RANGE[,RANGE...], workgroup=X[,Y[,Z]] or "
                  "sample=N, joined by ';' (a RANGE is N, N-M or N-)");
    if (Seen[Which])
      return Fail("repeats a clause; give each of kernel, dispatch, "
                  "workgroup and sample once");
    Seen[Which] = true;
    switch (Which) {
    case 0:
      for (std::string_view Glob : split(Value, ',')) {
        if (Glob.empty())
          return Fail("has an empty kernel name pattern");
        F->Kernels.emplace_back(Glob);
      }
      break;
    case 1:
      if (!parseRanges(Value, F->Dispatches))
        return Fail("has a dispatch number that is not N, N-M or N-");
      break;
    case 2: {
      std::vector<std::string_view> Dims = split(Value, ',');
      if (Dims.size() > 3)
        return Fail("has more than 3 dimensions; expected X[,Y[,Z]]");
      for (size_t D = 0; D < Dims.size(); ++D) {
        if (Dims[D] == "*")
          continue;
        NumberRange R;
        if (!parseRange(Dims[D], R))
          return Fail("has a workgroup id that is not *, N, N-M or N-");
        F->Ids[D].push_back(R);
      }
      break;
    }
    default:
      if (!parseNumber(Value, F->Sample) || F->Sample == 0)
        return Fail("is not a sample of one in N; expected a whole number "
                    "N of at least 1");
      break;
    }
  }
  return F;
}

std::string filterProblem(std::string_view Spec) {
  std::string Error;
  return parseFilter(Spec, &Error) ? "" : Error;
}

namespace {
/// Every filter spec installed so far, each once, in order (leaked: the
/// exit writer reads it after static destructors may have run).
std::mutex &installedFiltersLock() {
  static std::mutex *Lock = new std::mutex;
  return *Lock;
}
std::vector<std::string> &installedFilterList() {
  static auto *List = new std::vector<std::string>;
  return *List;
}
} // namespace

void installFilter(std::unique_ptr<WorkgroupFilter> Filter) {
  if (Filter) {
    std::lock_guard<std::mutex> Guard(installedFiltersLock());
    std::vector<std::string> &List = installedFilterList();
    auto Same = std::find(List.begin(), List.end(), Filter->Spec);
    Filter->Index = static_cast<uint32_t>(Same - List.begin());
    if (Same == List.end())
      List.push_back(Filter->Spec);
  }
  // Leaked: a workgroup on another thread may still be reading the old one.
  Active.store(Filter.release(), std::memory_order_release);
}

std::vector<std::string> installedFilters() {
  // Not activeFilter(): the metadata is built when modules register, before
  // the build's settings may be read. The settings' filter is installed by
  // the first workgroup, before any mark names it.
  std::lock_guard<std::mutex> Guard(installedFiltersLock());
  return installedFilterList();
}

uint32_t activeFilterIndex() {
  const WorkgroupFilter *F = Active.load(std::memory_order_acquire);
  return F ? F->Index : 0;
}

namespace {
/// Set once activeFilter() has installed the settings' filter.
std::atomic<bool> SettingsFilterRead{false};

/// selectWorkgroup() until then: installs it first.
[[gnu::noinline]] bool selectFirstWorkgroup(const detail::Module &M,
                                            uint32_t Function,
                                            uint64_t Dispatch,
                                            const Workgroup &WG) {
  const WorkgroupFilter *F = activeFilter();
  SettingsFilterRead.store(true, std::memory_order_release);
  return !F || F->selects(M, Function, Dispatch, WG);
}
} // namespace

bool selectWorkgroup(const detail::Module &M, uint32_t Function,
                     uint64_t Dispatch, const Workgroup &WG) {
  // Every call here ends in a tail call or a return: activeFilter()'s
  // one-time initialisation in this function made every workgroup save and
  // restore the registers that hold the arguments (a third of its cost).
  if (WGTRACE_UNLIKELY(!SettingsFilterRead.load(std::memory_order_acquire)))
    return selectFirstWorkgroup(M, Function, Dispatch, WG);
  const WorkgroupFilter *F = Active.load(std::memory_order_acquire);
  return !F || F->selects(M, Function, Dispatch, WG);
}

std::string filterSpec() {
  const WorkgroupFilter *F = activeFilter();
  return F ? F->Spec : "";
}

} // namespace wgtrace::runtime

namespace wgtrace {

bool setFilter(const std::string &Spec, std::string *Error) {
  std::string Why;
  std::unique_ptr<runtime::WorkgroupFilter> F =
      runtime::parseFilter(Spec, &Why);
  if (!F) {
    if (Error)
      *Error = "filter " + Why;
    return false;
  }
  // The settings' filter is replaced, not installed later over this one.
  runtime::activeFilter();
  runtime::installFilter(F->Spec.empty() ? nullptr : std::move(F));
  return true;
}

} // namespace wgtrace
