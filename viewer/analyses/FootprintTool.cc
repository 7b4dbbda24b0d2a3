//===- FootprintTool.cc ---------------------------------------------------===//

#include "analyses/FootprintTool.h"

#include "reader/Metadata.h"

#include "llvm/Support/JSON.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

using namespace llvm;

namespace wgtrace::viewer {

void FootprintTool::beginRing(const RingInfo &Info) { Meta = Info.Meta; }

uint32_t FootprintTool::bufferOf(uint64_t Address) const {
  // The last buffer starting at or below the address; every accessed
  // address lies in one, since the buffers cover all accesses of pass 1.
  auto It =
      std::upper_bound(Clusters->begin(), Clusters->end(), Address,
                       [](uint64_t A, const Interval &B) { return A < B.Lo; });
  return It == Clusters->begin() ? 0 : uint32_t(It - Clusters->begin() - 1);
}

std::string FootprintTool::siteName(uint32_t Site) const {
  const AccessSite *A = Meta ? Meta->accessSite(Site) : nullptr;
  if (!A)
    return {};
  std::string Where = A->Where.known() ? A->Where.str() : "";
  if (A->Text.empty())
    return Where;
  return Where.empty() ? A->Text : Where + " " + A->Text;
}

std::string FootprintTool::bufferName(uint32_t Buffer) const {
  if (Buffer & ParamBuffer)
    return Census ? Census->bufferLabel(Buffer & ~ParamBuffer)
                  : "parameter " + std::to_string(Buffer & ~ParamBuffer);
  return "cluster " + std::to_string(Buffer);
}

void FootprintTool::record(const Record &R) {
  if (!R.Workgroup)
    return; // --iree-compat on a wrapped ring: owner unknown
  const bool IsAccess =
      R.Tag == format::Tag::MemoryLoad || R.Tag == format::Tag::MemoryStore;
  if (Pass == 0) {
    if (IsAccess && R.Memory.Length && R.Buffer == kNoBuffer) {
      Interval I = accessRange(R.Memory.Address, R.Memory.Length);
      Touched.add(I.Lo, I.Hi);
    }
    return;
  }
  const uint64_t Invocation = R.Workgroup->Invocation;
  if (R.Tag == format::Tag::Workgroup) {
    auto [It, New] = ByInvocation.try_emplace(Invocation, Workgroups.size());
    if (New) {
      Workgroup W;
      static_cast<WorkgroupIdentity &>(W) = WorkgroupIdentity::of(R, *Meta);
      Workgroups.push_back(std::move(W));
    }
    auto [O, Opened] = Opens.try_emplace(Invocation);
    if (Opened)
      O->second.Workgroup = It->second;
    return;
  }
  if (!IsAccess || R.Memory.Length == 0)
    return;
  auto OpenIt = Opens.find(Invocation);
  if (OpenIt == Opens.end())
    return; // a workgroup this tool never saw begin
  Open &O = OpenIt->second;
  Workgroup &W = Workgroups[O.Workgroup];
  const uint64_t Address = R.Memory.Address;
  const bool Store = R.Memory.IsStore;
  const uint32_t Buffer =
      R.Buffer != kNoBuffer ? ParamBuffer | R.Buffer : bufferOf(Address);
  const uint32_t Site = R.AccessSite;

  if (O.LastBuffer >= O.Buffers.size() ||
      O.Buffers[O.LastBuffer].Buffer != Buffer) {
    auto It =
        std::find_if(O.Buffers.begin(), O.Buffers.end(),
                     [&](const OpenBuffer &B) { return B.Buffer == Buffer; });
    if (It == O.Buffers.end()) {
      O.Buffers.push_back(
          OpenBuffer{Buffer, IntervalAccumulator(), IntervalAccumulator()});
      It = O.Buffers.end() - 1;
    }
    O.LastBuffer = It - O.Buffers.begin();
  }
  Interval I = accessRange(Address, R.Memory.Length);
  OpenBuffer &B = O.Buffers[O.LastBuffer];
  (Store ? B.Stores : B.Loads).add(I.Lo, I.Hi);

  auto Matches = [&](const Stream &S) {
    return S.Store == Store && S.Atomic == R.Atomic && S.Buffer == Buffer &&
           S.Site == Site && S.Pattern.length() == R.Memory.Length;
  };
  if (O.LastStream < W.Streams.size() && Matches(W.Streams[O.LastStream])) {
    W.Streams[O.LastStream].Pattern.add(Address);
    return;
  }
  auto It = std::find_if(W.Streams.begin(), W.Streams.end(), Matches);
  if (It == W.Streams.end()) {
    W.Streams.push_back(Stream{Store, R.Atomic, Buffer, Site, siteName(Site),
                               StridePattern(Address, R.Memory.Length)});
    O.LastStream = W.Streams.size() - 1;
    return;
  }
  O.LastStream = It - W.Streams.begin();
  It->Pattern.add(Address);
}

void FootprintTool::endWorkgroups(ArrayRef<uint64_t> Invocations) {
  if (Pass == 0)
    return;
  for (uint64_t I : Invocations) {
    auto It = Opens.find(I);
    if (It == Opens.end())
      continue;
    Open &O = It->second;
    Workgroup &W = Workgroups[O.Workgroup];
    for (OpenBuffer &B : O.Buffers) {
      auto Use = std::find_if(
          W.Buffers.begin(), W.Buffers.end(),
          [&](const BufferUse &U) { return U.Buffer == B.Buffer; });
      if (Use == W.Buffers.end()) {
        W.Buffers.push_back({B.Buffer, B.Loads.ranges(), B.Stores.ranges()});
        continue;
      }
      // The workgroup continued after it was ended: merge the parts.
      Use->Loads.insert(Use->Loads.end(), B.Loads.ranges().begin(),
                        B.Loads.ranges().end());
      Use->Stores.insert(Use->Stores.end(), B.Stores.ranges().begin(),
                         B.Stores.ranges().end());
      coalesce(Use->Loads);
      coalesce(Use->Stores);
    }
    std::sort(W.Buffers.begin(), W.Buffers.end(),
              [](const BufferUse &X, const BufferUse &Y) {
                return X.Buffer < Y.Buffer;
              });
    Opens.erase(It);
  }
}

bool FootprintTool::anotherPass() {
  if (Pass > 0)
    return false;
  Buffers = Touched.ranges();
  Touched = IntervalAccumulator(BufferGap);
  Opens.clear();
  ByInvocation.clear();
  Pass = 1;
  return true;
}

std::unique_ptr<AnalysisTool> FootprintTool::newShard() const {
  auto Shard = std::make_unique<FootprintTool>(nulls(), Json);
  Shard->Pass = Pass;
  Shard->Clusters = &Buffers;
  return Shard;
}

void FootprintTool::mergeShard(AnalysisTool &Shard, const ShardPlace &Place) {
  FootprintTool &From = static_cast<FootprintTool &>(Shard);
  if (Pass == 0) {
    // Clusters of clusters are the clusters of the ranges they hold.
    for (const Interval &I : From.Touched.ranges())
      Touched.add(I.Lo, I.Hi);
    return;
  }
  auto FileBuffer = [&](uint32_t Buffer) {
    if (!(Buffer & ParamBuffer))
      return Buffer;
    const uint32_t Index = Buffer & ~ParamBuffer;
    return ParamBuffer |
           (Index < Place.Buffers.size() ? Place.Buffers[Index] : Index);
  };
  // The shard's invocations, by their index in its Workgroups: every one
  // is new here, so its workgroups follow the chunks' before.
  std::vector<uint64_t> Invocations(From.Workgroups.size());
  for (const auto &[Invocation, Index] : From.ByInvocation)
    Invocations[Index] = Invocation;
  const size_t First = Workgroups.size();
  Workgroups.reserve(First + From.Workgroups.size());
  for (size_t I = 0; I < From.Workgroups.size(); ++I) {
    Workgroup &W = From.Workgroups[I];
    for (BufferUse &U : W.Buffers)
      U.Buffer = FileBuffer(U.Buffer);
    std::sort(W.Buffers.begin(), W.Buffers.end(),
              [](const BufferUse &X, const BufferUse &Y) {
                return X.Buffer < Y.Buffer;
              });
    for (Stream &S : W.Streams)
      S.Buffer = FileBuffer(S.Buffer);
    ByInvocation.try_emplace(Place.FirstInvocation + Invocations[I],
                             uint32_t(First + I));
    Workgroups.push_back(std::move(W));
  }
}

namespace {
const char *const kFootprintColumns[] = {"load_bytes", "store_bytes",
                                         "accesses"};
} // namespace

ArrayRef<const char *> FootprintTool::columns() { return kFootprintColumns; }

void FootprintTool::finish() {
  auto Bytes = [](const std::vector<Interval> &Ranges) {
    uint64_t N = 0;
    for (const Interval &I : Ranges)
      N += I.Hi - I.Lo;
    return N;
  };
  for (Workgroup &W : Workgroups) {
    W.LoadBytes = W.StoreBytes = W.Accesses = 0;
    for (const BufferUse &B : W.Buffers) {
      W.LoadBytes += Bytes(B.Loads);
      W.StoreBytes += Bytes(B.Stores);
    }
    for (const Stream &S : W.Streams)
      W.Accesses += S.Pattern.count();
  }
  uint64_t Workgroup::*Field =
      Order.Column == "store_bytes" ? &Workgroup::StoreBytes
      : Order.Column == "accesses"  ? &Workgroup::Accesses
                                    : &Workgroup::LoadBytes;
  Omitted.add("workgroups",
              Order.apply(Workgroups,
                          [Field](const Workgroup &W) { return W.*Field; }));
  if (Json)
    printJson();
  else
    printText();
  OS.flush();
}

static std::string rangesText(const std::vector<Interval> &Ranges) {
  constexpr size_t MaxShown = 6;
  std::string Out;
  uint64_t Bytes = 0;
  for (const Interval &I : Ranges)
    Bytes += I.Hi - I.Lo;
  for (size_t I = 0; I < Ranges.size() && I < MaxShown; ++I)
    Out += fmt::format("{}{:#x}+{}", I ? ", " : "", Ranges[I].Lo,
                       Ranges[I].Hi - Ranges[I].Lo);
  if (Ranges.size() > MaxShown)
    Out += fmt::format(", ... {} more", Ranges.size() - MaxShown);
  return fmt::format("{} ({} range{}, {} bytes)", Out, Ranges.size(),
                     Ranges.size() == 1 ? "" : "s", Bytes);
}

void FootprintTool::printText() {
  OS << runHeader(Census);
  if (Census && !Census->Buffers.empty()) {
    OS << fmt::format("{} kernel parameter buffer{}\n", Census->Buffers.size(),
                      Census->Buffers.size() == 1 ? "" : "s");
    for (uint32_t I = 0; I < Census->Buffers.size(); ++I) {
      const BufferInfo &B = Census->Buffers[I];
      OS << fmt::format("  {} ({} of {}): {:#x}{}\n", Census->bufferLabel(I),
                        B.Type.empty() ? "parameter" : B.Type, B.Function,
                        B.Base,
                        B.Extent ? fmt::format("-{:#x} ({} bytes)",
                                               B.Base + *B.Extent, *B.Extent)
                                 : std::string(" (size not recorded)"));
    }
  }
  if (!Buffers.empty() || !Census || Census->Buffers.empty()) {
    OS << fmt::format("{} address cluster{} of accesses in no kernel "
                      "parameter (gaps over {} bytes separate them)\n",
                      Buffers.size(), Buffers.size() == 1 ? "" : "s",
                      BufferGap);
    for (size_t I = 0; I < Buffers.size(); ++I)
      OS << fmt::format("  cluster {}: {:#x}-{:#x} ({} bytes)\n", I,
                        Buffers[I].Lo, Buffers[I].Hi,
                        Buffers[I].Hi - Buffers[I].Lo);
  }
  for (const Workgroup &W : Workgroups) {
    OS << fmt::format("\nworkgroup {} pid {} (dispatch site {}: {}): {} "
                      "access{}, {} bytes loaded, {} stored{}\n",
                      workgroupLabel(W.Id, W.BeginningLost), W.ProcessorId,
                      W.Site, W.Function, W.Accesses,
                      W.Accesses == 1 ? "" : "es", W.LoadBytes, W.StoreBytes,
                      W.BeginningLost ? "; * a wrap overwrote its first "
                                        "records, which no range holds"
                                      : "");
    for (const BufferUse &B : W.Buffers) {
      if (!B.Loads.empty())
        OS << fmt::format("  {} loads:  {}\n", bufferName(B.Buffer),
                          rangesText(B.Loads));
      if (!B.Stores.empty())
        OS << fmt::format("  {} stores: {}\n", bufferName(B.Buffer),
                          rangesText(B.Stores));
    }
    for (const Stream &S : W.Streams)
      OS << fmt::format("  stream {}{} {} B {}{}: {} access{} from {:#x}, "
                        "{}\n",
                        S.Atomic ? "atomic " : "", S.Store ? "store" : "load ",
                        S.Pattern.length(), bufferName(S.Buffer),
                        S.Source.empty() ? "" : " at " + S.Source,
                        S.Pattern.count(), S.Pattern.count() == 1 ? "" : "es",
                        S.Pattern.first(), S.Pattern.describe());
  }
  if (Omitted.count("workgroups"))
    OS << "\n" << omittedText(Omitted.count("workgroups"), "workgroups", 0);
  OS << censusText(Census);
}

void FootprintTool::printJson() {
  auto Ranges = [](const std::vector<Interval> &V) {
    json::Array A;
    for (const Interval &I : V)
      A.push_back(json::Array{I.Lo, I.Hi - I.Lo});
    return A;
  };
  json::Array BuffersJ;
  if (Census)
    for (uint32_t I = 0; I < Census->Buffers.size(); ++I) {
      const BufferInfo &B = Census->Buffers[I];
      BuffersJ.push_back(json::Object{
          {"name", Census->bufferLabel(I)},
          {"parameter", B.Name},
          {"type", B.Type},
          {"function", B.Function},
          {"address", B.Base},
          {"size", B.Extent ? json::Value(*B.Extent) : json::Value(nullptr)}});
    }
  for (size_t I = 0; I < Buffers.size(); ++I)
    BuffersJ.push_back(json::Object{{"name", bufferName(uint32_t(I))},
                                    {"address", Buffers[I].Lo},
                                    {"size", Buffers[I].Hi - Buffers[I].Lo}});
  json::Array WGs;
  for (const Workgroup &W : Workgroups) {
    json::Array Uses;
    for (const BufferUse &B : W.Buffers)
      Uses.push_back(json::Object{{"buffer", bufferName(B.Buffer)},
                                  {"loads", Ranges(B.Loads)},
                                  {"stores", Ranges(B.Stores)}});
    json::Array Streams;
    for (const Stream &S : W.Streams) {
      json::Object O{{"kind", S.Store ? "store" : "load"},
                     {"atomic", S.Atomic},
                     {"length", S.Pattern.length()},
                     {"buffer", bufferName(S.Buffer)},
                     {"source", S.Source},
                     {"count", S.Pattern.count()},
                     {"first", S.Pattern.first()},
                     {"pattern", StridePattern::kindName(S.Pattern.kind())}};
      if (S.Pattern.kind() == StridePattern::Kind::Strided)
        O["stride"] = S.Pattern.step();
      if (S.Pattern.kind() == StridePattern::Kind::TwoD) {
        O["stride"] = S.Pattern.step();
        O["row_length"] = S.Pattern.rowLength();
        O["row_pitch"] = S.Pattern.rowPitch();
      }
      Streams.push_back(std::move(O));
    }
    WGs.push_back(json::Object{{"site", W.Site},
                               {"function", W.Function},
                               {"id", json::Array{W.Id[0], W.Id[1], W.Id[2]}},
                               {"pid", W.ProcessorId},
                               {"beginning_lost", W.BeginningLost},
                               {"accesses", W.Accesses},
                               {"load_bytes", W.LoadBytes},
                               {"store_bytes", W.StoreBytes},
                               {"buffers", std::move(Uses)},
                               {"streams", std::move(Streams)}});
  }
  json::Value Root = json::Object{
      {"schema", "wgtrace-footprint/1"}, {"buffer_gap", BufferGap},
      {"run", runJson(Census)},          {"selection", selectionJson(Census)},
      {"loss", censusJson(Census)},      {"buffers", std::move(BuffersJ)},
      {"workgroups", std::move(WGs)},    {"omitted", Omitted.json()}};
  OS << formatv("{0:2}", Root) << "\n";
}

} // namespace wgtrace::viewer
