//===- wgtrace/detail/reserve.h - Room reserved for a statement -----------===//
//
// `wgtrace-rewrite --reserve-records` writes WGTRACE_RESERVE(n) before a
// statement whose records it can count (at most n, on any path through it)
// and the statement's accesses in the forms below, which append without
// comparing the cursor against the ring's end: one compare per statement
// instead of one per record (docs/RUNTIME.md, "Reserved statements").
//
// The reservation crosses a part boundary (ring mode) or a buffer's end
// (stream mode) as an atomic operation's records do (advanceGroup: what is
// left before it is filled with marks of no operation), so the statement's
// records are never split by a continuation and none is lost.
//
// WGTRACE_CHECK_RESERVATIONS=1 (the tests build with it) makes every
// reserved append check that it stays within the last reservation and the
// ring's end, and abort with a message if not, so that a rewriter that
// counted too few records fails loudly instead of writing past the end.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_DETAIL_RESERVE_H
#define WGTRACE_DETAIL_RESERVE_H

// Included at the end of <wgtrace/instrument.h>, whose recordedAddress()
// it uses.
#include "wgtrace/detail/thread_state.h"

#if defined(WGTRACE_CHECK_RESERVATIONS) && WGTRACE_CHECK_RESERVATIONS
#define WGTRACE_DETAIL_CHECK_RESERVATIONS 1
#define WGTRACE_DETAIL_RESERVATIONS reservations_checked
#include <cstdio>
#include <cstdlib>
#else
#define WGTRACE_DETAIL_CHECK_RESERVATIONS 0
#define WGTRACE_DETAIL_RESERVATIONS reservations_unchecked
#endif

/// Room for the \p n records of the statement that follows.
#define WGTRACE_RESERVE(n) (::wgtrace::detail::reserveRecords(n, 0))
/// The same before a statement whose accesses carry access sites (the
/// _RESERVED_AT forms), which wgtrace-rewrite writes: with Clang it reads
/// the module's site base first (see reserveRecords). GCC reads each
/// site's own word (WGTRACE_ACCESS_SITE): there is no base to read.
#if defined(__clang__)
#define WGTRACE_RESERVE_AT(n)                                                  \
  (::wgtrace::detail::reserveRecords(n, WGTRACE_ACCESS_SITE(0)))
#else
#define WGTRACE_RESERVE_AT(n) (::wgtrace::detail::reserveRecords(n, 0))
#endif

/// WGTRACE_LOAD_AT and friends for an access inside a statement that
/// WGTRACE_RESERVE made room for.
#define WGTRACE_LOAD_RESERVED_AT(site, ...)                                    \
  (*::wgtrace::detail::loadReserved(__builtin_addressof(__VA_ARGS__),          \
                                    WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_STORE_RESERVED_AT(site, ...)                                   \
  (*::wgtrace::detail::storeReserved(__builtin_addressof(__VA_ARGS__),         \
                                     WGTRACE_ACCESS_SITE(site)))
#define WGTRACE_UPDATE_RESERVED_AT(site, ...)                                  \
  (*::wgtrace::detail::updateReserved(__builtin_addressof(__VA_ARGS__),        \
                                      WGTRACE_ACCESS_SITE(site)))

/// The same without a site (site 0, "none"), for accesses written by hand.
#define WGTRACE_LOAD_RESERVED(...)                                             \
  (*::wgtrace::detail::loadReserved(__builtin_addressof(__VA_ARGS__), 0))
#define WGTRACE_STORE_RESERVED(...)                                            \
  (*::wgtrace::detail::storeReserved(__builtin_addressof(__VA_ARGS__), 0))
#define WGTRACE_UPDATE_RESERVED(...)                                           \
  (*::wgtrace::detail::updateReserved(__builtin_addressof(__VA_ARGS__), 0))

namespace wgtrace::detail {

/// The most records one reservation may ask for: far less than the
/// smallest part of a ring (4 KiB) after a continuation's copy of the
/// workgroup's record, so that advanceGroup() always finds the room.
inline constexpr uint64_t kMaxReservedRecords = 32;

inline namespace WGTRACE_DETAIL_ACCESSES {
inline namespace WGTRACE_DETAIL_RESERVATIONS {

#if WGTRACE_DETAIL_CHECK_RESERVATIONS
/// Records the last reservation has room for still (checking builds).
inline thread_local uint64_t ReservedRecordsLeft = 0;

[[noreturn, gnu::noinline, gnu::cold]] inline void
reservationOverrun(const char *What) {
  std::fprintf(stderr, "wgtrace: reserved record %s\n", What);
  std::abort();
}
#endif

/// Makes room for \p Records 16-byte records before the end of the ring
/// the thread's accesses go to (the idle ring outside recorded
/// workgroups): one compare, and where they do not fit, advanceGroup().
///
/// \p SiteBase is the module's access site base (WGTRACE_ACCESS_SITE(0)),
/// which the slow path is given so that the statement reads it before the
/// compare. Clang then reads it once per function, as it does for checked
/// accesses: a loop whose body branches between reserved statements
/// begins each branch with the same read, which it hoists above the
/// branch and then out of the loop. Read after the compare, it was read
/// again in every iteration (stencil: two calls per point, 70.6 M
/// instructions in its kernel against 62.2 M now). An asm that uses it
/// on the slow path instead of the argument made Clang store the cursor
/// after every statement.
WGTRACE_ALWAYS_INLINE void reserveRecords(uint64_t Records, uint64_t SiteBase) {
#if !WGTRACE_DETAIL_RECORD_MEMORY
  (void)Records;
  (void)SiteBase;
  return;
#else
  Ring &R = ringOrIdle(ThreadStateTLS.Recording);
  const uint64_t Bytes = Records * 16;
  uint8_t *Cursor = R.Cursor;
  if (WGTRACE_UNLIKELY(uint64_t(R.End - Cursor) < Bytes)) {
    R.Cursor = enterSpace(R, advanceReserved(&R, Cursor, Bytes, SiteBase));
  }
#if WGTRACE_DETAIL_CHECK_RESERVATIONS
  if (Records > kMaxReservedRecords)
    reservationOverrun("reservation larger than kMaxReservedRecords");
  ReservedRecordsLeft = Records;
#endif
#endif
}

/// Records an access of \p Length bytes (at most a record's length field)
/// at \p Address in room WGTRACE_RESERVE made: no compare.
WGTRACE_ALWAYS_INLINE void recordReserved(bool IsStore,
                                          const volatile void *Address,
                                          uint64_t Length, uint64_t SiteBits) {
#if !WGTRACE_DETAIL_RECORD_MEMORY
  (void)IsStore;
  (void)Address;
  (void)Length;
  (void)SiteBits;
#else
  Ring &R = ringOrIdle(ThreadStateTLS.Recording);
  uint8_t *Cursor = R.Cursor;
#if WGTRACE_DETAIL_CHECK_RESERVATIONS
  if (ReservedRecordsLeft == 0)
    reservationOverrun("beyond its statement's reservation");
  if (Cursor >= R.End)
    reservationOverrun("past the end of the ring's part");
  --ReservedRecordsLeft;
#endif
  R.Cursor = Cursor + 16;
  storeRecord<kNonTemporalRecords>(Cursor, memoryWord(R, IsStore, Length),
                                   reinterpret_cast<uintptr_t>(Address) +
                                       SiteBits);
#endif
}

// An access longer than a record's length field takes the checked slow
// path, which would use up room the statement reserved: the rewriter
// reserves no statement with one, and a reserved form of one does not
// compile.
template <class T>
WGTRACE_ALWAYS_INLINE T *loadReserved(T *Address, uint64_t SiteBits) {
  static_assert(sizeof(T) <= format::kMaxAccessLength,
                "a reserved access must fit one record");
  recordReserved(false, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

template <class T>
WGTRACE_ALWAYS_INLINE T *storeReserved(T *Address, uint64_t SiteBits) {
  static_assert(sizeof(T) <= format::kMaxAccessLength,
                "a reserved access must fit one record");
  recordReserved(true, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

/// Two records: the load, then the store.
template <class T>
WGTRACE_ALWAYS_INLINE T *updateReserved(T *Address, uint64_t SiteBits) {
  static_assert(sizeof(T) <= format::kMaxAccessLength,
                "a reserved access must fit one record");
  recordReserved(false, recordedAddress(Address), sizeof(T), SiteBits);
  recordReserved(true, recordedAddress(Address), sizeof(T), SiteBits);
  return Address;
}

} // namespace WGTRACE_DETAIL_RESERVATIONS
} // namespace WGTRACE_DETAIL_ACCESSES
} // namespace wgtrace::detail

#endif // WGTRACE_DETAIL_RESERVE_H
