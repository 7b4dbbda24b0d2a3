//===- wgtrace/wgtrace.h - Public API of the wgtrace runtime --------------===//
//
// Kernels include this header. It builds and runs the same with or without
// instrumentation: WGTRACE_DISPATCH is only an annotation that
// wgtrace-rewrite looks for, and the launcher runs kernels either way.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_WGTRACE_H
#define WGTRACE_WGTRACE_H

// What follows is C++17 (inline variables, std::string_view, if constexpr):
// an older standard gets this one line instead of errors deep inside.
#if __cplusplus < 201703L
#error "wgtrace needs C++17 or later: compile with -std=c++17 or later"
#else

#include "wgtrace/detail/thread_state.h"
#include "wgtrace/detail/value_type.h"
#include "wgtrace/watch.h"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

/// Marks a kernel: a function whose first parameter is
/// `const wgtrace::Workgroup&`. wgtrace-rewrite instruments marked functions.
#if defined(__clang__)
#define WGTRACE_DISPATCH __attribute__((annotate("wgtrace.dispatch")))
#define WGTRACE_NO_INSTRUMENT __attribute__((annotate("wgtrace.no_instrument")))
#else
#define WGTRACE_DISPATCH
#define WGTRACE_NO_INSTRUMENT
#endif

/// Records \p expr as a VALUE record with the given ordinal (0-255) and
/// yields it unchanged.
#define WGTRACE_VALUE(ordinal, ...)                                            \
  ::wgtrace::detail::recordValue((ordinal), __VA_ARGS__)

/// Records a PRINT record formatted with fmt syntax:
/// WGTRACE_PRINTF("x={} y={}", x, y).
#define WGTRACE_PRINTF(...) ::wgtrace::detail::recordFormatted(__VA_ARGS__)

namespace wgtrace {

// Workgroup's and Grid's members are named by the user-facing contract
// (IREE's names), not in LLVM style.
// NOLINTBEGIN(readability-identifier-naming)

/// The workgroup a kernel invocation computes. Members beyond these have
/// defaults, so `Workgroup WG{};` and then setting the fields is valid.
struct Workgroup {
  uint32_t id[3] = {0, 0, 0};
  uint32_t count[3] = {1, 1, 1};
  uint32_t processor_id = 0;
};

/// Number of workgroups in each dimension.
struct Grid {
  uint32_t x = 1;
  uint32_t y = 1;
  uint32_t z = 1;
};

// NOLINTEND(readability-identifier-naming)

// Public API: a few bytes are not worth changing its ABI.
// NOLINTNEXTLINE(performance-enum-size)
enum class Device {
  /// Every workgroup on the calling thread, in order.
  LocalSync,
  /// Workgroups spread over a pool of worker threads.
  LocalTask,
};

/// Parses "local-sync" or "local-task". Returns false on anything else.
bool parseDevice(std::string_view Name, Device &Out);
/// The device dispatch() uses: set by setDevice(), else WGTRACE_DEVICE,
/// else local-sync.
Device currentDevice();
void setDevice(Device D);

/// Where the trace goes at exit. Overrides WGTRACE_FILE; may hold the same
/// patterns (%p, %h, %t, %%).
void setTraceFile(std::string Path);

/// Selects the workgroups that record their accesses, values and prints
/// from now on, as WGTRACE_FILTER does (e.g. "kernel=matmul*;sample=16");
/// the others record only their WORKGROUP record. An empty \p Spec
/// selects every workgroup. Replaces WGTRACE_FILTER. Returns false and
/// describes the problem in \p Error when \p Spec is not a filter.
bool setFilter(const std::string &Spec, std::string *Error = nullptr);

//===----------------------------------------------------------------------===//
// Managing the trace from the program. Call these while no dispatch runs:
// they read (or clear) every thread's buffer.
//===----------------------------------------------------------------------===//

/// Writes what was recorded so far to \p Path now, as a complete trace
/// file, and keeps recording. Ring mode only: in stream mode
/// (WGTRACE_MODE=stream) the trace is already going to WGTRACE_FILE and this
/// returns false. On failure returns false and describes it in \p Error.
bool flushTrace(const std::string &Path, std::string *Error = nullptr);

/// The bytes of a trace file holding what was recorded so far (ring mode;
/// empty in stream mode).
std::vector<uint8_t> snapshotTrace();

/// Forgets every record so far (ring mode; in stream mode they are already
/// in the file and this does nothing); the functions and sites stay known.
void resetTrace();

/// Handles the flags every sample program takes, --device=NAME and
/// --instrument_file=PATH, removing them from argv. Returns false and prints
/// a message on a bad value.
bool parseCommonFlags(int &Argc, char **Argv);

namespace detail {

/// Identifies a dispatch site; filled in by wgtrace-rewrite (WGTRACE_SITE).
struct SiteRef {
  uint32_t Id = kNoSite;
};

using WorkgroupThunk = void (*)(void *Context, const Workgroup &WG);

/// The grid of a wgtrace::dispatch call and where the call is written: the
/// default arguments are evaluated at the call, so that a launch of a
/// kernel that is not instrumented can be reported by its file and line.
/// Made implicitly from a Grid (or {x, y, z}).
struct LaunchGrid : Grid {
  const char *File;
  uint32_t Line;
  // Implicit: dispatch() takes a Grid as it always did.
  // NOLINTNEXTLINE(google-explicit-constructor)
  LaunchGrid(const Grid &G, const char *File = __builtin_FILE(),
             uint32_t Line = __builtin_LINE())
      : Grid(G), File(File), Line(Line) {}
  // NOLINTNEXTLINE(google-explicit-constructor)
  LaunchGrid(uint32_t X, uint32_t Y = 1, uint32_t Z = 1,
             const char *File = __builtin_FILE(),
             uint32_t Line = __builtin_LINE())
      : Grid{X, Y, Z}, File(File), Line(Line) {}
};

/// Runs \p Thunk once per workgroup of \p G on the current device. A
/// workgroup whose kernel is not instrumented (its prologue did not run)
/// is counted as such, by \p G's place and \p PrettyFunction (the
/// launching dispatch()'s __PRETTY_FUNCTION__, which names the kernel's
/// type) or \p KernelAddress (a function kernel's address, else null).
void runLaunch(SiteRef Site, const LaunchGrid &G, const char *PrettyFunction,
               const void *KernelAddress, WorkgroupThunk Thunk, void *Context);

/// runLaunch() without the launch's place: what programs built with
/// earlier headers call.
void runGrid(SiteRef Site, const Grid &G, WorkgroupThunk Thunk, void *Context);

/// A function kernel's address, for naming it; null for a lambda or other
/// function object.
template <class Kernel> const void *kernelAddress(Kernel &K) {
  using K0 = std::remove_cv_t<std::remove_reference_t<Kernel>>;
  if constexpr (std::is_function_v<K0>)
    return reinterpret_cast<const void *>(&K);
  else if constexpr (std::is_pointer_v<K0> &&
                     std::is_function_v<std::remove_pointer_t<K0>>)
    return reinterpret_cast<const void *>(K);
  else
    return nullptr;
}

template <class T> T recordValue(unsigned Ordinal, T &&Value) {
  using V = std::remove_cv_t<std::remove_reference_t<T>>;
  recordValueBits(ValueTraits<V>::Type, static_cast<uint8_t>(Ordinal),
                  ValueTraits<V>::bits(Value));
  return std::forward<T>(Value);
}

template <class... Args>
void recordFormatted(fmt::format_string<Args...> Format, Args &&...A) {
  if (!ThreadStateTLS.Current)
    return;
  char Buffer[format::kMaxPrintLength];
  auto Result = fmt::format_to_n(Buffer, sizeof(Buffer), Format,
                                 std::forward<Args>(A)...);
  recordPrint(Buffer, static_cast<uint32_t>(Result.size < sizeof(Buffer)
                                                ? Result.size
                                                : sizeof(Buffer)));
}

} // namespace detail

/// Launches \p Kernel once per workgroup of \p G, passing a Workgroup and
/// then \p A to each invocation.
template <class Kernel, class... Args>
void dispatch(detail::SiteRef Site, Kernel &&K, const detail::LaunchGrid &G,
              Args &&...A) {
  auto Body = [&](const Workgroup &WG) { K(WG, A...); };
  detail::runLaunch(
      Site, G, __PRETTY_FUNCTION__, detail::kernelAddress(K),
      [](void *Context, const Workgroup &WG) {
        (*static_cast<decltype(Body) *>(Context))(WG);
      },
      &Body);
}

template <class Kernel, class... Args>
void dispatch(Kernel &&K, const detail::LaunchGrid &G, Args &&...A) {
  dispatch(detail::SiteRef{}, std::forward<Kernel>(K), G,
           std::forward<Args>(A)...);
}

} // namespace wgtrace

#endif // C++17

#endif // WGTRACE_WGTRACE_H
