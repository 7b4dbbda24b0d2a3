//===- TraceCensus.h - What a trace holds, and what it lost -----*- C++ -*-===//
//
// The reader's account of a whole file, handed to every tool before it
// prints (AnalysisTool::census): how many chunks and workgroup invocations
// it has, which rings lost records to wrapping (from wgtrace's ring
// trailers, or as far as the decoder can measure for files without them),
// every dispatch site with its surviving and lost workgroups, and the
// notes and untraced accesses of the metadata. A tool prints the loss with
// printLossText() / lossJson() so that every view says the same.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_TRACECENSUS_H
#define WGTRACE_VIEWER_TRACECENSUS_H

#include "reader/BufferResolver.h"
#include "reader/Metadata.h"
#include "reader/RunRecord.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::viewer {

/// What one ring lost (only rings that lost something are listed).
struct RingLoss {
  /// The ring's (last) chunk.
  unsigned Chunk = 0;
  uint64_t FileOffset = 0;
  /// From a ring trailer: exact counts. Without one (IREE's files and
  /// wgtrace's before extension 1) only the bytes are known, measured from
  /// the head and the surviving lap.
  bool FromTrailer = false;
  uint32_t RingId = 0;
  uint16_t Flags = 0;
  /// Bytes the ring ever recorded (lost and kept) and bytes lost.
  uint64_t BytesRecorded = 0;
  uint64_t BytesLost = 0;
  std::optional<uint64_t> RecordsLost;
  std::optional<uint64_t> WorkgroupsLost;
  /// Lost invocations per dispatch site of Meta (trailer only).
  std::vector<format::LostSite> Sites;
  const Metadata *Meta = nullptr;
};

/// A dispatch site of the file's metadata (sites of several metadata
/// chunks with the same id and kernel are one).
struct SiteCensus {
  uint32_t Site = 0;
  std::string Function;
  std::string Location;
  bool Direct = false;
  /// The site stands for a template kernel whose instantiations are
  /// exports of their own: it records only the instantiations that none
  /// is for, and no workgroup there is no news.
  bool InstantiatedTemplate = false;
  /// Invocations with a surviving WORKGROUP record.
  uint64_t Workgroups = 0;
  /// Invocations the ring trailers say were overwritten.
  uint64_t WorkgroupsLost = 0;
  /// Of Workgroups that the reader's filter selected, those the runtime's
  /// filter (WGTRACE_FILTER) left out: their WORKGROUP record and its
  /// Unselected VALUE are all they wrote.
  uint64_t Unselected = 0;
};

/// A call through a pointer that ran code wgtrace did not instrument, and
/// how often (UninstrumentedCall VALUEs); Call is null for a VALUE whose
/// call the metadata does not list.
struct UninstrumentedCall {
  const IndirectCall *Call = nullptr;
  uint64_t Calls = 0;
};

struct TraceCensus {
  uint64_t FileBytes = 0;
  unsigned Chunks = 0, MetadataChunks = 0, RingChunks = 0, TimingChunks = 0;
  /// Workgroup invocations in the file, and those the filter selected.
  uint64_t Invocations = 0;
  uint64_t SelectedInvocations = 0;
  /// Of SelectedInvocations, those the runtime's filter left out
  /// (WorkgroupInfo::Unselected), per index of Filters. No tool sees them.
  std::map<uint64_t, uint64_t> Unselected;
  /// The runtime's workgroup filters, as the metadata names them
  /// (Metadata::Filters of the chunk that names the most).
  std::vector<std::string> Filters;
  std::vector<RingLoss> Rings;
  std::vector<SiteCensus> Sites;
  /// Wrapped rings without a trailer: their lost workgroups are unknown.
  bool LossUncounted = false;
  /// Metadata notes (Metadata::ExtensionNote), each once.
  std::vector<std::string> Notes;
  /// Accesses the rewriter could not wrap, each once.
  std::vector<UntracedAccess> Untraced;
  /// Calls through pointers or of other files' functions that ran
  /// uninstrumented code, in file order.
  std::vector<UninstrumentedCall> UninstrumentedCalls;
  /// The buffers Record::Buffer indexes (kernel parameters and the memory
  /// each invocation gave them).
  std::vector<BufferInfo> Buffers;
  /// The file's run records (RunRecord.h), one per run (files concatenate).
  std::vector<RunInfo> Runs;
  /// A run whose metadata promised a run record has none: the file was cut
  /// short, or its process was killed outright (SIGKILL).
  bool RunRecordMissing = false;
  /// Where the reading stopped at damage, one message per error the run
  /// returns ("offset 0x..: chunk N (ring): ..." as ChunkError.h writes
  /// it), empty when the file decoded whole: a tool whose output has room
  /// for it (the HTML page) says it beside what was decoded before.
  std::vector<std::string> Damage;

  /// Launches of kernels that are not instrumented, over all runs.
  uint64_t uninstrumentedLaunches() const;
  /// Whether the trace misses part of the run: a ring lost records, the
  /// source has accesses the rewriter could not wrap, kernels that are
  /// not instrumented were launched, calls through pointers or into other
  /// files ran uninstrumented code, or the run record is missing.
  bool incomplete() const;

  /// How a report names buffer \p Index: the parameter's name, with its
  /// kernel when two kernels have a parameter of that name and its address
  /// when one kernel's parameter named several buffers; "(none)" for
  /// kNoBuffer.
  std::string bufferLabel(uint32_t Index) const;

  /// Invocations the runtime's filter left out (of those the reader's
  /// filter selected).
  uint64_t unselected() const;
  /// "WGTRACE_FILTER 'sample=16'" for filter \p Index of Filters.
  std::string filterName(uint64_t Index) const;

  uint64_t bytesLost() const;
  bool anyLoss() const { return !Rings.empty(); }
  /// Why there is nothing to analyse ("the file is empty", "no workgroup
  /// record: ...", "no workgroup matches --kernel 'x'"), or "" when there
  /// is something. \p FilterText describes the reader's filter.
  std::string nothingToAnalyse(llvm::StringRef FilterText) const;
};

/// The run line(s) every text report begins with ("run: exited with
/// status 0"; "" for a file whose writer records no run, as IREE's).
std::string runText(const TraceCensus &C);
/// The "run" member of every JSON report: {"records": [RunInfo::json()],
/// "cut_short": bool}, or null for a file whose writer records no run.
llvm::json::Value runJson(const TraceCensus &C);
/// What a text report begins with: runText() and a blank line, or ""
/// (no census, or nothing to say).
std::string runHeader(const TraceCensus *C);
/// "4670 of 4680 workgroups not selected by WGTRACE_FILTER 'sample=16'
/// (their WORKGROUP records only)": the line every text report begins
/// with (runHeader) when the runtime's filter left workgroups out; ""
/// when it left none out.
std::string unselectedText(const TraceCensus &C);
/// The "selection" member of JSON reports: {"workgroups_ran",
/// "workgroups_selected", "not_selected_by": [{"filter", "workgroups"}]},
/// null without a census.
llvm::json::Value selectionJson(const TraceCensus *C);
/// runJson(), or null without a census.
llvm::json::Value runJson(const TraceCensus *C);
/// "N launches of kernels that are not instrumented ..." lines, "" when
/// none.
std::string uninstrumentedText(const TraceCensus &C);

/// The loss block of a text report ("" when nothing was lost): per ring,
/// bytes, records and workgroups overwritten, then every site and kernel
/// without a surviving workgroup record. With \p AllSites, also the sites
/// that recorded no workgroup at all (but for direct-call sites, which
/// exist whether or not the program calls the kernel directly).
std::string lossText(const TraceCensus &C, bool AllSites = false);
/// The same as JSON: {"bytes_lost", "rings": [...], "sites_without_records":
/// [...], "kernels_without_records": [...], "untraced": N}.
llvm::json::Object lossJson(const TraceCensus &C);
/// What a text report ends with: the loss block and the untraced
/// accesses, each after a blank line; "" when there is neither (or no
/// census).
std::string censusText(const TraceCensus *C, bool AllSites = false);
/// The "loss" member of a JSON report (null without a census).
llvm::json::Value censusJson(const TraceCensus *C);
/// "N accesses in the source are not traced (...)" lines, "" when none.
std::string untracedText(const TraceCensus &C, size_t MaxListed = 10);
/// "N calls through pointers or into other files ran code wgtrace did not
/// instrument" lines,
/// "" when none.
std::string uninstrumentedCallsText(const TraceCensus &C);

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_TRACECENSUS_H
