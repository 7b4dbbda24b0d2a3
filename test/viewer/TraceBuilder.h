//===- TraceBuilder.h - Build traces in memory for tests --------*- C++ -*-===//
//
// Test-only writer. Records are encoded with format.h's functions and the
// metadata with the FlatBuffers builder, like the runtime does, so that a
// test never restates the layout in hand-written bytes. Damage is applied
// afterwards, on the finished bytes, by the test that wants it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_VIEWER_TRACEBUILDER_H
#define WGTRACE_TEST_VIEWER_TRACEBUILDER_H

#include "wgtrace/format.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wgtrace::testing {

struct FunctionDef {
  std::optional<std::string> Name;
  std::optional<std::string> Target;
  std::optional<std::string> Layout;
  std::optional<std::string> Source;
};

/// wgtrace's metadata extension (WgtraceDef), as far as tests need it.
struct AccessSiteSpec {
  std::string File;
  uint32_t Line = 0;
  uint32_t Column = 0;
  /// fb::AccessKind.
  uint8_t Kind = 0;
  std::string Scope;
  std::string Text;
  /// The OpenMP critical section the access is in ("" unnamed), if any.
  std::optional<std::string> Critical = std::nullopt;
  bool WorkgroupOwned = false;
  bool ThreadOwned = false;
};

struct ParamSpec {
  std::string Name;
  std::string Type;
  uint32_t Position = 0;
  /// fb::ParamKind.
  uint8_t Kind = 0;
  uint32_t ElementSize = 0;
  bool HasExtent = false;
};

struct UntracedSpec {
  std::string File;
  uint32_t Line = 0;
  uint32_t Column = 0;
  std::string Scope;
  std::string Text;
  std::string Reason;
};

struct ExtensionSpec {
  /// Buffer parameters of function I (may be shorter than the functions).
  std::vector<std::vector<ParamSpec>> FunctionParams;
  /// "file", line of the definition of function I ("" for none); may be
  /// shorter than the functions.
  std::vector<std::pair<std::string, uint32_t>> FunctionPlaces;
  /// "file:line" of site I ("" for none); may be shorter than the sites.
  std::vector<std::pair<std::string, uint32_t>> SiteLocations;
  /// Whether site I stands for direct calls; may be shorter than the sites.
  std::vector<bool> SiteDirect;
  /// Written (even empty) unless WithAccessSites is false: then memory
  /// records' address words are plain addresses.
  bool WithAccessSites = true;
  std::vector<AccessSiteSpec> AccessSites;
  std::vector<UntracedSpec> Untraced;
  /// WgtraceDef.run_record: the file ends with a run record.
  bool RunRecord = false;
  /// WgtraceDef.critical_sections (absent when empty).
  std::vector<std::string> CriticalSections;
  /// WgtraceDef.filters: the runtime's workgroup filters.
  std::vector<std::string> Filters;
};

/// A place in a run record that launched kernels that are not
/// instrumented.
struct UninstrumentedSpec {
  std::string File;
  uint32_t Line = 0;
  std::string Kernel;
  uint64_t Launches = 1;
  uint64_t Workgroups = 1;
  uint32_t DispatchId = format::kNoDispatchSite;
};

/// A single-writer ring, reserving exactly like the runtime: a record goes
/// to head & (R - 1) and may spill into the padding.
class RingBuilder {
public:
  /// \p Fill: what the storage holds where no record is (IREE's rings hold
  /// old laps; wgtrace's writer zeroes it).
  explicit RingBuilder(uint64_t Size, uint8_t Fill = 0xEE);

  /// Appends a WORKGROUP record, makes it current and returns its key.
  uint64_t workgroup(uint32_t DispatchId, std::array<uint32_t, 3> Id,
                     std::array<uint32_t, 3> Count, uint32_t ProcessorId = 0);
  void load(uint64_t Address, uint32_t Length);
  void store(uint64_t Address, uint32_t Length);
  void value(format::ValueType Type, uint8_t Ordinal, uint64_t Bits);
  /// An atomic operation as the runtime records it: its Atomic VALUE, then
  /// its LOAD and/or STORE of \p Length bytes at \p Address.
  void atomic(format::AtomicOp Op, uint64_t Address, uint32_t Length);
  /// An access \p Op inside the OpenMP critical section \p Name as the
  /// runtime records it: its Critical VALUE, then its LOAD and/or STORE.
  void critical(std::string_view Name, format::AtomicOp Op, uint64_t Address,
                uint32_t Length, uint64_t SiteBits = 0);
  void print(const std::string &Text);
  /// A copy of a WORKGROUP record continuing the invocation whose first
  /// record is at ring-lifetime offset \p FirstRecord, followed by its
  /// Continuation VALUE, as the runtime writes it; returns the copy's key.
  uint64_t continuation(uint32_t DispatchId, std::array<uint32_t, 3> Id,
                        std::array<uint32_t, 3> Count, uint32_t ProcessorId,
                        uint64_t FirstRecord);
  /// Writes \p Trailer (magic, lost-site count and, unless it has one,
  /// version 2 filled in) and \p Lost in the padding; a version-2 chunk
  /// gets its checksums when content() lays it out.
  void trailer(format::RingTrailer Trailer,
               std::vector<format::LostSite> Lost = {});

  /// Makes \p Key the key of the following records (a nested scope ending).
  void setKey(uint64_t Key) { Key_ = Key; }
  uint64_t key() const { return Key_; }
  uint64_t head() const { return Head; }
  uint64_t size() const { return Size; }
  /// Absolute head position of every record appended, in order.
  const std::vector<uint64_t> &positions() const { return Positions; }

  /// The chunk content: ring, padding, head in the last 8 bytes.
  std::vector<uint8_t> content() const;

private:
  uint8_t *reserve(uint64_t Bytes);

  uint64_t Size;
  uint64_t Head = 0;
  uint64_t Key_ = 0;
  std::vector<uint8_t> Storage;
  std::optional<format::RingTrailer> Trailer;
  std::vector<format::LostSite> LostSites;
  std::vector<uint64_t> Positions;
};

class TraceBuilder {
public:
  /// A metadata chunk; with \p Extension, wgtrace's WgtraceDef too.
  TraceBuilder &metadata(const std::vector<FunctionDef> &Functions,
                         const std::vector<uint32_t> &SiteFunctions,
                         const ExtensionSpec *Extension = nullptr);
  /// simple_mul's metadata whose wgtrace extension slot holds an offset
  /// past the buffer: IREE's tables verify, the extension does not.
  TraceBuilder &metadataWithBrokenExtension();
  TraceBuilder &ring(const RingBuilder &Ring);
  /// A chunk with any header fields and content.
  TraceBuilder &chunk(uint16_t Type, const std::vector<uint8_t> &Content,
                      uint16_t Version = 0);
  /// The run record chunk, as the runtime writes it: \p Record (magic,
  /// version and the counts of entries and strings filled in) and \p
  /// Places.
  TraceBuilder &runRecord(format::RunRecord Record,
                          const std::vector<UninstrumentedSpec> &Places = {});
  /// A version-1 timing chunk naming the ring chunk \p RingsBack back.
  TraceBuilder &timing(const format::TimingChunkHeader &Header,
                       const std::vector<format::TimingRecord> &Entries);

  const std::vector<uint8_t> &bytes() const { return Bytes; }
  /// File offset of chunk \p I's header.
  uint64_t chunkOffset(size_t I) const { return Offsets.at(I); }

private:
  std::vector<uint8_t> Bytes;
  std::vector<uint64_t> Offsets;
};

/// One function "simple_mul" with target, layout and source, and one site.
TraceBuilder &addSimpleMetadata(TraceBuilder &B, unsigned NumSites = 1);

/// Two workgroups of simple_mul (0,0,0 and 1,0,0, on processors 0 and 1,
/// one load each) in one ring, with wgtrace's extension promising a run
/// record; \p Record: the run record, or none (the file was cut short).
std::vector<uint8_t>
runRecordTrace(const format::RunRecord *Record,
               const std::vector<UninstrumentedSpec> &Places = {});
/// The run record of runRecordTrace()'s run, ended as \p End says.
format::RunRecord endedRun(format::RunEnd End, int Status, uint32_t Signal);

} // namespace wgtrace::testing

#endif // WGTRACE_TEST_VIEWER_TRACEBUILDER_H
