//===- trace_writer_test.cc - The file is IREE's chunked format -----------===//

#include "module_registry.h"
#include "trace_writer.h"

#include "wgtrace/dispatch_instrument_generated.h"
#include "wgtrace/format.h"
#include "wgtrace/instrument.h"

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
  ASSERT_NE(Def->sites()->Get(SiteBase)->location(), nullptr);
  EXPECT_EQ(Def->sites()->Get(SiteBase)->location()->str(), "a.cc:3");
  // Direct-call sites have no single location.
  EXPECT_EQ(Def->sites()->Get(WriterModule.directSite(0))->location(), nullptr);
  uint32_t Elsewhere = Def->sites()->Get(SiteBase + 1)->function();
  EXPECT_EQ(Def->functions()->Get(Elsewhere)->name()->str(), "elsewhere");
  EXPECT_EQ(Def->sites()->Get(WriterModule.directSite(0))->function(),
            FunctionBase);
  EXPECT_EQ(Def->sites()->Get(WriterModule.directSite(1))->function(),
            FunctionBase + 1);
}

TEST(TraceWriter, FileIsMetadataThenOneRingChunkPerRecordingThread) {
  Workgroup WG{};
  int X = 5;
  {
    detail::WorkgroupScope Scope(WriterModule, 0, WG);
    (void)*detail::load(&X);
  }
  std::string Path = ::testing::TempDir() + "/writer_test.bin";
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
  EXPECT_EQ(File.size(), format::nextChunkOffset(Offset, Ring.ContentLength));
}
