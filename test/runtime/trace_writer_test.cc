//===- trace_writer_test.cc - The file is IREE's chunked format -----------===//

#include "metadata_builder.h"
#include "module_registry.h"
#include "trace_writer.h"

#include "wgtrace/dispatch_instrument_generated.h"
#include "wgtrace/format.h"
#include "wgtrace/instrument.h"

#include "support/ScratchDirectory.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace wgtrace;

namespace {

const detail::FunctionInfo Functions[] = {
    {"first", "x86_64 -O2", "(wg)", "void first() {}"},
    {"second", nullptr, nullptr, nullptr}};
// One site launching a kernel of this module, one launching a kernel that
// nothing instrumented defines.
const detail::SiteInfo Sites[] = {{"second", "a.cc:3"},
                                  {"elsewhere", "a.cc:9"}};
detail::Module WriterModule(Functions, 2, Sites, 2);

// A module with everything of wgtrace's metadata extension.
const detail::ParamInfo ScaleParams[] = {
    {"in", "const float *", 1, 0, 4, false},
    {"out", "std::span<float>", 2, 2, 4, true}};
detail::FunctionInfo scaleFunction() {
  detail::FunctionInfo F = {"scale", "t", "(wg, in, out)", "src"};
  F.File = "k.cc";
  F.Line = 7;
  F.Column = 18;
  F.Kind = 2;
  F.Params = ScaleParams;
  F.NumParams = 2;
  return F;
}
const detail::FunctionInfo ExtendedFunctions[] = {scaleFunction()};
const detail::AccessSiteInfo ExtendedAccessSites[] = {
    {"k.cc", 9, 5, 0, "scale", "in[i]"}, {"k.h", 3, 1, 1, "put", "out[i]"}};
const detail::UntracedInfo ExtendedUntraced[] = {
    {"k.cc", 11, 3, "scale", "MACRO(x)", "a macro that is not one lvalue"}};
detail::ModuleExtras extendedExtras() {
  detail::ModuleExtras X;
  X.AccessSites = ExtendedAccessSites;
  X.NumAccessSites = 2;
  X.Untraced = ExtendedUntraced;
  X.NumUntraced = 1;
  return X;
}
detail::Module ExtendedModule(ExtendedFunctions, 1, nullptr, 0,
                              extendedExtras());

std::vector<uint8_t> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return {std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>()};
}

} // namespace

TEST(TraceWriter, MetadataIsAVerifiedFlatBufferNamingEverySite) {
  std::vector<uint8_t> Bytes = runtime::buildMetadata();
  flatbuffers::Verifier Verifier(Bytes.data(), Bytes.size());
  ASSERT_TRUE(fb::VerifyDispatchInstrumentDefBuffer(Verifier));
  ASSERT_TRUE(fb::DispatchInstrumentDefBufferHasIdentifier(Bytes.data()));
  const fb::DispatchInstrumentDef *Def =
      fb::GetDispatchInstrumentDef(Bytes.data());
  uint32_t FunctionBase = WriterModule.functionBase();
  uint32_t SiteBase = WriterModule.siteBase();
  const auto *F = Def->functions()->Get(FunctionBase);
  EXPECT_EQ(F->name()->str(), "first");
  EXPECT_EQ(F->target()->str(), "x86_64 -O2");
  EXPECT_EQ(F->layout()->str(), "(wg)");
  EXPECT_EQ(F->source()->str(), "void first() {}");
  EXPECT_EQ(Def->functions()->Get(FunctionBase + 1)->target(), nullptr);
  // Explicit sites, then one direct-call site per function.
  EXPECT_EQ(Def->sites()->Get(SiteBase)->function(), FunctionBase + 1);
  // Where each site is, in wgtrace's extension table.
  const fb::WgtraceDef *X = Def->wgtrace();
  ASSERT_NE(X, nullptr);
  EXPECT_EQ(X->version(), 1u);
  ASSERT_EQ(X->sites()->size(), Def->sites()->size());
  const fb::SourceLocation *Where = X->sites()->Get(SiteBase)->location();
  ASSERT_NE(Where, nullptr);
  EXPECT_EQ(X->files()->Get(Where->file())->str(), "a.cc");
  EXPECT_EQ(Where->line(), 3u);
  EXPECT_FALSE(X->sites()->Get(SiteBase)->direct());
  // Direct-call sites have no single location.
  EXPECT_EQ(X->sites()->Get(WriterModule.directSite(0))->location(), nullptr);
  EXPECT_TRUE(X->sites()->Get(WriterModule.directSite(0))->direct());
  uint32_t Elsewhere = Def->sites()->Get(SiteBase + 1)->function();
  EXPECT_EQ(Def->functions()->Get(Elsewhere)->name()->str(), "elsewhere");
  EXPECT_EQ(Def->sites()->Get(WriterModule.directSite(0))->function(),
            FunctionBase);
  EXPECT_EQ(Def->sites()->Get(WriterModule.directSite(1))->function(),
            FunctionBase + 1);
}

TEST(TraceWriter, MetadataExtensionHoldsParamsAccessSitesAndUntraced) {
  std::vector<uint8_t> Bytes = runtime::buildMetadata();
  flatbuffers::Verifier Verifier(Bytes.data(), Bytes.size());
  ASSERT_TRUE(fb::VerifyDispatchInstrumentDefBuffer(Verifier));
  const fb::DispatchInstrumentDef *Def =
      fb::GetDispatchInstrumentDef(Bytes.data());
  const fb::WgtraceDef *X = Def->wgtrace();
  ASSERT_NE(X, nullptr);
  auto File = [&](const fb::SourceLocation *L) {
    return X->files()->Get(L->file())->str();
  };

  const fb::WgtraceFunctionDef *F =
      X->functions()->Get(ExtendedModule.functionBase());
  EXPECT_EQ(F->kind(), fb::FunctionKind::Lambda);
  EXPECT_EQ(File(F->location()), "k.cc");
  EXPECT_EQ(F->location()->line(), 7u);
  EXPECT_EQ(F->location()->column(), 18u);
  ASSERT_EQ(F->params()->size(), 2u);
  EXPECT_EQ(F->params()->Get(1)->name()->str(), "out");
  EXPECT_EQ(F->params()->Get(1)->type()->str(), "std::span<float>");
  EXPECT_EQ(F->params()->Get(1)->position(), 2u);
  EXPECT_EQ(F->params()->Get(1)->kind(), fb::ParamKind::Span);
  EXPECT_EQ(F->params()->Get(1)->element_size(), 4u);
  EXPECT_TRUE(F->params()->Get(1)->has_extent());
  EXPECT_FALSE(F->params()->Get(0)->has_extent());
  // A function without extras still has an entry, saying nothing.
  const fb::WgtraceFunctionDef *First =
      X->functions()->Get(WriterModule.functionBase());
  EXPECT_EQ(First->params()->size(), 0u);
  EXPECT_EQ(First->location()->file(), 0u);

  // Ids are process-wide, 1-based, and entry id - 1 describes site id.
  uint32_t Second = ExtendedModule.accessSite(2);
  EXPECT_EQ(Second, ExtendedModule.accessSite(1) + 1);
  EXPECT_GE(ExtendedModule.accessSite(1), 1u);
  ASSERT_GE(X->access_sites()->size(), Second);
  const fb::AccessSiteDef *A = X->access_sites()->Get(Second - 1);
  EXPECT_EQ(File(A->location()), "k.h");
  EXPECT_EQ(A->location()->line(), 3u);
  EXPECT_EQ(A->kind(), fb::AccessKind::Store);
  EXPECT_EQ(A->scope()->str(), "put");
  EXPECT_EQ(A->text()->str(), "out[i]");

  ASSERT_EQ(X->untraced()->size(), 1u);
  const fb::UntracedAccessDef *U = X->untraced()->Get(0);
  EXPECT_EQ(File(U->location()), "k.cc");
  EXPECT_EQ(U->location()->line(), 11u);
  EXPECT_EQ(U->reason()->str(), "a macro that is not one lvalue");
  // The file table interns paths: k.cc once.
  int KccEntries = 0;
  for (const flatbuffers::String *Path : *X->files())
    KccEntries += Path->str() == "k.cc";
  EXPECT_EQ(KccEntries, 1);
}

TEST(TraceWriter, FileIsMetadataThenOneRingChunkPerRecordingThread) {
  Workgroup WG{};
  int X = 5;
  {
    detail::WorkgroupScope Scope(WriterModule, 0, WG);
    (void)*detail::load(&X);
  }
  std::string Path = wgtrace::testing::scratchPath("writer_test.bin");
  std::string Error;
  ASSERT_TRUE(runtime::writeTrace(Path, /*Report=*/false, &Error)) << Error;
  std::vector<uint8_t> File = readFile(Path);
  std::remove(Path.c_str());

  ASSERT_GE(File.size(), 16u);
  format::ChunkHeader Meta;
  std::memcpy(&Meta, File.data(), sizeof(Meta));
  EXPECT_EQ(Meta.Magic, format::kChunkMagic);
  EXPECT_EQ(Meta.Type, uint16_t(format::ChunkType::DispatchMetadata));
  EXPECT_EQ(Meta.Version, 0);

  uint64_t Offset = format::nextChunkOffset(0, Meta.ContentLength);
  format::ChunkHeader Ring;
  ASSERT_LE(Offset + 16, File.size());
  std::memcpy(&Ring, File.data() + Offset, sizeof(Ring));
  EXPECT_EQ(Ring.Type, uint16_t(format::ChunkType::DispatchRingBuffer));
  uint64_t RingSize = Ring.ContentLength - format::kRingPadding;
  EXPECT_TRUE(format::isPowerOfTwo(RingSize));
  const uint8_t *Content = File.data() + Offset + 16;
  uint64_t Head;
  std::memcpy(&Head, Content + Ring.ContentLength - 8, 8);
  EXPECT_GE(Head, 48u);
  EXPECT_EQ(format::recordTag(Content), uint8_t(format::Tag::Workgroup));

  // Last, the run record: a ring chunk of the smallest ring, no records.
  Offset = format::nextChunkOffset(Offset, Ring.ContentLength);
  format::ChunkHeader Run;
  ASSERT_LE(Offset + 16, File.size());
  std::memcpy(&Run, File.data() + Offset, sizeof(Run));
  EXPECT_EQ(Run.Type, uint16_t(format::ChunkType::DispatchRingBuffer));
  EXPECT_EQ(Run.ContentLength,
            format::ringChunkContentLength(format::kRunRecordRingSize));
  Content = File.data() + Offset + 16;
  std::memcpy(&Head, Content + Run.ContentLength - 8, 8);
  EXPECT_EQ(Head, 0u);
  format::RingTrailer Trailer;
  std::memcpy(&Trailer,
              Content + format::ringTrailerOffset(format::kRunRecordRingSize),
              sizeof(Trailer));
  EXPECT_EQ(Trailer.Magic, format::kRingTrailerMagic);
  EXPECT_EQ(Trailer.Flags, format::kTrailerRunRecord);
  format::RunRecord Record;
  std::memcpy(&Record, Content, sizeof(Record));
  EXPECT_EQ(Record.Magic, format::kRunRecordMagic);
  EXPECT_EQ(Record.End, uint16_t(format::RunEnd::Running))
      << "flushTrace writes the trace of a run that goes on";
  EXPECT_EQ(File.size(), format::nextChunkOffset(Offset, Run.ContentLength));
}
