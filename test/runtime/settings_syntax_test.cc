//===- settings_syntax_test.cc - One spelling of sizes, switches, counts --===//

#include "wgtrace/settings_syntax.h"

#include <gtest/gtest.h>

using wgtrace::settings::kDefaultCompressionLevel;
using wgtrace::settings::parseCompression;
using wgtrace::settings::parseCount;
using wgtrace::settings::parseSize;
using wgtrace::settings::parseSwitch;

TEST(SettingsSyntax, SizesInBinaryUnitsAnyCase) {
  EXPECT_EQ(parseSize("0"), 0u);
  EXPECT_EQ(parseSize("4096"), 4096u);
  for (const char *Text : {"64k", "64K", "64kib", "64KiB", "64KIB"})
    EXPECT_EQ(parseSize(Text), uint64_t{64} << 10) << Text;
  for (const char *Text : {"16m", "16M", "16mib", "16MiB"})
    EXPECT_EQ(parseSize(Text), uint64_t{16} << 20) << Text;
  for (const char *Text : {"2g", "2G", "2gib", "2GiB"})
    EXPECT_EQ(parseSize(Text), uint64_t{2} << 30) << Text;
}

TEST(SettingsSyntax, SizesRefusedWhenNotWholeOrTooLarge) {
  for (const char *Text : {"", "k", "16mb", "16 m", " 16m", "16m ", "-1", "+4",
                           "1.5m", "0x10", "16t", "16kk", "lots"})
    EXPECT_FALSE(parseSize(Text)) << Text;
  EXPECT_EQ(parseSize("18446744073709551615"), UINT64_MAX);
  EXPECT_FALSE(parseSize("18446744073709551616"));
  EXPECT_EQ(parseSize("17179869183g"), uint64_t{17179869183} << 30);
  EXPECT_FALSE(parseSize("17179869184g"));
}

TEST(SettingsSyntax, SwitchesInEverySpelling) {
  for (const char *On : {"1", "true", "True", "TRUE", "yes", "Yes", "on", "ON"})
    EXPECT_EQ(parseSwitch(On), true) << On;
  for (const char *Off : {"0", "false", "False", "no", "NO", "off", "Off"})
    EXPECT_EQ(parseSwitch(Off), false) << Off;
  for (const char *Neither : {"", "2", "y", "n", "enable", "true ", "01"})
    EXPECT_FALSE(parseSwitch(Neither)) << Neither;
}

TEST(SettingsSyntax, CountsWithinTheirRange) {
  EXPECT_EQ(parseCount("1", 1, 10), 1u);
  EXPECT_EQ(parseCount("10", 1, 10), 10u);
  EXPECT_FALSE(parseCount("0", 1, 10));
  EXPECT_FALSE(parseCount("11", 1, 10));
  EXPECT_FALSE(parseCount("", 0, 10));
  EXPECT_FALSE(parseCount("-1", 0, 10));
  EXPECT_FALSE(parseCount("1k", 0, 10000));
  EXPECT_EQ(parseCount("18446744073709551615", 0, UINT64_MAX), UINT64_MAX);
  EXPECT_FALSE(parseCount("18446744073709551616", 0, UINT64_MAX));
}

TEST(SettingsSyntax, CompressionsZstdLevelsOrNone) {
  EXPECT_EQ(parseCompression("zstd"), kDefaultCompressionLevel);
  EXPECT_EQ(parseCompression("ZSTD"), kDefaultCompressionLevel);
  EXPECT_EQ(parseCompression("zstd:1"), 1);
  EXPECT_EQ(parseCompression("zstd:19"), 19);
  for (const char *None : {"none", "None", "off", "0", "false", "no"})
    EXPECT_EQ(parseCompression(None), 0) << None;
  for (const char *Bad : {"", "zstd:", "zstd:0", "zstd:20", "zstd:-1",
                          "zstd:3x", "gzip", "on", "1", "zstd 3", "zstd:3:4"})
    EXPECT_FALSE(parseCompression(Bad)) << Bad;
}
