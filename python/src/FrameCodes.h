//===- FrameCodes.h - Categorical codes of the access rows ------*- C++ -*-===//
//
// Trace.accesses(as_frame=True) gives each row its kernel, file, buffer
// label and source line as pandas categoricals, whose codes are a small
// table's entry per row: the workgroup's kernel, the buffer's label. numpy
// gathers them through int64 temporaries of every index (8 bytes a row,
// gigabytes of fresh memory for a 1 GiB trace); here one pass reads the
// rows and writes codes of the width pandas keeps (int8 for fewer than 127
// categories, ...), so the frame costs a fraction of the array.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_PYTHON_FRAMECODES_H
#define WGTRACE_PYTHON_FRAMECODES_H

#include "AccessTable.h"

#include <cstddef>
#include <cstdint>

namespace wgtrace::python {

/// What a row's code is looked up by.
enum class CodeKey : uint8_t {
  /// Table[Workgroup].
  Workgroup,
  /// Table[Buffer + 1]: entry 0 is the code of "no buffer".
  Buffer,
  /// Table[FileOf[Workgroup] * 65536 + AccessSite].
  FileAccessSite,
  /// Table[Kind].
  Kind,
};

/// Writes Out[I] = the code of Rows[I], looked up by \p Key in \p Table
/// (\p TableSize entries; \p FileOf has one entry per workgroup, for
/// FileAccessSite). A key outside the table gives -1 (no category): rows
/// come from the index, but the caller's tables are not trusted blindly.
template <typename Code>
void gatherCodes(const AccessRow *Rows, size_t N, CodeKey Key,
                 const Code *Table, size_t TableSize, const uint32_t *FileOf,
                 size_t FileOfSize, Code *Out) {
  auto Lookup = [&](auto KeyOf) {
    for (size_t I = 0; I < N; ++I) {
      const uint64_t K = KeyOf(Rows[I]);
      Out[I] = K < TableSize ? Table[K] : Code(-1);
    }
  };
  switch (Key) {
  case CodeKey::Workgroup:
    Lookup([](const AccessRow &R) { return uint64_t(R.Workgroup); });
    break;
  case CodeKey::Buffer:
    Lookup([](const AccessRow &R) { return uint64_t(int64_t(R.Buffer) + 1); });
    break;
  case CodeKey::FileAccessSite:
    Lookup([&](const AccessRow &R) {
      return R.Workgroup < FileOfSize
                 ? (uint64_t(FileOf[R.Workgroup]) << 16) + R.AccessSite
                 : UINT64_MAX;
    });
    break;
  case CodeKey::Kind:
    Lookup([](const AccessRow &R) { return uint64_t(R.Kind); });
    break;
  }
}

} // namespace wgtrace::python

#endif // WGTRACE_PYTHON_FRAMECODES_H
