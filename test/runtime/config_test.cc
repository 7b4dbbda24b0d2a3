//===- config_test.cc - Parsing the runtime's environment -----------------===//

#include "config.h"

#include <gtest/gtest.h>

using wgtrace::runtime::parseBufferSize;
using wgtrace::runtime::parseCount;

TEST(Config, BufferSizesWithSuffixes) {
  std::string Error;
  EXPECT_EQ(parseBufferSize("16mib", &Error), uint64_t{16} << 20);
  EXPECT_EQ(parseBufferSize("256MiB", &Error), uint64_t{256} << 20);
  EXPECT_EQ(parseBufferSize("2gib", &Error), uint64_t{2} << 30);
  EXPECT_EQ(parseBufferSize("64kib", &Error), uint64_t{64} << 10);
  EXPECT_EQ(parseBufferSize("8192", &Error), 8192u);
  // The viewer's spellings too (settings_syntax.h): one rule everywhere.
  EXPECT_EQ(parseBufferSize("16m", &Error), uint64_t{16} << 20);
  EXPECT_EQ(parseBufferSize("16M", &Error), uint64_t{16} << 20);
  EXPECT_EQ(parseBufferSize("64k", &Error), uint64_t{64} << 10);
  EXPECT_EQ(parseBufferSize("1G", &Error), uint64_t{1} << 30);
}

TEST(Config, BadBufferSizesSayWhy) {
  std::string Error;
  EXPECT_FALSE(parseBufferSize("15mib", &Error));
  EXPECT_EQ(Error, "is not a power of two");
  EXPECT_FALSE(parseBufferSize("lots", &Error));
  EXPECT_EQ(Error, "is not a size");
  EXPECT_FALSE(parseBufferSize("16 mib", &Error));
  EXPECT_FALSE(parseBufferSize("", &Error));
  EXPECT_FALSE(parseBufferSize("16mb", &Error));
  EXPECT_FALSE(parseBufferSize("1kib", &Error));
  EXPECT_EQ(Error, "is smaller than 4kib");
  EXPECT_FALSE(parseBufferSize("99999999999999999", &Error));
}

TEST(Config, WorkerCounts) {
  EXPECT_EQ(parseCount("2"), 2u);
  EXPECT_FALSE(parseCount("0"));
  EXPECT_FALSE(parseCount("-1"));
  EXPECT_FALSE(parseCount("two"));
  EXPECT_FALSE(parseCount(""));
  EXPECT_EQ(parseCount("999999"), 999999u);
  EXPECT_FALSE(parseCount("1000000"));
  EXPECT_FALSE(parseCount("99999999999999999999999"));
}
