//===- OutputPathTest.cc - wgtrace-view -o as users name its output -------===//
//
// -o writes a symlink's target (the link stays), a FIFO or a device in
// place (never replaced by a file), /dev/stdout and "-" to standard
// output, and replaces a file atomically.
//
//===----------------------------------------------------------------------===//

#include "CliRun.h"
#include "TraceBuilder.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

std::string trace() {
  RingBuilder Ring(4096);
  for (uint32_t X = 0; X < 2; ++X) {
    Ring.workgroup(0, {X, 0, 0}, {2, 1, 1}, X);
    Ring.load(0x1000 + 64 * X, 4);
  }
  TraceBuilder B;
  addSimpleMetadata(B, 1).ring(Ring);
  return writeTrace("output-path.bin", B.bytes());
}

bool isLink(const std::string &Path) {
  struct stat S;
  return lstat(Path.c_str(), &S) == 0 && S_ISLNK(S.st_mode);
}

} // namespace

TEST(OutputPath, SymlinkTargetIsWrittenAndTheLinkStays) {
  std::string Trace = trace();
  ViewRun Expected = view("summary " + Trace);
  ASSERT_EQ(Expected.Status, 0) << Expected.Err;
  std::string Target = tempPath("report-target.txt");
  std::string Link = tempPath("report-link.txt");
  std::remove(Link.c_str());
  std::ofstream(Target) << "previous";
  ASSERT_EQ(symlink(Target.c_str(), Link.c_str()), 0);
  ViewRun R = view("summary " + Trace + " -o " + Link);
  EXPECT_EQ(R.Status, 0) << R.Err;
  EXPECT_TRUE(isLink(Link)) << "the link was replaced by a file";
  EXPECT_EQ(wgtrace::testing::slurp(Target), Expected.Out);
  std::remove(Link.c_str());
  std::remove(Target.c_str());
}

TEST(OutputPath, FifoIsWrittenInPlace) {
  std::string Trace = trace();
  ViewRun Expected = view("summary " + Trace);
  std::string Fifo = tempPath("report.fifo");
  std::remove(Fifo.c_str());
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0644), 0);
  // Held open for writing until the viewer is done, so that the reader
  // sees the end even if the viewer never opened the FIFO.
  int Keep = open(Fifo.c_str(), O_RDWR);
  ASSERT_GE(Keep, 0);
  std::string Got;
  std::thread Reader([&] {
    int Fd = open(Fifo.c_str(), O_RDONLY);
    char Buffer[4096];
    for (ssize_t N; (N = read(Fd, Buffer, sizeof(Buffer))) > 0;)
      Got.append(Buffer, size_t(N));
    close(Fd);
  });
  ViewRun R = view("summary " + Trace + " -o " + Fifo);
  close(Keep);
  Reader.join();
  EXPECT_EQ(R.Status, 0) << R.Err;
  struct stat S;
  ASSERT_EQ(lstat(Fifo.c_str(), &S), 0);
  EXPECT_TRUE(S_ISFIFO(S.st_mode)) << "the FIFO was replaced by a file";
  EXPECT_EQ(Got, Expected.Out);
  std::remove(Fifo.c_str());
}

// /dev/stdout is a link to /proc/self/fd/1: a private one, so that a
// viewer that replaced it could not replace the system's.
TEST(OutputPath, DevStdoutAndDashAreStandardOutput) {
  std::string Trace = trace();
  ViewRun Expected = view("summary " + Trace);
  std::string Stdout = tempPath("stdout");
  std::remove(Stdout.c_str());
  ASSERT_EQ(symlink("/proc/self/fd/1", Stdout.c_str()), 0);
  for (const std::string &Name : {Stdout, std::string("-")}) {
    ViewRun R = view("summary " + Trace + " -o " + Name);
    EXPECT_EQ(R.Status, 0) << Name << ": " << R.Err;
    EXPECT_EQ(R.Out, Expected.Out) << Name;
  }
  EXPECT_TRUE(isLink(Stdout));
  std::remove(Stdout.c_str());
}

// A private copy of /dev/null: the test must not risk the system's.
TEST(OutputPath, CharacterDeviceIsWrittenInPlace) {
  std::string Device = tempPath("null");
  std::remove(Device.c_str());
  if (mknod(Device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "cannot make a device node here (needs root)";
  ViewRun R = view("summary " + trace() + " -o " + Device);
  EXPECT_EQ(R.Status, 0) << R.Err;
  struct stat S;
  ASSERT_EQ(lstat(Device.c_str(), &S), 0);
  EXPECT_TRUE(S_ISCHR(S.st_mode)) << "the device was replaced by a file";
  std::remove(Device.c_str());
}
