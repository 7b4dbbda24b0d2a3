//===- AccessTable.h - Loads and stores into a numpy array ------*- C++ -*-===//
//
// Trace.accesses() decodes the file again and writes one AccessRow per LOAD
// or STORE straight into the memory of a numpy structured array (its dtype
// is built from this struct in Module.cc): no Python object and no copy per
// record. The rows of a workgroup share everything but the address, length,
// access site and kind, so a row starts as a copy of its workgroup's
// template.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_PYTHON_ACCESSTABLE_H
#define WGTRACE_PYTHON_ACCESSTABLE_H

#include "TraceTables.h"

#include "AnalysisTool.h"

#include <cstddef>
#include <cstdint>

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
};
static_assert(sizeof(AccessRow) == 48);

/// Fills rows for the accesses of the selected workgroups of one file.
class AccessTable : public viewer::AnalysisTool {
public:
  /// \p FirstWorkgroup is the file's first entry in Tables.Workgroups;
  /// \p Wanted has one byte per entry (non-zero: selected). At most
  /// \p Capacity rows are written to \p Out.
  /// \p FirstBuffer is the file's first entry in Tables.Buffers.
  AccessTable(const TraceTables &Tables, uint32_t FirstWorkgroup,
              uint32_t Workgroups, uint32_t FirstBuffer, const uint8_t *Wanted,
              AccessRow *Out, size_t Capacity)
      : Tables(Tables), FirstWorkgroup(FirstWorkgroup),
        EndWorkgroup(FirstWorkgroup + Workgroups), FirstBuffer(FirstBuffer),
        Wanted(Wanted), Out(Out), Capacity(Capacity) {}

  void record(const viewer::Record &R) override;

  /// Rows written.
  size_t size() const { return Size; }
  /// False when the file did not decode as it did when it was opened:
  /// more rows than counted then, or workgroups it did not have.
  bool consistent() const { return Consistent; }

private:
  void selectWorkgroup(uint32_t W);

  const TraceTables &Tables;
  uint32_t FirstWorkgroup, EndWorkgroup;
  uint32_t FirstBuffer;
  const uint8_t *Wanted;
  AccessRow *Out;
  size_t Capacity;
  size_t Size = 0;
  bool Consistent = true;
  /// The workgroup of the last record and its row template.
  uint32_t Current = UINT32_MAX;
  bool CurrentWanted = false;
  AccessRow Template{};
};

} // namespace wgtrace::python

#endif // WGTRACE_PYTHON_ACCESSTABLE_H
