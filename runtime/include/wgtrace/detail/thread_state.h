//===- wgtrace/detail/thread_state.h - The recording hot path -------------===//
//
// What the access macros expand to. Each thread owns its ring, so appending a
// record is a few plain stores to thread-private memory: no lock, no
// read-modify-write on shared state. The head is published with a relaxed
// atomic store (a plain mov on x86) so that the exit-time writer and the
// crash handler read a coherent value without a data race.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_THREAD_STATE_H
#define WGTRACE_DETAIL_THREAD_STATE_H

#include "wgtrace/format.h"

#include <cstdint>

#if defined(__GNUC__) || defined(__clang__)
#define WGTRACE_ALWAYS_INLINE inline __attribute__((always_inline))
#define WGTRACE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define WGTRACE_TLS __thread __attribute__((tls_model("initial-exec")))
#else
#define WGTRACE_ALWAYS_INLINE inline
#define WGTRACE_UNLIKELY(x) (x)
#define WGTRACE_TLS thread_local
#endif

// WGTRACE_MEMORY_ACCESSES=0 (wgtrace_instrument_target's MEMORY_ACCESSES
// OFF) compiles every access helper down to the access alone: only
// workgroups, values and prints are recorded, at no cost per access. The
// helpers live in an inline namespace named after the setting, so that
// translation units built either way link together without two different
// definitions of one inline function.
//
// WGTRACE_STREAM_MODE=0 (wgtrace_instrument_target's STREAM OFF) drops the
// check stream mode needs before each record: its slow path is a call that
// may change buffers, after which the compiler reloads the ring's fields
// for the next record. Without it recording costs about a third less; the
// runtime then refuses WGTRACE_MODE=stream.
#if defined(WGTRACE_MEMORY_ACCESSES) && !WGTRACE_MEMORY_ACCESSES
#define WGTRACE_DETAIL_RECORD_MEMORY 0
#define WGTRACE_DETAIL_STREAM_CAPABLE 1
#define WGTRACE_DETAIL_ACCESSES accesses_off
#elif defined(WGTRACE_STREAM_MODE) && !WGTRACE_STREAM_MODE
#define WGTRACE_DETAIL_RECORD_MEMORY 1
#define WGTRACE_DETAIL_STREAM_CAPABLE 0
#define WGTRACE_DETAIL_ACCESSES accesses_ring_only
#else
#define WGTRACE_DETAIL_RECORD_MEMORY 1
#define WGTRACE_DETAIL_STREAM_CAPABLE 1
#define WGTRACE_DETAIL_ACCESSES accesses_on
#endif

namespace wgtrace::detail {

/// One thread's ring: Size (a power of two) bytes of records followed by the
/// format's padding, laid out exactly as the ring chunk's content.
struct Ring {
  uint8_t *Data;
  uint64_t Mask;
  /// Bytes ever reserved into Data; only grows while Data is the same.
  uint64_t Head;
  /// A reservation that would pass this takes the slow path: never in ring
  /// mode (it wraps instead), at the buffer's end in stream mode.
  uint64_t Limit;
  /// Ring offset of the current workgroup's record (the "workgroup key").
  uint64_t WorkgroupKey;
};

/// Site id meaning "not launched through wgtrace::dispatch".
inline constexpr uint32_t kNoSite = ~0u;

/// Per-thread state. A plain struct in static TLS: reading it costs one
/// fs-relative load and needs no initialisation guard.
struct ThreadState {
  /// Non-null only while an instrumented workgroup that records memory
  /// accesses runs on this thread; the macros record nothing otherwise.
  Ring *Recording;
  /// Non-null while any instrumented workgroup runs (values and prints are
  /// kept even when memory tracing is off).
  Ring *Current;
  /// Set by the launcher for the kernel invocation it is about to make;
  /// kNoSite when the next kernel entry is a direct call.
  uint32_t PendingSite;
};

extern WGTRACE_TLS ThreadState ThreadStateTLS;

/// The two little-endian words of a 16-byte record, as the hot path
/// stores them (records are 16-byte aligned in the ring).
struct RecordWords {
  uint64_t First;
  uint64_t Second;
};

/// Slow path for accesses longer than a record's 16-bit length field.
void recordLongAccess(Ring &R, bool IsStore, const volatile void *Address,
                      uint64_t Length);

/// Stream mode's buffer change: hands the full buffer to the writer thread
/// and continues in an empty one. Returns where the record goes.
uint8_t *reserveSlow(Ring &R, uint64_t Size);

/// reserve() for code built with WGTRACE_STREAM_MODE=0: ring mode only,
/// where a reservation never changes buffers.
WGTRACE_ALWAYS_INLINE uint8_t *reserveInRing(Ring &R, uint64_t Size) {
  uint64_t Head = R.Head;
  __atomic_store_n(&R.Head, Head + Size, __ATOMIC_RELAXED);
  return R.Data + (Head & R.Mask);
}

/// Notes that code built with WGTRACE_STREAM_MODE=0 is in the process, so
/// that stream mode is refused instead of losing records.
bool noteRingOnlyBuild();

WGTRACE_ALWAYS_INLINE uint8_t *reserve(Ring &R, uint64_t Size) {
  uint64_t Head = R.Head;
  if (WGTRACE_UNLIKELY(Head + Size > R.Limit))
    return reserveSlow(R, Size);
  __atomic_store_n(&R.Head, Head + Size, __ATOMIC_RELAXED);
  return R.Data + (Head & R.Mask);
}

inline namespace WGTRACE_DETAIL_ACCESSES {

WGTRACE_ALWAYS_INLINE void
recordAccess(bool IsStore, const volatile void *Address, uint64_t Length) {
#if !WGTRACE_DETAIL_RECORD_MEMORY
  (void)IsStore;
  (void)Address;
  (void)Length;
  return;
#endif
  Ring *R = ThreadStateTLS.Recording;
  if (!R)
    return;
  if (WGTRACE_UNLIKELY(Length > format::kMaxAccessLength)) {
    recordLongAccess(*R, IsStore, Address, Length);
    return;
  }
  // Reserve first: in stream mode it may move to a new buffer and key.
#if WGTRACE_DETAIL_STREAM_CAPABLE
  uint8_t *Record = reserve(*R, format::kMemoryRecordSize);
#else
  uint8_t *Record = reserveInRing(*R, format::kMemoryRecordSize);
#endif
  // Stored as a struct of two words rather than through memcpy into bytes:
  // a char-typed store may alias anything, which would make the compiler
  // reload the ring's fields (and the kernel's own data) after every
  // record. The layout is format::encodeMemory's; a test checks they agree.
  auto *Words = reinterpret_cast<RecordWords *>(Record);
  Words->First = format::packWord(IsStore ? format::Tag::MemoryStore
                                          : format::Tag::MemoryLoad,
                                  Length, R->WorkgroupKey);
  Words->Second = reinterpret_cast<uintptr_t>(Address);
}

} // namespace WGTRACE_DETAIL_ACCESSES

#if !WGTRACE_DETAIL_STREAM_CAPABLE
// One per translation unit built ring-only, registered before main.
[[maybe_unused]] static const bool RingOnlyBuildNoted = noteRingOnlyBuild();
#endif

WGTRACE_ALWAYS_INLINE void recordValueBits(format::ValueType Type,
                                           uint8_t Ordinal, uint64_t Bits) {
  Ring *R = ThreadStateTLS.Current;
  if (!R)
    return;
  uint8_t *Record = reserve(*R, format::kValueRecordSize);
  format::encodeValue(Record, Type, Ordinal, R->WorkgroupKey, Bits);
}

/// Appends a PRINT record of \p Length bytes (at most kMaxPrintLength).
void recordPrint(const char *Text, uint32_t Length);

} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_THREAD_STATE_H
