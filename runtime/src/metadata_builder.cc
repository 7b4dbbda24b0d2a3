//===- metadata_builder.cc - The metadata chunk's content -----------------===//
//
// IREE's DispatchInstrumentDef (functions and dispatch sites, in process-wide
// id order) and wgtrace's WgtraceDef beside it: where each function and site
// is, the kernels' buffer parameters, every access site the rewriter
// numbered and every access it could not wrap. docs/FORMAT.md says what
// each field means.
//
//===----------------------------------------------------------------------===//

#include "metadata_builder.h"

#include "critical_sections.h"
#include "indirect_calls.h"
#include "module_registry.h"
#include "workgroup_filter.h"

#include "wgtrace/dispatch_instrument_generated.h"
#include "wgtrace/instrument.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

namespace wgtrace::runtime {
namespace {

/// Builds the FlatBuffer. Strings that repeat (file paths) are interned.
class MetadataBuilder {
public:
  std::vector<uint8_t> build();

private:
  using StringOffset = flatbuffers::Offset<flatbuffers::String>;

  StringOffset optionalString(const char *Text) {
    return Text ? Builder.CreateString(Text) : StringOffset();
  }
  /// 1-based index of \p Path in the file table; 0 for none.
  uint32_t fileIndex(const char *Path);
  fb::SourceLocation location(const char *File, uint32_t Line,
                              uint32_t Column) {
    return fb::SourceLocation(fileIndex(File), Line, Column);
  }
  /// "file:line" as the rewriter writes a site's location.
  fb::SourceLocation parseFileLine(const char *FileLine);

  uint32_t addFunction(const detail::FunctionInfo &F, uint32_t InstanceOf = 0);
  uint32_t resolveCallee(const detail::Module &M, const char *Callee);
  void addFunctionsAndSites();
  void addModuleAccessSites(const detail::Module &M);

  flatbuffers::FlatBufferBuilder Builder;
  std::vector<flatbuffers::Offset<fb::DispatchFunctionDef>> Functions;
  std::vector<flatbuffers::Offset<fb::WgtraceFunctionDef>> FunctionExtras;
  std::vector<flatbuffers::Offset<fb::DispatchSiteDef>> Sites;
  std::vector<flatbuffers::Offset<fb::WgtraceSiteDef>> SiteExtras;
  std::vector<flatbuffers::Offset<fb::AccessSiteDef>> AccessSites;
  std::vector<flatbuffers::Offset<fb::UntracedAccessDef>> Untraced;
  std::vector<flatbuffers::Offset<fb::IndirectCallDef>> IndirectCalls;
  // Index 0 of the file table is a placeholder so that 0 means "no file".
  std::vector<std::string> Files = {""};
  std::map<std::string, uint32_t> FileByPath;
  std::map<std::string, uint32_t> FunctionByName;
  /// A module's own functions and instances by name: a site names a
  /// kernel of its own module first (two files may each have a static
  /// kernel of one name).
  std::map<std::pair<const detail::Module *, std::string>, uint32_t>
      ModuleFunctionByName;
};

uint32_t MetadataBuilder::fileIndex(const char *Path) {
  if (!Path || !*Path)
    return 0;
  auto [It, Inserted] =
      FileByPath.emplace(Path, static_cast<uint32_t>(Files.size()));
  if (Inserted)
    Files.emplace_back(Path);
  return It->second;
}

fb::SourceLocation MetadataBuilder::parseFileLine(const char *FileLine) {
  if (!FileLine)
    return fb::SourceLocation(0, 0, 0);
  std::string Text(FileLine);
  size_t Colon = Text.rfind(':');
  if (Colon == std::string::npos)
    return location(FileLine, 0, 0);
  char *End = nullptr;
  unsigned long Line = std::strtoul(Text.c_str() + Colon + 1, &End, 10);
  if (End == Text.c_str() + Colon + 1 || *End)
    return location(FileLine, 0, 0);
  return location(Text.substr(0, Colon).c_str(), static_cast<uint32_t>(Line),
                  0);
}

uint32_t MetadataBuilder::addFunction(const detail::FunctionInfo &F,
                                      uint32_t InstanceOf) {
  Functions.push_back(fb::CreateDispatchFunctionDef(
      Builder, Builder.CreateString(F.Name ? F.Name : ""),
      optionalString(F.Target), optionalString(F.Layout),
      optionalString(F.Source)));
  std::vector<flatbuffers::Offset<fb::ParamDef>> Params;
  Params.reserve(F.NumParams);
  for (uint32_t I = 0; I < F.NumParams; ++I) {
    const detail::ParamInfo &P = F.Params[I];
    Params.push_back(fb::CreateParamDef(
        Builder, optionalString(P.Name), optionalString(P.Type), P.Position,
        static_cast<fb::ParamKind>(P.Kind), P.ElementSize, P.HasExtent));
  }
  fb::SourceLocation Where = location(F.File, F.Line, F.Column);
  FunctionExtras.push_back(fb::CreateWgtraceFunctionDef(
      Builder, static_cast<fb::FunctionKind>(F.Kind), &Where,
      Builder.CreateVector(Params), InstanceOf));
  return static_cast<uint32_t>(Functions.size() - 1);
}

// A site may launch a kernel that no instrumented module defines; it still
// needs a function entry to name it.
uint32_t MetadataBuilder::resolveCallee(const detail::Module &M,
                                        const char *Callee) {
  auto Own = ModuleFunctionByName.find({&M, Callee});
  if (Own != ModuleFunctionByName.end())
    return Own->second;
  auto It = FunctionByName.find(Callee);
  if (It != FunctionByName.end())
    return It->second;
  detail::FunctionInfo Named = {};
  Named.Name = Callee;
  uint32_t Id = addFunction(Named);
  FunctionByName.emplace(Callee, Id);
  return Id;
}

void MetadataBuilder::addFunctionsAndSites() {
  // Ids were handed out in registration order: a module's functions and
  // sites (its dispatch sites, then one direct-call site per function)
  // when it registered, an instance's function and direct-call site when
  // a file registered it. Both lists go in id order.
  struct FunctionEntry {
    uint32_t Id;
    const detail::FunctionInfo *Info;
    const detail::Module *Owner;
    uint32_t InstanceOf;
  };
  struct SiteEntry {
    uint32_t Id;
    const detail::Module *Owner;
    /// A dispatch site: its entry; a direct-call site: none.
    const detail::SiteInfo *Dispatch;
    uint32_t Function;
  };
  std::vector<FunctionEntry> Entries;
  std::vector<SiteEntry> SiteEntries;
  forEachModule([&](const detail::Module &M) {
    for (uint32_t I = 0; I < M.NumFunctions; ++I) {
      Entries.push_back({M.functionBase() + I, &M.Functions[I], &M, 0});
      SiteEntries.push_back(
          {M.directSite(I), &M, nullptr, M.functionBase() + I});
    }
    for (uint32_t I = 0; I < M.NumSites; ++I)
      SiteEntries.push_back({M.siteBase() + I, &M, &M.Sites[I], 0});
    for (const runtime::Instance *X : runtime::moduleInstances(M)) {
      Entries.push_back(
          {X->FunctionId, X->Info, &M, M.functionBase() + X->Pattern + 1});
      SiteEntries.push_back({X->DirectSite, &M, nullptr, X->FunctionId});
    }
  });
  std::sort(Entries.begin(), Entries.end(),
            [](const FunctionEntry &A, const FunctionEntry &B) {
              return A.Id < B.Id;
            });
  std::sort(SiteEntries.begin(), SiteEntries.end(),
            [](const SiteEntry &A, const SiteEntry &B) { return A.Id < B.Id; });
  for (const FunctionEntry &E : Entries) {
    uint32_t Id = addFunction(*E.Info, E.InstanceOf);
    const char *Name = E.Info->Name ? E.Info->Name : "";
    FunctionByName.emplace(Name, Id);
    ModuleFunctionByName.emplace(std::make_pair(E.Owner, std::string(Name)),
                                 Id);
  }
  for (const SiteEntry &E : SiteEntries) {
    if (!E.Dispatch) {
      Sites.push_back(fb::CreateDispatchSiteDef(Builder, E.Function));
      SiteExtras.push_back(
          fb::CreateWgtraceSiteDef(Builder, nullptr, /*direct=*/true));
      continue;
    }
    Sites.push_back(fb::CreateDispatchSiteDef(
        Builder, resolveCallee(*E.Owner, E.Dispatch->Callee)));
    fb::SourceLocation Where = parseFileLine(E.Dispatch->Location);
    SiteExtras.push_back(
        fb::CreateWgtraceSiteDef(Builder, &Where, /*direct=*/false));
  }
}

void MetadataBuilder::addModuleAccessSites(const detail::Module &M) {
  const detail::ModuleExtras &X = M.Extras;
  // Every site, also beyond the 65535 that ids can name: a table longer
  // than that tells a reader that the ids in records wrapped.
  for (size_t I = 0; I < X.NumAccessSites; ++I) {
    const detail::AccessSiteInfo &A = X.AccessSites[I];
    fb::SourceLocation Where = location(A.File, A.Line, A.Column);
    AccessSites.push_back(fb::CreateAccessSiteDef(
        Builder, &Where, static_cast<fb::AccessKind>(A.Kind),
        optionalString(A.Scope), optionalString(A.Text),
        optionalString(A.Critical), A.WorkgroupOwned, A.ThreadOwned));
  }
  for (size_t I = 0; I < X.NumUntraced; ++I) {
    const detail::UntracedInfo &U = X.Untraced[I];
    fb::SourceLocation Where = location(U.File, U.Line, U.Column);
    Untraced.push_back(fb::CreateUntracedAccessDef(
        Builder, &Where, optionalString(U.Scope), optionalString(U.Text),
        optionalString(U.Reason)));
  }
}

std::vector<uint8_t> MetadataBuilder::build() {
  addFunctionsAndSites();
  forEachModule([&](const detail::Module &M) { addModuleAccessSites(M); });
  forEachIndirectCalls([&](const detail::IndirectCalls &C) {
    for (size_t I = 0; I < C.NumCalls; ++I) {
      const detail::IndirectCallInfo &Call = C.Calls[I];
      fb::SourceLocation Where = location(Call.File, Call.Line, Call.Column);
      IndirectCalls.push_back(
          fb::CreateIndirectCallDef(Builder, &Where, optionalString(Call.Scope),
                                    optionalString(Call.Text)));
    }
  });

  std::vector<StringOffset> FileStrings;
  FileStrings.reserve(Files.size());
  for (const std::string &F : Files)
    FileStrings.push_back(Builder.CreateString(F));
  // No access sites anywhere (every module built with WGTRACE_ACCESS_SITES=0,
  // or none wrapped an access): no table, and the address words of the
  // file's records are bare addresses, as IREE's tools read them.
  auto AccessSiteVector =
      AccessSites.empty()
          ? flatbuffers::Offset<
                flatbuffers::Vector<flatbuffers::Offset<fb::AccessSiteDef>>>()
          : Builder.CreateVector(AccessSites);
  std::vector<std::string> Sections = criticalSectionNames();
  std::vector<std::string> Filters = installedFilters();
  auto Extension = fb::CreateWgtraceDef(
      Builder, /*version=*/1, Builder.CreateVector(FileStrings),
      Builder.CreateVector(FunctionExtras), Builder.CreateVector(SiteExtras),
      AccessSiteVector, Builder.CreateVector(Untraced),
      IndirectCalls.empty() ? 0 : Builder.CreateVector(IndirectCalls),
      /*run_record=*/true,
      Sections.empty() ? 0 : Builder.CreateVectorOfStrings(Sections),
      Filters.empty() ? 0 : Builder.CreateVectorOfStrings(Filters));

  auto FunctionVector = Builder.CreateVector(Functions);
  auto SiteVector = Builder.CreateVector(Sites);
  fb::DispatchInstrumentDefBuilder Root(Builder);
  Root.add_version(0);
  Root.add_flags(0);
  Root.add_functions(FunctionVector);
  Root.add_sites(SiteVector);
  Root.add_wgtrace(Extension);
  auto Done = Root.Finish();
  fb::FinishDispatchInstrumentDefBuffer(Builder, Done);
  return {Builder.GetBufferPointer(),
          Builder.GetBufferPointer() + Builder.GetSize()};
}

} // namespace

std::vector<uint8_t> buildMetadata() { return MetadataBuilder().build(); }

} // namespace wgtrace::runtime
