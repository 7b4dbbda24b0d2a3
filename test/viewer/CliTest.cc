//===- CliTest.cc - wgtrace-view's exit status and error line -------------===//

#include "CliRun.h"
#include "TraceBuilder.h"

#include "llvm/Config/llvm-config.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

TEST(Cli, DumpSucceeds) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.value(format::ValueType::UInt8, 0, 0xFF);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::string Path = writeTrace("good.bin", B.bytes());
  ViewRun R = view("dump " + Path);
  EXPECT_EQ(R.Status, 0);
  EXPECT_EQ(R.Err, "");
  EXPECT_NE(R.Out.find("| VALUE 0000 = 255\n"), std::string::npos) << R.Out;
  R = view("dump --iree-compat " + Path);
  EXPECT_NE(R.Out.find("| VALUE 0000 = 4294967295\n"), std::string::npos);
}

TEST(Cli, DamageExitsTwoWithOneErrorLineAfterTheGoodPart) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.load(0x40, 4);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::vector<uint8_t> Bytes = B.bytes();
  Bytes.resize(Bytes.size() - 100);
  std::string Path = writeTrace("truncated.bin", Bytes);
  ViewRun R = view("dump " + Path);
  EXPECT_EQ(R.Status, 2);
  EXPECT_EQ(R.Err, "wgtrace-view: error: " + Path +
                       ": offset 0xe8: chunk 1 (ring): truncated: "
                       "content_length 8192 but only 8092 bytes left in the "
                       "file (100 bytes missing)\n");
  EXPECT_NE(R.Out.find("// dispatch site 0: simple_mul"), std::string::npos);
}

// "-" is standard input, and a trace that comes through a pipe is read
// once: html, which reads its file on two threads, read a stream twice, and
// each reading got part of it (a whole trace was called damaged).
TEST(Cli, PipesAndStandardInputAreReadOnce) {
  // Larger than a pipe's buffer, so that two readers would share it out.
  RingBuilder Ring(1 << 20);
  for (uint32_t W = 0; W < 4; ++W) {
    Ring.workgroup(0, {W, 0, 0}, {4, 1, 1});
    for (uint64_t I = 0; I < 8000; ++I)
      Ring.load(0x10000 + W * 0x10000 + I * 4, 4);
  }
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  const std::string Trace = writeTrace("stdin", B.bytes());
  ASSERT_GT(B.bytes().size(), 256u << 10);

  ViewRun FromFile = view("summary " + Trace);
  ASSERT_EQ(FromFile.Status, 0) << FromFile.Err;
  ViewRun FromStdin = view("summary -", Trace);
  EXPECT_EQ(FromStdin.Status, 0) << FromStdin.Err;
  EXPECT_EQ(FromStdin.Out, FromFile.Out);

  // The page names its file: the copy is called stdin, as /dev/stdin is.
  const std::string FilePage = tempPath("file.html"),
                    PipePage = tempPath("pipe.html");
  ViewRun R = view("html -o " + FilePage + " " + Trace);
  ASSERT_EQ(R.Status, 0) << R.Err;
  for (int Round = 0; Round < 3; ++Round) {
    R = view("html -o " + PipePage + " /dev/stdin", Trace);
    EXPECT_EQ(R.Status, 0) << R.Err;
    EXPECT_EQ(R.Err, "");
    EXPECT_EQ(slurp(PipePage), slurp(FilePage));
  }
}

TEST(Cli, MissingFileExitsTwo) {
  ViewRun R = view("dump " + tempPath("does-not-exist.bin"));
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("wgtrace-view: error: "), std::string::npos);
}

TEST(Cli, BadWorkgroupFilterIsUsageError) {
  TraceBuilder B;
  addSimpleMetadata(B);
  std::string Path = writeTrace("meta.bin", B.bytes());
  ViewRun R = view("dump " + Path + " --workgroup 1,2");
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Err.find("--workgroup expects x,y,z"), std::string::npos);
}

TEST(Cli, RacesExitOneWhenFoundZeroWhenNot) {
  for (bool Racy : {true, false}) {
    RingBuilder Ring(4096);
    for (uint32_t X = 0; X < 2; ++X) {
      Ring.workgroup(0, {X, 0, 0}, {2, 1, 1});
      Ring.store(Racy ? 0x1000 : 0x1000 + 4 * X, 4);
    }
    TraceBuilder B;
    addSimpleMetadata(B).ring(Ring);
    std::string Path = writeTrace("races.bin", B.bytes());
    ViewRun R = view("races " + Path);
    EXPECT_EQ(R.Status, Racy ? 1 : 0) << R.Out << R.Err;
    EXPECT_EQ(R.Err, "");
    if (Racy) {
      EXPECT_NE(R.Out.find("write-write"), std::string::npos) << R.Out;
    }
  }
}

// A report over a trace that misses part of the run (a wrapped ring lost
// workgroups, or the source has untraced accesses) exits 3, so that a
// gate like "no races" does not pass on part of the run; a race found (1)
// and damage (2) take precedence; the dump, which only prints records,
// exits 0.
TEST(Cli, IncompleteTraceExitsThree) {
  for (bool Racy : {false, true}) {
    RingBuilder Ring(512);
    // Four workgroups of 256 bytes each in a 512-byte ring: two are lost.
    for (uint32_t X = 0; X < 4; ++X) {
      Ring.workgroup(0, {X, 0, 0}, {4, 1, 1});
      for (uint32_t I = 0; I < 14; ++I)
        Ring.store(Racy ? 0x1000 : 0x1000 + 64 * X + 4 * I, 4);
    }
    TraceBuilder B;
    addSimpleMetadata(B).ring(Ring);
    std::string Path = writeTrace("wrapped.bin", B.bytes());
    ViewRun R = view("races " + Path);
    EXPECT_EQ(R.Status, Racy ? 1 : 3) << R.Out << R.Err;
    EXPECT_NE(R.Out.find("lost"), std::string::npos) << R.Out;
    for (const char *Report : {"summary", "footprint", "cache", "export"}) {
      R = view(std::string(Report) + " " + Path);
      EXPECT_EQ(R.Status, 3) << Report << "\n" << R.Out << R.Err;
    }
    EXPECT_EQ(view("dump " + Path).Status, 0);
  }

  ExtensionSpec X;
  X.Untraced = {{"k.cc", 9, 3, "simple_mul", "M(c)", "it is in a macro"}};
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.store(0x1000, 4);
  TraceBuilder B;
  B.metadata({{"simple_mul", {}, {}, {}}}, {0}, &X).ring(Ring);
  std::string Path = writeTrace("untraced.bin", B.bytes());
  ViewRun R = view("summary " + Path);
  EXPECT_EQ(R.Status, 3) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("k.cc:9:3"), std::string::npos) << R.Out;
  R = view("diff " + Path + " " + Path);
  EXPECT_EQ(R.Status, 3) << R.Out << R.Err;
}

TEST(Cli, RacesOnDamageExitsTwo) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.store(0x1000, 4);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::vector<uint8_t> Bytes = B.bytes();
  Bytes.resize(Bytes.size() - 100);
  ViewRun R = view("races " + writeTrace("races-bad.bin", Bytes));
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("truncated"), std::string::npos);
}

TEST(Cli, CacheOptions) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1});
  Ring.load(0x1000, 4);
  Ring.load(0x1000, 4);
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::string Path = writeTrace("cache.bin", B.bytes());
  // The machine's levels by default: D1 and LL at least, named.
  ViewRun R = view("cache " + Path);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("caches: D1 "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("; LL "), std::string::npos) << R.Out;
  // sysfs files claim 4096 bytes and hold a few: read to their end.
  if (std::ifstream("/sys/devices/system/cpu/cpu0/cache/index0/level")) {
    EXPECT_EQ(R.Out.find("could not be read"), std::string::npos) << R.Out;
  }
  R = view("cache --l1 32k,8,64 --l2 1m,16,64 --ll 8m,16,64 " + Path);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("caches: D1 32768 bytes, 8 ways, 64-byte lines (64 "
                       "sets); L2 1048576 bytes, 16 ways, 64-byte lines (1024 "
                       "sets); LL 8388608 bytes, 16 ways, 64-byte lines (8192 "
                       "sets)\n"),
            std::string::npos)
      << R.Out;
  EXPECT_EQ(R.Out.find("note:"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("D1mr       D1mw       L2mr       L2mw       LLmr "
                       "      LLmw\n"),
            std::string::npos)
      << R.Out;
  // Sizes as the runtime spells them (settings_syntax.h); no L2.
  R = view("cache --l1 64KiB,4,32 --l2 none --ll 1M,16,64 " + Path);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_NE(R.Out.find("caches: D1 65536 bytes, 4 ways, 32-byte lines (512 "
                       "sets); LL 1048576"),
            std::string::npos)
      << R.Out;
  EXPECT_EQ(R.Out.find("L2mr"), std::string::npos) << R.Out;
  R = view("cache --l1 3000,8,64 " + Path);
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Err, "wgtrace-view: error: --l1 '3000,8,64': the number of sets "
                   "(size / (ways * line size)) is not a whole power of two\n");
  R = view("cache --ll 32kb,8,64 " + Path);
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Err, "wgtrace-view: error: --ll '32kb,8,64': the size is not a "
                   "size; expected bytes, or with a k/kib, m/mib or g/gib "
                   "suffix in any case (e.g. 64k, 16m, 16MiB)\n");
  R = view("cache --l2 8,64 " + Path);
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Err, "wgtrace-view: error: --l2 '8,64': expected SIZE,WAYS,LINE "
                   "(e.g. 32k,8,64)\n");
  // The single-level options are refused with those that replaced them,
  // by cache and annotate alike.
  for (std::string Report : {"cache", "annotate"})
    for (const char *Old :
         {"--level l2", "--cache-size 1M", "--ways 4", "--line-size 128"}) {
      R = view(Report + " " + Old + " " + Path);
      EXPECT_EQ(R.Status, 1) << Report << " " << Old;
      std::string Name(Old, std::strchr(Old, ' '));
      EXPECT_NE(R.Err.find(Report + " " + Name + " is gone: " + Report +
                           " models D1, L2 and LL in one pass; give each "
                           "level as --l1, --l2 or --ll SIZE,WAYS,LINE"),
                std::string::npos)
          << Report << " " << Old << ": " << R.Err;
    }
  // annotate parses the levels as cache does.
  R = view("annotate --l1 3000,8,64 " + Path);
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Err, "wgtrace-view: error: --l1 '3000,8,64': the number of sets "
                   "(size / (ways * line size)) is not a whole power of two\n");
  // 0 once meant the default without a word.
  R = view("summary --line-size 0 " + Path);
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Err, "wgtrace-view: error: --line-size 0 is not a power of "
                   "two\n");
}

TEST(Cli, SortNamesTheReportsColumns) {
  ViewRun R = view("cache --l2 1m,16,64 --sort loads x.bin");
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Err, "wgtrace-view: error: --sort loads: cache has no such "
                   "column; it sorts by accesses, reads, writes, D1mr, D1mw, "
                   "L2mr, L2mw, LLmr, LLmw\n");
  R = view("summary --top 0 x.bin");
  EXPECT_EQ(R.Status, 1);
  EXPECT_EQ(R.Err, "wgtrace-view: error: --top 0 keeps no row; give at "
                   "least 1\n");
  for (const char *Subcommand : {"summary", "cache"}) {
    R = view(std::string(Subcommand) + " --help");
    EXPECT_NE(R.Out.find("--sort=<column>"), std::string::npos) << Subcommand;
    EXPECT_NE(R.Out.find("--top=<N>"), std::string::npos) << Subcommand;
  }
}

// Options other libraries register (LLVM's --threads) were hidden but
// accepted, and did nothing. --threads is now the viewer's own (every
// subcommand takes it, ThreadsTest.cc); another subcommand's option is
// refused.
TEST(Cli, OnlyTheToolsOwnOptionsAreAccepted) {
  for (const char *Args :
       {"convert --iree --json x.bin", "html --json x.bin"}) {
    ViewRun R = view(Args);
    EXPECT_EQ(R.Status, 1) << Args;
    EXPECT_NE(R.Err.find("Unknown command line argument"), std::string::npos)
        << Args << ": " << R.Err;
  }
}

TEST(Cli, VersionNamesTheToolTheProjectAndLlvm) {
  ViewRun R = view("--version");
  EXPECT_EQ(R.Status, 0);
  EXPECT_EQ(R.Out, std::string("wgtrace-view ") + WGTRACE_PROJECT_VERSION +
                       " (LLVM " + LLVM_VERSION_STRING + ")\n");
}

/// Every line of \p Err starts with "wgtrace-view: error: " or
/// "wgtrace-view: note: ", and the first is an error.
void expectOnePrefix(const std::string &Err) {
  ASSERT_FALSE(Err.empty());
  EXPECT_EQ(Err.rfind("wgtrace-view: error: ", 0), 0u) << Err;
  std::istringstream Lines(Err);
  for (std::string Line; std::getline(Lines, Line);) {
    bool Error = Line.rfind("wgtrace-view: error: ", 0) == 0;
    bool Note = Line.rfind("wgtrace-view: note: ", 0) == 0;
    EXPECT_TRUE(Error || Note) << Line;
    EXPECT_EQ(Line.find("wgtrace-view: ", 1), std::string::npos) << Line;
  }
}

TEST(Cli, CommandLineErrorsHaveOnePrefix) {
  for (const char *Args :
       {"dump --no-such-option x.bin", "summary --line-size=many x.bin", "dump",
        "no-such-subcommand", ""}) {
    ViewRun R = view(Args);
    EXPECT_EQ(R.Status, 1) << Args;
    EXPECT_EQ(R.Out, "") << Args;
    expectOnePrefix(R.Err);
  }
  ViewRun R = view("summary --line-size=many x.bin");
  EXPECT_EQ(R.Err, "wgtrace-view: error: for the --line-size option: 'many' "
                   "value invalid for uint argument!\n");
}

TEST(Cli, HelpShowsEveryOptionWithItsDefault) {
  struct Expected {
    const char *Subcommand;
    std::vector<const char *> Lines;
  };
  for (const Expected &E : std::vector<Expected>{
           {"dump",
            {"--dispatch=<long>", "(default: all)", "--iree-compat",
             "--workgroup=<x,y,z>", "--threads=<N>"}},
           {"summary", {"--json", "--line-size=<uint>", "default: 64)"}},
           {"races", {"--json", "--limit=<ulong>", "default: 100)"}},
           {"footprint", {"--json", "--threads=<N>"}},
           {"cache",
            {"--cold", "--json", "--l1=<size,ways,line>",
             "--l2=<size,ways,line|none>", "--ll=<size,ways,line>"}},
           {"export",
            {"--format=<string>", "(default: chrome)", "-o <file>",
             "--threads=<N>"}},
           {"html", {"--max-points=<ulong>", "(default: 2000000)", "-o "}}}) {
    ViewRun R = view(std::string(E.Subcommand) + " --help");
    EXPECT_EQ(R.Status, 0) << E.Subcommand;
    for (const char *Line : E.Lines)
      EXPECT_NE(R.Out.find(Line), std::string::npos)
          << E.Subcommand << " --help lacks " << Line << ":\n"
          << R.Out;
  }
  ViewRun R = view("--help");
  for (const char *Subcommand :
       {"cache", "dump", "export", "footprint", "html", "races", "summary"})
    EXPECT_NE(R.Out.find(std::string("  ") + Subcommand + " "),
              std::string::npos)
        << Subcommand;
  EXPECT_NE(R.Out.find("--version"), std::string::npos);
}

} // namespace
