//===- wgtrace/detail/openmp.h - OpenMP loops traced as dispatches --------===//
//
// What wgtrace-rewrite --openmp inserts around an OpenMP worksharing loop
// (docs/REWRITER.md, "OpenMP loops"): the encountering thread begins a
// launch before the loop (OmpLaunch: its site and dispatch number); the
// loop's bound expressions note, as each thread evaluates them, per loop of
// the collapsed nest its lower bound, bound and step (OmpBounds); and each
// iteration opens a workgroup (WGTRACE_OMP_ITERATION) whose id is its
// iteration indices, innermost loop first, whose grid is the trip counts
// and whose processor is the OpenMP thread number.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_OPENMP_H
#define WGTRACE_DETAIL_OPENMP_H

#include "wgtrace/instrument.h"

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#if defined(_OPENMP)
#include <omp.h>
#endif

/// Opens iteration \p ... (the loop variables, outermost first) of the
/// OpenMP loop \p launch (an OmpLaunch) whose bounds the thread noted in
/// \p bounds (an OmpBounds), which is function \p function_index of this
/// translation unit's module. The iteration's own
/// stack, which WGTRACE_LOAD_REF_AT leaves out, is the frame it runs in
/// (the function OpenMP outlined the loop into) and what it calls.
#define WGTRACE_OMP_ITERATION(launch, bounds, function_index, ...)             \
  ::wgtrace::detail::OmpIteration wgtrace_workgroup_scope_(                    \
      wgtrace_module_, (function_index), (launch).site(), (launch).dispatch(), \
      (bounds).iteration(__VA_ARGS__), __builtin_frame_address(0))

/// Opens a `#pragma omp parallel` region's block (the rewriter puts it
/// first in every such region of a rewritten file): each thread of the team
/// notes the frame the region runs in. Below it, the thread's stack is its
/// own: the locals of the functions the region calls, which an orphaned
/// `omp for` may be handed (WGTRACE_OMP_ITERATION's ThreadStack VALUE).
#define WGTRACE_OMP_REGION()                                                   \
  ::wgtrace::detail::OmpRegion wgtrace_omp_region_(__builtin_frame_address(0))

/// An access inside `#pragma omp critical(name)`: its records carry a
/// Critical mark with the section's name hashed (\p name_hash, format::
/// criticalNameHash, which the rewriter computes), so that `wgtrace-view
/// races` takes two accesses inside sections of one name for synchronised
/// (docs/REWRITER.md, "OpenMP loops").
#define WGTRACE_OMP_CRITICAL_LOAD_AT(site, name_hash, ...)                     \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Load,       \
                                      false>(__builtin_addressof(__VA_ARGS__), \
                                             (name_hash),                      \
                                             WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_OMP_CRITICAL_STORE_AT(site, name_hash, ...)                    \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Store,      \
                                      false>(__builtin_addressof(__VA_ARGS__), \
                                             (name_hash),                      \
                                             WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_OMP_CRITICAL_UPDATE_AT(site, name_hash, ...)                   \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Update,     \
                                      false>(__builtin_addressof(__VA_ARGS__), \
                                             (name_hash),                      \
                                             WGTRACE_ACCESS_SITE(site)))
/// The same through a reference that may be the iteration's own stack.
#define WGTRACE_OMP_CRITICAL_LOAD_REF_AT(site, name_hash, ...)                 \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Load,       \
                                      true>(__builtin_addressof(__VA_ARGS__),  \
                                            (name_hash),                       \
                                            WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_OMP_CRITICAL_STORE_REF_AT(site, name_hash, ...)                \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Store,      \
                                      true>(__builtin_addressof(__VA_ARGS__),  \
                                            (name_hash),                       \
                                            WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_OMP_CRITICAL_UPDATE_REF_AT(site, name_hash, ...)               \
  (*::wgtrace::detail::criticalAccess<::wgtrace::format::AtomicOp::Update,     \
                                      true>(__builtin_addressof(__VA_ARGS__),  \
                                            (name_hash),                       \
                                            WGTRACE_ACCESS_SITE(site)))

/// Opens, for the rest of the block it is written in (the structured block
/// of `#pragma omp critical(name)`), the section whose name hashes to
/// \p name_hash: every access the iteration makes in it, in a helper or a
/// library call as much as in the block's own statements, is made inside
/// the section (format::ValueType::CriticalSection).
#define WGTRACE_OMP_CRITICAL_SECTION(name_hash)                                \
  ::wgtrace::detail::OmpCriticalSection wgtrace_critical_section_(name_hash)

namespace wgtrace::detail {

inline namespace WGTRACE_DETAIL_ACCESSES {
/// Records the access \p Op of a critical section's statement at
/// \p Address, in the section whose name hashes to \p Name, and yields it.
template <format::AtomicOp Op, bool MayBeKernelStack, class T>
WGTRACE_ALWAYS_INLINE T *criticalAccess(T *Address, uint64_t Name,
                                        uint64_t SiteBits) {
  if constexpr (MayBeKernelStack) {
    const ThreadState::Bytes &Stack = ThreadStateTLS.KernelStack;
    if (reinterpret_cast<uintptr_t>(Address) - Stack.Begin < Stack.Size)
      return Address;
  }
  recordCritical(Name, Op, recordedAddress(Address), sizeof(T), SiteBits);
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

/// The loop `for (i = Lower; i <Compare> Bound; i += Step)` (`i -= Step`
/// when Down): its trip count, as OpenMP computes it (a loop that does not
/// run has 0), at most 2^32 - 1 (a workgroup count is 32 bits).
inline uint32_t ompTripCount(__int128 Span, __int128 Step, OmpCompare Compare) {
  __int128 Count = 0;
  if (Step > 0) {
    if (Compare == OmpCompare::Less || Compare == OmpCompare::NotEqual)
      Count = Span > 0 ? (Span + Step - 1) / Step : 0;
    else if (Compare == OmpCompare::LessEqual)
      Count = Span >= 0 ? Span / Step + 1 : 0;
  } else if (Step < 0) {
    if (Compare == OmpCompare::Greater || Compare == OmpCompare::NotEqual)
      Count = Span < 0 ? (-Span - Step - 1) / -Step : 0;
    else if (Compare == OmpCompare::GreaterEqual)
      Count = Span <= 0 ? -Span / -Step + 1 : 0;
  }
  return Count > 0xffffffff ? 0xffffffffu : static_cast<uint32_t>(Count);
}

/// One loop of a collapsed nest: the values its lower bound, bound and
/// step expressions (of types \p L, \p B and \p S) gave when the calling
/// thread evaluated them, as OpenMP does before it runs the thread's
/// iterations (ompLower, ompBound, ompStep note them), and what the ids
/// need: the signed step (`i -= 2` steps by -2) and the trip count.
template <class L, class B, class S, bool Down, OmpCompare Compare>
struct OmpDim {
  std::decay_t<L> Lower{};
  std::decay_t<B> Upper{};
  /// 1 for `++i` and `--i` (S is int), which note no step.
  std::decay_t<S> StepValue = 1;
  __int128 Step = 1;
  uint32_t Count = 0;

  void update() {
    Step = Down ? -static_cast<__int128>(StepValue)
                : static_cast<__int128>(StepValue);
    Count = ompTripCount(ompDistance(Lower, Upper), Step, Compare);
  }
  template <class I> uint32_t idOf(const I &Value) const {
    const __int128 Distance = ompDistance(Lower, Value);
    // Every iteration asks: a unit step, and then a distance and step that
    // fit 64 bits, skip the 128-bit division (a libgcc call).
    if (Step == 1)
      return static_cast<uint32_t>(Distance);
    if (Step == -1)
      return static_cast<uint32_t>(-Distance);
    if (!Step)
      return 0;
    if (Distance == static_cast<int64_t>(Distance) &&
        Step == static_cast<int64_t>(Step))
      return static_cast<uint32_t>(static_cast<int64_t>(Distance) /
                                   static_cast<int64_t>(Step));
    return static_cast<uint32_t>(Distance / Step);
  }
};

/// What the calling thread's evaluation of a loop nest's bounds gave, loop
/// by loop, outermost first: a `static thread_local` of the function the
/// loop is in (each thread of the team evaluates the bounds itself, as
/// many times as its OpenMP implementation does; the rewritten loop keeps
/// its expressions, wrapped to note their values: nothing is evaluated
/// once more).
template <class... Dim> struct OmpBounds {
  std::tuple<Dim...> Dims;
  /// A value was noted since the trip counts were computed.
  bool Stale = true;
  /// The OpenMP thread number of the thread that noted them, asked when
  /// they were (iteration()).
  uint32_t ThreadNumber = 0;

  /// The workgroup of the calling thread's iteration whose loop variables
  /// are \p Values. The thread asks OpenMP its number once per execution
  /// of the loop, when it has noted the bounds again, not per iteration
  /// (a call into the OpenMP runtime and a thread-local lookup there,
  /// about 30 instructions): its number does not change while it runs the
  /// iterations the execution gave it.
  template <class... Value> Workgroup iteration(const Value &...Values) {
    if (Stale)
      ThreadNumber = ompThreadNumber();
    return workgroup(ThreadNumber, Values...);
  }

  /// The workgroup of the iteration whose loop variables are \p Values
  /// (outermost first): x is the innermost loop's index.
  template <class... Value>
  Workgroup workgroup(uint32_t Processor, const Value &...Values) {
    static_assert(sizeof...(Value) == sizeof...(Dim),
                  "one loop variable per loop of the nest");
    if (Stale) {
      std::apply([](auto &...D) { (D.update(), ...); }, Dims);
      Stale = false;
    }
    Workgroup WG;
    fill(WG, std::index_sequence_for<Dim...>(), Values...);
    WG.processor_id = Processor;
    return WG;
  }

private:
  template <size_t... K, class... Value>
  void fill(Workgroup &WG, std::index_sequence<K...>,
            const Value &...Values) const {
    constexpr size_t N = sizeof...(Dim);
    ((WG.id[N - 1 - K] = std::get<K>(Dims).idOf(Values),
      WG.count[N - 1 - K] = std::get<K>(Dims).Count),
     ...);
  }
};

/// Loop \p K's lower bound, bound and step, as the loop evaluates them:
/// noted in \p Bounds and yielded unchanged.
template <size_t K, class Bounds, class V>
std::decay_t<V> ompLower(Bounds &N, V &&Value) {
  std::get<K>(N.Dims).Lower = Value;
  N.Stale = true;
  return std::forward<V>(Value);
}
template <size_t K, class Bounds, class V>
std::decay_t<V> ompBound(Bounds &N, V &&Value) {
  std::get<K>(N.Dims).Upper = Value;
  N.Stale = true;
  return std::forward<V>(Value);
}
template <size_t K, class Bounds, class V>
std::decay_t<V> ompStep(Bounds &N, V &&Value) {
  std::get<K>(N.Dims).StepValue = Value;
  N.Stale = true;
  return std::forward<V>(Value);
}

/// The process's number for a launch that begins now (WGTRACE_FILTER's
/// dispatch=), counted with wgtrace::dispatch's; makes sure the trace is
/// written at exit.
uint64_t beginOmpLaunch();

/// One execution of an OpenMP loop: its site and its dispatch number.
/// Default-constructible and copyable, so that `omp single copyprivate`
/// can hand it from the thread that began it to the rest of the team.
class OmpLaunch {
public:
  OmpLaunch() = default;
  explicit OmpLaunch(SiteRef Site) : Site(Site), Dispatch(beginOmpLaunch()) {}

  uint64_t dispatch() const { return Dispatch; }
  SiteRef site() const { return Site; }

private:
  SiteRef Site;
  uint64_t Dispatch = kNoDispatch;
};

/// The names of the critical sections a rewritten file's loops enter
/// (WGTRACE_OMP_CRITICAL_SECTION), for the metadata. Constructing it
/// registers them.
class OmpCriticalNames {
public:
  OmpCriticalNames(const char *const *Names, size_t NumNames);
  OmpCriticalNames(const OmpCriticalNames &) = delete;
  OmpCriticalNames &operator=(const OmpCriticalNames &) = delete;

  const char *const *Names;
  size_t NumNames;
};

/// Leaves the critical section \p Name entered last and still open in the
/// running workgroup: its CriticalSection VALUE, and no copy of the
/// workgroup's record enters it again.
void leaveOmpCriticalSection(uint64_t Name) noexcept;

/// Lives while an iteration runs the structured block of a critical
/// section. Its marks cost two records per execution of the block, which
/// waits for a lock anyway; the accesses in it pay nothing more.
class OmpCriticalSection {
public:
  explicit OmpCriticalSection(uint64_t Name) : Name(Name) {
    // Kept with the buffers: a copy of the WORKGROUP record (a buffer
    // change, a wrap) enters the section again.
    if (ThreadStateTLS.Current) {
      Entered = ThreadStateTLS.Current;
      recordBufferValue(format::ValueType::CriticalSection, 1, Name);
    }
  }
  ~OmpCriticalSection() {
    if (Entered && ThreadStateTLS.Current == Entered)
      leaveOmpCriticalSection(Name);
  }
  OmpCriticalSection(const OmpCriticalSection &) = delete;
  OmpCriticalSection &operator=(const OmpCriticalSection &) = delete;

private:
  uint64_t Name;
  /// The ring the section was entered on (null: not recorded).
  const Ring *Entered = nullptr;
};

/// The nesting level of the parallel region the calling thread runs in
/// (0: none, or a file built without OpenMP).
inline int ompLevel() {
#if defined(_OPENMP)
  return omp_get_level();
#else
  return 0;
#endif
}

/// The region the calling thread last entered through WGTRACE_OMP_REGION:
/// the frame it runs in and its nesting level (0: none).
struct OmpRegionFrame {
  const void *Frame = nullptr;
  int Level = 0;
};
/// Initial-exec and constant-initialised, as ThreadStateTLS: read at every
/// iteration of every loop.
extern WGTRACE_TLS OmpRegionFrame OmpRegionTLS;
/// After the WORKGROUP record of an iteration of a loop run in region
/// level \p Level: when the calling thread entered that region through
/// WGTRACE_OMP_REGION, the ThreadStack VALUE of its own stack below the
/// region's frame, kept with the buffers.
void noteOmpThreadStack(int Level) noexcept;

class OmpRegion {
public:
  explicit OmpRegion(const void *Frame) : Before(OmpRegionTLS) {
    OmpRegionTLS = {Frame, ompLevel()};
  }
  ~OmpRegion() { OmpRegionTLS = Before; }
  OmpRegion(const OmpRegion &) = delete;
  OmpRegion &operator=(const OmpRegion &) = delete;

private:
  OmpRegionFrame Before;
};

/// Lives for one iteration: its WORKGROUP record, under the loop's site
/// and launch, with the iteration's frame (\p Frame, its top) as its own
/// stack, and the launch's Launch VALUE (the viewer groups iterations by
/// it), which every copy of the record repeats; in a region marked with
/// WGTRACE_OMP_REGION, also its ThreadStack VALUE.
class OmpIteration {
public:
  OmpIteration(const Module &M, uint32_t Function, SiteRef Site,
               uint64_t Dispatch, const Workgroup &WG, const void *Frame)
      : Scope((prepare(Site, Dispatch), M), Function, WG, Frame,
              /*RecordsLaunch=*/true) {
    // A `parallel for` outside any marked region: one load and a branch.
    if (Scope.selected() && OmpRegionTLS.Frame)
      noteOmpThreadStack(ompLevel());
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
