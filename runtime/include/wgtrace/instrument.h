//===- wgtrace/instrument.h - What wgtrace-rewrite inserts ----------------===//
//
// An instrumented translation unit includes this header first, defines one
// Module describing its kernels and dispatch sites, opens each kernel with
// WGTRACE_WORKGROUP and wraps each memory access in WGTRACE_LOAD,
// WGTRACE_STORE or WGTRACE_UPDATE. Nothing here is meant to be written by
// hand, but all of it is readable C++ so that rewritten sources can be
// debugged.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_INSTRUMENT_H
#define WGTRACE_INSTRUMENT_H

#include "wgtrace/detail/complex.h"
#include "wgtrace/detail/indirect.h"
#include "wgtrace/detail/intrinsics.h"
#include "wgtrace/detail/watch.h"
#include "wgtrace/wgtrace.h"

#include <cstddef>
#include <cstdint>

/// Marks a rewritten file; wgtrace-rewrite refuses input that defines it.
#define WGTRACE_INSTRUMENTED 1

// A loop the program asks to vectorize (`#pragma omp simd`, `#pragma clang
// loop vectorize(enable)`) cannot be once its accesses call the recorder,
// and Clang warns that it is not: a warning about the instrumentation, not
// the program, which the plain build vectorizes (the Parallel Research
// Kernels' PRAGMA_SIMD loops gave eight). Off for the rest of the file.
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

/// The access forms the rewriter writes: access site \p site of this
/// translation unit (1-based, an index into its access site table) and the
/// lvalue. Each takes the address of the lvalue once, records it with the
/// site's id, and yields the same lvalue, so side effects in the operand
/// happen once and the value category is kept.
#define WGTRACE_LOAD_AT(site, ...)                                             \
  (*::wgtrace::detail::load(__builtin_addressof(__VA_ARGS__),                  \
                            WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_STORE_AT(site, ...)                                            \
  (*::wgtrace::detail::store(__builtin_addressof(__VA_ARGS__),                 \
                             WGTRACE_ACCESS_SITE(site)))
/// Read-modify-write: compound assignment, ++ and --.
#define WGTRACE_UPDATE_AT(site, ...)                                           \
  (*::wgtrace::detail::update(__builtin_addressof(__VA_ARGS__),                \
                              WGTRACE_ACCESS_SITE(site)))

/// The same through a reference that may be bound to the kernel's own
/// stack (a helper's or a lambda's reference parameter, a reference bound
/// to a call's result): recorded only when it is not
/// (detail::referencedAccess).
#define WGTRACE_LOAD_REF_AT(site, ...)                                         \
  (*::wgtrace::detail::loadReferenced(__builtin_addressof(__VA_ARGS__),        \
                                      WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_STORE_REF_AT(site, ...)                                        \
  (*::wgtrace::detail::storeReferenced(__builtin_addressof(__VA_ARGS__),       \
                                       WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_UPDATE_REF_AT(site, ...)                                       \
  (*::wgtrace::detail::updateReferenced(__builtin_addressof(__VA_ARGS__),      \
                                        WGTRACE_ACCESS_SITE(site)))

/// An atomic operation on kernel memory: the operand is its object (a
/// std::atomic, a std::atomic_flag, a std::atomic_ref, or a pointer to
/// the object, as the __atomic_* and __sync_* builtins take it), which is
/// recorded (an Atomic VALUE, then a LOAD, a STORE or both: docs/
/// FORMAT.md) and yielded unchanged for the operation to run on:
/// `WGTRACE_ATOMIC_UPDATE_AT(3, counter).fetch_add(1)`.
#define WGTRACE_ATOMIC_LOAD_AT(site, ...)                                      \
  (::wgtrace::detail::atomicAccess<::wgtrace::format::AtomicOp::Load>(         \
      WGTRACE_ACCESS_SITE(site), __VA_ARGS__))
#define WGTRACE_ATOMIC_STORE_AT(site, ...)                                     \
  (::wgtrace::detail::atomicAccess<::wgtrace::format::AtomicOp::Store>(        \
      WGTRACE_ACCESS_SITE(site), __VA_ARGS__))
#define WGTRACE_ATOMIC_UPDATE_AT(site, ...)                                    \
  (::wgtrace::detail::atomicAccess<::wgtrace::format::AtomicOp::Update>(       \
      WGTRACE_ACCESS_SITE(site), __VA_ARGS__))
/// The same for an object that may be the kernel's own stack
/// (WGTRACE_LOAD_REF_AT): recorded only when it is not.
#define WGTRACE_ATOMIC_LOAD_REF_AT(site, ...)                                  \
  (::wgtrace::detail::atomicAccess<::wgtrace::format::AtomicOp::Load, true>(   \
      WGTRACE_ACCESS_SITE(site), __VA_ARGS__))
#define WGTRACE_ATOMIC_STORE_REF_AT(site, ...)                                 \
  (::wgtrace::detail::atomicAccess<::wgtrace::format::AtomicOp::Store, true>(  \
      WGTRACE_ACCESS_SITE(site), __VA_ARGS__))
#define WGTRACE_ATOMIC_UPDATE_REF_AT(site, ...)                                \
  (::wgtrace::detail::atomicAccess<::wgtrace::format::AtomicOp::Update, true>( \
      WGTRACE_ACCESS_SITE(site), __VA_ARGS__))

/// The same in a template whose instantiations do not all make the access
/// at this text (a load with one argument type, none with another):
/// \p record, a constant expression the rewriter writes
/// (kInstanceIn<the template's tag, the tags of the instantiations that
/// make it>), says whether this instantiation records; one that does not
/// yields the operand untouched.
#define WGTRACE_WHEN_LOAD_AT(site, record, ...)                                \
  (*::wgtrace::detail::accessWhen<::wgtrace::detail::Gated::Load, (record)>(   \
      __builtin_addressof(__VA_ARGS__), WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_WHEN_STORE_AT(site, record, ...)                               \
  (*::wgtrace::detail::accessWhen<::wgtrace::detail::Gated::Store, (record)>(  \
      __builtin_addressof(__VA_ARGS__), WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_WHEN_UPDATE_AT(site, record, ...)                              \
  (*::wgtrace::detail::accessWhen<::wgtrace::detail::Gated::Update, (record)>( \
      __builtin_addressof(__VA_ARGS__), WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_WHEN_LOAD_REF_AT(site, record, ...)                            \
  (*::wgtrace::detail::accessWhen<::wgtrace::detail::Gated::LoadReferenced,    \
                                  (record)>(__builtin_addressof(__VA_ARGS__),  \
                                            WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_WHEN_STORE_REF_AT(site, record, ...)                           \
  (*::wgtrace::detail::accessWhen<::wgtrace::detail::Gated::StoreReferenced,   \
                                  (record)>(__builtin_addressof(__VA_ARGS__),  \
                                            WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_WHEN_UPDATE_REF_AT(site, record, ...)                          \
  (*::wgtrace::detail::accessWhen<::wgtrace::detail::Gated::UpdateReferenced,  \
                                  (record)>(__builtin_addressof(__VA_ARGS__),  \
                                            WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_WHEN_ATOMIC_LOAD_AT(site, record, ...)                         \
  (::wgtrace::detail::atomicWhen<::wgtrace::format::AtomicOp::Load, false,     \
                                 (record)>(WGTRACE_ACCESS_SITE(site),          \
                                           __VA_ARGS__))
#define WGTRACE_WHEN_ATOMIC_STORE_AT(site, record, ...)                        \
  (::wgtrace::detail::atomicWhen<::wgtrace::format::AtomicOp::Store, false,    \
                                 (record)>(WGTRACE_ACCESS_SITE(site),          \
                                           __VA_ARGS__))
#define WGTRACE_WHEN_ATOMIC_UPDATE_AT(site, record, ...)                       \
  (::wgtrace::detail::atomicWhen<::wgtrace::format::AtomicOp::Update, false,   \
                                 (record)>(WGTRACE_ACCESS_SITE(site),          \
                                           __VA_ARGS__))
#define WGTRACE_WHEN_ATOMIC_LOAD_REF_AT(site, record, ...)                     \
  (::wgtrace::detail::atomicWhen<::wgtrace::format::AtomicOp::Load, true,      \
                                 (record)>(WGTRACE_ACCESS_SITE(site),          \
                                           __VA_ARGS__))
#define WGTRACE_WHEN_ATOMIC_STORE_REF_AT(site, record, ...)                    \
  (::wgtrace::detail::atomicWhen<::wgtrace::format::AtomicOp::Store, true,     \
                                 (record)>(WGTRACE_ACCESS_SITE(site),          \
                                           __VA_ARGS__))
#define WGTRACE_WHEN_ATOMIC_UPDATE_REF_AT(site, record, ...)                   \
  (::wgtrace::detail::atomicWhen<::wgtrace::format::AtomicOp::Update, true,    \
                                 (record)>(WGTRACE_ACCESS_SITE(site),          \
                                           __VA_ARGS__))

/// The same without a site (records carry site 0, "none"), for accesses
/// written by hand.
#define WGTRACE_LOAD(...)                                                      \
  (*::wgtrace::detail::load(__builtin_addressof(__VA_ARGS__)))
#define WGTRACE_STORE(...)                                                     \
  (*::wgtrace::detail::store(__builtin_addressof(__VA_ARGS__)))
#define WGTRACE_UPDATE(...)                                                    \
  (*::wgtrace::detail::update(__builtin_addressof(__VA_ARGS__)))

// WGTRACE_ACCESS_SITES=0 (wgtrace_instrument_target's ACCESS_SITES OFF)
// leaves the access sites out: records carry bare addresses and the
// metadata has no access site table, as in the files of IREE's runtime,
// which IREE's own tools read exactly.
#if defined(WGTRACE_ACCESS_SITES) && !WGTRACE_ACCESS_SITES
/// The bits the records of access site \p index of this translation unit
/// carry in their address word.
#define WGTRACE_ACCESS_SITE(index) (::std::uint64_t{0})
/// The module's extra tables (access sites, untraced accesses) and the
/// words registration fills with the sites' bits (WGTRACE_ACCESS_SITE_TABLE).
#define WGTRACE_MODULE_EXTRAS(sites, num_sites, untraced, num_untraced, bits)  \
  ::wgtrace::detail::ModuleExtras {                                            \
    (sites), 0, (untraced), (num_untraced), (bits)                             \
  }
#else
// The bits are added to the address (the same bits as an OR: the address
// is below them), in the way each compiler turns into the fewest
// instructions per record. Clang: the module's base (the id before its
// first site, in place: Module::accessSiteBaseBits), read through a
// function declared const and kept out of line, so that it is called once
// per function and kept, plus the site's index in place, a constant; base,
// constant and the address of a loop's access fold into one pointer that
// the loop steps, and a record costs what it costs without sites. GCC does
// not fold them (it rebuilds the constant and adds twice per record): it
// reads the site's own word instead, one memory operand per record, which
// it must read again after each record's store.
#if defined(__clang__)
#define WGTRACE_ACCESS_SITE(index)                                             \
  (wgtrace_access_site_base_() +                                               \
   (::std::uint64_t(index) << ::wgtrace::format::kAccessSiteShift))
#else
#define WGTRACE_ACCESS_SITE(index) (wgtrace_access_site_bits_[(index)])
#endif
#define WGTRACE_MODULE_EXTRAS(sites, num_sites, untraced, num_untraced, bits)  \
  ::wgtrace::detail::ModuleExtras {                                            \
    (sites), (num_sites), (untraced), (num_untraced), (bits)                   \
  }
#endif

/// Defines, in a rewritten file's anonymous namespace, the words its
/// module's registration fills for its \p num_sites access sites (word 0
/// the base, word i site i's bits: Module::ModuleExtras::AccessSiteBits)
/// and the function WGTRACE_ACCESS_SITE reads the base with (see there).
#define WGTRACE_ACCESS_SITE_TABLE(num_sites)                                   \
  ::std::uint64_t wgtrace_access_site_bits_[(num_sites) + 1] = {};             \
  [[maybe_unused, gnu::const, gnu::noinline]] ::std::uint64_t                  \
  wgtrace_access_site_base_() noexcept {                                       \
    return wgtrace_access_site_bits_[0];                                       \
  }

/// Opens a kernel body: records the workgroup and makes it current.
#define WGTRACE_WORKGROUP(workgroup, function_index)                           \
  WGTRACE_WORKGROUP_OF(wgtrace_module_, workgroup, function_index)
/// The same for a function of another module than the translation unit's:
/// a kernel of a project header, whose copies in every file that uses it
/// record under one module that they share.
#define WGTRACE_WORKGROUP_OF(module, workgroup, function_index)                \
  ::wgtrace::detail::WorkgroupScope wgtrace_workgroup_scope_(                  \
      (module), (function_index), (workgroup))

/// The prologue of a template kernel (or generic lambda kernel): the
/// workgroup records under the instance \p tag names (Module::instance),
/// found once per instantiation.
#define WGTRACE_WORKGROUP_INSTANCE(workgroup, function_index, ...)             \
  WGTRACE_WORKGROUP_INSTANCE_OF(wgtrace_module_, workgroup, function_index,    \
                                __VA_ARGS__)
#define WGTRACE_WORKGROUP_INSTANCE_OF(module, workgroup, function_index, ...)  \
  static const ::std::uint32_t wgtrace_instance_ = (module).instance(          \
      (function_index), &::wgtrace::detail::kInstanceId<__VA_ARGS__>);         \
  ::wgtrace::detail::WorkgroupScope wgtrace_workgroup_scope_(                  \
      (module), wgtrace_instance_, (workgroup))

/// Whether the running workgroup records more than its WORKGROUP record
/// (WGTRACE_FILTER): a kernel body may run an uninstrumented copy of itself
/// when it does not, at the cost of workgroup-only tracing.
#define WGTRACE_SELECTED() (wgtrace_workgroup_scope_.selected())

/// Whether a workgroup that records its memory accesses runs on this
/// thread: a function instrumented for other files' kernels
/// (--whole-target) runs its copy as written when none does, at the cost
/// of a plain build.
#define WGTRACE_RECORDING()                                                    \
  (::wgtrace::detail::ThreadStateTLS.Recording != nullptr)

/// Follows WGTRACE_WORKGROUP: records the kernel's buffer parameters, one
/// BufferBase VALUE (and a BufferExtent where the argument knows its size)
/// each, with its position in the list as ordinal (the index in the
/// function's ParamInfo table). A plain pointer is passed as it is;
/// objectBuffer, rangeBuffer and arrayBuffer give the others their extent.
#if defined(WGTRACE_BUFFER_RECORDS) && !WGTRACE_BUFFER_RECORDS
// Only for bench/overhead.py, which measures what the records cost.
#define WGTRACE_BUFFERS(...) static_cast<void>(0)
#else
#define WGTRACE_BUFFERS(...) ::wgtrace::detail::recordBuffers(__VA_ARGS__)
#endif

/// The id of this translation unit's call through a pointer \p index
/// (detail::IndirectCalls).
#define WGTRACE_INDIRECT_CALL(index) (wgtrace_indirect_calls_.id(index))

/// The id of dispatch site \p index of this translation unit.
#define WGTRACE_SITE(index)                                                    \
  ::wgtrace::detail::SiteRef { wgtrace_module_.siteBase() + (index) }

namespace wgtrace::detail {

/// The dispatch site of a launch through a function pointer: the site of
/// the candidate kernel (a kernel of the file, and its site) the pointer
/// holds, or \p Otherwise (no site: the kernel that runs records under its
/// direct-call site).
template <class F> SiteRef siteOfKernel(F, SiteRef Otherwise) {
  return Otherwise;
}
template <class F, class... Rest>
SiteRef siteOfKernel(F Kernel, SiteRef Otherwise, F Candidate, SiteRef Site,
                     Rest... Others) {
  return Kernel == Candidate ? Site
                             : siteOfKernel(Kernel, Otherwise, Others...);
}

// The tables below mirror the metadata schema (runtime/schema/
// dispatch_instrument.fbs, docs/FORMAT.md): the rewriter emits them as
// constant arrays, the runtime turns them into the metadata chunk. Members
// of FunctionInfo after the first four are optional (default: not known).

/// A buffer parameter of a kernel (fb::ParamDef). The prologue records a
/// BufferBase VALUE (and a BufferExtent when HasExtent) for each, with the
/// entry's index as ordinal.
struct ParamInfo {
  const char *Name;
  const char *Type;
  uint32_t Position;
  /// fb::ParamKind.
  uint8_t Kind;
  uint32_t ElementSize;
  bool HasExtent;
};

/// An instrumented kernel, as the metadata chunk describes it.
struct FunctionInfo {
  const char *Name;
  const char *Target;
  const char *Layout;
  const char *Source;
  /// Where it is defined; null when unknown.
  const char *File = nullptr;
  uint32_t Line = 0;
  uint32_t Column = 0;
  /// fb::FunctionKind.
  uint8_t Kind = 0;
  const ParamInfo *Params = nullptr;
  uint32_t NumParams = 0;
};

/// A place that launches a kernel through wgtrace::dispatch.
struct SiteInfo {
  /// Name of the launched kernel; resolved to a function when the trace is
  /// written, so that a site may launch a kernel of another module.
  const char *Callee;
  /// "file:line" of the call.
  const char *Location;
};

/// An access expression the rewriter wrapped (fb::AccessSiteDef). Its
/// records carry the module's access site base plus its 1-based index.
struct AccessSiteInfo {
  const char *File;
  uint32_t Line;
  uint32_t Column;
  /// fb::AccessKind.
  uint8_t Kind;
  const char *Scope;
  const char *Text;
  /// The OpenMP critical section the access is in ("" for the unnamed
  /// one), or null: written only for such accesses.
  const char *Critical = nullptr;
  /// fb::AccessSiteDef.workgroup_owned.
  bool WorkgroupOwned = false;
  /// fb::AccessSiteDef.thread_owned.
  bool ThreadOwned = false;
};

/// An access the rewriter could not wrap (fb::UntracedAccessDef).
struct UntracedInfo {
  const char *File;
  uint32_t Line;
  uint32_t Column;
  const char *Scope;
  const char *Text;
  const char *Reason;
};

/// What one translation unit adds to the metadata besides its kernels and
/// sites. All optional.
struct ModuleExtras {
  const AccessSiteInfo *AccessSites = nullptr;
  size_t NumAccessSites = 0;
  const UntracedInfo *Untraced = nullptr;
  size_t NumUntraced = 0;
  /// NumAccessSites + 1 words that registration fills: word 0 with
  /// accessSiteBaseBits(), which WGTRACE_ACCESS_SITE adds each site's
  /// index to (Clang), word i with site i's bits, which it reads (GCC).
  uint64_t *AccessSiteBits = nullptr;
};

/// What an instantiation of a template kernel is told apart by: the
/// address of kInstanceId<InstanceTag<its template arguments>> (a non-type
/// argument as Value<v>), which the kernel's prologue and the end of the
/// rewritten file both spell. An inline variable has one address in the
/// program, whichever file names it (and needs no RTTI, which -fno-rtti
/// programs lack).
template <class... Arguments> struct InstanceTag {};
template <auto V> struct Value {};
template <class Tag> inline const char kInstanceId = 0;
/// Whether the instantiation whose tag is Tag is one of Instances: the
/// test WGTRACE_WHEN_LOAD_AT and the like make, in a template's one text,
/// for an access that only some of its instantiations make.
template <class Tag, class... Instances>
inline constexpr bool kInstanceIn = (... || std::is_same_v<Tag, Instances>);

/// An instantiation of a template kernel (or generic lambda kernel) of a
/// module that a rewritten file makes: an export of its own
/// ("scale_k<float>"), with the parameters this instantiation has.
struct InstanceInfo {
  const void *Tag;
  /// The template's index in its module's functions.
  uint32_t Pattern;
  FunctionInfo Function;
};

struct ModuleInstances;

/// The kernels and sites of one instrumented translation unit. Constructing
/// it registers them with the runtime, which assigns process-wide ids.
/// Sites of a module: its explicit sites, then one "direct call" site per
/// function, which stands for calls that bypass wgtrace::dispatch.
class Module {
public:
  Module(const FunctionInfo *Functions, size_t NumFunctions,
         const SiteInfo *Sites, size_t NumSites,
         const ModuleExtras &Extras = ModuleExtras());
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  uint32_t siteBase() const { return SiteBase; }
  uint32_t functionBase() const { return FunctionBase; }

  // A function of a module is \p Function < NumFunctions, one of its
  // entries, or NumFunctions + k, its k-th registered instance
  // (KernelInstances), whose ids were assigned when it registered.

  /// The site that stands for direct calls of \p Function.
  uint32_t directSite(uint32_t Function) const;
  /// The process-wide id of \p Function.
  uint32_t functionId(uint32_t Function) const;
  const FunctionInfo &function(uint32_t Function) const;
  /// The function a template kernel's prologue runs as: its instance with
  /// \p Tag, or the template itself (\p Pattern) when no rewritten file
  /// registered that instance (its arguments could not be spelled there).
  uint32_t instance(uint32_t Pattern, const void *Tag) const;
  /// The registered instances (the runtime's; null: none).
  const ModuleInstances *instances() const { return Instances; }
  /// Process-wide id of this module's access site \p Index (1-based):
  /// the base plus the index, modulo 2^16 when the process has more than
  /// format::kMaxAccessSite sites (the runtime says so at start-up, and
  /// the metadata's table, longer than the ids can name, tells readers).
  uint32_t accessSite(uint32_t Index) const {
    return (AccessSiteBase + Index) & format::kMaxAccessSite;
  }
  /// The id before this module's first access site in place in a memory
  /// record's address word: adding format::accessSiteBits(Index) gives
  /// accessSite(Index) in place, carries beyond 64 bits dropped.
  uint64_t accessSiteBaseBits() const {
    return format::accessSiteBits(AccessSiteBase & format::kMaxAccessSite);
  }
  /// Position of this module's first access site in the process's table
  /// (the metadata's access_sites) minus one.
  uint32_t accessSiteBase() const { return AccessSiteBase; }

  const FunctionInfo *Functions;
  size_t NumFunctions;
  const SiteInfo *Sites;
  size_t NumSites;
  ModuleExtras Extras;

private:
  friend class KernelInstances;
  uint32_t SiteBase = 0;
  uint32_t FunctionBase = 0;
  /// The instances registered so far (runtime-owned; null: none).
  ModuleInstances *Instances = nullptr;
  /// Global id of access site 0 of this module (ids are base + index).
  uint32_t AccessSiteBase = 0;
};

/// Registers the instances of \p M's template kernels that one rewritten
/// file makes (its end defines one): each gets a process-wide function id
/// and a site for its direct calls. An instance another file registered
/// already (a template of a header instantiated in several files) is the
/// same function.
class KernelInstances {
public:
  KernelInstances(Module &M, const InstanceInfo *Instances, size_t Count);
  KernelInstances(const KernelInstances &) = delete;
  KernelInstances &operator=(const KernelInstances &) = delete;
};

/// Run-time defaults a program was built with (wgtrace_instrument_target's
/// BUFFER_SIZE, TIMING, FILTER and COMPRESS; null: none). The environment
/// variables still override them. Define one at namespace scope: it takes
/// effect before the runtime reads its settings, which it does when the first
/// workgroup runs.
struct BuildSettings {
  BuildSettings(const char *BufferSize, bool Timing);
  BuildSettings(const char *BufferSize, bool Timing, const char *Filter);
  BuildSettings(const char *BufferSize, bool Timing, const char *Filter,
                const char *Compress);
};

/// The workgroup invocation running on a thread, as the runtime needs it to
/// continue it: a kernel called from a kernel saves the caller's and
/// restores it when it returns.
struct Invocation {
  /// Its WORKGROUP record; every copy of it (a continuation) repeats it.
  uint8_t Record[format::kWorkgroupRecordSize];
  /// Ring-lifetime offset of its first WORKGROUP record: the bits of its
  /// Continuation VALUEs.
  uint64_t First;
  /// Where its buffer VALUEs start in the ring's list of them.
  uint32_t BufferValuesBegin;
  /// Whether the filter (WGTRACE_FILTER) selected it: an unselected
  /// invocation records its WORKGROUP record and nothing else.
  bool Selected;
};

/// Lives for one kernel invocation: writes the WORKGROUP record and makes
/// it the key of every record until the invocation returns.
class WorkgroupScope {
public:
  WorkgroupScope(const Module &M, uint32_t Function, const Workgroup &WG);
  /// The same for an invocation whose own stack ends at \p StackTop
  /// rather than at \p WG (an OpenMP loop's iteration: the top of the
  /// frame it runs in) and, when \p RecordsLaunch, whose dispatch number
  /// follows its record as a Launch VALUE kept with its buffers (an
  /// OpenMP iteration's: which execution of the loop it belongs to).
  WorkgroupScope(const Module &M, uint32_t Function, const Workgroup &WG,
                 const void *StackTop, bool RecordsLaunch);
  ~WorkgroupScope();
  WorkgroupScope(const WorkgroupScope &) = delete;
  WorkgroupScope &operator=(const WorkgroupScope &) = delete;

  /// Whether the filter selected this invocation.
  bool selected() const { return Selected; }

private:
  Ring *SavedRecording;
  Ring *SavedCurrent;
  uint64_t SavedKeyBits;
  /// The ring's epoch when the invocation began: if a continuation started
  /// a new part of the ring since, the enclosing invocation's record may be
  /// gone, and it is written again when this one returns.
  uint64_t SavedEpoch;
  uint64_t StartNs;
  uint32_t Processor;
  bool Selected;
  /// The enclosing invocation, for a kernel called from a kernel.
  Invocation Saved;
  ThreadState::Bytes SavedKernelStack;
};

/// A buffer parameter's address, and its size in bytes when its type says
/// it.
struct BufferArgument {
  const volatile void *Base;
  uint64_t Bytes;
  bool HasExtent;
};

/// A pointer parameter: its value.
template <class T> BufferArgument bufferArgument(T *Pointer) {
  return {Pointer, 0, false};
}
inline BufferArgument bufferArgument(BufferArgument Argument) {
  return Argument;
}

/// A reference parameter: the object it refers to.
template <class T> BufferArgument objectBuffer(T &Object) {
  return {__builtin_addressof(Object), sizeof(T), true};
}

/// A span (by value) or a reference to a contiguous container: its
/// elements.
template <class Range> BufferArgument rangeBuffer(Range &&R) {
  return {R.data(), uint64_t(R.size()) * sizeof(*R.data()), true};
}

/// An array parameter `T a[N]` (a pointer once passed): N elements.
template <size_t N, class T> BufferArgument arrayBuffer(T *Pointer) {
  return {Pointer, N * sizeof(T), true};
}

/// Records the buffer parameters of the running workgroup, \p Count
/// \p Arguments in the order of its list (each one's BufferBase, and its
/// BufferExtent when it has one). One call for all of them: a call per
/// parameter cost more than the records themselves in an OpenMP iteration
/// (docs/RUNTIME.md). Wholly out of line, the thread's state included: an
/// inline look at it in the prologue would make the compiler keep its
/// address live across the kernel's loops, taking a register they need
/// (stencil's inner loop then spilled it).
///
/// noexcept, as every out-of-line record function a kernel calls: a call
/// that may throw after the prologue's WorkgroupScope gives the kernel an
/// unwind path to its destructor, and with it Clang (19) keeps every
/// record's cursor store in a loop whose body branches (stencil's inner
/// loop stored the cursor after each of its six records, the ideal tracer
/// once per iteration: about a tenth of its time, docs/RUNTIME.md). Out of
/// memory in one (a vector of buffer values) ends the process through
/// std::terminate, which the crash handler turns into a trace.
void recordBufferParameters(const BufferArgument *Arguments,
                            uint32_t Count) noexcept;

template <class... Arguments>
inline void recordBuffers(const Arguments &...Argument) {
  if constexpr (sizeof...(Arguments) > 0) {
    const BufferArgument List[] = {bufferArgument(Argument)...};
    recordBufferParameters(List, sizeof...(Arguments));
  }
}

inline namespace WGTRACE_DETAIL_ACCESSES {

// SiteBits: what WGTRACE_ACCESS_SITE gives for the access's site (its id in
// place), or 0 (none).

/// \p Address as the record functions take it. The address of a
/// restrict-qualified object (a `double *__restrict` variable, whose loads
/// are recorded) converts to no void pointer implicitly; its number does.
template <class T>
WGTRACE_ALWAYS_INLINE const volatile void *recordedAddress(T *Address) {
  // The number of an address, made an address again, is the only way past
  // the restrict qualifier.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  return reinterpret_cast<const volatile void *>(
      reinterpret_cast<uintptr_t>(Address));
}

template <class T>
WGTRACE_ALWAYS_INLINE T *load(T *Address, uint64_t SiteBits = 0) {
  recordAccess(false, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

template <class T>
WGTRACE_ALWAYS_INLINE T *store(T *Address, uint64_t SiteBits = 0) {
  recordAccess(true, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

template <class T>
WGTRACE_ALWAYS_INLINE T *update(T *Address, uint64_t SiteBits = 0) {
  recordAccess(false, recordedAddress(Address), sizeof(T), SiteBits);
  recordAccess(true, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

template <class T>
WGTRACE_ALWAYS_INLINE T *loadReferenced(T *Address, uint64_t SiteBits) {
  referencedAccess(false, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

template <class T>
WGTRACE_ALWAYS_INLINE T *storeReferenced(T *Address, uint64_t SiteBits) {
  referencedAccess(true, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

template <class T>
WGTRACE_ALWAYS_INLINE T *updateReferenced(T *Address, uint64_t SiteBits) {
  referencedAccess(false, recordedAddress(Address), sizeof(T), SiteBits);
  referencedAccess(true, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

/// The plain access forms WGTRACE_WHEN_LOAD_AT and the like choose from.
enum class Gated : uint8_t {
  Load,
  Store,
  Update,
  LoadReferenced,
  StoreReferenced,
  UpdateReferenced
};

/// Access Kind of Address when Record (this instantiation makes it), else
/// nothing: Address is yielded as it is.
template <Gated Kind, bool Record, class T>
WGTRACE_ALWAYS_INLINE T *accessWhen(T *Address, uint64_t SiteBits) {
  if constexpr (!Record)
    return Address;
  else if constexpr (Kind == Gated::Load)
    return load(Address, SiteBits);
  else if constexpr (Kind == Gated::Store)
    return store(Address, SiteBits);
  else if constexpr (Kind == Gated::Update)
    return update(Address, SiteBits);
  else if constexpr (Kind == Gated::LoadReferenced)
    return loadReferenced(Address, SiteBits);
  else if constexpr (Kind == Gated::StoreReferenced)
    return storeReferenced(Address, SiteBits);
  else
    return updateReferenced(Address, SiteBits);
}

/// The same for atomicAccess: its two forms, the object yielded as
/// atomicAccess yields it.
template <format::AtomicOp Op, bool MayBeKernelStack, bool Record, class A>
WGTRACE_ALWAYS_INLINE A *atomicWhen(uint64_t SiteBits, A *Pointer) {
  if constexpr (Record)
    return atomicAccess<Op, MayBeKernelStack>(SiteBits, Pointer);
  else
    return Pointer;
}

template <
    format::AtomicOp Op, bool MayBeKernelStack, bool Record, class A,
    std::enable_if_t<!std::is_pointer_v<std::remove_reference_t<A>>, int> = 0>
WGTRACE_ALWAYS_INLINE A &&atomicWhen(uint64_t SiteBits, A &&Object) {
  if constexpr (Record)
    return atomicAccess<Op, MayBeKernelStack>(SiteBits,
                                              static_cast<A &&>(Object));
  else
    return static_cast<A &&>(Object);
}

} // namespace WGTRACE_DETAIL_ACCESSES
} // namespace wgtrace::detail

#include "wgtrace/detail/reserve.h"

#endif // WGTRACE_INSTRUMENT_H
