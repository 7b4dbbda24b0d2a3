//===- AccessTable.h - Loads and stores into a numpy array ------*- C++ -*-===//
//
// Trace.accesses() writes one AccessRow per LOAD or STORE straight into the
// memory of a numpy structured array (its dtype is built from this struct
// in Module.cc): no Python object and no copy per record.
//
// It reads the records through the index that wgtrace.open() built: the
// runs of consecutive records of one workgroup invocation in each ring
// chunk (TraceTables::Runs), which open()'s pass through the viewer's
// reader delivered, checked, in that order. Only the runs of the selected
// workgroups are read, so a selection costs what its rows cost, not a pass
// over the file; and records already checked are not checked again, only
// bounded, so a file that changed under its mapping gives wrong counts
// (and an error), never a crash. Each record gets what the reader gives
// it: the address without the access site bits, the site when the ids can
// be trusted, the atomic mark before it, and the buffer parameter it falls
// in (the viewer's BufferResolver, fed the invocation's records as the
// reader feeds it). The rows of a workgroup share everything but the
// address, length, access site, buffer, kind and atomic mark, so a row
// starts as a copy of its workgroup's template.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_PYTHON_ACCESSTABLE_H
#define WGTRACE_PYTHON_ACCESSTABLE_H

#include "TraceTables.h"

#include "reader/Metadata.h"
#include "reader/TraceFile.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace wgtrace::python {

/// One row of Trace.accesses(); 48 bytes.
struct AccessRow {
  uint64_t Address;
  /// Index into Trace.workgroups.
  uint32_t Workgroup;
  /// Dispatch site id.
  uint32_t Site;
  /// Ordinal of the launch among its site's launches.
  uint32_t Launch;
  uint32_t WgX, WgY, WgZ;
  uint32_t Processor;
  /// Index into Trace.buffers (the kernel parameter the access falls in,
  /// as the reader resolves it); -1: none.
  int32_t Buffer;
  uint16_t Length;
  /// The access site id (Trace.access_sites); 0: none.
  uint16_t AccessSite;
  /// 0 load, 1 store.
  uint8_t Kind;
  /// 1: made by an atomic operation (docs/FORMAT.md).
  uint8_t Atomic;
  /// 1: made inside an OpenMP critical section: marked as such, or made
  /// while the workgroup had entered one (a helper's access), as the
  /// viewer's RingDecoder decides.
  uint8_t Critical;
};
static_assert(sizeof(AccessRow) == 48);

/// Fills rows for the accesses of the selected workgroups of one file.
class AccessTable {
public:
  /// \p File is file number \p FileIndex of \p Tables; \p Wanted has one
  /// byte per entry of Tables.Workgroups (non-zero: selected). At most
  /// \p Capacity rows are written to \p Out.
  AccessTable(const TraceTables &Tables, const viewer::TraceFile &File,
              uint32_t FileIndex, const uint8_t *Wanted, AccessRow *Out,
              size_t Capacity)
      : Tables(Tables), File(File), FileIndex(FileIndex), Wanted(Wanted),
        Out(Out), Capacity(Capacity) {}

  /// Writes the rows, in file order. False when the file does not read as
  /// it did when it was opened (a record that is not one, more rows than
  /// counted then, metadata that no longer decodes).
  bool fill();

  /// Rows written.
  size_t size() const { return Size; }

private:
  bool readMetadata();

  const TraceTables &Tables;
  const viewer::TraceFile &File;
  uint32_t FileIndex;
  const uint8_t *Wanted;
  AccessRow *Out;
  size_t Capacity;
  size_t Size = 0;
  /// The file's metadata chunks by chunk index.
  std::deque<viewer::Metadata> Metadata;
  std::map<uint32_t, const viewer::Metadata *> MetadataByChunk;
  /// Tables.Buffers index (or -1) of each buffer the resolver interned.
  std::vector<int32_t> BufferIds;
  std::map<std::tuple<std::string, uint32_t, uint64_t, uint64_t>, int32_t>
      FileBuffers;
};

} // namespace wgtrace::python

#endif // WGTRACE_PYTHON_ACCESSTABLE_H
