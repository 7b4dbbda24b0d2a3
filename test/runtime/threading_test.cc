//===- threading_test.cc - Recording from many workers, under TSan --------===//
//
// Built with -fsanitize=thread: any data race between workers, the launcher
// and the writer fails the test.

#include "thread_ring.h"
#include "trace_writer.h"

#include "wgtrace/instrument.h"

#include "support/ScratchDirectory.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <tuple>
#include <vector>

using namespace wgtrace;

namespace {

const detail::FunctionInfo Functions[] = {{"sum_rows", "", "", ""}};
const detail::SiteInfo Sites[] = {{"sum_rows", "threading_test.cc:1"}};
detail::Module ThreadingModule(Functions, 1, Sites, 1);
detail::Module &wgtrace_module_ = ThreadingModule;

constexpr uint32_t kRows = 64;
constexpr uint32_t kColumns = 256;

void sumRows(const Workgroup &WG, const float *In, float *Out) {
  WGTRACE_WORKGROUP(WG, 0);
  float Sum = 0;
  for (uint32_t C = 0; C < kColumns; ++C)
    Sum += *detail::load(&In[WG.id[0] * kColumns + C]);
  *detail::store(&Out[WG.id[0]]) = Sum;
}

} // namespace

TEST(Threading, WorkersRecordEveryWorkgroupWithoutRaces) {
  setDevice(Device::LocalTask);
  std::vector<float> In(kRows * kColumns, 1.0f), Out(kRows);
  for (int Round = 0; Round < 3; ++Round)
    dispatch(detail::SiteRef{ThreadingModule.siteBase()}, sumRows,
             Grid{kRows, 1, 1}, In.data(), Out.data());
  for (float V : Out)
    EXPECT_EQ(V, float(kColumns));

  // Walk every ring: each workgroup record is followed by its own loads and
  // one store, all keyed to it.
  std::map<std::tuple<uint32_t, uint32_t>, int> Seen;
  std::atomic<uint64_t> Loads{0};
  runtime::forEachRing([&](runtime::ThreadRing &TR) {
    const runtime::ThreadRing &R = TR;
    uint64_t Head = R.head();
    ASSERT_LE(Head, R.size()) << "test ring wrapped; raise its size";
    uint64_t Key = 0;
    for (uint64_t Offset = 0; Offset < Head;) {
      const uint8_t *Record = R.Data + Offset;
      if (format::recordTag(Record) == uint8_t(format::Tag::Workgroup)) {
        format::WorkgroupRecord W = format::decodeWorkgroup(Record);
        if (W.DispatchId == ThreadingModule.siteBase())
          ++Seen[{W.Id[0], W.ProcessorId}];
        Key = Offset;
        Offset += format::kWorkgroupRecordSize;
        continue;
      }
      format::MemoryRecord M = format::decodeMemory(Record);
      EXPECT_EQ(M.WorkgroupOffset, Key);
      if (!M.IsStore)
        ++Loads;
      Offset += format::kMemoryRecordSize;
    }
  });
  std::map<uint32_t, int> PerRow;
  for (auto &[Key, Count] : Seen) {
    PerRow[std::get<0>(Key)] += Count;
    EXPECT_LT(std::get<1>(Key), 4u) << "processor id beyond WGTRACE_WORKERS";
  }
  EXPECT_EQ(PerRow.size(), kRows);
  for (auto &[Row, Count] : PerRow)
    EXPECT_EQ(Count, 3) << "row " << Row;
  EXPECT_EQ(Loads.load(), 3u * kRows * kColumns);

  std::string Path = wgtrace::testing::scratchPath("threading_test.bin");
  std::string Error;
  EXPECT_TRUE(runtime::writeTrace(Path, /*Report=*/false, &Error)) << Error;
  std::remove(Path.c_str());
}
