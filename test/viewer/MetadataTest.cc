//===- MetadataTest.cc - wgtrace's metadata extension, read and skipped ---===//

#include "reader/Metadata.h"

#include "wgtrace/dispatch_instrument_generated.h"

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::viewer;
using llvm::Expected;
using llvm::toString;

namespace {

/// A metadata chunk around the finished FlatBuffer in \p FBB. The bytes
/// live in \p Storage.
Chunk metadataChunk(const flatbuffers::FlatBufferBuilder &FBB,
                    std::vector<uint8_t> &Storage) {
  Storage.assign(FBB.GetBufferPointer(),
                 FBB.GetBufferPointer() + FBB.GetSize());
  Chunk C;
  C.Offset = 0;
  C.Header = {format::kChunkMagic,
              uint16_t(format::ChunkType::DispatchMetadata), 0, Storage.size()};
  C.Content = Storage;
  return C;
}

/// IREE's tables: one function "k", one site launching it.
std::pair<flatbuffers::Offset<flatbuffers::Vector<
              flatbuffers::Offset<fb::DispatchFunctionDef>>>,
          flatbuffers::Offset<
              flatbuffers::Vector<flatbuffers::Offset<fb::DispatchSiteDef>>>>
ireeTables(flatbuffers::FlatBufferBuilder &FBB) {
  auto F = fb::CreateDispatchFunctionDef(FBB, FBB.CreateString("k"));
  auto S = fb::CreateDispatchSiteDef(FBB, 0);
  return {FBB.CreateVector(std::vector{F}), FBB.CreateVector(std::vector{S})};
}

} // namespace

TEST(Metadata, ExtensionGivesPlacesParamsAccessSitesAndUntraced) {
  flatbuffers::FlatBufferBuilder FBB;
  auto [Functions, Sites] = ireeTables(FBB);
  auto Files = FBB.CreateVectorOfStrings({"", "k.cc"});
  fb::SourceLocation Def(1, 4, 18), Launch(1, 30, 3), Access(1, 6, 5);
  auto Param = fb::CreateParamDef(FBB, FBB.CreateString("a"),
                                  FBB.CreateString("const float *"), 1,
                                  fb::ParamKind::Pointer, 4, false);
  auto Fn = fb::CreateWgtraceFunctionDef(FBB, fb::FunctionKind::Function, &Def,
                                         FBB.CreateVector(std::vector{Param}));
  auto Site = fb::CreateWgtraceSiteDef(FBB, &Launch, false);
  auto A =
      fb::CreateAccessSiteDef(FBB, &Access, fb::AccessKind::Load,
                              FBB.CreateString("k"), FBB.CreateString("a[i]"));
  auto U = fb::CreateUntracedAccessDef(
      FBB, &Access, FBB.CreateString("k"), FBB.CreateString("M(i)"),
      FBB.CreateString("macro expansion is not one lvalue"));
  auto X = fb::CreateWgtraceDef(
      FBB, 1, Files, FBB.CreateVector(std::vector{Fn}),
      FBB.CreateVector(std::vector{Site}), FBB.CreateVector(std::vector{A}),
      FBB.CreateVector(std::vector{U}));
  fb::DispatchInstrumentDefBuilder Root(FBB);
  Root.add_functions(Functions);
  Root.add_sites(Sites);
  Root.add_wgtrace(X);
  fb::FinishDispatchInstrumentDefBuffer(FBB, Root.Finish());

  std::vector<uint8_t> Storage;
  Expected<Metadata> M = Metadata::decode(metadataChunk(FBB, Storage));
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_TRUE(M->HasExtension);
  EXPECT_TRUE(M->ExtensionNote.empty());
  EXPECT_EQ(M->SiteLocations.at(0), "k.cc:30");
  const FunctionExtension *E = M->functionExtension(0);
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(E->Where.str(/*WithColumn=*/true), "k.cc:4:18");
  ASSERT_EQ(E->Params.size(), 1u);
  EXPECT_EQ(E->Params[0].Name, "a");
  EXPECT_EQ(E->Params[0].ElementSize, 4u);
  EXPECT_TRUE(M->HasAccessSites);
  EXPECT_EQ(M->accessSite(0), nullptr);
  ASSERT_NE(M->accessSite(1), nullptr);
  EXPECT_EQ(M->accessSite(1)->Text, "a[i]");
  EXPECT_EQ(M->accessSite(1)->Where.str(true), "k.cc:6:5");
  EXPECT_EQ(M->accessSite(2), nullptr);
  ASSERT_EQ(M->Untraced.size(), 1u);
  EXPECT_EQ(M->Untraced[0].Reason, "macro expansion is not one lvalue");
}

TEST(Metadata, IreeFileHasNoExtensionAndAddressWordsAreAddresses) {
  flatbuffers::FlatBufferBuilder FBB;
  auto [Functions, Sites] = ireeTables(FBB);
  fb::FinishDispatchInstrumentDefBuffer(
      FBB, fb::CreateDispatchInstrumentDef(FBB, 0, 0, Functions, Sites));
  std::vector<uint8_t> Storage;
  Expected<Metadata> M = Metadata::decode(metadataChunk(FBB, Storage));
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_FALSE(M->HasExtension);
  EXPECT_FALSE(M->HasAccessSites);
  EXPECT_TRUE(M->ExtensionNote.empty());
  EXPECT_EQ(M->SiteLocations.at(0), "");
}

// A future IREE schema may add fields to its tables. In the slots wgtrace
// keeps free (DispatchSiteDef 1, the root's 4-15) they are skipped without a
// word; the file is read whole.
TEST(Metadata, FieldsIreeMayAddAreSkipped) {
  flatbuffers::FlatBufferBuilder FBB;
  auto F = fb::CreateDispatchFunctionDef(FBB, FBB.CreateString("k"));
  // A site with a u32 where wgtrace once wrote a string.
  flatbuffers::uoffset_t Start = FBB.StartTable();
  FBB.AddElement<uint32_t>(fb::DispatchSiteDef::VT_FUNCTION, 0);
  FBB.AddElement<uint32_t>(6, 0xFFFFFFF0u);
  flatbuffers::Offset<fb::DispatchSiteDef> S(FBB.EndTable(Start));
  auto Functions = FBB.CreateVector(std::vector{F});
  auto Sites = FBB.CreateVector(std::vector{S});
  Start = FBB.StartTable();
  FBB.AddOffset(fb::DispatchInstrumentDef::VT_FUNCTIONS, Functions);
  FBB.AddOffset(fb::DispatchInstrumentDef::VT_SITES, Sites);
  // Root slot 5, a u64 that is not an offset.
  FBB.AddElement<uint64_t>(14, 0xFFFFFFFFFFFFFFFFull);
  FBB.Finish(
      flatbuffers::Offset<fb::DispatchInstrumentDef>(FBB.EndTable(Start)),
      format::kMetadataIdentifier);
  std::vector<uint8_t> Storage;
  Expected<Metadata> M = Metadata::decode(metadataChunk(FBB, Storage));
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_TRUE(M->ExtensionNote.empty());
  ASSERT_EQ(M->SiteFunctions.size(), 1u);
  EXPECT_EQ(M->siteFunction(0).nameOr(""), "k");
}

// wgtrace's own slot holding something that is not its table: the file is
// read with IREE's schema alone, and the reader is told so once.
TEST(Metadata, ExtensionThatDoesNotVerifyIsIgnoredWithANote) {
  flatbuffers::FlatBufferBuilder FBB;
  auto [Functions, Sites] = ireeTables(FBB);
  flatbuffers::uoffset_t Start = FBB.StartTable();
  FBB.AddOffset(fb::DispatchInstrumentDef::VT_FUNCTIONS, Functions);
  FBB.AddOffset(fb::DispatchInstrumentDef::VT_SITES, Sites);
  // An offset far past the buffer's end.
  FBB.AddElement<uint32_t>(fb::DispatchInstrumentDef::VT_WGTRACE, 0x7FFFFFF0u);
  FBB.Finish(
      flatbuffers::Offset<fb::DispatchInstrumentDef>(FBB.EndTable(Start)),
      format::kMetadataIdentifier);
  std::vector<uint8_t> Storage;
  Expected<Metadata> M = Metadata::decode(metadataChunk(FBB, Storage));
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  EXPECT_FALSE(M->HasExtension);
  EXPECT_NE(M->ExtensionNote.find("IREE's schema"), std::string::npos);
  EXPECT_EQ(M->siteFunction(0).nameOr(""), "k");
}

TEST(Metadata, DamagedIreeTablesAreStillAnError) {
  flatbuffers::FlatBufferBuilder FBB;
  flatbuffers::uoffset_t Start = FBB.StartTable();
  FBB.AddElement<uint32_t>(fb::DispatchInstrumentDef::VT_FUNCTIONS,
                           0x7FFFFFF0u);
  FBB.Finish(
      flatbuffers::Offset<fb::DispatchInstrumentDef>(FBB.EndTable(Start)),
      format::kMetadataIdentifier);
  std::vector<uint8_t> Storage;
  Expected<Metadata> M = Metadata::decode(metadataChunk(FBB, Storage));
  ASSERT_FALSE(bool(M));
  EXPECT_NE(toString(M.takeError()).find("fails verification"),
            std::string::npos);
}
