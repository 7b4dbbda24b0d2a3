//===- TraceBuilder.cc ----------------------------------------------------===//

#include "TraceBuilder.h"

#include "wgtrace/dispatch_instrument_generated.h"

#include <flatbuffers/flatbuffers.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

namespace wgtrace::testing {

RingBuilder::RingBuilder(uint64_t Size, uint8_t Fill)
    : Size(Size), Storage(format::ringChunkContentLength(Size), Fill) {}

uint8_t *RingBuilder::reserve(uint64_t Bytes) {
  uint64_t Offset = Head & (Size - 1);
  if (Offset + Bytes > Storage.size() - format::kRingHeadSize)
    throw std::logic_error("record does not fit the ring's padding");
  Positions.push_back(Head);
  Head += Bytes;
  return Storage.data() + Offset;
}

uint64_t RingBuilder::workgroup(uint32_t DispatchId, std::array<uint32_t, 3> Id,
                                std::array<uint32_t, 3> Count,
                                uint32_t ProcessorId) {
  uint64_t KeyOffset = Head & (Size - 1);
  format::WorkgroupRecord R{DispatchId,
                            {Id[0], Id[1], Id[2]},
                            {Count[0], Count[1], Count[2]},
                            ProcessorId};
  format::encodeWorkgroup(reserve(format::kWorkgroupRecordSize), R);
  Key_ = KeyOffset;
  return KeyOffset;
}

void RingBuilder::load(uint64_t Address, uint32_t Length) {
  format::encodeMemory(reserve(format::kMemoryRecordSize), false, Length, Key_,
                       Address);
}

void RingBuilder::store(uint64_t Address, uint32_t Length) {
  format::encodeMemory(reserve(format::kMemoryRecordSize), true, Length, Key_,
                       Address);
}

void RingBuilder::value(format::ValueType Type, uint8_t Ordinal,
                        uint64_t Bits) {
  format::encodeValue(reserve(format::kValueRecordSize), Type, Ordinal, Key_,
                      Bits);
}

void RingBuilder::atomic(format::AtomicOp Op, uint64_t Address,
                         uint32_t Length) {
  value(format::ValueType::Atomic, uint8_t(format::atomicRecords(Op)),
        uint64_t(Op));
  if (unsigned(Op) & unsigned(format::AtomicOp::Load))
    load(Address, Length);
  if (unsigned(Op) & unsigned(format::AtomicOp::Store))
    store(Address, Length);
}

void RingBuilder::critical(std::string_view Name, format::AtomicOp Op,
                           uint64_t Address, uint32_t Length,
                           uint64_t SiteBits) {
  value(format::ValueType::Critical, uint8_t(format::atomicRecords(Op)),
        format::criticalNameHash(Name));
  if (unsigned(Op) & unsigned(format::AtomicOp::Load))
    load(Address + SiteBits, Length);
  if (unsigned(Op) & unsigned(format::AtomicOp::Store))
    store(Address + SiteBits, Length);
}

void RingBuilder::print(const std::string &Text) {
  uint64_t RecordSize = format::printRecordSize(Text.size());
  uint8_t *P = reserve(RecordSize);
  // Zero padding, as the runtime writes it.
  std::memset(P, 0, RecordSize);
  format::encodePrintHeader(P, Text.size(), Key_);
  std::memcpy(P + format::kPrintHeaderSize, Text.data(), Text.size());
}

uint64_t RingBuilder::continuation(uint32_t DispatchId,
                                   std::array<uint32_t, 3> Id,
                                   std::array<uint32_t, 3> Count,
                                   uint32_t ProcessorId, uint64_t FirstRecord) {
  uint64_t Key = workgroup(DispatchId, Id, Count, ProcessorId);
  value(format::ValueType::Continuation, 0, FirstRecord);
  return Key;
}

void RingBuilder::trailer(format::RingTrailer T,
                          std::vector<format::LostSite> Lost) {
  T.Magic = format::kRingTrailerMagic;
  // A test may ask for an earlier writer's trailer (version 1, no
  // checksums).
  if (!T.Version)
    T.Version = format::kRingTrailerVersion;
  T.LostSiteCount = uint32_t(Lost.size());
  Trailer = T;
  LostSites = std::move(Lost);
}

std::vector<uint8_t> RingBuilder::content() const {
  std::vector<uint8_t> Out = Storage;
  if (Trailer) {
    const uint64_t At = format::ringTrailerOffset(Size);
    std::memcpy(Out.data() + At, &*Trailer, sizeof(*Trailer));
    const uint64_t SitesEnd = format::lostSitesEnd(Size, Trailer->Version);
    for (size_t I = 0; I < LostSites.size(); ++I)
      std::memcpy(Out.data() + SitesEnd - (I + 1) * sizeof(format::LostSite),
                  &LostSites[I], sizeof(format::LostSite));
  }
  std::memcpy(Out.data() + Out.size() - format::kRingHeadSize, &Head,
              sizeof(Head));
  if (Trailer && Trailer->Version == format::kRingTrailerVersion)
    format::sealRingChunk(Out.data(), Out.size());
  return Out;
}

TraceBuilder &
TraceBuilder::runRecord(format::RunRecord Record,
                        const std::vector<UninstrumentedSpec> &Places) {
  constexpr uint64_t R = format::kRunRecordRingSize;
  std::vector<uint8_t> Content(format::ringChunkContentLength(R), 0);
  std::string Strings;
  std::vector<format::UninstrumentedSite> Entries;
  for (const UninstrumentedSpec &P : Places) {
    format::UninstrumentedSite E = {};
    E.Launches = P.Launches;
    E.Workgroups = P.Workgroups;
    E.Line = P.Line;
    E.DispatchId = P.DispatchId;
    E.File = uint32_t(Strings.size());
    Strings += P.File + '\0';
    E.Kernel = uint32_t(Strings.size());
    Strings += P.Kernel + '\0';
    Entries.push_back(E);
  }
  Record.Magic = format::kRunRecordMagic;
  Record.Version = format::kRunRecordVersion;
  Record.UninstrumentedSites = uint32_t(Entries.size());
  Record.StringBytes = uint32_t(Strings.size());
  std::memcpy(Content.data(), &Record, sizeof(Record));
  std::memcpy(Content.data() + sizeof(Record), Entries.data(),
              Entries.size() * sizeof(format::UninstrumentedSite));
  std::memcpy(Content.data() + sizeof(Record) +
                  Entries.size() * sizeof(format::UninstrumentedSite),
              Strings.data(), Strings.size());
  Record.Checksum = 0;
  std::memcpy(Content.data(), &Record, sizeof(Record));
  Record.Checksum = format::runRecordChecksum(
      Content.data(), sizeof(Record) +
                          Entries.size() * sizeof(format::UninstrumentedSite) +
                          Strings.size());
  std::memcpy(Content.data(), &Record, sizeof(Record));
  format::RingTrailer T = {};
  T.Magic = format::kRingTrailerMagic;
  T.Version = format::kRingTrailerVersion;
  T.Flags = format::kTrailerRunRecord;
  T.RingId = format::kRunRecordRingId;
  T.RingSize = R;
  std::memcpy(Content.data() + format::ringTrailerOffset(R), &T, sizeof(T));
  format::sealRingChunk(Content.data(), Content.size());
  return chunk(uint16_t(format::ChunkType::DispatchRingBuffer), Content);
}

TraceBuilder &TraceBuilder::chunk(uint16_t Type,
                                  const std::vector<uint8_t> &Content,
                                  uint16_t Version) {
  Offsets.push_back(Bytes.size());
  format::ChunkHeader H{format::kChunkMagic, Type, Version, Content.size()};
  const uint8_t *HP = reinterpret_cast<const uint8_t *>(&H);
  Bytes.insert(Bytes.end(), HP, HP + sizeof(H));
  Bytes.insert(Bytes.end(), Content.begin(), Content.end());
  Bytes.resize(format::alignUp(Bytes.size(), format::kChunkAlignment), 0);
  return *this;
}

TraceBuilder &
TraceBuilder::timing(const format::TimingChunkHeader &Header,
                     const std::vector<format::TimingRecord> &Entries) {
  std::vector<uint8_t> Content(sizeof(Header) +
                               Entries.size() * sizeof(format::TimingRecord));
  std::memcpy(Content.data(), &Header, sizeof(Header));
  if (!Entries.empty())
    std::memcpy(Content.data() + sizeof(Header), Entries.data(),
                Entries.size() * sizeof(format::TimingRecord));
  return chunk(uint16_t(format::ChunkType::WorkgroupTiming), Content,
               format::kTimingChunkVersion);
}

static flatbuffers::Offset<fb::WgtraceDef>
buildExtension(flatbuffers::FlatBufferBuilder &FBB, const ExtensionSpec &X) {
  std::vector<std::string> Files = {""};
  auto FileIndex = [&](const std::string &Path) -> uint32_t {
    if (Path.empty())
      return 0;
    for (size_t I = 1; I < Files.size(); ++I)
      if (Files[I] == Path)
        return uint32_t(I);
    Files.push_back(Path);
    return uint32_t(Files.size() - 1);
  };
  std::vector<flatbuffers::Offset<fb::WgtraceFunctionDef>> Functions;
  for (size_t F = 0;
       F < std::max(X.FunctionParams.size(), X.FunctionPlaces.size()); ++F) {
    std::vector<flatbuffers::Offset<fb::ParamDef>> Defs;
    if (F < X.FunctionParams.size())
      for (const ParamSpec &P : X.FunctionParams[F])
        Defs.push_back(fb::CreateParamDef(
            FBB, FBB.CreateString(P.Name), FBB.CreateString(P.Type), P.Position,
            fb::ParamKind(P.Kind), P.ElementSize, P.HasExtent));
    std::optional<fb::SourceLocation> Where;
    if (F < X.FunctionPlaces.size() && !X.FunctionPlaces[F].first.empty())
      Where.emplace(FileIndex(X.FunctionPlaces[F].first),
                    X.FunctionPlaces[F].second, 1);
    Functions.push_back(fb::CreateWgtraceFunctionDef(
        FBB, fb::FunctionKind::Function, Where ? &*Where : nullptr,
        FBB.CreateVector(Defs)));
  }
  std::vector<flatbuffers::Offset<fb::WgtraceSiteDef>> Sites;
  for (size_t I = 0; I < std::max(X.SiteLocations.size(), X.SiteDirect.size());
       ++I) {
    std::pair<std::string, uint32_t> Place;
    if (I < X.SiteLocations.size())
      Place = X.SiteLocations[I];
    fb::SourceLocation Where(FileIndex(Place.first), Place.second, 0);
    Sites.push_back(fb::CreateWgtraceSiteDef(
        FBB, &Where, I < X.SiteDirect.size() && X.SiteDirect[I]));
  }
  std::vector<flatbuffers::Offset<fb::AccessSiteDef>> Accesses;
  for (const AccessSiteSpec &A : X.AccessSites) {
    fb::SourceLocation Where(FileIndex(A.File), A.Line, A.Column);
    Accesses.push_back(fb::CreateAccessSiteDef(
        FBB, &Where, fb::AccessKind(A.Kind), FBB.CreateString(A.Scope),
        FBB.CreateString(A.Text),
        A.Critical ? FBB.CreateString(*A.Critical)
                   : flatbuffers::Offset<flatbuffers::String>(),
        A.WorkgroupOwned, A.ThreadOwned));
  }
  std::vector<flatbuffers::Offset<fb::UntracedAccessDef>> Untraced;
  for (const UntracedSpec &U : X.Untraced) {
    fb::SourceLocation Where(FileIndex(U.File), U.Line, U.Column);
    Untraced.push_back(fb::CreateUntracedAccessDef(
        FBB, &Where, FBB.CreateString(U.Scope), FBB.CreateString(U.Text),
        FBB.CreateString(U.Reason)));
  }
  auto FileTable = FBB.CreateVectorOfStrings(Files);
  auto FunctionTable = FBB.CreateVector(Functions);
  auto SiteTable = FBB.CreateVector(Sites);
  auto AccessTable =
      X.WithAccessSites
          ? FBB.CreateVector(Accesses)
          : flatbuffers::Offset<
                flatbuffers::Vector<flatbuffers::Offset<fb::AccessSiteDef>>>();
  auto UntracedTable = FBB.CreateVector(Untraced);
  auto SectionTable = X.CriticalSections.empty()
                          ? 0
                          : FBB.CreateVectorOfStrings(X.CriticalSections);
  auto FilterTable =
      X.Filters.empty() ? 0 : FBB.CreateVectorOfStrings(X.Filters);
  return fb::CreateWgtraceDef(
      FBB, 1, FileTable, FunctionTable, SiteTable, AccessTable, UntracedTable,
      /*indirect_calls=*/0, X.RunRecord, SectionTable, FilterTable);
}

TraceBuilder &TraceBuilder::metadata(const std::vector<FunctionDef> &Functions,
                                     const std::vector<uint32_t> &SiteFunctions,
                                     const ExtensionSpec *Extension) {
  flatbuffers::FlatBufferBuilder FBB;
  auto Str = [&](const std::optional<std::string> &S) {
    return S ? FBB.CreateString(*S)
             : flatbuffers::Offset<flatbuffers::String>();
  };
  std::vector<flatbuffers::Offset<fb::DispatchFunctionDef>> Fns;
  for (const FunctionDef &F : Functions) {
    auto Name = Str(F.Name), Target = Str(F.Target), Layout = Str(F.Layout),
         Source = Str(F.Source);
    Fns.push_back(
        fb::CreateDispatchFunctionDef(FBB, Name, Target, Layout, Source));
  }
  std::vector<flatbuffers::Offset<fb::DispatchSiteDef>> Sites;
  for (uint32_t F : SiteFunctions)
    Sites.push_back(fb::CreateDispatchSiteDef(FBB, F));
  auto FunctionTable = FBB.CreateVector(Fns);
  auto SiteTable = FBB.CreateVector(Sites);
  flatbuffers::Offset<fb::WgtraceDef> X;
  if (Extension)
    X = buildExtension(FBB, *Extension);
  fb::DispatchInstrumentDefBuilder Root(FBB);
  Root.add_functions(FunctionTable);
  Root.add_sites(SiteTable);
  if (Extension)
    Root.add_wgtrace(X);
  fb::FinishDispatchInstrumentDefBuffer(FBB, Root.Finish());
  return chunk(uint16_t(format::ChunkType::DispatchMetadata),
               std::vector<uint8_t>(FBB.GetBufferPointer(),
                                    FBB.GetBufferPointer() + FBB.GetSize()));
}

TraceBuilder &TraceBuilder::metadataWithBrokenExtension() {
  flatbuffers::FlatBufferBuilder FBB;
  auto Fns = FBB.CreateVector(std::vector{
      fb::CreateDispatchFunctionDef(FBB, FBB.CreateString("simple_mul"))});
  auto Sites = FBB.CreateVector(std::vector{fb::CreateDispatchSiteDef(FBB, 0)});
  flatbuffers::uoffset_t Start = FBB.StartTable();
  FBB.AddOffset(fb::DispatchInstrumentDef::VT_FUNCTIONS, Fns);
  FBB.AddOffset(fb::DispatchInstrumentDef::VT_SITES, Sites);
  FBB.AddElement<uint32_t>(fb::DispatchInstrumentDef::VT_WGTRACE, 0x7FFFFFF0u);
  FBB.Finish(
      flatbuffers::Offset<fb::DispatchInstrumentDef>(FBB.EndTable(Start)),
      format::kMetadataIdentifier);
  return chunk(uint16_t(format::ChunkType::DispatchMetadata),
               std::vector<uint8_t>(FBB.GetBufferPointer(),
                                    FBB.GetBufferPointer() + FBB.GetSize()));
}

TraceBuilder &TraceBuilder::ring(const RingBuilder &Ring) {
  return chunk(uint16_t(format::ChunkType::DispatchRingBuffer), Ring.content());
}

TraceBuilder &addSimpleMetadata(TraceBuilder &B, unsigned NumSites) {
  return B.metadata(
      {{"simple_mul", "x86_64-linux-gnu -O2",
        "(const float*, const float*, float*)", "void simple_mul() {}"}},
      std::vector<uint32_t>(NumSites, 0));
}

std::vector<uint8_t>
runRecordTrace(const format::RunRecord *Record,
               const std::vector<UninstrumentedSpec> &Places) {
  ExtensionSpec X;
  X.WithAccessSites = false;
  X.RunRecord = true;
  TraceBuilder B;
  B.metadata({{"simple_mul", "t", "l", "src"}}, {0}, &X);
  RingBuilder Ring(4096, /*Fill=*/0);
  for (uint32_t I = 0; I < 2; ++I) {
    Ring.workgroup(0, {I, 0, 0}, {2, 1, 1}, I);
    Ring.load(0x1000 + 64 * I, 4);
  }
  format::RingTrailer T = {};
  T.RingSize = 4096;
  Ring.trailer(T);
  B.ring(Ring);
  if (Record)
    B.runRecord(*Record, Places);
  return B.bytes();
}

format::RunRecord endedRun(format::RunEnd End, int Status, uint32_t Signal) {
  format::RunRecord R = {};
  R.End = uint16_t(End);
  R.ExitStatus = Status;
  R.Signal = Signal;
  R.Workgroups = 2;
  R.MaxProcessorId = 1;
  return R;
}

} // namespace wgtrace::testing
