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

#include "reader/TraceFile.h"

#include "wgtrace/format.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
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

/// A place in the source, from wgtrace's metadata extension.
struct SourcePlace {
  /// Empty when unknown.
  std::string File;
  uint32_t Line = 0;
  uint32_t Column = 0;

  bool known() const { return !File.empty(); }
  /// "file:line" (or "file:line:col" with \p WithColumn); "" when unknown.
  std::string str(bool WithColumn = false) const;
};

/// A kernel's buffer parameter (fb::ParamDef): BufferBase / BufferExtent
/// VALUE records name it by its index in FunctionExtension::Params.
struct BufferParam {
  std::string Name;
  std::string Type;
  uint32_t Position = 0;
  uint8_t Kind = 0;
  uint32_t ElementSize = 0;
  bool HasExtent = false;
};

/// What wgtrace's extension says of a function (fb::WgtraceFunctionDef).
struct FunctionExtension {
  uint8_t Kind = 0;
  SourcePlace Where;
  std::vector<BufferParam> Params;
  /// An instantiation of a template kernel (an export of its own): the
  /// template's function index + 1; 0 otherwise.
  uint32_t InstanceOf = 0;
};

/// An access expression the rewriter numbered (fb::AccessSiteDef).
struct AccessSite {
  SourcePlace Where;
  uint8_t Kind = 0;
  std::string Scope;
  std::string Text;
  /// Inside an OpenMP critical section: its name ("" for the unnamed one).
  std::optional<std::string> Critical;
  /// The storage is the workgroup's own (fb::AccessSiteDef.workgroup_owned):
  /// races leave it out.
  bool WorkgroupOwned = false;
  /// The address is the running thread's own (fb::AccessSiteDef.
  /// thread_owned): races compare it with another such access only when
  /// different threads made them.
  bool ThreadOwned = false;
};

/// An access the rewriter could not wrap (fb::UntracedAccessDef).
struct UntracedAccess {
  SourcePlace Where;
  std::string Scope;
  std::string Text;
  std::string Reason;
};

/// A call through a pointer in instrumented code (fb::IndirectCallDef):
/// the bits of an UninstrumentedCall VALUE index them.
struct IndirectCall {
  SourcePlace Where;
  std::string Scope;
  std::string Text;
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
  /// (wgtrace's extension); empty otherwise.
  std::vector<std::string> SiteLocations;
  /// Whether site I stands for direct calls of its kernel (a kernel called
  /// by the user's own loop or from another kernel) rather than a
  /// wgtrace::dispatch call; all false without wgtrace's extension.
  std::vector<bool> SiteDirect;

  // wgtrace's extension (docs/FORMAT.md); empty for IREE's files.

  /// Whether the file has the extension table at all.
  bool HasExtension = false;
  /// Parallel to Functions where present (may be shorter).
  std::vector<FunctionExtension> FunctionExtensions;
  /// Whether bits 48-63 of memory records' address words are access site
  /// ids (WgtraceDef.access_sites present).
  bool HasAccessSites = false;
  /// Access site id N is AccessSites[N - 1].
  std::vector<AccessSite> AccessSites;
  std::vector<UntracedAccess> Untraced;
  std::vector<IndirectCall> IndirectCalls;
  /// The OpenMP critical sections the access sites name, by the bits of
  /// their Critical marks (format::criticalNameHash of the name).
  std::map<uint64_t, std::string> CriticalNames;
  /// The workgroup filters of the run, as written (WgtraceDef.filters):
  /// an Unselected VALUE's bits index them.
  std::vector<std::string> Filters;
  /// The writer ends the file with a run record (WgtraceDef.run_record):
  /// a file without one was cut short. The same writer gives every ring
  /// chunk a trailer.
  bool RunRecordPromised = false;
  /// Set when the extension table did not verify and was ignored: the
  /// file was read with IREE's schema alone. One line for the user.
  std::string ExtensionNote;

  /// Whether function \p Function is a template kernel that has
  /// instantiations of its own (it stands only for those none registered).
  bool hasInstances(uint32_t Function) const {
    for (const FunctionExtension &E : FunctionExtensions)
      if (E.InstanceOf == Function + 1)
        return true;
    return false;
  }
  /// The extension's entry for function \p Function, or null.
  const FunctionExtension *functionExtension(uint32_t Function) const {
    return Function < FunctionExtensions.size() ? &FunctionExtensions[Function]
                                                : nullptr;
  }
  /// Whether the table is longer than the ids a record can name
  /// (format::kMaxAccessSite): the writer's ids wrapped, so a record's id
  /// may name another site, and no record is attributed to one.
  bool accessSiteIdsWrapped() const {
    return AccessSites.size() > format::kMaxAccessSite;
  }
  /// The access site with id \p Id, or null (0, not in the table, or ids
  /// that wrapped).
  const AccessSite *accessSite(uint32_t Id) const {
    return Id >= 1 && Id <= AccessSites.size() && !accessSiteIdsWrapped()
               ? &AccessSites[Id - 1]
               : nullptr;
  }

  const FunctionInfo &siteFunction(uint32_t Site) const {
    return Functions[SiteFunctions[Site]];
  }

  /// Verifies and decodes the metadata chunk \p C.
  static llvm::Expected<Metadata> decode(const Chunk &C);
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_METADATA_H
