//===- Metadata.h - Functions and dispatch sites of a metadata chunk -*- C++
//-*-===//
//
// A metadata chunk is a FlatBuffer (schema runtime/schema/*.fbs). It is
// verified before any field is read: the buffer comes from a file and its
// offsets are untrusted. Strings are kept as views into the mapped file.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_METADATA_H
#define WGTRACE_VIEWER_METADATA_H

#include "TraceFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace wgtrace::viewer {

struct FunctionInfo {
  /// Absent fields stay std::nullopt: IREE's tool prints a line only for
  /// fields that are present, and "(null)" for a missing name.
  std::optional<llvm::StringRef> Name;
  std::optional<llvm::StringRef> Target;
  std::optional<llvm::StringRef> Layout;
  std::optional<llvm::StringRef> Source;

  llvm::StringRef nameOr(llvm::StringRef Missing) const {
    return Name ? *Name : Missing;
  }
};

/// The decoded metadata of one chunk. A ring chunk's dispatch ids index the
/// sites of the metadata chunk most recently read before it (IREE's rule).
struct Metadata {
  uint32_t Version = 0;
  uint32_t Flags = 0;
  std::vector<FunctionInfo> Functions;
  /// Function index of each dispatch site; all indices are valid.
  std::vector<uint32_t> SiteFunctions;
  /// "file:line" of each dispatch site where the writer recorded it
  /// (wgtrace's extension of the schema); empty otherwise.
  std::vector<std::string> SiteLocations;

  const FunctionInfo &siteFunction(uint32_t Site) const {
    return Functions[SiteFunctions[Site]];
  }

  /// Verifies and decodes the metadata chunk \p C.
  static llvm::Expected<Metadata> decode(const Chunk &C);
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_METADATA_H
