//===- IreeConvertTool.cc -------------------------------------------------===//

#include "output/IreeConvertTool.h"

#include "analyses/HugePages.h"

#include "wgtrace/dispatch_instrument_generated.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace wgtrace::viewer {

void IreeConvertTool::chunk(uint16_t Type, ArrayRef<uint8_t> Content) {
  format::ChunkHeader H{format::kChunkMagic, Type, 0, Content.size()};
  OS.write(reinterpret_cast<const char *>(&H), sizeof(H));
  OS.write(reinterpret_cast<const char *>(Content.data()), Content.size());
  static const char Zero[format::kChunkAlignment] = {};
  OS.write(Zero, format::alignUp(Content.size(), format::kChunkAlignment) -
                     Content.size());
}

void IreeConvertTool::metadata(const Metadata &M, const ChunkLocation &Where) {
  (void)Where;
  flatbuffers::FlatBufferBuilder FBB;
  auto Str = [&](const std::optional<StringRef> &S) {
    return S ? FBB.CreateString(S->data(), S->size())
             : flatbuffers::Offset<flatbuffers::String>();
  };
  std::vector<flatbuffers::Offset<fb::DispatchFunctionDef>> Functions;
  Functions.reserve(M.Functions.size());
  for (const FunctionInfo &F : M.Functions) {
    auto Name = Str(F.Name), Target = Str(F.Target), Layout = Str(F.Layout),
         Source = Str(F.Source);
    Functions.push_back(
        fb::CreateDispatchFunctionDef(FBB, Name, Target, Layout, Source));
  }
  std::vector<flatbuffers::Offset<fb::DispatchSiteDef>> Sites;
  Sites.reserve(M.SiteFunctions.size());
  for (uint32_t F : M.SiteFunctions)
    Sites.push_back(fb::CreateDispatchSiteDef(FBB, F));
  auto FunctionTable = FBB.CreateVector(Functions);
  auto SiteTable = FBB.CreateVector(Sites);
  fb::FinishDispatchInstrumentDefBuffer(
      FBB, fb::CreateDispatchInstrumentDef(FBB, M.Version, M.Flags,
                                           FunctionTable, SiteTable));
  chunk(uint16_t(format::ChunkType::DispatchMetadata),
        ArrayRef<uint8_t>(FBB.GetBufferPointer(), FBB.GetSize()));
}

void IreeConvertTool::beginRing(const RingInfo &Info) {
  if (IsShard)
    Ring = RingPool->take();
  Ring.clear();
  KeyOf.clear();
  FirstOf.clear();
  // Room for the chunk endRing() makes: its records are at most the
  // ring's, in a ring of the next power of two. Grown by doubling, each
  // shard's vector was copied over and over into fresh pages, and two
  // threads took twice the time of one (the 512 MiB eight-ring trace).
  uint64_t Size = 4096;
  while (Size < std::min(Info.Head, Info.Size))
    Size *= 2;
  Ring.reserve(format::ringChunkContentLength(Size));
  adviseHugePages(Ring.data(), Ring.capacity());
}

uint8_t *IreeConvertTool::reserve(uint64_t Bytes) {
  const size_t At = Ring.size();
  Ring.resize(At + Bytes, 0);
  ++Written;
  return Ring.data() + At;
}

void IreeConvertTool::record(const Record &R) {
  if (!R.Workgroup)
    return;
  if (R.Tag == format::Tag::Workgroup) {
    auto First = FirstOf.find(R.Workgroup->Invocation);
    if (R.Workgroup->Continues && First != FirstOf.end()) {
      // Its records go to the invocation's first record in this chunk.
      KeyOf[R.Offset] = First->second;
      ++LeftOut;
      return;
    }
    const uint64_t At = Ring.size();
    format::encodeWorkgroup(reserve(format::kWorkgroupRecordSize),
                            R.Workgroup->Record);
    KeyOf[R.Offset] = At;
    FirstOf.try_emplace(R.Workgroup->Invocation, At);
    return;
  }
  const uint64_t Key = KeyOf.lookup(R.WorkgroupOffset);
  switch (R.Tag) {
  case format::Tag::Value:
    if (!format::isIreeValueType(R.Value.Type)) {
      ++LeftOut;
      return;
    }
    format::encodeValue(reserve(format::kValueRecordSize), R.Value.Type,
                        R.Value.Ordinal, Key, R.Value.Bits);
    return;
  case format::Tag::MemoryLoad:
  case format::Tag::MemoryStore:
    format::encodeMemory(reserve(format::kMemoryRecordSize), R.Memory.IsStore,
                         R.Memory.Length, Key, R.Memory.Address);
    return;
  case format::Tag::Print: {
    // The text up to its first NUL is what any reader shows.
    const uint64_t Size = format::printRecordSize(R.Text.size());
    uint8_t *P = reserve(Size);
    format::encodePrintHeader(P, uint32_t(R.Text.size()), Key);
    std::memcpy(P + format::kPrintHeaderSize, R.Text.data(), R.Text.size());
    return;
  }
  default:
    return;
  }
}

void IreeConvertTool::endRing(const RingInfo &Info) {
  (void)Info;
  uint64_t Size = 4096;
  while (Size < Ring.size())
    Size *= 2;
  const uint64_t Head = Ring.size();
  Ring.resize(format::ringChunkContentLength(Size), 0);
  std::memcpy(Ring.data() + Ring.size() - format::kRingHeadSize, &Head,
              sizeof(Head));
  if (IsShard)
    return; // mergeShard() writes it, in file order
  chunk(uint16_t(format::ChunkType::DispatchRingBuffer), Ring);
  Ring.clear();
}

std::unique_ptr<AnalysisTool> IreeConvertTool::newShard() const {
  auto Shard = std::make_unique<IreeConvertTool>(nulls());
  Shard->IsShard = true;
  Shard->RingPool = RingPool;
  return Shard;
}

void IreeConvertTool::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  (void)Place; // the chunk keys nothing outside itself
  IreeConvertTool &From = static_cast<IreeConvertTool &>(Shard);
  chunk(uint16_t(format::ChunkType::DispatchRingBuffer), From.Ring);
  Written += From.Written;
  LeftOut += From.LeftOut;
  RingPool->give(std::move(From.Ring));
  From.Ring = {};
}

} // namespace wgtrace::viewer
