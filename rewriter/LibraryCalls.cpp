//===- LibraryCalls.cpp - Library calls that access memory ----------------===//

#include "LibraryCalls.h"

#include "clang/Basic/Builtins.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace wgtrace {
namespace rewriter {

std::optional<MemoryFunction> classifyMemoryFunction(const FunctionDecl *FD) {
  switch (FD->getBuiltinID()) {
  case Builtin::BImemcpy:
  case Builtin::BI__builtin_memcpy:
    return MemoryFunction::Memcpy;
  case Builtin::BImemmove:
  case Builtin::BI__builtin_memmove:
    return MemoryFunction::Memmove;
  case Builtin::BImemset:
  case Builtin::BI__builtin_memset:
    return MemoryFunction::Memset;
  default:
    return std::nullopt;
  }
}

bool onlyNamesItsArgument(StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("move", "forward", "move_if_noexcept", "as_const", "addressof",
             true)
      .Cases("launder", "to_address", "assume_aligned", "ref", "cref", true)
      .Cases("begin", "end", "cbegin", "cend", "rbegin", "rend", true)
      .Cases("crbegin", "crend", "data", "size", "ssize", "empty", true)
      .Cases("get", "distance", "next", "prev", "advance", true)
      .Default(false);
}

bool onlyReleasesItsArgument(StringRef Name) { return Name == "free"; }

std::optional<SimdAccess> classifySimdIntrinsic(const FunctionDecl *FD) {
  const IdentifierInfo *Id = FD->getIdentifier();
  if (!Id || !Id->getName().starts_with("_mm"))
    return std::nullopt;
  constexpr unsigned None = 0;
  // Loads and stores of whole vectors and of single elements through a
  // pointer. Masked, gather and scatter forms touch a data-dependent set of
  // elements and are not in this table.
  unsigned Load =
      llvm::StringSwitch<unsigned>(Id->getName())
          .Cases("_mm_load_ps", "_mm_loadu_ps", "_mm_load_pd", "_mm_loadu_pd",
                 16)
          .Cases("_mm_load_si128", "_mm_loadu_si128", "_mm_lddqu_si128",
                 "_mm_stream_load_si128", 16)
          .Cases("_mm_load_ss", "_mm_load1_ps", "_mm_load_ps1",
                 "_mm_broadcast_ss", "_mm_loadu_si32", 4)
          .Cases("_mm_load_sd", "_mm_load1_pd", "_mm_load_pd1",
                 "_mm_loaddup_pd", "_mm_loadl_epi64", 8)
          .Cases("_mm_loadu_si64", "_mm_loadh_pd", "_mm_loadl_pd", 8)
          .Case("_mm_loadu_si16", 2)
          .Cases("_mm256_load_ps", "_mm256_loadu_ps", "_mm256_load_pd",
                 "_mm256_loadu_pd", 32)
          .Cases("_mm256_load_si256", "_mm256_loadu_si256",
                 "_mm256_lddqu_si256", "_mm256_stream_load_si256", 32)
          .Case("_mm256_broadcast_ss", 4)
          .Case("_mm256_broadcast_sd", 8)
          .Cases("_mm256_broadcast_ps", "_mm256_broadcast_pd", 16)
          .Cases("_mm512_load_ps", "_mm512_loadu_ps", "_mm512_load_pd",
                 "_mm512_loadu_pd", 64)
          .Cases("_mm512_load_si512", "_mm512_loadu_si512",
                 "_mm512_stream_load_si512", 64)
          .Default(None);
  // The address is the first pointer parameter (_mm_loadh_pd takes a vector
  // first).
  auto PointerArg = [&]() -> std::optional<unsigned> {
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      if (FD->getParamDecl(I)->getType()->isPointerType())
        return I;
    return std::nullopt;
  };
  if (Load != None)
    if (auto Arg = PointerArg())
      return SimdAccess{false, Load, *Arg};
  unsigned Store =
      llvm::StringSwitch<unsigned>(Id->getName())
          .Cases("_mm_store_ps", "_mm_storeu_ps", "_mm_store_pd",
                 "_mm_storeu_pd", 16)
          .Cases("_mm_store_si128", "_mm_storeu_si128", "_mm_stream_ps",
                 "_mm_stream_pd", 16)
          .Cases("_mm_stream_si128", "_mm_store1_ps", "_mm_store_ps1",
                 "_mm_storer_ps", 16)
          .Cases("_mm_store1_pd", "_mm_store_pd1", "_mm_storer_pd", 16)
          .Cases("_mm_store_ss", "_mm_storeu_si32", "_mm_stream_si32", 4)
          .Cases("_mm_store_sd", "_mm_storel_epi64", "_mm_storeu_si64",
                 "_mm_storeh_pd", "_mm_storel_pd", 8)
          .Case("_mm_stream_si64", 8)
          .Case("_mm_storeu_si16", 2)
          .Cases("_mm256_store_ps", "_mm256_storeu_ps", "_mm256_store_pd",
                 "_mm256_storeu_pd", 32)
          .Cases("_mm256_store_si256", "_mm256_storeu_si256",
                 "_mm256_stream_ps", "_mm256_stream_pd", 32)
          .Case("_mm256_stream_si256", 32)
          .Cases("_mm512_store_ps", "_mm512_storeu_ps", "_mm512_store_pd",
                 "_mm512_storeu_pd", 64)
          .Cases("_mm512_store_si512", "_mm512_storeu_si512",
                 "_mm512_stream_ps", "_mm512_stream_pd", 64)
          .Case("_mm512_stream_si512", 64)
          .Default(None);
  if (Store != None)
    if (auto Arg = PointerArg())
      return SimdAccess{true, Store, *Arg};
  return std::nullopt;
}

} // namespace rewriter
} // namespace wgtrace
