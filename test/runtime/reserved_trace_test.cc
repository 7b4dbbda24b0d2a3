//===- reserved_trace_test.cc - Reserved statements in whole traces ------===//
//
// trace_modes_driver's checked3 and reserved3 make the same accesses, one
// through the checked access forms, one through WGTRACE_RESERVE(3) and the
// reserved forms (built with WGTRACE_CHECK_RESERVATIONS=1): a wrapped ring
// and a stream of small buffers decode to the same records, and the
// reservations crossed part boundaries (their filler marks are there).
//
//===----------------------------------------------------------------------===//

#include "driver_process.h"

#include "wgtrace/format.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace wgtrace;
using namespace wgtrace::viewer;
using namespace wgtrace::test;

namespace {

/// Per workgroup id, its memory records in order (a workgroup split over
/// continuations or stream chunks has its pieces appended), and the marks
/// of no operation in the trace.
struct Accesses {
  std::map<uint32_t, std::vector<std::pair<bool, uint64_t>>> PerWorkgroup;
  uint64_t Fillers = 0;
  bool Ok = false;
  std::string Error;
};

class AccessCollector : public AnalysisTool {
public:
  explicit AccessCollector(Accesses &Out) : Out(Out) {}
  void record(const Record &R) override {
    if (R.Tag == format::Tag::Workgroup) {
      Current = &Out.PerWorkgroup[R.Workgroup->Record.Id[0]];
      return;
    }
    if (R.Tag == format::Tag::Value &&
        R.Value.Type == format::ValueType::Atomic &&
        R.Value.Bits == uint64_t(format::AtomicOp::None))
      ++Out.Fillers;
    if ((R.Tag == format::Tag::MemoryLoad ||
         R.Tag == format::Tag::MemoryStore) &&
        Current)
      Current->push_back({R.Tag == format::Tag::MemoryStore, R.Memory.Address});
  }

private:
  Accesses &Out;
  std::vector<std::pair<bool, uint64_t>> *Current = nullptr;
};

Accesses accessesOf(const std::string &Path) {
  Accesses A;
  llvm::Expected<TraceFile> File = TraceFile::open(Path);
  if (!File) {
    A.Error = llvm::toString(File.takeError());
    return A;
  }
  AccessCollector C(A);
  TraceReader Reader(*File, RingMode::WrapAware);
  AnalysisTool *Tools[] = {&C};
  if (llvm::Error E = Reader.run(Tools)) {
    A.Error = llvm::toString(std::move(E));
    return A;
  }
  A.Ok = true;
  return A;
}

/// Makes the addresses of \p A relative to the start of the driver's data
/// (a heap block, at another address in each process): row Id of 50
/// floats begins at Id * 200 bytes, and a whole workgroup's first record is
/// its row's first float.
void relativeToData(Accesses &A) {
  uint64_t Base = 0;
  bool Found = false;
  for (const auto &[Id, List] : A.PerWorkgroup)
    if (!Found && List.size() == 150) {
      Base = List.front().second - uint64_t(Id) * 200;
      Found = true;
    }
  for (auto &[Id, List] : A.PerWorkgroup)
    for (std::pair<bool, uint64_t> &Access : List)
      Access.second -= Base;
}

/// Runs \p Scenario (checked3 or reserved3) of 300 workgroups of 50
/// floats with \p Env and decodes its trace.
Accesses run(const std::string &Scenario, const std::string &Name,
             const std::vector<std::string> &Env) {
  std::string Path = tracePath(Name);
  ChildResult R =
      runDriver({Scenario, "300", "50"}, with(Env, {"WGTRACE_FILE=" + Path}));
  EXPECT_EQ(R.ExitCode, 0) << R.Stderr;
  Accesses A = accessesOf(Path);
  relativeToData(A);
  return A;
}

} // namespace

TEST(ReservedTrace, StreamModeHoldsTheCheckedRecordsEveryOne) {
  // 300 x 50 x 3 records x 16 bytes = 720 KiB through 4 KiB buffers.
  std::vector<std::string> Stream = {"WGTRACE_MODE=stream",
                                     "WGTRACE_BUFFER_SIZE=4kib"};
  Accesses Checked = run("checked3", "checked3_stream", Stream);
  Accesses Reserved = run("reserved3", "reserved3_stream", Stream);
  ASSERT_TRUE(Checked.Ok) << Checked.Error;
  ASSERT_TRUE(Reserved.Ok) << Reserved.Error;
  ASSERT_EQ(Checked.PerWorkgroup.size(), 300u);
  for (const auto &[Id, List] : Checked.PerWorkgroup)
    EXPECT_EQ(List.size(), 150u) << "workgroup " << Id;
  EXPECT_EQ(Reserved.PerWorkgroup, Checked.PerWorkgroup);
  // Buffers of 4 KiB hold 255 slots after their copy of the workgroup's
  // record: statements of three slots crossed their ends with filler.
  EXPECT_EQ(Checked.Fillers, 0u);
  EXPECT_GT(Reserved.Fillers, 0u);
}

TEST(ReservedTrace, AWrappedRingKeepsTheCheckedRecordsOfItsWorkgroups) {
  std::vector<std::string> Ring = {"WGTRACE_BUFFER_SIZE=64kib"};
  Accesses Checked = run("checked3", "checked3_ring", Ring);
  Accesses Reserved = run("reserved3", "reserved3_ring", Ring);
  ASSERT_TRUE(Checked.Ok) << Checked.Error;
  ASSERT_TRUE(Reserved.Ok) << Reserved.Error;
  // The ring wrapped: the oldest workgroups are gone from both, a few more
  // from the reserved trace (its filler takes room). Every workgroup the
  // reserved trace keeps whole has the checked trace's records.
  EXPECT_LT(Checked.PerWorkgroup.size(), 300u);
  size_t Compared = 0;
  for (const auto &[Id, List] : Reserved.PerWorkgroup) {
    auto It = Checked.PerWorkgroup.find(Id);
    if (List.size() != 150u || It == Checked.PerWorkgroup.end())
      continue;
    EXPECT_EQ(List, It->second) << "workgroup " << Id;
    ++Compared;
  }
  EXPECT_GT(Compared, 10u);
  EXPECT_GT(Reserved.Fillers, 0u);
}
