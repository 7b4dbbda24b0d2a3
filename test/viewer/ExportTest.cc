//===- ExportTest.cc - `export`: Chrome trace events, CSV, JSON Lines -----===//

#include "DecodeHelpers.h"
#include "TraceBuilder.h"
#include "output/ChromeTraceTool.h"
#include "output/RecordTableTool.h"
#include "reader/TraceReader.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace wgtrace;
using namespace wgtrace::testing;
using namespace wgtrace::viewer;

namespace {

std::string chrome(const std::vector<uint8_t> &Bytes) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  ChromeTraceTool Tool(OS);
  decodeWith(Tool, Bytes);
  return Out;
}

std::string table(const std::vector<uint8_t> &Bytes,
                  RecordTableTool::Format F) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  RecordTableTool Tool(OS, F);
  decodeWith(Tool, Bytes);
  OS.flush();
  return Out;
}

std::vector<uint8_t>
timingChunk(const std::vector<format::TimingRecord> &Entries) {
  std::vector<uint8_t> Bytes(Entries.size() * sizeof(format::TimingRecord));
  if (!Bytes.empty())
    std::memcpy(Bytes.data(), Entries.data(), Bytes.size());
  return Bytes;
}

/// Two workers. Worker 0 runs (0,0,0) with 2 records after its WORKGROUP
/// record, then (2,0,0) with 1; worker 1 runs (1,0,0) with 3.
struct TwoWorkers {
  RingBuilder W0{4096}, W1{4096};
  uint64_t K00, K20, K10;
  TwoWorkers() {
    K00 = W0.workgroup(0, {0, 0, 0}, {3, 1, 1}, 0);
    W0.load(0x1000, 4);
    W0.store(0x2000, 4);
    K20 = W0.workgroup(0, {2, 0, 0}, {3, 1, 1}, 0);
    W0.load(0x1008, 4);
    K10 = W1.workgroup(0, {1, 0, 0}, {3, 1, 1}, 1);
    W1.load(0x1004, 4);
    W1.value(format::ValueType::Float32, 0, 0x3FC00000);
    W1.print("x");
  }
};

const llvm::json::Object *event(const llvm::json::Array &Events,
                                llvm::StringRef Name) {
  for (const llvm::json::Value &V : Events)
    if (V.getAsObject()->getString("name") == Name)
      return V.getAsObject();
  return nullptr;
}

TEST(ExportChrome, RecordOrderWithoutTimingChunks) {
  TwoWorkers T;
  TraceBuilder B;
  addSimpleMetadata(B).ring(T.W0).ring(T.W1);
  std::string Out = chrome(B.bytes());
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << Out;
  const llvm::json::Array &Events = *V->getAsObject()->getArray("traceEvents");
  const llvm::json::Object *E00 = event(Events, "simple_mul (0,0,0)");
  const llvm::json::Object *E20 = event(Events, "simple_mul (2,0,0)");
  const llvm::json::Object *E10 = event(Events, "simple_mul (1,0,0)");
  ASSERT_TRUE(E00 && E20 && E10) << Out;
  EXPECT_EQ(E00->getString("ph"), "X");
  // Each processor's records are counted from 0: 1 us per record.
  EXPECT_EQ(E00->getInteger("ts"), 0);
  EXPECT_EQ(E00->getInteger("dur"), 3);
  EXPECT_EQ(E20->getInteger("ts"), 3);
  EXPECT_EQ(E20->getInteger("dur"), 2);
  EXPECT_EQ(E10->getInteger("ts"), 0);
  EXPECT_EQ(E10->getInteger("dur"), 4);
  EXPECT_EQ(E10->getInteger("tid"), 1);
  EXPECT_EQ(E10->getObject("args")->getInteger("values"), 1);
  EXPECT_EQ(E00->getObject("args")->getInteger("stores"), 1);
  const llvm::json::Object *Thread = nullptr;
  for (const llvm::json::Value &E : Events)
    if (E.getAsObject()->getString("name") == "thread_name" &&
        E.getAsObject()->getInteger("tid") == 1)
      Thread = E.getAsObject();
  ASSERT_TRUE(Thread);
  EXPECT_EQ(Thread->getObject("args")->getString("name"), "processor 1");
  EXPECT_NE(Out.find("record order"), std::string::npos);
}

TEST(ExportChrome, RealTimesFromTimingChunks) {
  // Times in ns; the earliest start becomes 0. (2,0,0) has no entry: it is
  // left out and counted.
  TwoWorkers T;
  TraceBuilder B;
  addSimpleMetadata(B)
      .ring(T.W0)
      .chunk(0x8001, timingChunk({{T.K00, 5000, 7500, 0, 0}}))
      .ring(T.W1)
      .chunk(0x8001,
             timingChunk({{T.K10, 6000, 16000, 1, 0}, {0x777, 1, 2, 1, 0}}));
  std::string Out = chrome(B.bytes());
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Out);
  ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << Out;
  const llvm::json::Object *Root = V->getAsObject();
  const llvm::json::Array &Events = *Root->getArray("traceEvents");
  const llvm::json::Object *E00 = event(Events, "simple_mul (0,0,0)");
  const llvm::json::Object *E10 = event(Events, "simple_mul (1,0,0)");
  ASSERT_TRUE(E00 && E10);
  EXPECT_EQ(event(Events, "simple_mul (2,0,0)"), nullptr);
  EXPECT_EQ(E00->getNumber("ts"), 0.0);
  EXPECT_EQ(E00->getNumber("dur"), 2.5);
  EXPECT_EQ(E10->getNumber("ts"), 1.0);
  EXPECT_EQ(E10->getNumber("dur"), 10.0);
  EXPECT_EQ(
      Root->getObject("otherData")->getInteger("workgroups_without_times"), 1);
}

TEST(ExportChrome, TimingChunkAfterMetadataIsIgnored) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {0, 0, 0}, {1, 1, 1}, 0);
  TraceBuilder B;
  addSimpleMetadata(B)
      .chunk(0x8001, timingChunk({{0, 10, 20, 0, 0}}))
      .ring(Ring);
  std::string Out = chrome(B.bytes());
  EXPECT_NE(Out.find("record order"), std::string::npos) << Out;
}

TEST(ExportTable, CsvGolden) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {1, 2, 3}, {4, 4, 4}, 5);
  Ring.load(0x7F0000001000, 4);
  Ring.store(0x7F0000002000, 8);
  Ring.value(format::ValueType::Float32, 0, 0x3FC00000); // 1.5
  Ring.value(format::ValueType::UInt8, 1, 0xFF);
  Ring.value(format::ValueType::SInt32, 2, 0xFFFFFFFF);
  Ring.value(format::ValueType::Float16, 3, 0xBC00); // -1
  Ring.print("a, \"b\"");
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  EXPECT_EQ(table(B.bytes(), RecordTableTool::Format::Csv),
            "chunk,offset,kind,wg_x,wg_y,wg_z,pid,site,function,address,"
            "length,value_type,value,workgroup,file,atomic,beginning_lost,"
            "source,buffer,atomic_op\n"
            "1,0,workgroup,1,2,3,5,0,simple_mul,,,,,0,,,0,,,\n"
            "1,32,load,1,2,3,5,0,simple_mul,139637976731648,4,,,0,,0,,,,none\n"
            "1,48,store,1,2,3,5,0,simple_mul,139637976735744,8,,,0,,0,,,,none\n"
            "1,64,value,1,2,3,5,0,simple_mul,,,f32,1.5,0,,,,,,\n"
            "1,80,value,1,2,3,5,0,simple_mul,,,u8,255,0,,,,,,\n"
            "1,96,value,1,2,3,5,0,simple_mul,,,i32,-1,0,,,,,,\n"
            "1,112,value,1,2,3,5,0,simple_mul,,,f16,-1,0,,,,,,\n"
            "1,128,print,1,2,3,5,0,simple_mul,,,,\"a, \"\"b\"\"\",0,,,,,,\n");
}

TEST(ExportTable, JsonLines) {
  RingBuilder Ring(4096);
  Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 0);
  Ring.load(0x1000, 4);
  Ring.value(format::ValueType::Float64, 0, 0x7FF8000000000000); // NaN
  Ring.value(format::ValueType::SInt64, 1, uint64_t(-7));
  Ring.print("line\nbreak");
  TraceBuilder B;
  addSimpleMetadata(B).ring(Ring);
  std::string Out = table(B.bytes(), RecordTableTool::Format::JsonLines);
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(Out).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(Lines.size(), 5u) << Out;
  std::vector<llvm::json::Value> Rows;
  for (llvm::StringRef L : Lines) {
    llvm::Expected<llvm::json::Value> V = llvm::json::parse(L);
    ASSERT_TRUE(bool(V)) << llvm::toString(V.takeError()) << L.str();
    Rows.push_back(std::move(*V));
  }
  EXPECT_EQ(Rows[0].getAsObject()->getString("kind"), "workgroup");
  EXPECT_EQ((*Rows[0].getAsObject()->getArray("wg"))[0].getAsInteger(), 1);
  EXPECT_EQ(Rows[1].getAsObject()->getInteger("address"), 0x1000);
  EXPECT_EQ(Rows[1].getAsObject()->getInteger("length"), 4);
  EXPECT_EQ(Rows[2].getAsObject()->getString("value"), "nan");
  EXPECT_EQ(Rows[3].getAsObject()->getInteger("value"), -7);
  EXPECT_EQ(Rows[4].getAsObject()->getString("value"), "line\nbreak");
}

TEST(ExportTable, ValueNumbers) {
  using VT = format::ValueType;
  EXPECT_EQ(valueNumber(VT::SInt8, 0x80), "-128");
  EXPECT_EQ(valueNumber(VT::UInt16, 0xFFFF), "65535");
  EXPECT_EQ(valueNumber(VT::Float16, 0x3C00), "1");
  EXPECT_EQ(valueNumber(VT::Float16, 0x0001), "5.960464477539063e-08");
  EXPECT_EQ(valueNumber(VT::Float16, 0x7C00), "inf");
  EXPECT_EQ(valueNumber(VT::BFloat16, 0x3FC0), "1.5");
  EXPECT_EQ(valueNumber(VT::Float32, 0x3DCCCCCD), "0.1");
  EXPECT_EQ(valueNumber(VT::Float64, 0x3FB999999999999A), "0.1");
  EXPECT_EQ(valueNumber(VT::Pointer, 0x10), "16");
}

} // namespace
