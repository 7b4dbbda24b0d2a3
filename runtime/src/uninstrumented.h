//===- uninstrumented.h - Launches of kernels that are not instrumented ---===//
//
// wgtrace::dispatch runs whatever it is given. A kernel compiled from a
// source that was not rewritten (a lambda, or a template of a header,
// launched from a file the build did not instrument) runs without its
// prologue: its workgroups would simply be absent from the trace. The
// launcher notices (the prologue did not take the launch's site), and the
// launches are counted here per place that launched them, reported at
// exit on stderr, and written into the run record (format.h), so that
// every view says so.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_RUNTIME_UNINSTRUMENTED_H
#define WGTRACE_RUNTIME_UNINSTRUMENTED_H

#include <cstdint>

namespace wgtrace::runtime {

/// One place that launched kernels that are not instrumented.
struct UninstrumentedPlace {
  /// The call's file ("" when not known) and line.
  char File[256];
  uint32_t Line;
  /// The kernel, as far as the program can name it: a function's symbol,
  /// or the type of a lambda as the compiler spells it.
  char Kernel[256];
  /// The call's dispatch site when it was rewritten, else kNoDispatchSite.
  uint32_t DispatchId;
  uint64_t Launches;
  uint64_t Workgroups;
};

/// Places the table holds; more are counted in the total only.
inline constexpr unsigned kMaxUninstrumentedPlaces = 64;

/// Notes a launch at \p File:\p Line (dispatch site \p DispatchId) of a
/// kernel that ran \p Workgroups workgroups without its prologue.
/// \p PrettyFunction is wgtrace::dispatch's __PRETTY_FUNCTION__, which
/// names the kernel's type; \p Address is the kernel function's address
/// (null for a lambda or function object).
void noteUninstrumentedLaunch(const char *File, uint32_t Line,
                              uint32_t DispatchId, const char *PrettyFunction,
                              const void *Address, uint64_t Workgroups);

/// The places noted so far (async-signal-safe: the table is static and
/// only grows; \p Count is how many of its entries are filled) and the
/// launches in all.
const UninstrumentedPlace *uninstrumentedPlaces(unsigned &Count,
                                                uint64_t &Launches);

/// At exit: one warning line per place on stderr.
void reportUninstrumentedLaunches();

} // namespace wgtrace::runtime

#endif // WGTRACE_RUNTIME_UNINSTRUMENTED_H
