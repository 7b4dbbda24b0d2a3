//===- TraceIndex.cc ------------------------------------------------------===//

#include "TraceIndex.h"

#include "reader/TraceCensus.h"

#include <algorithm>
#include <tuple>

using namespace llvm;
using namespace wgtrace::viewer;

namespace wgtrace::python {

static std::optional<std::string> str(const std::optional<StringRef> &S) {
  if (!S)
    return std::nullopt;
  return S->str();
}

static void place(SourceEntry &E, const SourcePlace &P) {
  E.SourceFile = P.File;
  E.Line = P.Line;
  E.Column = P.Column;
}

void TraceIndex::metadata(const Metadata &M, const ChunkLocation &Where) {
  MetadataChunk = Where.Index;
  // Metadata chunks of one process repeat the same functions (a module
  // registered later adds to them): keep each once.
  for (const FunctionInfo &F : M.Functions) {
    FunctionEntry E;
    E.File = File;
    E.Name = str(F.Name);
    E.Target = str(F.Target);
    E.Layout = str(F.Layout);
    E.Source = str(F.Source);
    auto Same = [&](const FunctionEntry &O) {
      return O.File == File && O.Name == E.Name && O.Target == E.Target &&
             O.Layout == E.Layout && O.Source == E.Source;
    };
    if (std::none_of(Tables.Functions.begin(), Tables.Functions.end(), Same))
      Tables.Functions.push_back(std::move(E));
  }
  // Access site ids are numbered per process, so one file's metadata
  // chunks agree on them; a file that does not (runs concatenated) is
  // told, since its records' sites are then ambiguous.
  for (uint32_t Id = 1; Id <= M.AccessSites.size(); ++Id) {
    const AccessSite &A = M.AccessSites[Id - 1];
    AccessSiteEntry E;
    E.File = File;
    place(E, A.Where);
    E.Scope = A.Scope;
    E.Text = A.Text;
    E.Id = Id;
    E.Kind = A.Kind;
    auto [It, New] = AccessSiteIndex.try_emplace(Id, Tables.AccessSites.size());
    if (New) {
      Tables.AccessSites.push_back(std::move(E));
      continue;
    }
    const AccessSiteEntry &O = Tables.AccessSites[It->second];
    auto Key = [](const AccessSiteEntry &S) {
      return std::tie(S.SourceFile, S.Line, S.Column, S.Scope, S.Text, S.Kind);
    };
    auto &Conflicts = Tables.Census[File].ConflictingAccessSites;
    if (Key(O) != Key(E) &&
        std::find(Conflicts.begin(), Conflicts.end(), Id) == Conflicts.end())
      Conflicts.push_back(Id);
  }
}

void TraceIndex::beginRing(const RingInfo &Info) {
  Meta = Info.Meta;
  RingEntry E;
  E.File = File;
  E.Chunk = Info.Where.Index;
  E.FileOffset = Info.FileOffset;
  E.Size = Info.Size;
  E.Head = Info.Head;
  E.Wrapped = Info.Wrapped;
  E.LostBytes = Info.LostBytes;
  E.StartOffset = Info.StartOffset;
  if (Info.Meta) {
    E.MetadataChunk = MetadataChunk;
    E.AccessSiteBits = Info.Meta->HasAccessSites;
    E.TrustAccessSites =
        Info.Meta->HasAccessSites && !Info.Meta->accessSiteIdsWrapped();
  }
  RunOpen = false;
  if (Info.Trailer) {
    E.HasTrailer = true;
    E.RingId = Info.Trailer->RingId;
    E.ChunkSequence = Info.Trailer->ChunkSequence;
  }
  Ring = Tables.Rings.size();
  Tables.Rings.push_back(E);
}

void TraceIndex::workgroupRecord(const Record &R, uint32_t W) {
  Tracker.workgroup(R, *Meta);
  if (W < Tables.Workgroups.size()) {
    // Another copy of an invocation seen before.
    ++Tables.Workgroups[W].Pieces;
    return;
  }
  const format::WorkgroupRecord &WG = R.Workgroup->Record;
  WorkgroupEntry N;
  N.File = File;
  N.Site = WG.DispatchId;
  N.Kernel =
      Tables.kernel(Meta->siteFunction(WG.DispatchId).nameOr("(null)").str());
  std::copy(std::begin(WG.Id), std::end(WG.Id), N.Id);
  std::copy(std::begin(WG.Count), std::end(WG.Count), N.Count);
  N.Processor = WG.ProcessorId;
  N.Chunk = Tables.Rings[Ring].Chunk;
  N.RingOffset = R.Offset;
  N.Pieces = 1;
  N.BeginningLost = R.Workgroup->BeginningLost;
  N.Selected = !R.Workgroup->Unselected;
  // Invocations are numbered in order of first appearance: this is the
  // next one.
  Tables.Workgroups.resize(W);
  Tables.Workgroups.push_back(N);
}

void TraceIndex::record(const Record &R) {
  RingEntry &E = Tables.Rings[Ring];
  ++E.Records;
  if (!R.Workgroup) {
    RunOpen = false; // only dump --iree-compat decodes records without owners
    return;
  }
  const uint32_t W = FirstWorkgroup + uint32_t(R.Workgroup->Invocation);
  // The reader delivers a ring's records in ring order, one after the
  // other: a run ends where the next record belongs to another invocation.
  if (!RunOpen || Tables.Runs.back().Workgroup != W) {
    Tables.Runs.push_back({uint32_t(Ring), W, R.Offset, 0});
    RunOpen = true;
  }
  ++Tables.Runs.back().Records;
  if (R.Tag == format::Tag::Workgroup) {
    ++E.WorkgroupRecords;
    workgroupRecord(R, W);
    return;
  }
  WorkgroupEntry &G = Tables.Workgroups[W];
  switch (R.Tag) {
  case format::Tag::MemoryLoad:
  case format::Tag::MemoryStore:
    ++E.Accesses;
    if (R.Memory.IsStore) {
      ++G.Stores;
      G.StoreBytes += R.Memory.Length;
    } else {
      ++G.Loads;
      G.LoadBytes += R.Memory.Length;
    }
    break;
  case format::Tag::Value:
    // wgtrace's own VALUE types (buffers, continuations) are not the
    // program's values.
    if (!format::isIreeValueType(R.Value.Type))
      break;
    ++G.Values;
    Tables.Values.push_back(
        {W, uint8_t(R.Value.Type), R.Value.Ordinal, R.Value.Bits});
    break;
  case format::Tag::Print:
    ++G.Prints;
    Tables.Prints.push_back({W, R.Text.str()});
    break;
  default:
    break;
  }
}

void TraceIndex::timing(ArrayRef<WorkgroupTime> Times) {
  for (const WorkgroupTime &T : Times) {
    const uint32_t W = FirstWorkgroup + uint32_t(T.Invocation);
    if (W >= Tables.Workgroups.size())
      continue;
    Tables.Timing.push_back({W, T.ProcessorId, T.StartNs, T.EndNs});
    WorkgroupEntry &G = Tables.Workgroups[W];
    G.StartNs = G.Timed ? std::min(G.StartNs, T.StartNs) : T.StartNs;
    G.EndNs = G.Timed ? std::max(G.EndNs, T.EndNs) : T.EndNs;
    G.Timed = true;
  }
}

void TraceIndex::census(const TraceCensus &C) {
  for (const SiteCensus &S : C.Sites) {
    SiteEntry E;
    E.File = File;
    E.Site = S.Site;
    E.Kernel = Tables.kernel(S.Function);
    E.Location = S.Location;
    E.Direct = S.Direct;
    E.Workgroups = S.Workgroups;
    E.WorkgroupsLost = S.WorkgroupsLost;
    Tables.Sites.push_back(std::move(E));
  }
  for (const RingLoss &L : C.Rings) {
    LossEntry E;
    E.File = File;
    E.Chunk = L.Chunk;
    E.FileOffset = L.FileOffset;
    E.FromTrailer = L.FromTrailer;
    E.RingId = L.RingId;
    E.BytesRecorded = L.BytesRecorded;
    E.BytesLost = L.BytesLost;
    E.RecordsLost = L.RecordsLost;
    E.WorkgroupsLost = L.WorkgroupsLost;
    Tables.Loss.push_back(E);
  }
  for (const UntracedAccess &U : C.Untraced) {
    UntracedEntry E;
    E.File = File;
    place(E, U.Where);
    E.Scope = U.Scope;
    E.Text = U.Text;
    E.Reason = U.Reason;
    Tables.Untraced.push_back(std::move(E));
  }
  FileCensus &F = Tables.Census[File];
  F.FirstBuffer = uint32_t(Tables.Buffers.size());
  for (uint32_t I = 0; I < C.Buffers.size(); ++I) {
    const BufferInfo &B = C.Buffers[I];
    BufferEntry E;
    E.File = File;
    E.Kernel = Tables.kernel(B.Function);
    E.Name = B.Name;
    E.Type = B.Type;
    E.Ordinal = B.Ordinal;
    E.Base = B.Base;
    E.Extent = B.Extent;
    E.Label = C.bufferLabel(I);
    Tables.Buffers.push_back(std::move(E));
  }
  F.LossText = lossText(C);
  F.RunText = runText(C);
  llvm::raw_string_ostream Run(F.RunJson);
  Run << runJson(C);
  F.UninstrumentedText = uninstrumentedText(C);
  F.LossUncounted = C.LossUncounted;
  F.Notes = C.Notes;
  F.Nothing = C.nothingToAnalyse("");
}

void TraceIndex::finish() {
  Tracker.assemble();
  for (uint32_t W = FirstWorkgroup; W < Tables.Workgroups.size(); ++W) {
    const uint32_t Tracked = Tracker.find(W - FirstWorkgroup);
    if (Tracked != UINT32_MAX)
      Tables.Workgroups[W].Launch = Tracker.launchOf(Tracked).Ordinal;
  }
  for (const LaunchTracker::Launch &L : Tracker.launches()) {
    const LaunchTracker::Site &S = Tracker.sites()[L.SiteKey];
    const uint32_t Kernel = Tables.kernel(S.Function);
    for (SiteEntry &E : Tables.Sites)
      if (E.File == File && E.Site == S.Id && E.Kernel == Kernel) {
        ++E.Launches;
        break;
      }
  }
}

} // namespace wgtrace::python
