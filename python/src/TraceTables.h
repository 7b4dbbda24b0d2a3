//===- TraceTables.h - What wgtrace.open() learns from one pass -*- C++ -*-===//
//
// The Python module decodes a trace once when it is opened and keeps, per
// workgroup, value, print, timing entry, ring chunk, access site and lost
// ring, one small row here; the Trace's DataFrames are built from these
// tables. The accesses are not kept (they are most of a trace) but read
// again on request, straight into a numpy array, through where they are:
// the runs of each invocation's records in each ring chunk (RunEntry).
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_PYTHON_TRACETABLES_H
#define WGTRACE_PYTHON_TRACETABLES_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::python {

/// A kernel (DispatchFunctionDef) of one file; equal functions of several
/// metadata chunks of the file are one entry.
struct FunctionEntry {
  uint32_t File = 0;
  std::optional<std::string> Name, Target, Layout, Source;
};

/// A dispatch site of one file, as the reader's census counts it.
struct SiteEntry {
  uint32_t File = 0;
  uint32_t Site = 0;
  /// Index into TraceTables::KernelNames.
  uint32_t Kernel = 0;
  std::string Location;
  /// The site standing for direct calls of its kernel.
  bool Direct = false;
  /// Invocations with a surviving WORKGROUP record, and those the ring
  /// trailers say were overwritten.
  uint64_t Workgroups = 0;
  uint64_t WorkgroupsLost = 0;
  uint32_t Launches = 0;
};

/// One workgroup invocation: all copies of its WORKGROUP record (stream-mode
/// buffer changes, wraps, returns from nested kernels), joined by the
/// reader, are one entry.
struct WorkgroupEntry {
  uint32_t File = 0;
  uint32_t Site = 0;
  /// Index into TraceTables::KernelNames.
  uint32_t Kernel = 0;
  /// Ordinal of its launch among the launches of its site (LaunchTracker).
  uint32_t Launch = 0;
  uint32_t Id[3] = {};
  uint32_t Count[3] = {};
  uint32_t Processor = 0;
  /// The ring chunk and ring offset of its first WORKGROUP record.
  uint32_t Chunk = 0;
  uint64_t RingOffset = 0;
  /// WORKGROUP records: more than 1 for a continued invocation.
  uint32_t Pieces = 0;
  /// Its first records were overwritten: the counts miss them.
  bool BeginningLost = false;
  /// False when the runtime's filter (WGTRACE_FILTER) left it out: it
  /// recorded nothing but its WORKGROUP record.
  bool Selected = true;
  uint64_t Loads = 0, Stores = 0, LoadBytes = 0, StoreBytes = 0;
  uint64_t Values = 0, Prints = 0;
  /// From timing chunks.
  bool Timed = false;
  uint64_t StartNs = 0, EndNs = 0;
};

struct ValueEntry {
  uint32_t Workgroup = 0;
  uint8_t Type = 0;
  uint8_t Ordinal = 0;
  uint64_t Bits = 0;
};

struct PrintEntry {
  uint32_t Workgroup = 0;
  std::string Text;
};

struct TimingEntry {
  uint32_t Workgroup = 0;
  uint32_t Processor = 0;
  uint64_t StartNs = 0, EndNs = 0;
};

/// A ring chunk and how it was decoded (RingInfo).
struct RingEntry {
  uint32_t File = 0;
  uint32_t Chunk = 0;
  uint64_t FileOffset = 0;
  uint64_t Size = 0;
  uint64_t Head = 0;
  bool Wrapped = false;
  uint64_t LostBytes = 0;
  uint64_t StartOffset = 0;
  /// From wgtrace's ring trailer, when the chunk has one.
  bool HasTrailer = false;
  uint32_t RingId = 0;
  uint32_t ChunkSequence = 0;
  uint64_t Records = 0;
  uint64_t WorkgroupRecords = 0;
  uint64_t Accesses = 0;
  /// The metadata chunk its dispatch ids index (the last one before it),
  /// and what that metadata says of its memory records: they carry access
  /// site bits; the ids can be trusted (not wrapped).
  std::optional<uint32_t> MetadataChunk;
  bool AccessSiteBits = false;
  bool TrustAccessSites = false;
};

/// Consecutive records of one ring chunk that belong to one workgroup
/// invocation, as the reader delivered them when the file was opened: the
/// index accesses() reads a selection through, without decoding the
/// records of other workgroups (AccessTable).
struct RunEntry {
  /// Index into TraceTables::Rings and TraceTables::Workgroups.
  uint32_t Ring = 0;
  uint32_t Workgroup = 0;
  /// Ring offset of its first record, and its number of records.
  uint64_t Offset = 0;
  uint64_t Records = 0;
};

/// A ring that lost records (TraceCensus' RingLoss).
struct LossEntry {
  uint32_t File = 0;
  /// The ring's last chunk.
  uint32_t Chunk = 0;
  uint64_t FileOffset = 0;
  /// Exact counts from a ring trailer; else only bytes are known.
  bool FromTrailer = false;
  uint32_t RingId = 0;
  uint64_t BytesRecorded = 0;
  uint64_t BytesLost = 0;
  std::optional<uint64_t> RecordsLost;
  std::optional<uint64_t> WorkgroupsLost;
};

/// A place in the source, with what wgtrace's metadata says of it.
struct SourceEntry {
  uint32_t File = 0;
  std::string SourceFile;
  uint32_t Line = 0;
  uint32_t Column = 0;
  std::string Scope;
  std::string Text;
};

/// An access expression the rewriter numbered (access site id >= 1).
struct AccessSiteEntry : SourceEntry {
  uint32_t Id = 0;
  /// fb::AccessKind.
  uint8_t Kind = 0;
};

/// An access the rewriter could not wrap.
struct UntracedEntry : SourceEntry {
  std::string Reason;
};

/// A kernel's buffer parameter and the memory an invocation gave it, as
/// the reader resolves accesses to them (viewer::BufferInfo).
struct BufferEntry {
  uint32_t File = 0;
  /// Index into TraceTables::KernelNames.
  uint32_t Kernel = 0;
  std::string Name;
  std::string Type;
  /// Index in the function's buffer parameters.
  uint32_t Ordinal = 0;
  uint64_t Base = 0;
  std::optional<uint64_t> Extent;
  /// How the CLI's reports name it (TraceCensus::bufferLabel).
  std::string Label;
};

/// What the reader's census says of one file as a whole.
struct FileCensus {
  /// The loss block of the CLI's text reports ("" when nothing was lost).
  std::string LossText;
  /// The run line(s) the CLI's reports begin with (runText) and their JSON
  /// (runJson, as text; "null" for a file that records no run).
  std::string RunText;
  std::string RunJson;
  /// The launches of kernels that are not instrumented
  /// (uninstrumentedText), "" when none.
  std::string UninstrumentedText;
  /// Wrapped rings without a trailer: their lost workgroups are unknown.
  bool LossUncounted = false;
  /// Metadata notes (e.g. the extension was ignored).
  std::vector<std::string> Notes;
  /// Access site ids that two metadata chunks define differently.
  std::vector<uint32_t> ConflictingAccessSites;
  /// Why the analyses have nothing to look at (TraceCensus::
  /// nothingToAnalyse), or "".
  std::string Nothing;
  /// The file's first entry in TraceTables::Buffers: Record::Buffer
  /// indexes the file's buffers from there.
  uint32_t FirstBuffer = 0;
};

struct TraceTables {
  std::vector<std::string> KernelNames;
  std::vector<FunctionEntry> Functions;
  std::vector<SiteEntry> Sites;
  std::vector<WorkgroupEntry> Workgroups;
  std::vector<ValueEntry> Values;
  std::vector<PrintEntry> Prints;
  std::vector<TimingEntry> Timing;
  /// In file order, file after file.
  std::vector<RingEntry> Rings;
  /// In file order, files one after the other.
  std::vector<RunEntry> Runs;
  std::vector<LossEntry> Loss;
  std::vector<AccessSiteEntry> AccessSites;
  std::vector<UntracedEntry> Untraced;
  std::vector<BufferEntry> Buffers;
  /// Per file.
  std::vector<FileCensus> Census;

  /// The index of \p Name in KernelNames, added if new.
  uint32_t kernel(const std::string &Name) {
    auto [It, New] = KernelIndex.try_emplace(Name, KernelNames.size());
    if (New)
      KernelNames.push_back(Name);
    return It->second;
  }

private:
  std::map<std::string, uint32_t> KernelIndex;
};

} // namespace wgtrace::python

#endif // WGTRACE_PYTHON_TRACETABLES_H
