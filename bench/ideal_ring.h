//===- ideal_ring.h - The simplest source-level tracer, for comparison ----===//
//
// The reference wgtrace's recording is held to (issue 25): the same
// rewritten kernel source, the same 16-byte records (format.h's words, the
// workgroup key in the first), but the access macros append them to a
// thread-local 16 MiB ring with a masked cursor and two plain 8-byte stores:
// no bounds check, no wrap handling, no access site bits, no crash safety,
// nothing a reader could decode. What wgtrace costs on top of it is what its
// promises cost.
//
// Force-included (-include) before a file wgtrace-rewrite wrote: it
// includes wgtrace/instrument.h itself, so the file's own include of it is
// empty, and replaces the macros the overhead kernels use. The other access
// forms are left undefined, so that a kernel using one fails to compile
// instead of being traced by wgtrace's runtime in the ideal build.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_BENCH_IDEAL_RING_H
#define WGTRACE_BENCH_IDEAL_RING_H

#include <wgtrace/instrument.h>

#include <cstdint>
#include <cstdlib>

namespace bench::ideal {

namespace format = ::wgtrace::format;

/// 16 MiB, the default size of wgtrace's ring.
inline constexpr uint64_t kRingBytes = uint64_t{16} << 20;

struct Ring {
  uint8_t *Data;
  /// Bytes written since the start; the record goes at Head & mask.
  uint64_t Head;
  /// The running workgroup's key in place in a first word.
  uint64_t KeyBits;
};

/// Static TLS with no initialisation guard, like wgtrace's ThreadState.
static __thread __attribute__((tls_model("initial-exec"))) Ring ThreadRing;

/// Stored as long long, which no field of Ring is, so that the compiler
/// keeps the ring's fields in registers across records (as wgtrace's
/// storeRecord does).
inline void store(uint8_t *At, uint64_t First, uint64_t Second) {
  auto *Words = reinterpret_cast<long long *>(At);
  Words[0] = static_cast<long long>(First);
  Words[1] = static_cast<long long>(Second);
}

inline __attribute__((always_inline)) uint8_t *reserve(Ring &R,
                                                       uint64_t Bytes) {
  uint8_t *At = R.Data + (R.Head & (kRingBytes - 1));
  R.Head += Bytes;
  return At;
}

template <bool IsStore, class T>
inline __attribute__((always_inline)) T *access(T *Address) {
  Ring &R = ThreadRing;
  const format::Tag Tag =
      IsStore ? format::Tag::MemoryStore : format::Tag::MemoryLoad;
  store(reserve(R, format::kMemoryRecordSize),
        R.KeyBits | format::packWord(Tag, sizeof(T), 0),
        reinterpret_cast<uintptr_t>(Address));
  return Address;
}

/// The workgroup record, whose ring offset keys the records after it. The
/// ring is allocated by the first workgroup of each thread, with room past
/// its end for a record that starts in its last bytes.
class Workgroup {
public:
  explicit Workgroup(const wgtrace::Workgroup &WG) {
    Ring &R = ThreadRing;
    if (__builtin_expect(!R.Data, 0))
      R.Data = static_cast<uint8_t *>(
          std::calloc(1, kRingBytes + format::kWorkgroupRecordSize));
    uint8_t *At = reserve(R, format::kWorkgroupRecordSize);
    format::encodeWorkgroup(At, {0,
                                 {WG.id[0], WG.id[1], WG.id[2]},
                                 {WG.count[0], WG.count[1], WG.count[2]},
                                 WG.processor_id});
    R.KeyBits = format::keyBits(uint64_t(At - R.Data));
  }
};

/// A BufferBase VALUE per pointer parameter, as wgtrace's prologue records.
template <class... Pointers> inline void buffers(const Pointers *...Pointer) {
  Ring &R = ThreadRing;
  uint8_t Ordinal = 0;
  (store(reserve(R, format::kValueRecordSize),
         R.KeyBits |
             format::packWord(
                 format::Tag::Value,
                 format::valuePayload(format::ValueType::BufferBase, Ordinal++),
                 0),
         reinterpret_cast<uintptr_t>(Pointer)),
   ...);
}

} // namespace bench::ideal

#undef WGTRACE_WORKGROUP
#undef WGTRACE_BUFFERS
#undef WGTRACE_LOAD_AT
#undef WGTRACE_STORE_AT
#undef WGTRACE_UPDATE_AT
#define WGTRACE_WORKGROUP(workgroup, function_index)                           \
  ::bench::ideal::Workgroup wgtrace_workgroup_scope_(workgroup)
#define WGTRACE_BUFFERS(...) ::bench::ideal::buffers(__VA_ARGS__)
#define WGTRACE_LOAD_AT(site, ...)                                             \
  (*::bench::ideal::access<false>(__builtin_addressof(__VA_ARGS__)))
#define WGTRACE_STORE_AT(site, ...)                                            \
  (*::bench::ideal::access<true>(__builtin_addressof(__VA_ARGS__)))
#define WGTRACE_UPDATE_AT(site, ...)                                           \
  (*::bench::ideal::access<true>(                                              \
      ::bench::ideal::access<false>(__builtin_addressof(__VA_ARGS__))))

// Forms the ideal tracer does not implement: a kernel using one does not
// compile in the ideal build.
#undef WGTRACE_LOAD
#undef WGTRACE_STORE
#undef WGTRACE_UPDATE
#undef WGTRACE_LOAD_REF_AT
#undef WGTRACE_STORE_REF_AT
#undef WGTRACE_UPDATE_REF_AT
#undef WGTRACE_ATOMIC_LOAD_AT
#undef WGTRACE_ATOMIC_STORE_AT
#undef WGTRACE_ATOMIC_UPDATE_AT
#undef WGTRACE_ATOMIC_LOAD_REF_AT
#undef WGTRACE_ATOMIC_STORE_REF_AT
#undef WGTRACE_ATOMIC_UPDATE_REF_AT
#undef WGTRACE_WORKGROUP_INSTANCE
#undef WGTRACE_WORKGROUP_OF
#undef WGTRACE_WORKGROUP_INSTANCE_OF
#undef WGTRACE_VALUE
#undef WGTRACE_PRINTF
// The reserved forms too: the ideal build is rewritten with a form per
// record (RESERVE_RECORDS OFF), which these replace, or it would record
// through wgtrace's own reserved path.
#undef WGTRACE_RESERVE_AT
#undef WGTRACE_LOAD_RESERVED_AT
#undef WGTRACE_STORE_RESERVED_AT
#undef WGTRACE_UPDATE_RESERVED_AT

#endif // WGTRACE_BENCH_IDEAL_RING_H
