//===- wgtrace/detail/thread_state.h - The recording hot path -------------===//
//
// What the access macros expand to. Each thread owns its ring, so appending a
// record is a compare and three plain stores to thread-private memory: no
// lock, no read-modify-write on shared state.
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

// How records bypass the caches: Clang's __builtin_nontemporal_store, which
// the optimiser treats as an ordinary typed store; elsewhere (GCC) SSE2's
// movnti in an asm statement, on x86-64 (storeNonTemporal says why not
// _mm_stream_si64); plain stores where neither exists.
#if defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define WGTRACE_NONTEMPORAL_BUILTIN 1
#endif
#endif
#ifndef WGTRACE_NONTEMPORAL_BUILTIN
#define WGTRACE_NONTEMPORAL_BUILTIN 0
#endif
#if !WGTRACE_NONTEMPORAL_BUILTIN && defined(__x86_64__) && defined(__SSE2__)
#define WGTRACE_NONTEMPORAL_MOVNTI 1
#else
#define WGTRACE_NONTEMPORAL_MOVNTI 0
#endif

// WGTRACE_MEMORY_ACCESSES=0 (wgtrace_instrument_target's MEMORY_ACCESSES
// OFF) compiles every access helper down to the access alone: only
// workgroups, values and prints are recorded, at no cost per access. The
// helpers live in an inline namespace named after the setting, so that
// translation units built either way link together without two different
// definitions of one inline function.
//
// WGTRACE_TEMPORAL_RECORDS=1 makes the access helpers store their records
// with ordinary stores instead of non-temporal ones. wgtrace-rewrite
// defines it in a file whose instrumented code makes atomic operations: an
// atomic read-modify-write (a locked instruction) waits until the
// non-temporal stores before it have reached memory, a partly filled
// write-combining buffer at a time, which made a recorded atomic update
// cost 40 times an unrecorded one (docs/RUNTIME.md). Its own inline
// namespace keeps the two kinds of files apart, as above.
#if defined(WGTRACE_MEMORY_ACCESSES) && !WGTRACE_MEMORY_ACCESSES
#define WGTRACE_DETAIL_RECORD_MEMORY 0
#define WGTRACE_DETAIL_ACCESSES accesses_off
#elif defined(WGTRACE_TEMPORAL_RECORDS) && WGTRACE_TEMPORAL_RECORDS
#define WGTRACE_DETAIL_RECORD_MEMORY 1
#define WGTRACE_DETAIL_NONTEMPORAL_RECORDS 0
#define WGTRACE_DETAIL_ACCESSES accesses_on_temporal
#else
#define WGTRACE_DETAIL_RECORD_MEMORY 1
#define WGTRACE_DETAIL_ACCESSES accesses_on
#endif
#ifndef WGTRACE_DETAIL_NONTEMPORAL_RECORDS
#define WGTRACE_DETAIL_NONTEMPORAL_RECORDS 1
#endif

namespace wgtrace::detail {

/// What the inline record path of one ring touches. Appending a record is
/// "write at Cursor, advance Cursor", with one compare against End: the
/// compiler keeps Cursor, End and the key in registers through a loop.
/// Reaching End (the buffer's end, or in stream mode a part the writer
/// thread has not drained) takes advance().
struct Ring {
  uint8_t *Cursor;
  uint8_t *End;
  /// The current workgroup's key (ring offset of its record) shifted into
  /// place in a record's first word.
  uint64_t KeyBits;
};

/// What advance() hands back, in two registers: where the record goes, and
/// the key records are made with from now on (a new part or buffer starts
/// with a copy of the running workgroup's record, which the key then names)
/// or'ed with the room before the new End in 16-byte records (less than
/// 2^24: the key's low 24 bits are zero). Three values in a third register
/// would be returned through memory, which makes the compiler reload and
/// store the cursor around every record.
struct RingSpace {
  uint8_t *Cursor;
  uint64_t KeyBitsAndRoom;
};
static_assert(sizeof(RingSpace) == 2 * sizeof(uint64_t),
              "advance() must return in two registers");

/// The bits of a record's first word below the workgroup key, and of
/// RingSpace::KeyBitsAndRoom below the key.
inline constexpr uint64_t kWordLowBits = format::keyBits(1) - 1;

/// Site id meaning "not launched through wgtrace::dispatch".
inline constexpr uint32_t kNoSite = ~0u;
/// Dispatch number meaning "a direct call, not a wgtrace::dispatch".
inline constexpr uint64_t kNoDispatch = ~uint64_t{0};

/// Per-thread state. A plain struct in static TLS: reading it costs one
/// fs-relative load and needs no initialisation guard.
struct ThreadState {
  /// The ring memory accesses go to while an instrumented workgroup that
  /// records them runs on this thread; null otherwise.
  Ring *Recording;
  /// Non-null while any instrumented workgroup runs (values and prints are
  /// kept even when memory tracing is off).
  Ring *Current;
  /// Set by the launcher for the kernel invocation it is about to make;
  /// kNoSite when the next kernel entry is a direct call.
  uint32_t PendingSite;
  /// The process's number for the dispatch the launcher is running (its
  /// launches counted from 0, for WGTRACE_FILTER's dispatch=), or
  /// kNoDispatch.
  uint64_t PendingDispatch;
  /// Records made while no workgroup records memory (outside kernels, or
  /// WGTRACE_MEMORY=0) go to this per-thread scratch ring, so that the
  /// inline path needs no branch to skip them. Set up on its first use.
  Ring Idle;
  /// The running kernel invocation's own stack: from the thread stack's
  /// lowest address up to the caller's frame (where the Workgroup it was
  /// given lives), so its frame and every frame it calls. An access through
  /// a reference the rewriter cannot prove refers to kernel memory (a
  /// helper's or a lambda's reference parameter, a reference bound to a
  /// call's result) is recorded only outside it (referencedAccess). Empty
  /// (Size 0) outside kernels, and where the Workgroup is not on the stack.
  struct Bytes {
    uintptr_t Begin;
    uintptr_t Size;
  } KernelStack;
};

extern WGTRACE_TLS ThreadState ThreadStateTLS;

/// The two little-endian words of a 16-byte record, as the hot path
/// stores them (records are 16-byte aligned in the ring).
struct RecordWords {
  uint64_t First;
  uint64_t Second;
};

/// Stores the 8 bytes of \p Value at \p Word without reading the line into
/// the caches (as far as the compiler can, above). Typed long long, which no
/// field of Ring is: a store through a plain uint64_t pointer might change the
/// key as far as the compiler knows, and it would reload the key after every
/// record.
///
/// GCC: not _mm_stream_si64, whose builtin GCC takes for a call that may
/// write any memory (and neither does an asm with the word as an "=m"
/// output help), so that it reloaded the ring's pointer, cursor, end and
/// key and the access site's bits after every record: stencil took 1.5x
/// the time of the ideal tracer (docs/RUNTIME.md). The asm names no memory
/// at all. That is sound because no instrumented code reads the ring: the
/// runtime reads it in calls, which GCC keeps on their side of a volatile
/// asm, and the records are ordered for other threads by the runtime's
/// fences as before.
WGTRACE_ALWAYS_INLINE void storeNonTemporal(long long *Word, uint64_t Value) {
#if WGTRACE_NONTEMPORAL_BUILTIN
  __builtin_nontemporal_store(static_cast<long long>(Value), Word);
#elif WGTRACE_NONTEMPORAL_MOVNTI
  __asm__ volatile("movnti %1, (%0)"
                   :
                   : "r"(Word), "r"(static_cast<long long>(Value)));
#else
  *Word = static_cast<long long>(Value);
#endif
}

/// Called when a 16-byte record at \p Cursor would reach R.End: publishes
/// Cursor, wraps the ring or starts its next part (ring mode) or hands the
/// full buffer to the writer thread and waits for an empty one (stream
/// mode), and returns where the record goes. Either may first write a copy
/// of the running workgroup's record (with a Continuation VALUE), which
/// becomes the key: the caller takes it from the result.
///
/// Declared const although it is not: the caller only uses what it
/// returns, and a call the compiler believes touches no memory lets it keep
/// the ring's cursor in a register across the loop that contains the call
/// (the cursor is stored once, after the loop). A plain call would make it
/// reload and store the cursor around every record, which costs about half
/// of the recording time. What the runtime loses is the cursor of a loop
/// that is still running, which only the crash handler needs; it recovers
/// it from the records themselves (ThreadRing::recoverRecords).
RingSpace advance(Ring *R, uint8_t *Cursor) noexcept __attribute__((const));

/// Called when the \p Bytes of one atomic operation's records (its Atomic
/// VALUE and the LOAD and STORE it marks) do not all fit between \p Cursor
/// and R.End: fills what is left before a part boundary (ring mode) or the
/// buffer's end (stream mode) with Atomic VALUEs that mark nothing
/// (format::AtomicOp::None), crosses it as advance() does, and returns room
/// for all of them, so that nothing comes between the mark and its
/// records. Declared const for the reason advance() is.
RingSpace advanceGroup(Ring *R, uint8_t *Cursor, uint64_t Bytes) noexcept
    __attribute__((const));

/// advanceGroup() for a reserved statement's \p Bytes of records
/// (<wgtrace/detail/reserve.h>). \p SiteBase, the module's access site
/// base, is not used: passing it makes the statement read it before its
/// compare, through a call declared const as advanceGroup() is, which
/// keeps the cursor in a register (reserveRecords says why).
RingSpace advanceReserved(Ring *R, uint8_t *Cursor, uint64_t Bytes,
                          uint64_t SiteBase) noexcept __attribute__((const));

/// Stores the 16-byte record \p First, \p Second at \p At, with
/// non-temporal stores unless \p NonTemporal is false (see
/// WGTRACE_TEMPORAL_RECORDS).
template <bool NonTemporal = true>
WGTRACE_ALWAYS_INLINE void storeRecord(uint8_t *At, uint64_t First,
                                       uint64_t Second) {
  // Stored as a struct of two words rather than through memcpy into bytes:
  // a char-typed store may alias anything, which would make the compiler
  // reload the ring's fields (and the kernel's own data) after every
  // record. The layout is format::encodeMemory's; a test checks they agree.
  //
  // Non-temporal: with ordinary stores a ring larger than the caches is
  // read into them before each line is overwritten, which doubles the
  // memory traffic of recording and evicts the kernel's own data. The
  // runtime fences before another thread reads the ring.
  auto *Words = reinterpret_cast<RecordWords *>(At);
  auto *FirstWord = reinterpret_cast<long long *>(&Words->First);
  auto *SecondWord = reinterpret_cast<long long *>(&Words->Second);
  if constexpr (NonTemporal) {
#if WGTRACE_NONTEMPORAL_MOVNTI
    // One asm for both words: the second's address is a displacement.
    (void)SecondWord;
    __asm__ volatile("movnti %1, (%0)\n\tmovnti %2, 8(%0)"
                     :
                     : "r"(FirstWord), "r"(First), "r"(Second));
#else
    storeNonTemporal(FirstWord, First);
    storeNonTemporal(SecondWord, Second);
#endif
  } else {
    *FirstWord = static_cast<long long>(First);
    *SecondWord = static_cast<long long>(Second);
  }
}

/// Takes the room advance() or advanceGroup() returned: R's part now ends
/// after it and its records carry the key it names. Returns where the
/// room begins.
WGTRACE_ALWAYS_INLINE uint8_t *enterSpace(Ring &R, RingSpace Space) {
  R.End = Space.Cursor + ((Space.KeyBitsAndRoom & kWordLowBits) << 4);
  R.KeyBits = Space.KeyBitsAndRoom & ~kWordLowBits;
  return Space.Cursor;
}

/// Appends one 16-byte record whose first word \p First carries R's key.
template <bool NonTemporal = true>
WGTRACE_ALWAYS_INLINE void appendRecord(Ring &R, uint64_t First,
                                        uint64_t Second) {
  uint8_t *Cursor = R.Cursor;
  if (WGTRACE_UNLIKELY(Cursor >= R.End)) {
    Cursor = enterSpace(R, advance(&R, Cursor));
    First = (First & kWordLowBits) | R.KeyBits;
  }
  R.Cursor = Cursor + 16;
  storeRecord<NonTemporal>(Cursor, First, Second);
}

/// Appends the records of an operation \p Op marked by a VALUE of
/// \p Type with \p Bits (docs/FORMAT.md): the mark, then its LOAD and/or
/// STORE of \p Length bytes with address word \p Word, 32 or 48 bytes
/// reserved at once so that nothing comes between them. An Atomic mark's
/// Bits are \p Op; a Critical mark's the section's name hashed.
template <bool NonTemporal = true>
WGTRACE_ALWAYS_INLINE void appendMarked(Ring &R, format::ValueType Type,
                                        uint64_t Bits, format::AtomicOp Op,
                                        uint64_t Length, uint64_t Word) {
  const unsigned Marked = format::atomicRecords(Op);
  const uint64_t Bytes = uint64_t(1 + Marked) * 16;
  uint8_t *Cursor = R.Cursor;
  if (WGTRACE_UNLIKELY(uint64_t(R.End - Cursor) < Bytes)) {
    Cursor = enterSpace(R, advanceGroup(&R, Cursor, Bytes));
  }
  R.Cursor = Cursor + Bytes;
  storeRecord<NonTemporal>(
      Cursor,
      R.KeyBits | format::packWord(format::Tag::Value,
                                   format::valuePayload(Type, uint8_t(Marked)),
                                   0),
      Bits);
  if (unsigned(Op) & unsigned(format::AtomicOp::Load)) {
    Cursor += 16;
    storeRecord<NonTemporal>(
        Cursor,
        R.KeyBits | format::packWord(format::Tag::MemoryLoad, Length, 0), Word);
  }
  if (unsigned(Op) & unsigned(format::AtomicOp::Store)) {
    Cursor += 16;
    storeRecord<NonTemporal>(
        Cursor,
        R.KeyBits | format::packWord(format::Tag::MemoryStore, Length, 0),
        Word);
  }
}

/// The ring records of \p Kept go to: it, or the thread's idle ring. A
/// select, not a branch, so that a loop's records are straight-line code.
WGTRACE_ALWAYS_INLINE Ring &ringOrIdle(Ring *Kept) {
  ThreadState &State = ThreadStateTLS;
  return Kept ? *Kept : State.Idle;
}

/// The first word of a memory record in \p R.
WGTRACE_ALWAYS_INLINE uint64_t memoryWord(const Ring &R, bool IsStore,
                                          uint64_t Length) {
  format::Tag Tag =
      IsStore ? format::Tag::MemoryStore : format::Tag::MemoryLoad;
  return R.KeyBits | format::packWord(Tag, Length, 0);
}

/// Slow path for accesses longer than a record's 16-bit length field.
/// noexcept like every record function (see recordBufferParameter).
void recordLongAccess(Ring &R, bool IsStore, const volatile void *Address,
                      uint64_t Length, uint64_t SiteBits) noexcept;

/// Slow path for marked operations (atomic ones, accesses inside OpenMP
/// critical sections) on objects longer than a record's 16-bit length
/// field: one mark and its records per piece.
void recordLongMarked(Ring &R, format::ValueType Type, uint64_t Bits,
                      format::AtomicOp Op, const volatile void *Address,
                      uint64_t Length, uint64_t SiteBits) noexcept;

inline namespace WGTRACE_DETAIL_ACCESSES {

/// How this file's access helpers store records (WGTRACE_TEMPORAL_RECORDS).
inline constexpr bool kNonTemporalRecords = WGTRACE_DETAIL_NONTEMPORAL_RECORDS;

/// Records an access of \p Length bytes at \p Address. \p SiteBits is the
/// access site's id in place in the address word (format::accessSiteBits;
/// 0 for none), added rather than ORed (the same bits: the address is
/// below them) so that the compiler can fold site and address into one
/// pointer, which a loop steps (see WGTRACE_ACCESS_SITE).
WGTRACE_ALWAYS_INLINE void recordAccess(bool IsStore,
                                        const volatile void *Address,
                                        uint64_t Length,
                                        uint64_t SiteBits = 0) {
#if !WGTRACE_DETAIL_RECORD_MEMORY
  (void)IsStore;
  (void)Address;
  (void)Length;
  (void)SiteBits;
  return;
#endif
  Ring &R = ringOrIdle(ThreadStateTLS.Recording);
  if (WGTRACE_UNLIKELY(Length > format::kMaxAccessLength)) {
    recordLongAccess(R, IsStore, Address, Length, SiteBits);
    return;
  }
  appendRecord<kNonTemporalRecords>(R, memoryWord(R, IsStore, Length),
                                    reinterpret_cast<uintptr_t>(Address) +
                                        SiteBits);
}

/// Records operation \p Op (a load, a store or an update: its LOAD, then
/// its STORE) of the \p Length bytes at \p Address under a mark of
/// \p Type with \p Bits (appendMarked; \p SiteBits as for recordAccess).
/// \p Op is a constant at every call site: the records it does not make
/// fold away.
WGTRACE_ALWAYS_INLINE void recordMarked(format::ValueType Type, uint64_t Bits,
                                        format::AtomicOp Op,
                                        const volatile void *Address,
                                        uint64_t Length, uint64_t SiteBits) {
#if !WGTRACE_DETAIL_RECORD_MEMORY
  (void)Type;
  (void)Bits;
  (void)Op;
  (void)Address;
  (void)Length;
  (void)SiteBits;
  return;
#endif
  Ring &R = ringOrIdle(ThreadStateTLS.Recording);
  if (WGTRACE_UNLIKELY(Length > format::kMaxAccessLength)) {
    recordLongMarked(R, Type, Bits, Op, Address, Length, SiteBits);
    return;
  }
  appendMarked<kNonTemporalRecords>(R, Type, Bits, Op, Length,
                                    reinterpret_cast<uintptr_t>(Address) +
                                        SiteBits);
}

/// Records an atomic operation \p Op on the \p Length bytes at \p Address
/// under an Atomic mark.
WGTRACE_ALWAYS_INLINE void recordAtomic(format::AtomicOp Op,
                                        const volatile void *Address,
                                        uint64_t Length,
                                        uint64_t SiteBits = 0) {
  recordMarked(format::ValueType::Atomic, uint64_t(Op), Op, Address, Length,
               SiteBits);
}

/// Records an access \p Op of the \p Length bytes at \p Address inside the
/// OpenMP critical section whose name hashes to \p Name (format::
/// criticalNameHash), under a Critical mark.
WGTRACE_ALWAYS_INLINE void recordCritical(uint64_t Name, format::AtomicOp Op,
                                          const volatile void *Address,
                                          uint64_t Length, uint64_t SiteBits) {
  recordMarked(format::ValueType::Critical, Name, Op, Address, Length,
               SiteBits);
}

/// An access through a reference that may be bound to the running
/// kernel's own stack (WGTRACE_LOAD_REF_AT, ...): a local of the kernel
/// handed to a helper by reference, a temporary a library function
/// returned, a standard algorithm's own values handed to a lambda. Those
/// are not kernel memory and are not recorded; anything else is.
WGTRACE_ALWAYS_INLINE void referencedAccess(bool IsStore,
                                            const volatile void *Address,
                                            uint64_t Length,
                                            uint64_t SiteBits) {
#if !WGTRACE_DETAIL_RECORD_MEMORY
  (void)IsStore;
  (void)Address;
  (void)Length;
  (void)SiteBits;
  return;
#endif
  const ThreadState::Bytes &Stack = ThreadStateTLS.KernelStack;
  if (reinterpret_cast<uintptr_t>(Address) - Stack.Begin < Stack.Size)
    return;
  recordAccess(IsStore, Address, Length, SiteBits);
}

/// recordAtomic() of an object reached through something that may be
/// bound to the running kernel's own stack (referencedAccess).
WGTRACE_ALWAYS_INLINE void referencedAtomic(format::AtomicOp Op,
                                            const volatile void *Address,
                                            uint64_t Length,
                                            uint64_t SiteBits) {
#if !WGTRACE_DETAIL_RECORD_MEMORY
  (void)Op;
  (void)Address;
  (void)Length;
  (void)SiteBits;
  return;
#endif
  const ThreadState::Bytes &Stack = ThreadStateTLS.KernelStack;
  if (reinterpret_cast<uintptr_t>(Address) - Stack.Begin < Stack.Size)
    return;
  recordAtomic(Op, Address, Length, SiteBits);
}

} // namespace WGTRACE_DETAIL_ACCESSES

/// Records a buffer parameter's VALUE (BufferBase, BufferExtent) of the
/// running workgroup and keeps it, so that every copy of the workgroup's
/// record (a continuation) repeats it. Out of line: once per parameter and
/// workgroup.
void recordBufferValue(format::ValueType Type, uint8_t Ordinal,
                       uint64_t Bits) noexcept;

WGTRACE_ALWAYS_INLINE void recordValueBits(format::ValueType Type,
                                           uint8_t Ordinal, uint64_t Bits) {
  Ring *Current = ThreadStateTLS.Current;
  if (!Current)
    return;
  // A constant at every call site: the branch folds away.
  if (Type == format::ValueType::BufferBase ||
      Type == format::ValueType::BufferExtent) {
    recordBufferValue(Type, Ordinal, Bits);
    return;
  }
  appendRecord(*Current,
               Current->KeyBits |
                   format::packWord(format::Tag::Value,
                                    format::valuePayload(Type, Ordinal), 0),
               Bits);
}

/// Appends a PRINT record of \p Length bytes (at most kMaxPrintLength).
void recordPrint(const char *Text, uint32_t Length) noexcept;

} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_THREAD_STATE_H
