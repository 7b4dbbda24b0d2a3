//===- DumpTest.cc - Golden text of `wgtrace-view dump` -------------------===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"

#include <gtest/gtest.h>

#include <ostream>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

const char *const kBanner =
    "//===----------------------------------------------------------------"
    "------===//\n";

std::string simpleHeader() {
  return std::string("\n") + kBanner + "// export[0]: simple_mul\n" + kBanner +
         "//  target: x86_64-linux-gnu -O2\n"
         "//  layout: (const float*, const float*, float*)\n"
         "void simple_mul() {}\n"
         "\n" +
         kBanner + "// dispatch site 0: simple_mul\n" + kBanner + "\n";
}

TEST(Dump, BannerIsEightyColumns) {
  EXPECT_EQ(std::string(kBanner).size(), 81u);
}

TEST(Dump, Golden) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {4, 1, 1}, 0);
  Ring.load(0x7F12A4C3AD80, 4);
  Ring.store(0x7F12A4C7A100, 4);
  Ring.value(format::ValueType::Float32, 1, 0x3F9DF3B6); // 1.234f
  Ring.print("hello from 0,0,0");
  Ring.workgroup(0, {1, 0, 0}, {4, 1, 1}, 3);
  Ring.load(0x1000, 16);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "");
  EXPECT_EQ(R.Text, simpleHeader() +
                        "0000000000000000 | WORKGROUP dispatch(0 simple_mul "
                        "4x1x1) 0,0,0 pid:0\n"
                        "0000000000000000 | LOAD  00007F12A4C3AD80 4\n"
                        "0000000000000000 | STORE 00007F12A4C7A100 4\n"
                        "0000000000000000 | VALUE 0001 = 1.234000e+00 "
                        "1.234000\n"
                        "0000000000000000 | PRINT hello from 0,0,0\n"
                        "0000000000000070 | WORKGROUP dispatch(0 simple_mul "
                        "4x1x1) 1,0,0 pid:3\n"
                        "0000000000000070 | LOAD  0000000000001000 16\n");
  // Nothing in this trace differs between the two modes.
  EXPECT_EQ(dumpCompat(B.bytes()).Text, R.Text);
}

// What IREE's tool cannot name, the plain dump says in words: where each
// dispatch site is (names repeat: a kernel's launches and its direct calls)
// and wgtrace's buffer VALUEs; --iree-compat prints IREE's text.
TEST(Dump, WgtracesOwnRecordsInWords) {
  ExtensionSpec X;
  X.FunctionParams = {{{"a", "const float *", 1, 0, 4, true},
                       {"c", "float *", 2, 0, 4, false}}};
  X.SiteLocations = {{"main.cc", 41}};
  X.SiteDirect = {false, true};
  TraceBuilder B;
  B.metadata({{"simple_mul", {}, {}, {}}}, {0, 0}, &X);
  RingBuilder Ring(4096);
  Ring.workgroup(1, {0, 0, 0}, {1, 1, 1}, 0);
  Ring.value(format::ValueType::BufferBase, 0, 0x7F0000001000);
  Ring.value(format::ValueType::BufferExtent, 0, 256);
  Ring.value(format::ValueType::BufferBase, 1, 0x7F0000002000);
  Ring.value(format::ValueType::BufferBase, 5, 0x7F0000003000);
  B.ring(Ring);
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "");
  EXPECT_NE(R.Text.find("// dispatch site 0: simple_mul at main.cc:41\n"
                        "// dispatch site 1: simple_mul (direct calls)\n"),
            std::string::npos)
      << R.Text;
  EXPECT_NE(R.Text.find("| VALUE 0000 = buffer a at 00007F0000001000\n"
                        "0000000000000000 | VALUE 0000 = buffer a is 256 "
                        "bytes\n"
                        "0000000000000000 | VALUE 0001 = buffer c at "
                        "00007F0000002000\n"
                        "0000000000000000 | VALUE 0005 = buffer param#5 at "
                        "00007F0000003000\n"),
            std::string::npos)
      << R.Text;
  DumpResult Compat = dumpCompat(B.bytes());
  EXPECT_NE(Compat.Text.find("// dispatch site 0: simple_mul\n"
                             "// dispatch site 1: simple_mul\n"),
            std::string::npos)
      << Compat.Text;
  EXPECT_EQ(Compat.Text.find("buffer"), std::string::npos) << Compat.Text;
  EXPECT_NE(Compat.Text.find("| VALUE 0000 = <<unknown type: 40>>\n"
                             "0000000000000000 | VALUE 0000 = <<unknown "
                             "type: 41>>\n"),
            std::string::npos)
      << Compat.Text;
}

// With access sites in the file, the plain dump prints the address and
// --iree-compat the whole word, as IREE's tool does.
TEST(Dump, AccessSiteBitsArePartOfTheWordOnlyForIree) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  Ring.load(format::accessSiteBits(2) | 0x7F12A4C3AD80, 4);
  TraceBuilder B;
  ExtensionSpec X;
  X.AccessSites = {{"k.cc", 5, 3, 0, "k", "a[i]"},
                   {"k.cc", 6, 9, 0, "k", "b[i]"}};
  B.metadata({{"k", {}, {}, {}}}, {0}, &X).ring(Ring);
  DumpResult Plain = dump(B.bytes());
  ASSERT_EQ(Plain.Error, "");
  EXPECT_NE(Plain.Text.find("| LOAD  00007F12A4C3AD80 4\n"), std::string::npos)
      << Plain.Text;
  DumpResult Compat = dumpCompat(B.bytes());
  EXPECT_NE(Compat.Text.find("| LOAD  00027F12A4C3AD80 4\n"), std::string::npos)
      << Compat.Text;

  // Without access_sites the top bits are part of the address.
  TraceBuilder NoSites;
  X.WithAccessSites = false;
  NoSites.metadata({{"k", {}, {}, {}}}, {0}, &X).ring(Ring);
  EXPECT_NE(dump(NoSites.bytes()).Text.find("| LOAD  00027F12A4C3AD80 4\n"),
            std::string::npos);
}

TEST(Dump, MissingFunctionFieldsPrintLikeIree) {
  TraceBuilder B;
  B.metadata({{std::nullopt, std::nullopt, std::nullopt, std::nullopt},
              {"k", std::nullopt, "L", std::nullopt}},
             {1, 0});
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "");
  EXPECT_EQ(R.Text, std::string("\n") + kBanner + "// export[0]: (null)\n" +
                        kBanner + "\n\n" + kBanner + "// export[1]: k\n" +
                        kBanner + "//  layout: L\n\n" + kBanner +
                        "// dispatch site 0: k\n// dispatch site 1: (null)\n" +
                        kBanner + "\n");
}

struct ValueCase {
  format::ValueType Type;
  uint64_t Bits;
  const char *Plain;
  const char *Compat;
};

// Names the case in test listings (ctest's test names come from it):
// without this GoogleTest prints the struct's bytes, pointers included,
// which change from build to build.
void PrintTo(const ValueCase &C, std::ostream *OS) {
  *OS << "type" << unsigned(C.Type) << "_bits" << std::hex << C.Bits;
}

class DumpValue : public ::testing::TestWithParam<ValueCase> {};

TEST_P(DumpValue, PlainAndIreeCompat) {
  const ValueCase &C = GetParam();
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.value(C.Type, 7, C.Bits);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::string Prefix = simpleHeader() +
                       "0000000000000000 | WORKGROUP dispatch(0 simple_mul "
                       "1x1x1) 0,0,0 pid:0\n"
                       "0000000000000000 | VALUE 0007 = ";
  EXPECT_EQ(dump(B.bytes()).Text, Prefix + C.Plain + "\n");
  EXPECT_EQ(dumpCompat(B.bytes()).Text, Prefix + C.Compat + "\n");
}

using VT = format::ValueType;
INSTANTIATE_TEST_SUITE_P(
    Types, DumpValue,
    ::testing::Values(
        ValueCase{VT::SInt8, 0xFFFFFFFFFFFFFFFF, "-1", "-1"},
        ValueCase{VT::UInt8, 0xFF, "255", "4294967295"},
        ValueCase{VT::UInt8, 0x7F, "127", "127"},
        ValueCase{VT::SInt16, 0x8000, "-32768", "-32768"},
        ValueCase{VT::UInt16, 0xFFFF, "65535", "4294967295"},
        ValueCase{VT::UInt16, 0x8001, "32769", "4294934529"},
        ValueCase{VT::SInt32, 0xFFFFFFFE, "-2", "-2"},
        ValueCase{VT::UInt32, 0xFFFFFFFE, "4294967294", "4294967294"},
        ValueCase{VT::SInt64, 0x8000000000000000, "-9223372036854775808",
                  "-9223372036854775808"},
        ValueCase{VT::UInt64, 0xFFFFFFFFFFFFFFFF, "18446744073709551615",
                  "18446744073709551615"},
        ValueCase{VT::Pointer, 0xABC, "             ABC", "             ABC"},
        ValueCase{VT::Float16, 0x3C00, "3C00", "3C00"},
        ValueCase{VT::Float16, 0xBC00, "BC00", "FFFFBC00"},
        ValueCase{VT::BFloat16, 0x8000, "8000", "FFFF8000"},
        ValueCase{VT::BFloat16, 0x7, "   7", "   7"},
        ValueCase{VT::Float32, 0xC0200000, "-2.500000e+00 -2.500000",
                  "-2.500000e+00 -2.500000"},
        ValueCase{VT::Float64, 0x3FF8000000000000, "1.500000e+00 1.500000",
                  "1.500000e+00 1.500000"},
        ValueCase{VT(13), 0, "<<unknown type: 0D>>", "<<unknown type: 0D>>"}));

TEST(Dump, PrintStopsAtNulLikePercentDotStarS) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.print(std::string("ab\0cd", 5));
  Ring.print("");
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "");
  EXPECT_NE(R.Text.find("| PRINT ab\n0000000000000000 | PRINT \n"),
            std::string::npos)
      << R.Text;
}

TEST(Dump, FiltersByDispatchAndWorkgroup) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1});
  Ring.load(0x10, 4);
  uint64_t K1 = Ring.workgroup(1, {0, 0, 0}, {2, 1, 1});
  Ring.store(0x20, 4);
  uint64_t K2 = Ring.workgroup(1, {1, 0, 0}, {2, 1, 1});
  Ring.store(0x30, 4);
  TraceBuilder B;
  addSimpleMetadata(B, 2).ring(Ring);

  viewer::DumpOptions ByDispatch;
  ByDispatch.Dispatch = 1;
  std::string Text = dump(B.bytes(), ByDispatch).Text;
  EXPECT_EQ(Text.find("LOAD"), std::string::npos);
  EXPECT_NE(Text.find(fmt::format("{:016X} | STORE 0000000000000020 4", K1)),
            std::string::npos);
  EXPECT_NE(Text.find(fmt::format("{:016X} | STORE 0000000000000030 4", K2)),
            std::string::npos);

  viewer::DumpOptions ByWorkgroup;
  ByWorkgroup.Dispatch = 1;
  ByWorkgroup.WorkgroupId = std::array<uint32_t, 3>{1, 0, 0};
  Text = dump(B.bytes(), ByWorkgroup).Text;
  EXPECT_EQ(Text.find("0000000000000020"), std::string::npos);
  EXPECT_NE(Text.find("STORE 0000000000000030 4"), std::string::npos);
  EXPECT_NE(Text.find("// dispatch site 1: simple_mul"), std::string::npos);
}

TEST(Dump, MultipleMetadataAndRingChunks) {
  // Two modules, each with its metadata and ring: a ring's dispatch ids
  // index the metadata chunk read most recently before it.
  RingBuilder A(4096), C(4096);
  A.workgroup(0, {0, 0, 0}, {1, 1, 1});
  A.load(0xA, 1);
  C.workgroup(1, {0, 0, 0}, {1, 1, 1});
  C.store(0xC, 2);
  TraceBuilder B;
  addSimpleMetadata(B).ring(A);
  B.metadata({{"first", {}, {}, {}}, {"second", {}, {}, {}}}, {0, 1}).ring(C);
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "");
  std::string Expected =
      simpleHeader() +
      "0000000000000000 | WORKGROUP dispatch(0 simple_mul 1x1x1) 0,0,0 "
      "pid:0\n"
      "0000000000000000 | LOAD  000000000000000A 1\n" +
      "\n" + kBanner + "// export[0]: first\n" + kBanner + "\n" + "\n" +
      kBanner + "// export[1]: second\n" + kBanner + "\n" + kBanner +
      "// dispatch site 0: first\n// dispatch site 1: second\n" + kBanner +
      "\n" +
      "0000000000000000 | WORKGROUP dispatch(1 second 1x1x1) 0,0,0 pid:0\n"
      "0000000000000000 | STORE 000000000000000C 2\n";
  EXPECT_EQ(R.Text, Expected);
}

TEST(Dump, EmptyFileIsEmptyTrace) {
  DumpResult R = dump({});
  EXPECT_EQ(R.Error, "");
  EXPECT_EQ(R.Text, "");
}

TEST(Dump, RecordsSpillingIntoPaddingAreRead) {
  // A 64-byte ring: the workgroup record at 48 spills 16 bytes past R.
  RingBuilder Ring(64);
  Ring.workgroup(0, {0, 0, 0}, {2, 1, 1});
  Ring.load(0x1, 1);
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1});
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  DumpResult R = dump(B.bytes());
  EXPECT_EQ(R.Error, "");
  EXPECT_NE(R.Text.find("0000000000000030 | WORKGROUP dispatch(0 simple_mul "
                        "2x1x1) 1,0,0 pid:0\n"),
            std::string::npos)
      << R.Text;
}

} // namespace
