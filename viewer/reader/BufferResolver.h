//===- BufferResolver.h - Which kernel parameter an access falls in -*- C++
//-*-===//
//
// The rewriter names each kernel's buffer parameters (WgtraceFunctionDef.
// params) and the workgroup prologue records their addresses and, where the
// type says it, their sizes (BufferBase / BufferExtent VALUE records right
// after the WORKGROUP record, docs/FORMAT.md). The reader resolves every
// load and store against the buffers of its workgroup invocation here
// (Record::Buffer), once, so that every view speaks of "a", "b" and "c"
// instead of address clusters.
//
// A parameter with an extent covers [base, base + extent). One without (a
// plain pointer) covers from its base up to the next base of the same
// workgroup's parameters, at most 64 GiB: the pointer says where the
// buffer starts, not where it ends. An access in no parameter's range
// (a local array, a global) has no buffer.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_VIEWER_BUFFERRESOLVER_H
#define WGTRACE_VIEWER_BUFFERRESOLVER_H

#include "reader/Metadata.h"
#include "reader/Record.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace wgtrace::viewer {

/// One buffer a kernel was given: a parameter and the memory it named.
struct BufferInfo {
  std::string Function;
  /// The parameter's name ("a") and type ("const float *").
  std::string Name;
  std::string Type;
  /// Index in the function's params.
  uint32_t Ordinal = 0;
  uint64_t Base = 0;
  /// Bytes, when the prologue recorded them.
  std::optional<uint64_t> Extent;
};

class BufferResolver {
public:
  /// The ring's metadata; resolving is active when it names any buffer
  /// parameter.
  void beginRing(const Metadata *M);
  bool active() const { return Active; }
  /// A VALUE record: BufferBase / BufferExtent name a parameter of the
  /// record's invocation; other types are ignored.
  void value(const Record &R);
  /// The buffer (index in buffers()) of a LOAD / STORE record, or
  /// kNoBuffer.
  uint32_t resolve(const Record &R);

  /// Every buffer seen, in order of first use.
  const std::vector<BufferInfo> &buffers() const { return Buffers; }
  /// The index of \p B in buffers(), added if it is new: also how the
  /// buffers of a shard read on another thread join the file's.
  uint32_t intern(const BufferInfo &B);

private:
  struct Range {
    uint64_t Lo = 0, Hi = 0;
    uint32_t Buffer = kNoBuffer;
  };
  struct Naming {
    const Metadata *Meta = nullptr;
    uint32_t Function = 0;
    /// By ordinal: base and extent as recorded so far.
    std::vector<std::pair<std::optional<uint64_t>, std::optional<uint64_t>>>
        Params;
  };
  uint32_t finish(const Naming &N);

  const Metadata *Meta = nullptr;
  bool Active = false;
  /// Invocations whose parameters are being named (the prologue's VALUE
  /// records come before its first access).
  llvm::DenseMap<uint64_t, Naming> Namings;
  /// The buffer set of every invocation that named its parameters.
  llvm::DenseMap<uint64_t, uint32_t> SetOf;
  std::vector<std::vector<Range>> Sets;
  std::map<std::vector<std::tuple<uint64_t, uint64_t, uint32_t>>, uint32_t>
      SetIndex;
  std::map<std::tuple<std::string, uint32_t, uint64_t, uint64_t>, uint32_t>
      BufferIndex;
  std::vector<BufferInfo> Buffers;
  /// The last lookup: most accesses repeat the previous one's buffer.
  uint64_t LastInvocation = UINT64_MAX;
  const std::vector<Range> *LastSet = nullptr;
  Range LastRange;
};

} // namespace wgtrace::viewer

#endif // WGTRACE_VIEWER_BUFFERRESOLVER_H
