//===- LibraryCalls.h - Library calls that access memory --------*- C++ -*-===//
//
// Calls whose memory accesses the rewriter records although it cannot see
// their bodies: memcpy, memmove and memset (one record per contiguous range,
// the runtime splits what the 16-bit length field cannot hold) and the
// SSE/AVX/AVX-512 load and store intrinsics (one record of the vector's
// size). Everything else in the standard library is not rewritten: what the
// kernel does with the references such calls return is recorded instead.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_REWRITER_LIBRARYCALLS_H
#define WGTRACE_REWRITER_LIBRARYCALLS_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace wgtrace {
namespace rewriter {

enum class MemoryFunction : uint8_t { Memcpy, Memmove, Memset };

/// memcpy, memmove, memset however they are spelled (::, std::,
/// __builtin_).
std::optional<MemoryFunction>
classifyMemoryFunction(const clang::FunctionDecl *FD);

struct SimdAccess {
  bool IsStore;
  unsigned Bytes;
  /// Which argument is the address.
  unsigned PointerArg;
};

/// An intrinsic that loads or stores through a pointer argument, e.g.
/// _mm_loadu_ps (16-byte load) or _mm256_storeu_ps (32-byte store).
std::optional<SimdAccess> classifySimdIntrinsic(const clang::FunctionDecl *FD);

/// Library functions (by unqualified name: std::move, std::begin,
/// std::addressof, ...) that take an object by reference or pointer only
/// to name it (its address, its bounds, a cast): they access nothing.
bool onlyNamesItsArgument(llvm::StringRef Name);

/// Library functions that release the storage they are given (free): the
/// program's bytes there are neither read nor written, the object's
/// lifetime ends.
bool onlyReleasesItsArgument(llvm::StringRef Name);

} // namespace rewriter
} // namespace wgtrace

#endif // WGTRACE_REWRITER_LIBRARYCALLS_H
