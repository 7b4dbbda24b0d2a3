//===- wgtrace/detail/openmp.h - OpenMP loops traced as dispatches --------===//
//
// What wgtrace-rewrite --openmp inserts around an OpenMP worksharing loop
// (docs/REWRITER.md, "OpenMP loops"): the encountering thread begins a
// launch before the loop (OmpLaunch: its dispatch number and, per loop of
// the collapsed nest, its lower bound, step and trip count), and each
// iteration opens a workgroup (WGTRACE_OMP_ITERATION) whose id is its
// iteration indices, innermost loop first, whose grid is the trip counts
// and whose processor is the OpenMP thread number.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_OPENMP_H
#define WGTRACE_DETAIL_OPENMP_H

#include "wgtrace/instrument.h"

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(_OPENMP)
#include <omp.h>
#endif

/// Opens iteration \p ... (the loop variables, outermost first) of the
/// OpenMP loop \p launch (an OmpLaunch), which is function \p
/// function_index of this translation unit's module. The iteration's own
/// stack, which WGTRACE_LOAD_REF_AT leaves out, is the frame it runs in
/// (the function OpenMP outlined the loop into) and what it calls.
#define WGTRACE_OMP_ITERATION(launch, function_index, ...)                     \
  ::wgtrace::detail::OmpIteration wgtrace_workgroup_scope_(                    \
      wgtrace_module_, (function_index), (launch).site(), (launch).dispatch(), \
      (launch).workgroup(::wgtrace::detail::ompThreadNumber(), __VA_ARGS__),   \
      __builtin_frame_address(0))

/// An access inside `#pragma omp critical`: recorded with the atomic mark,
/// so that `wgtrace-view races` takes two of them for synchronised, as it
/// does atomic operations (docs/REWRITER.md, "OpenMP loops").
#define WGTRACE_OMP_CRITICAL_LOAD_AT(site, ...)                                \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Load,       \
                                      false>(__builtin_addressof(__VA_ARGS__), \
                                             WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_OMP_CRITICAL_STORE_AT(site, ...)                               \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Store,      \
                                      false>(__builtin_addressof(__VA_ARGS__), \
                                             WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_OMP_CRITICAL_UPDATE_AT(site, ...)                              \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Update,     \
                                      false>(__builtin_addressof(__VA_ARGS__), \
                                             WGTRACE_ACCESS_SITE(site)))
/// The same through a reference that may be the iteration's own stack.
#define WGTRACE_OMP_CRITICAL_LOAD_REF_AT(site, ...)                            \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Load,       \
                                      true>(__builtin_addressof(__VA_ARGS__),  \
                                            WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_OMP_CRITICAL_STORE_REF_AT(site, ...)                           \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Store,      \
                                      true>(__builtin_addressof(__VA_ARGS__),  \
                                            WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_OMP_CRITICAL_UPDATE_REF_AT(site, ...)                          \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Update,     \
                                      true>(__builtin_addressof(__VA_ARGS__),  \
                                            WGTRACE_ACCESS_SITE(site)))

namespace wgtrace::detail {

inline namespace WGTRACE_DETAIL_ACCESSES {
/// Records the access of a critical section's statement at \p Address as
/// an atomic operation \p Op and yields it.
template <format::AtomicOp Op, bool MayBeKernelStack, class T>
WGTRACE_ALWAYS_INLINE T *criticalAccess(T *Address, uint64_t SiteBits) {
  recordAtomicObject<Op, MayBeKernelStack>(Address, sizeof(T), SiteBits);
  return Address;
}
} // namespace WGTRACE_DETAIL_ACCESSES

/// How a canonical loop's condition compares its variable with the bound.
enum class OmpCompare : uint8_t {
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  NotEqual,
};

/// The OpenMP thread number of the calling thread (0 outside OpenMP).
inline uint32_t ompThreadNumber() {
#if defined(_OPENMP)
  return static_cast<uint32_t>(omp_get_thread_num());
#else
  return 0;
#endif
}

/// To - From for loop variables: integers of any width and signedness
/// (in 128 bits, so that no difference overflows), pointers and random
/// access iterators.
template <class From, class To>
__int128 ompDistance(const From &Lower, const To &Index) {
  if constexpr (std::is_integral_v<From> && std::is_integral_v<To>)
    return static_cast<__int128>(Index) - static_cast<__int128>(Lower);
  else
    return static_cast<__int128>(Index - Lower);
}

/// One loop of a collapsed nest: where it starts, by how much it steps
/// (signed: `i -= 2` steps by -2), and how many iterations it has.
template <class Index> struct OmpDim {
  Index Lower{};
  __int128 Step = 1;
  uint32_t Count = 0;

  uint32_t id(const Index &I) const { return idOf(I); }
  template <class I> uint32_t idOf(const I &Value) const {
    return static_cast<uint32_t>(ompDistance(Lower, Value) / Step);
  }
};

/// The loop `for (i = Lower; i <Compare> Bound; i += Step)`: its trip
/// count, as OpenMP computes it (a loop that does not run has 0), at most
/// 2^32 - 1 (a workgroup count is 32 bits).
template <class Index, class Bound, class StepType>
OmpDim<Index> ompDim(const Index &Lower, const Bound &Upper, StepType Step,
                     OmpCompare Compare) {
  OmpDim<Index> D;
  D.Lower = Lower;
  D.Step = static_cast<__int128>(Step);
  const __int128 Span = ompDistance(Lower, Upper);
  __int128 Count = 0;
  if (D.Step > 0) {
    if (Compare == OmpCompare::Less || Compare == OmpCompare::NotEqual)
      Count = Span > 0 ? (Span + D.Step - 1) / D.Step : 0;
    else if (Compare == OmpCompare::LessEqual)
      Count = Span >= 0 ? Span / D.Step + 1 : 0;
  } else if (D.Step < 0) {
    if (Compare == OmpCompare::Greater || Compare == OmpCompare::NotEqual)
      Count = Span < 0 ? (-Span - D.Step - 1) / -D.Step : 0;
    else if (Compare == OmpCompare::GreaterEqual)
      Count = Span <= 0 ? -Span / -D.Step + 1 : 0;
  }
  D.Count = Count > 0xffffffff ? 0xffffffffu : static_cast<uint32_t>(Count);
  return D;
}

/// The process's number for a launch that begins now (WGTRACE_FILTER's
/// dispatch=), counted with wgtrace::dispatch's; makes sure the trace is
/// written at exit.
uint64_t beginOmpLaunch();

/// One execution of an OpenMP loop: its site, its dispatch number and the
/// loops of its collapsed nest, outermost first. Default-constructible and
/// copyable, so that `omp single copyprivate` can hand it from the thread
/// that began it to the rest of the team.
template <class... Index> class OmpLaunch {
public:
  OmpLaunch() = default;
  OmpLaunch(SiteRef Site, OmpDim<Index>... Dims)
      : Site(Site), Dispatch(beginOmpLaunch()), Dims(Dims...) {}

  uint64_t dispatch() const { return Dispatch; }

  /// The workgroup of the iteration whose loop variables are \p Values
  /// (outermost first): x is the innermost loop's index.
  template <class... Value>
  Workgroup workgroup(uint32_t Processor, const Value &...Values) const {
    static_assert(sizeof...(Value) == sizeof...(Index),
                  "one loop variable per loop of the nest");
    Workgroup WG;
    fill(WG, std::index_sequence_for<Index...>(), Values...);
    WG.processor_id = Processor;
    return WG;
  }

  SiteRef site() const { return Site; }

private:
  template <size_t... K, class... Value>
  void fill(Workgroup &WG, std::index_sequence<K...>,
            const Value &...Values) const {
    constexpr size_t N = sizeof...(Index);
    ((WG.id[N - 1 - K] = std::get<K>(Dims).idOf(Values),
      WG.count[N - 1 - K] = std::get<K>(Dims).Count),
     ...);
  }

  SiteRef Site;
  uint64_t Dispatch = kNoDispatch;
  std::tuple<OmpDim<Index>...> Dims;
};

template <class... Index>
OmpLaunch<Index...> ompLaunch(SiteRef Site, OmpDim<Index>... Dims) {
  return OmpLaunch<Index...>(Site, Dims...);
}

/// Lives for one iteration: its WORKGROUP record, under the loop's site
/// and launch, with the iteration's frame (\p Frame, its top) as its own
/// stack.
class OmpIteration {
public:
  OmpIteration(const Module &M, uint32_t Function, SiteRef Site,
               uint64_t Dispatch, const Workgroup &WG, const void *Frame)
      : Scope((prepare(Site, Dispatch), M), Function, WG, Frame) {
    // Which execution of the loop this is: the viewer groups iterations
    // by it. Kept with the buffers, so that every copy of the record
    // repeats it.
    if (ThreadStateTLS.Current)
      recordBufferValue(format::ValueType::Launch, 0, Dispatch);
  }

  bool selected() const { return Scope.selected(); }

private:
  /// What the launcher sets before it calls a kernel: the prologue takes
  /// the site and the dispatch number from there.
  static void prepare(SiteRef Site, uint64_t Dispatch) {
    ThreadState &State = ThreadStateTLS;
    State.PendingSite = Site.Id;
    State.PendingDispatch = Dispatch;
  }
  WorkgroupScope Scope;
};

} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_OPENMP_H
