//===- Record.h - One decoded ring record -----------------------*- C++ -*-===//
//
// What analyses see: a record whose bytes and references have been checked.
// Plain data with views into the mapped file; valid only during the
// AnalysisTool::record() call that receives it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_RECORD_H
#define WGTRACE_VIEWER_RECORD_H

#include "reader/ChunkError.h"

#include "wgtrace/format.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace wgtrace::viewer {

struct Metadata;

/// Record::Buffer of an access in no known buffer.
inline constexpr uint32_t kNoBuffer = UINT32_MAX;

/// A WORKGROUP record as the decoder keeps it while its ring is decoded.
struct WorkgroupInfo {
  /// Ring offset of the record: the key that its records refer to.
  uint64_t Offset = 0;
  /// 0 for the first workgroup record decoded from this ring, then 1, ...
  uint64_t Index = 0;
  format::WorkgroupRecord Record{};
  /// The record is followed by a Continuation VALUE (wgtrace's extension):
  /// it is a copy continuing the invocation whose first WORKGROUP record is
  /// at ring-lifetime offset ContinuationOf.
  bool HasContinuation = false;
  uint64_t ContinuationOf = 0;
  /// The record is followed by an Unselected VALUE (wgtrace's extension):
  /// the runtime's filter (WGTRACE_FILTER) left the invocation out, and it
  /// recorded nothing else. UnselectedBy indexes Metadata::Filters.
  /// Analyses never see such invocations (AnalysisTool::wantsUnselected);
  /// the census counts them.
  bool Unselected = false;
  uint64_t UnselectedBy = 0;

  // Set by the TraceReader (WorkgroupJoiner.h) before any tool sees the
  // record; without a reader, Invocation is Index.

  /// File-wide number of the workgroup invocation this record belongs to,
  /// 0, 1, ... in order of first appearance: every copy of an invocation's
  /// WORKGROUP record (stream-mode buffer changes, wraps, returns from
  /// nested kernels) has the same number. Analyses key workgroups by it.
  uint64_t Invocation = 0;
  /// A copy continuing an invocation whose records began earlier.
  bool Continues = false;
  /// A continuation whose earlier records are not in the file (overwritten).
  bool BeginningLost = false;
  /// Whether the invocation passes the reader's filter (--kernel,
  /// --dispatch, --workgroup); tools never see the records of others.
  bool Selected = true;
};

struct Record {
  format::Tag Tag = format::Tag::Workgroup;
  /// Ring offset of the record (head & (R - 1) when it was reserved).
  uint64_t Offset = 0;
  /// Where the record starts in the file.
  uint64_t FileOffset = 0;
  /// Own offset for WORKGROUP records, the workgroup key for the others.
  uint64_t WorkgroupOffset = 0;
  /// The workgroup the record belongs to (itself for WORKGROUP). Null only
  /// when --iree-compat decodes a wrapped ring, where keys may point at
  /// overwritten bytes.
  const WorkgroupInfo *Workgroup = nullptr;
  /// LOAD / STORE. Memory.Address is the address alone: without the access
  /// site bits when the file has them (docs/FORMAT.md).
  format::MemoryRecord Memory{};
  /// LOAD / STORE: the record's second word as written (what IREE's tool
  /// prints), and the access site id it carries (0: none, or no sites in
  /// this file).
  uint64_t AddressWord = 0;
  uint32_t AccessSite = format::kNoAccessSite;
  /// LOAD / STORE: made by an atomic operation (an Atomic VALUE right
  /// before it marks it, docs/FORMAT.md).
  bool Atomic = false;
  /// LOAD / STORE: the operation of the mark (Update for both records of a
  /// read-modify-write), None when not Atomic.
  format::AtomicOp AtomicOp = format::AtomicOp::None;
  /// LOAD / STORE: made inside an OpenMP critical section (a Critical
  /// VALUE right before it marks it, or a CriticalSection VALUE entered
  /// it), whose name hashes to CriticalName: the innermost.
  bool Critical = false;
  uint64_t CriticalName = 0;
  /// LOAD / STORE, when Critical: every section the access is inside,
  /// outermost first, CriticalName last. Nested sections each exclude
  /// others of their name, so two accesses are synchronised when these
  /// share a name, not only when their innermost ones are the same. Valid
  /// while the ring is decoded.
  llvm::ArrayRef<uint64_t> CriticalNames;
  /// LOAD / STORE: the kernel parameter the address falls in, an index in
  /// TraceCensus::Buffers (BufferResolver.h), or kNoBuffer (none, or the
  /// file names no buffers).
  uint32_t Buffer = kNoBuffer;
  /// VALUE.
  format::ValueRecord Value{};
  /// PRINT text, up to its first NUL (IREE prints it with "%.*s").
  llvm::StringRef Text;
};

/// Orders lists of critical sections (Record::CriticalNames) so that sets
/// and maps of them are searched with the record's list, not a copy of it.
struct CriticalListLess {
  using is_transparent = void;
  bool operator()(llvm::ArrayRef<uint64_t> A,
                  llvm::ArrayRef<uint64_t> B) const {
    return std::lexicographical_compare(A.begin(), A.end(), B.begin(), B.end());
  }
};

struct BufferInfo;

/// How a ring chunk was decoded.
struct RingInfo {
  ChunkLocation Where;
  /// Offset of the ring's first byte (ring offset 0): a plain offset
  /// (ChunkLocation), the file offset unless a compressed chunk precedes
  /// or holds it.
  uint64_t FileOffset = 0;
  /// R: bytes of ring storage (a power of two).
  uint64_t Size = 0;
  /// The write head: bytes ever reserved.
  uint64_t Head = 0;
  bool Wrapped = false;
  /// Bytes of the surviving lap that were not shown because the records in
  /// them were cut or belong to an overwritten workgroup.
  uint64_t LostBytes = 0;
  /// Ring offset of the first decoded record.
  uint64_t StartOffset = 0;
  /// Metadata the dispatch ids index; null when no metadata chunk preceded
  /// this ring.
  const Metadata *Meta = nullptr;
  /// wgtrace's ring trailer (format.h), when the chunk has one: the ring it
  /// belongs to and what that ring lost before this chunk.
  std::optional<format::RingTrailer> Trailer;
  /// The trailer's lost-site entries (entry 0 first).
  std::vector<format::LostSite> LostSites;
  /// The chunk was cut by the end of the file (RingDecoder::createCut):
  /// its trailer, which named its ring, is missing.
  bool Cut = false;
  /// The buffers resolved so far (BufferResolver.h), which a record's
  /// Buffer indexes; it grows while the ring is read. Set by the reader
  /// for the tools.
  const std::vector<BufferInfo> *Buffers = nullptr;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_RECORD_H
