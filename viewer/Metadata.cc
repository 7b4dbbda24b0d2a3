//===- Metadata.cc --------------------------------------------------------===//

#include "Metadata.h"

#include "wgtrace/dispatch_instrument_generated.h"

#include <flatbuffers/flatbuffers.h>

using namespace llvm;

namespace wgtrace::viewer {

/// A FlatBuffer string as C's "%s" sees it: up to the first NUL, because
/// that is what IREE's tool prints.
static std::optional<StringRef> cString(const flatbuffers::String *S) {
  if (!S)
    return std::nullopt;
  StringRef Str(S->c_str(), S->size());
  return Str.substr(0, Str.find('\0'));
}

Expected<Metadata> Metadata::decode(const Chunk &C) {
  const uint8_t *Data = C.Content.data();
  size_t Size = C.Content.size();
  if (Size < 8 ||
      !flatbuffers::BufferHasIdentifier(Data, format::kMetadataIdentifier))
    return chunkError(C.Where, C.contentOffset(),
                      "metadata is not a FlatBuffer with file identifier "
                      "\"IDBD\"");
  flatbuffers::Verifier Verifier(Data, Size);
  if (!fb::VerifyDispatchInstrumentDefBuffer(Verifier))
    return chunkError(C.Where, C.contentOffset(),
                      "metadata FlatBuffer fails verification");
  const fb::DispatchInstrumentDef *Def = fb::GetDispatchInstrumentDef(Data);

  Metadata M;
  M.Version = Def->version();
  M.Flags = Def->flags();
  if (const auto *Functions = Def->functions()) {
    M.Functions.reserve(Functions->size());
    for (const fb::DispatchFunctionDef *F : *Functions) {
      FunctionInfo Info;
      if (F) {
        Info.Name = cString(F->name());
        Info.Target = cString(F->target());
        Info.Layout = cString(F->layout());
        Info.Source = cString(F->source());
      }
      M.Functions.push_back(Info);
    }
  }
  if (const auto *Sites = Def->sites()) {
    M.SiteFunctions.reserve(Sites->size());
    for (const fb::DispatchSiteDef *S : *Sites) {
      uint32_t Function = S ? S->function() : 0;
      if (Function >= M.Functions.size())
        return chunkError(
            C.Where, C.contentOffset(),
            Twine("dispatch site ") + Twine(M.SiteFunctions.size()) +
                " refers to function " + Twine(Function) + " but there are " +
                Twine(M.Functions.size()) + " functions");
      M.SiteFunctions.push_back(Function);
      M.SiteLocations.push_back(S && S->location() ? S->location()->str()
                                                   : std::string());
    }
  }
  return M;
}

} // namespace wgtrace::viewer
