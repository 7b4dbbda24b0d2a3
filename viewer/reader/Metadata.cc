//===- Metadata.cc --------------------------------------------------------===//

#include "reader/Metadata.h"

#include "wgtrace/dispatch_instrument_generated.h"
#include "wgtrace/format.h"

#include <flatbuffers/flatbuffers.h>

using namespace llvm;

namespace wgtrace::viewer {

std::string SourcePlace::str(bool WithColumn) const {
  if (!known())
    return {};
  std::string Text = File + ":" + std::to_string(Line);
  if (WithColumn && Column)
    Text += ":" + std::to_string(Column);
  return Text;
}

/// A FlatBuffer string as C's "%s" sees it: up to the first NUL, because
/// that is what IREE's tool prints.
static std::optional<StringRef> cString(const flatbuffers::String *S) {
  if (!S)
    return std::nullopt;
  StringRef Str(S->c_str(), S->size());
  return Str.substr(0, Str.find('\0'));
}

static std::string text(const flatbuffers::String *S) {
  return S ? S->str() : std::string();
}

namespace {

/// The root table read with IREE's schema alone: fields 0-3 verified, every
/// other field (wgtrace's extension, anything IREE adds) ignored. Used when
/// the full verification fails, so that a file whose extension is damaged
/// or from a different version is still read as IREE's format.
struct IreeRoot : private flatbuffers::Table {
  // The name FlatBuffers' Verifier::VerifyBuffer<T> calls.
  bool Verify( // NOLINT(readability-identifier-naming)
      flatbuffers::Verifier &V) const {
    using Def = fb::DispatchInstrumentDef;
    // A field is read only after the table (its vtable) and the field's
    // offset have been verified: the bytes come from a file.
    auto Functions = [this] {
      return GetPointer<const flatbuffers::Vector<
          flatbuffers::Offset<fb::DispatchFunctionDef>> *>(Def::VT_FUNCTIONS);
    };
    auto Sites = [this] {
      return GetPointer<const flatbuffers::Vector<
          flatbuffers::Offset<fb::DispatchSiteDef>> *>(Def::VT_SITES);
    };
    return VerifyTableStart(V) &&
           VerifyField<uint32_t>(V, Def::VT_VERSION, 4) &&
           VerifyField<uint32_t>(V, Def::VT_FLAGS, 4) &&
           VerifyOffset(V, Def::VT_FUNCTIONS) && V.VerifyVector(Functions()) &&
           V.VerifyVectorOfTables(Functions()) &&
           VerifyOffset(V, Def::VT_SITES) && V.VerifyVector(Sites()) &&
           V.VerifyVectorOfTables(Sites()) && V.EndTable();
  }
};

} // namespace

/// Where \p L points, with the file resolved through \p Files.
static SourcePlace place(const fb::SourceLocation *L,
                         const std::vector<std::string> &Files) {
  SourcePlace P;
  if (!L || L->file() == 0 || L->file() >= Files.size())
    return P;
  P.File = Files[L->file()];
  P.Line = L->line();
  P.Column = L->column();
  return P;
}

static void decodeExtension(const fb::WgtraceDef &X, Metadata &M) {
  M.HasExtension = true;
  std::vector<std::string> Files;
  if (const auto *FileTable = X.files())
    for (const flatbuffers::String *F : *FileTable)
      Files.push_back(text(F));
  if (const auto *Functions = X.functions()) {
    for (const fb::WgtraceFunctionDef *F : *Functions) {
      FunctionExtension E;
      E.Kind = static_cast<uint8_t>(F->kind());
      E.Where = place(F->location(), Files);
      if (const auto *Params = F->params())
        for (const fb::ParamDef *P : *Params)
          E.Params.push_back({text(P->name()), text(P->type()), P->position(),
                              static_cast<uint8_t>(P->kind()),
                              P->element_size(), P->has_extent()});
      E.InstanceOf = F->instance_of();
      M.FunctionExtensions.push_back(std::move(E));
    }
  }
  if (const auto *Sites = X.sites()) {
    for (size_t I = 0; I < Sites->size() && I < M.SiteLocations.size(); ++I) {
      M.SiteLocations[I] = place(Sites->Get(I)->location(), Files).str();
      M.SiteDirect[I] = Sites->Get(I)->direct();
    }
  }
  if (const auto *Accesses = X.access_sites()) {
    M.HasAccessSites = true;
    M.AccessSites.reserve(Accesses->size());
    for (const fb::AccessSiteDef *A : *Accesses) {
      M.AccessSites.push_back({place(A->location(), Files),
                               static_cast<uint8_t>(A->kind()),
                               text(A->scope()), text(A->text()), std::nullopt,
                               A->workgroup_owned(), A->thread_owned()});
      if (A->critical()) {
        std::string Name = text(A->critical());
        M.CriticalNames.try_emplace(format::criticalNameHash(Name), Name);
        M.AccessSites.back().Critical = std::move(Name);
      }
    }
  }
  if (const auto *Sections = X.critical_sections())
    for (const flatbuffers::String *Name : *Sections)
      M.CriticalNames.try_emplace(format::criticalNameHash(text(Name)),
                                  text(Name));
  if (const auto *Untraced = X.untraced())
    for (const fb::UntracedAccessDef *U : *Untraced)
      M.Untraced.push_back({place(U->location(), Files), text(U->scope()),
                            text(U->text()), text(U->reason())});
  if (const auto *Calls = X.indirect_calls())
    for (const fb::IndirectCallDef *C : *Calls)
      M.IndirectCalls.push_back(
          {place(C->location(), Files), text(C->scope()), text(C->text())});
  if (const auto *Filters = X.filters())
    for (const flatbuffers::String *Spec : *Filters)
      M.Filters.push_back(text(Spec));
  M.RunRecordPromised = X.run_record();
}

Expected<Metadata> Metadata::decode(const Chunk &C) {
  const uint8_t *Data = C.Content.data();
  size_t Size = C.Content.size();
  if (Size < 8 ||
      !flatbuffers::BufferHasIdentifier(Data, format::kMetadataIdentifier))
    return chunkError(C.Where, C.contentOffset(),
                      "metadata is not a FlatBuffer with file identifier "
                      "\"IDBD\"");
  bool WithExtension = true;
  flatbuffers::Verifier Verifier(Data, Size);
  if (!fb::VerifyDispatchInstrumentDefBuffer(Verifier)) {
    flatbuffers::Verifier IreeVerifier(Data, Size);
    if (!IreeVerifier.VerifyBuffer<IreeRoot>(format::kMetadataIdentifier))
      return chunkError(C.Where, C.contentOffset(),
                        "metadata FlatBuffer fails verification");
    WithExtension = false;
  }
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
    }
    M.SiteLocations.resize(M.SiteFunctions.size());
    M.SiteDirect.resize(M.SiteFunctions.size());
  }
  if (!WithExtension)
    M.ExtensionNote =
        "metadata at offset " + std::to_string(C.contentOffset()) +
        ": fields beyond IREE's schema do not verify; read with IREE's "
        "schema (source lines, buffer names and untraced accesses unknown)";
  else if (const fb::WgtraceDef *X = Def->wgtrace())
    decodeExtension(*X, M);
  if (M.accessSiteIdsWrapped())
    M.ExtensionNote =
        "metadata at offset " + std::to_string(C.contentOffset()) +
        ": the program has " + std::to_string(M.AccessSites.size()) +
        " access sites, more than the " +
        std::to_string(format::kMaxAccessSite) +
        " a record can name: no access is attributed to its source line";
  return M;
}

} // namespace wgtrace::viewer
