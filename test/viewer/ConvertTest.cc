//===- ConvertTest.cc - convert --iree and --iree-compat with extensions --===//

#include "CliRun.h"
#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "analyses/SummaryTool.h"

#include <gtest/gtest.h>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

/// Everything of extension 1 at once: access sites in address words,
/// buffer values, a nested kernel whose return copies the outer record,
/// a ring trailer and a version-1 timing chunk.
std::vector<uint8_t> extendedTrace() {
  ExtensionSpec X;
  X.FunctionParams = {{{"a", "float *", 1, 0, 4, true}}, {}};
  X.SiteDirect = {false, true};
  X.AccessSites = {{"k.cc", 5, 3, 0, "outer", "a[i]"}};
  TraceBuilder B;
  B.metadata({{"outer", {}, {}, {"void outer() {}"}}, {"inner", {}, {}, {}}},
             {0, 1}, &X);
  RingBuilder R(4096);
  const uint64_t First = R.head();
  R.workgroup(0, {0, 0, 0}, {1, 1, 1}, 2);
  R.value(format::ValueType::BufferBase, 0, 0x10000);
  R.value(format::ValueType::BufferExtent, 0, 64);
  R.load(0x10000 | format::accessSiteBits(1), 4);
  R.workgroup(1, {0, 0, 0}, {1, 1, 1}, 2);
  R.store(0x20000, 8);
  R.continuation(0, {0, 0, 0}, {1, 1, 1}, 2, First);
  R.load(0x10004 | format::accessSiteBits(1), 4);
  R.value(format::ValueType::Float32, 3, 0x3FC00000);
  R.print("done");
  format::RingTrailer T{};
  T.RingId = 5;
  T.RingSize = 4096;
  R.trailer(T);
  B.ring(R);
  B.timing({1, 5, 0}, {{0, 10, 20, 2, 0}});
  return B.bytes();
}

TEST(Convert, IreeFileHasOnlyWhatIreeReads) {
  std::string In = writeTrace("ext.bin", extendedTrace());
  std::string Out = tempPath("ext-iree.bin");
  ViewRun R = view("convert --iree " + In + " -o " + Out);
  ASSERT_EQ(R.Status, 0) << R.Err;
  std::string Bytes = slurp(Out);
  std::vector<uint8_t> Converted(Bytes.begin(), Bytes.end());

  // IREE's metadata only, and no chunk IREE's tool does not know.
  TraceFile File = TraceFile::fromBytes(Converted);
  TraceFile::ChunkIterator It = File.chunks();
  Chunk C;
  unsigned Rings = 0;
  while (true) {
    llvm::Expected<bool> More = It.next(C);
    ASSERT_TRUE(bool(More));
    if (!*More)
      break;
    ASSERT_NE(C.type(), format::ChunkType::WorkgroupTiming);
    if (C.type() == format::ChunkType::DispatchMetadata) {
      llvm::Expected<Metadata> M = Metadata::decode(C);
      ASSERT_TRUE(bool(M));
      EXPECT_FALSE(M->HasExtension);
      EXPECT_EQ(M->Functions.size(), 2u);
      EXPECT_EQ(*M->Functions[0].Source, "void outer() {}");
      continue;
    }
    ++Rings;
    uint64_t Head;
    std::memcpy(&Head, C.Content.data() + C.Content.size() - 8, 8);
    EXPECT_LE(Head + format::kRingPadding, C.Content.size()); // not wrapped
    format::RingTrailer T;
    std::memcpy(&T, C.Content.data() + format::ringTrailerOffset(4096),
                sizeof(T));
    EXPECT_NE(T.Magic, format::kRingTrailerMagic);
  }
  EXPECT_EQ(Rings, 1u);

  // What IREE's tool prints of it: plain addresses, no unknown value types,
  // the outer workgroup once (its copy folded into its first record).
  DumpResult D = dumpCompat(Converted);
  EXPECT_EQ(D.Error, "");
  EXPECT_EQ(D.Text.find("<<unknown type"), std::string::npos) << D.Text;
  EXPECT_NE(D.Text.find("0000000000000000 | LOAD  0000000000010004 4\n"),
            std::string::npos)
      << D.Text;
  EXPECT_EQ(llvm::StringRef(D.Text).count("| WORKGROUP dispatch(0 outer"), 1u)
      << D.Text;
  EXPECT_NE(D.Text.find("0000000000000000 | VALUE 0003 = 1.500000e+00 "
                        "1.500000\n0000000000000000 | PRINT done\n"),
            std::string::npos)
      << D.Text;

  // The same loads and stores per workgroup as the original.
  SummaryTool Before(llvm::nulls(), false), After(llvm::nulls(), false);
  decodeWith(Before, extendedTrace());
  decodeWith(After, Converted);
  ASSERT_EQ(Before.sites().size(), After.sites().size());
  for (size_t S = 0; S < Before.sites().size(); ++S) {
    EXPECT_EQ(Before.sites()[S].Totals.Loads, After.sites()[S].Totals.Loads);
    EXPECT_EQ(Before.sites()[S].Totals.Stores, After.sites()[S].Totals.Stores);
    EXPECT_EQ(Before.sites()[S].Totals.Workgroups,
              After.sites()[S].Totals.Workgroups);
  }
}

TEST(Convert, NeedsTheTarget) {
  ViewRun R = view("convert " + writeTrace("t.bin", extendedTrace()));
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Err.find("--iree"), std::string::npos);
}

TEST(IreeCompat, StopsAtTheFirstTimingChunkAsIreeDoes) {
  std::string In = writeTrace("timed.bin", extendedTrace());
  ViewRun R = view("dump --iree-compat " + In);
  EXPECT_EQ(R.Status, 2);
  // Every ring before it is printed, with the site bits IREE prints.
  EXPECT_NE(R.Out.find("| LOAD  0001000000010000 4\n"), std::string::npos)
      << R.Out;
  EXPECT_NE(R.Err.find("unimplemented chunk type: 32769 (IREE's dump tool "
                       "stops here)"),
            std::string::npos)
      << R.Err;
  R = view("dump " + In);
  EXPECT_EQ(R.Status, 0) << R.Err;
}

} // namespace
