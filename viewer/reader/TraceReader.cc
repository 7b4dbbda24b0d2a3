//===- TraceReader.cc -----------------------------------------------------===//

#include "reader/TraceReader.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

using namespace llvm;

namespace wgtrace::viewer {

void TraceReader::scanRuns() {
  // Headers only: a chunk's content is looked at when it is a metadata
  // chunk (whether its writer ends files with a run record) or a run
  // record. Damage stops the scan; the pass over the records reports it.
  // Compressed chunks (rings) are not decompressed, only checked for
  // where the reading would end.
  TraceFile::ChunkIterator It = File.chunks();
  It.keepCompressed();
  Chunk C;
  bool Open = false;
  while (true) {
    Expected<bool> More = It.next(C);
    if (!More) {
      consumeError(More.takeError());
      break;
    }
    if (!*More)
      break;
    if (C.Where.Compressed) {
      if (Error E = TraceFile::ChunkIterator::endOfReading(C)) {
        consumeError(std::move(E));
        break;
      }
      continue;
    }
    if (C.type() == format::ChunkType::DispatchMetadata) {
      Expected<Metadata> M = Metadata::decode(C);
      if (!M) {
        consumeError(M.takeError());
        break;
      }
      Open |= M->RunRecordPromised;
    } else if (isRunRecordChunk(C)) {
      Expected<RunInfo> R = decodeRunRecord(C);
      if (!R) {
        consumeError(R.takeError());
        break;
      }
      Census.Runs.push_back(std::move(*R));
      Open = false;
    }
  }
  Census.RunRecordMissing = Open;
}

Error TraceReader::checkWorkgroupCount() const {
  // One run, read in full: every workgroup it ran is in the file or
  // counted lost by a trailer. Fewer means chunks are missing, or a
  // damaged header made one unreadable as a ring.
  if (Census.Runs.size() != 1 || Census.RunRecordMissing)
    return Error::success();
  const RunInfo &Run = Census.Runs[0];
  uint64_t Lost = 0;
  for (const RingLoss &L : Census.Rings)
    Lost += L.WorkgroupsLost.value_or(0);
  if (Census.Invocations + Lost == Run.Workgroups)
    return Error::success();
  ChunkLocation Where;
  Where.Index = Run.Chunk;
  Where.TypeName = "ring";
  return chunkError(Where, Run.FileOffset,
                    Twine("run record says ") + Twine(Run.Workgroups) +
                        " workgroups ran, but the file holds " +
                        Twine(Census.Invocations) + " and its rings lost " +
                        Twine(Lost) + ": chunks are missing or damaged");
}

Error TraceReader::run(ArrayRef<AnalysisTool *> Tools) {
  Census = TraceCensus();
  Census.FileBytes = File.bytes().size();
  scanRuns();
  std::optional<Error> Sharded;
  if (Threads != 1)
    Sharded = runShards(Tools, /*FirstPass=*/true);
  OnThreads = Sharded.has_value();
  PassesOnThreads = OnThreads;
  Error E =
      Sharded ? std::move(*Sharded) : runChunks(Tools, /*FirstPass=*/true);
  if (!E)
    E = checkWorkgroupCount();
  // Later passes feed only the tools that asked for them, so that the
  // others do not see records twice. A damaged file is passed again too:
  // the pass stops at the same damage, with the same records before it.
  std::vector<AnalysisTool *> Again;
  while (true) {
    Again.clear();
    for (AnalysisTool *T : Tools)
      if (T->anotherPass())
        Again.push_back(T);
    if (Again.empty())
      break;
    for (AnalysisTool *T : Tools)
      if (T->observesAllPasses() &&
          std::find(Again.begin(), Again.end(), T) == Again.end())
        Again.push_back(T);
    // A file the first pass read on threads is read on threads again,
    // where the tools asking for the pass have shards for it.
    if (OnThreads)
      if (std::optional<Error> Sharded =
              runShards(Again, /*FirstPass=*/false)) {
        ++PassesOnThreads;
        consumeError(std::move(*Sharded));
        continue;
      }
    consumeError(runChunks(Again, /*FirstPass=*/false));
  }
  // The messages the caller will print, kept for the tools to show: the
  // error itself goes back unchanged.
  E = handleErrors(std::move(E), [&](std::unique_ptr<ErrorInfoBase> EI) {
    Census.Damage.push_back(EI->message());
    return Error(std::move(EI));
  });
  for (AnalysisTool *T : Tools)
    T->census(Census);
  for (AnalysisTool *T : Tools)
    T->finish();
  return E;
}

RecordLimits TraceReader::limitsOf(const Chunk &C) const {
  // The run record after the chunk bounds its processor ids.
  RecordLimits Limits;
  for (const RunInfo &Run : Census.Runs)
    if (Run.Chunk > C.Where.Index) {
      Limits.MaxProcessorId = Run.MaxProcessorId;
      break;
    }
  return Limits;
}

void TraceReader::releaseAsDecoded(RingDecoder &D, const Chunk &C) const {
  // A decompressed chunk is in memory of its own, not in the mapping.
  // The decoder names plain offsets (ChunkLocation).
  if (!C.Where.Compressed)
    D.onConsumed([this, Shift = C.Where.FileOffset - C.Where.PlainOffset](
                     uint64_t Begin, uint64_t End) {
      File.release(Begin + Shift, End + Shift);
    });
}

void TraceReader::releaseChunk(const Chunk &C) const {
  File.release(C.Where.FileOffset, C.Where.Compressed
                                       ? C.Where.FileOffset + C.FileLength
                                       : C.Where.FileOffset +
                                             format::kChunkHeaderSize +
                                             C.Content.size());
}

void TraceReader::countRing(const RingInfo &Info) {
  ++Census.RingChunks;
  if (Info.Trailer) {
    const format::RingTrailer &T = *Info.Trailer;
    // Every chunk of a ring counts what the ring lost before it: the
    // latest chunk has the ring's total.
    auto Same = std::find_if(
        Census.Rings.begin(), Census.Rings.end(), [&](const RingLoss &L) {
          return L.FromTrailer && L.RingId == T.RingId && L.Meta == Info.Meta;
        });
    RingLoss &L =
        Same == Census.Rings.end() ? Census.Rings.emplace_back() : *Same;
    L.Chunk = Info.Where.Index;
    L.FileOffset = Info.FileOffset;
    L.FromTrailer = true;
    L.RingId = T.RingId;
    L.Flags = T.Flags;
    L.BytesRecorded = T.BaseVirtualOffset + Info.Head;
    L.BytesLost = T.BytesLost + Info.LostBytes;
    L.RecordsLost = T.RecordsLost;
    L.WorkgroupsLost = T.WorkgroupsLost;
    L.Sites = Info.LostSites;
    L.Meta = Info.Meta;
    return;
  }
  if (!Info.Wrapped)
    return;
  // Without a trailer only bytes can be measured: every earlier lap, and
  // the part of the last one the decoder could not trust.
  RingLoss &L = Census.Rings.emplace_back();
  L.Chunk = Info.Where.Index;
  L.FileOffset = Info.FileOffset;
  L.BytesRecorded = Info.Head;
  L.BytesLost = Info.Head - Info.Size + Info.LostBytes;
  L.Meta = Info.Meta;
  Census.LossUncounted = true;
}

void TraceReader::countUninstrumentedCalls(
    const Metadata *Meta, const std::map<uint64_t, uint64_t> &Counts) {
  for (const auto &[Id, Calls] : Counts) {
    const IndirectCall *Call = Meta && Id < Meta->IndirectCalls.size()
                                   ? &Meta->IndirectCalls[Id]
                                   : nullptr;
    // The same call of several rings (threads) is one entry.
    auto Same = std::find_if(
        Census.UninstrumentedCalls.begin(), Census.UninstrumentedCalls.end(),
        [&](const UninstrumentedCall &U) {
          return U.Call == Call ||
                 (U.Call && Call &&
                  U.Call->Where.str(true) == Call->Where.str(true) &&
                  U.Call->Text == Call->Text);
        });
    if (Same == Census.UninstrumentedCalls.end())
      Census.UninstrumentedCalls.push_back({Call, Calls});
    else
      Same->Calls += Calls;
  }
}

void TraceReader::finishCensus(const WorkgroupJoiner &Joiner,
                               const BufferResolver &Buffers) {
  Census.Invocations = Joiner.invocations();
  Census.Buffers = Buffers.buffers();
  Census.SelectedInvocations = Joiner.selectedInvocations();
  Census.Unselected = Joiner.unselectedInvocations();
  for (const Metadata &M : AllMetadata)
    if (M.Filters.size() > Census.Filters.size())
      Census.Filters = M.Filters; // a later chunk names the earlier ones too
  Census.Rings.erase(std::remove_if(Census.Rings.begin(), Census.Rings.end(),
                                    [](const RingLoss &L) {
                                      return L.BytesLost == 0 &&
                                             L.WorkgroupsLost.value_or(0) ==
                                                 0 &&
                                             L.RecordsLost.value_or(0) == 0;
                                    }),
                     Census.Rings.end());
  // Sites of several metadata chunks (modules, concatenated runs of one
  // program) with the same id, kernel and place are one site.
  std::map<std::tuple<uint32_t, std::string, std::string>, size_t> Index;
  std::set<std::tuple<std::string, std::string, std::string, std::string>>
      Untraced;
  for (const Metadata &M : AllMetadata) {
    for (uint32_t S = 0; S < M.SiteFunctions.size(); ++S) {
      std::string Function = M.siteFunction(S).nameOr("(null)").str();
      auto [It, New] = Index.try_emplace({S, Function, M.SiteLocations[S]},
                                         Census.Sites.size());
      if (New) {
        SiteCensus C;
        C.Site = S;
        C.Function = Function;
        C.Location = M.SiteLocations[S];
        C.Direct = M.SiteDirect[S];
        C.InstantiatedTemplate = M.hasInstances(M.SiteFunctions[S]);
        Census.Sites.push_back(C);
      }
      Census.Sites[It->second].Workgroups += Joiner.siteInvocations(&M, S);
      Census.Sites[It->second].Unselected += Joiner.siteUnselected(&M, S);
    }
    for (const RingLoss &L : Census.Rings)
      if (L.Meta == &M)
        for (const format::LostSite &Lost : L.Sites)
          if (Lost.DispatchId < M.SiteFunctions.size()) {
            std::string Function =
                M.siteFunction(Lost.DispatchId).nameOr("(null)").str();
            auto It = Index.find(
                {Lost.DispatchId, Function, M.SiteLocations[Lost.DispatchId]});
            if (It != Index.end())
              Census.Sites[It->second].WorkgroupsLost += Lost.Workgroups;
          }
    if (!M.ExtensionNote.empty()) {
      // "metadata at offset N: ..." once, however many chunks say it.
      StringRef Note = M.ExtensionNote;
      StringRef What = Note.substr(Note.find(": ") + 2);
      auto Same = std::find_if(
          Census.Notes.begin(), Census.Notes.end(),
          [&](const std::string &N) { return StringRef(N).contains(What); });
      if (Same == Census.Notes.end())
        Census.Notes.push_back(M.ExtensionNote);
    }
    for (const UntracedAccess &U : M.Untraced)
      if (Untraced.insert({U.Where.str(true), U.Scope, U.Text, U.Reason})
              .second)
        Census.Untraced.push_back(U);
  }
}

namespace {
/// Which invocation each WORKGROUP record of a ring chunk belongs to, by
/// ring offset: what timing entries are keyed by.
using OffsetTable = std::vector<std::pair<uint64_t, uint64_t>>;
} // namespace

/// Decodes \p D's records into \p RecordTools, numbered by \p Joiner,
/// their buffers resolved by \p Buffers; with \p WantTiming, fills
/// \p Offsets (unsorted).
static Error decodeRecords(const RingDecoder &D,
                           ArrayRef<AnalysisTool *> RecordTools,
                           bool FilterActive, bool WantTiming,
                           WorkgroupJoiner &Joiner, BufferResolver &Buffers,
                           OffsetTable &Offsets) {
  Error E = Error::success();
  // The records of invocations the runtime's filter left out (a WORKGROUP
  // record and its Unselected VALUE) go only to tools that show records
  // as they are (dump); analyses count what was selected.
  auto Hidden = [](const Record &R) {
    return R.Workgroup && R.Workgroup->Unselected;
  };
  if (!FilterActive && !Buffers.active() && RecordTools.size() == 1) {
    // The common case, as lean as the decoder: one tool, every record.
    AnalysisTool *T = RecordTools[0];
    const bool All = T->wantsUnselected();
    if (WantTiming)
      E = D.decode(
          [T, &Offsets, All, Hidden](Record &R) {
            if (!All && Hidden(R))
              return; // and no timing
            if (R.Tag == format::Tag::Workgroup && R.Workgroup)
              Offsets.emplace_back(R.Offset, R.Workgroup->Invocation);
            T->record(R);
          },
          &Joiner);
    else if (All)
      E = D.decode([T](Record &R) { T->record(R); }, &Joiner);
    else
      E = D.decode(
          [T, Hidden](Record &R) {
            if (!Hidden(R))
              T->record(R);
          },
          &Joiner);
  } else if (!FilterActive && !Buffers.active() && !WantTiming) {
    // Several tools (diff: races and profile), every record.
    E = D.decode(
        [Tools = ArrayRef<AnalysisTool *>(RecordTools), Hidden](Record &R) {
          const bool Unselected = Hidden(R);
          for (AnalysisTool *T : Tools)
            if (!Unselected || T->wantsUnselected())
              T->record(R);
        },
        &Joiner);
  } else {
    const bool ResolveBuffers = Buffers.active();
    const bool AnyWantsUnselected =
        std::any_of(RecordTools.begin(), RecordTools.end(),
                    [](AnalysisTool *T) { return T->wantsUnselected(); });
    E = D.decode(
        [&](Record &R) {
          if (ResolveBuffers) {
            if (R.Tag == format::Tag::Value)
              Buffers.value(R);
            else if (R.Tag == format::Tag::MemoryLoad ||
                     R.Tag == format::Tag::MemoryStore)
              R.Buffer = Buffers.resolve(R);
          }
          if (R.Workgroup) {
            if (WantTiming && R.Tag == format::Tag::Workgroup &&
                (AnyWantsUnselected || !R.Workgroup->Unselected))
              Offsets.emplace_back(R.Offset, R.Workgroup->Invocation);
            if (!R.Workgroup->Selected)
              return;
          }
          const bool Unselected = Hidden(R);
          for (AnalysisTool *T : RecordTools)
            if (!Unselected || T->wantsUnselected())
              T->record(R);
        },
        &Joiner);
  }
  return E;
}

Error TraceReader::runChunks(ArrayRef<AnalysisTool *> Tools, bool FirstPass) {
  // The census of the first pass points into its metadata: a later pass
  // adds copies of its own.
  if (FirstPass)
    AllMetadata.clear();
  TraceFile::ChunkIterator It = File.chunks();
  // Each chunk is let go before the next is read: one block serves all.
  It.useMemory(ChunkMemory::create());
  WorkgroupJoiner Joiner(Filter);
  BufferResolver Buffers;
  const Metadata *Current = nullptr;
  SmallVector<AnalysisTool *, 4> RecordTools;
  bool WantTiming = false;
  for (AnalysisTool *T : Tools) {
    if (T->wantsRecords())
      RecordTools.push_back(T);
    WantTiming |= T->wantsTiming();
  }
  // Per ring chunk seen (for timing chunks), its trailer and offsets.
  std::vector<std::optional<format::RingTrailer>> RingTrailers;
  std::vector<OffsetTable> RingOffsets;
  bool PreviousIsRing = false;
  std::vector<WorkgroupTime> Times;
  // Per stream-mode ring of the run being read (a run record ends it): the
  // sequence number its next chunk must have. The writer writes a ring's
  // chunks in order; a gap is a chunk lost to damage (its content_length
  // swallowed by the chunk before it, say) that nothing else would show.
  std::map<uint32_t, uint64_t> StreamNext;
  // Compressed chunks of the run skipped for a damaged frame: each is some
  // ring's chunk whose trailer cannot be read, so each excuses one gap.
  uint64_t SkippedInRun = 0;

  auto EndWorkgroups = [&] {
    std::vector<uint64_t> Ended = Joiner.takeEnded();
    if (!Ended.empty())
      for (AnalysisTool *T : Tools)
        T->endWorkgroups(Ended);
  };
  // Compressed chunks whose frame is damaged: skipped (the chunks after
  // them are read), each reported in one line after what came before.
  Error Skipped = Error::success();
  auto EndPass = [&](Error E) {
    Joiner.endFile();
    EndWorkgroups();
    if (FirstPass)
      finishCensus(Joiner, Buffers);
    Skipped = joinErrors(std::move(Skipped), It.takeSkipped());
    return joinErrors(std::move(Skipped), std::move(E));
  };

  Chunk C;
  // A ring chunk cut by the end of the file is decoded up to the cut; this
  // is the error that says so, returned after its records.
  std::optional<Error> CutError;
  while (true) {
    Expected<bool> More = It.next(C);
    // A skipped compressed chunk is a ring chunk without records: the
    // timing chunks that name ring chunks by counting back count it.
    SkippedInRun += It.skipped();
    for (size_t I = It.skipped(); I; --I) {
      RingTrailers.emplace_back();
      RingOffsets.emplace_back();
      PreviousIsRing = true;
    }
    Skipped = joinErrors(std::move(Skipped), It.takeSkipped());
    if (!More) {
      const Chunk *Cut = It.cutChunk();
      if (!Cut || Cut->type() != format::ChunkType::DispatchRingBuffer ||
          Mode == RingMode::IreeCompat || !Current ||
          !Current->RunRecordPromised)
        return EndPass(More.takeError());
      CutError.emplace(More.takeError());
      C = *Cut;
    } else if (!*More) {
      return EndPass(Error::success());
    }
    if (FirstPass)
      ++Census.Chunks;
    if (C.type() == format::ChunkType::DispatchMetadata) {
      if (FirstPass)
        ++Census.MetadataChunks;
      Expected<Metadata> M = Metadata::decode(C);
      if (!M)
        return EndPass(M.takeError());
      PreviousIsRing = false;
      AllMetadata.push_back(std::move(*M));
      Current = &AllMetadata.back();
      for (AnalysisTool *T : Tools)
        T->metadata(*Current, C.Where);
      continue;
    }
    if (C.type() == format::ChunkType::WorkgroupTiming) {
      if (FirstPass)
        ++Census.TimingChunks;
      if (Mode == RingMode::IreeCompat)
        // IREE's tool knows chunk types 0 and 1 only and stops here.
        return EndPass(chunkError(C.Where, C.Offset,
                                  Twine("unimplemented chunk type: ") +
                                      Twine(C.Header.Type) +
                                      " (IREE's dump tool stops here)"));
      ArrayRef<uint8_t> Content = C.Content;
      size_t Ring = SIZE_MAX;
      if (C.Header.Version == 0 && Current && Current->RunRecordPromised)
        return EndPass(chunkError(C.Where, C.Offset + 6,
                                  "timing chunk of version 0, which this "
                                  "file's writer never writes"));
      if (C.Header.Version == 0) {
        // Version 0 describes the ring chunk right before it.
        if (PreviousIsRing)
          Ring = RingOffsets.size() - 1;
      } else {
        format::TimingChunkHeader H;
        if (Content.size() < sizeof(H))
          return EndPass(chunkError(C.Where, C.Offset + 8,
                                    Twine("timing content of ") +
                                        Twine(Content.size()) +
                                        " bytes has no room for its " +
                                        Twine(sizeof(H)) + "-byte header"));
        std::memcpy(&H, Content.data(), sizeof(H));
        if (H.RingsBack == 0 || H.RingsBack > RingOffsets.size())
          return EndPass(chunkError(
              C.Where, C.contentOffset(),
              Twine("timing chunk names the ring chunk ") + Twine(H.RingsBack) +
                  " back, but " + Twine(RingOffsets.size()) +
                  " ring chunks precede it"));
        Ring = RingOffsets.size() - H.RingsBack;
        const auto &T = RingTrailers[Ring];
        if (T && (T->RingId != H.RingId || T->ChunkSequence != H.ChunkSequence))
          return EndPass(chunkError(
              C.Where, C.contentOffset(),
              Twine("timing chunk names ring ") + Twine(H.RingId) + " chunk " +
                  Twine(H.ChunkSequence) + " but the ring chunk " +
                  Twine(H.RingsBack) + " back is ring " + Twine(T->RingId) +
                  " chunk " + Twine(T->ChunkSequence)));
        Content = Content.drop_front(sizeof(H));
      }
      if (Content.size() % sizeof(format::TimingRecord) != 0)
        return EndPass(chunkError(
            C.Where, C.Offset + 8,
            Twine("timing content of ") + Twine(Content.size()) +
                " bytes is not a whole number of " +
                Twine(sizeof(format::TimingRecord)) + "-byte entries"));
      PreviousIsRing = false;
      if (!WantTiming || Ring == SIZE_MAX)
        continue;
      const OffsetTable &Offsets = RingOffsets[Ring];
      Times.clear();
      for (size_t I = 0; I < Content.size();
           I += sizeof(format::TimingRecord)) {
        // Copied out: the content is only 16-byte aligned relative to the
        // start of the file, which a caller's buffer need not be.
        format::TimingRecord T;
        std::memcpy(&T, Content.data() + I, sizeof(T));
        auto At =
            std::lower_bound(Offsets.begin(), Offsets.end(),
                             std::make_pair(T.WorkgroupOffset, uint64_t(0)));
        if (At == Offsets.end() || At->first != T.WorkgroupOffset)
          continue; // its WORKGROUP record was overwritten by a wrap
        Times.push_back({At->second, T.StartNs, std::max(T.StartNs, T.EndNs),
                         T.ProcessorId});
      }
      if (!Times.empty())
        for (AnalysisTool *T : Tools)
          T->timing(Times);
      continue;
    }
    if (isRunRecordChunk(C)) {
      // How the run ended (read before the records, scanRuns()): no ring.
      if (Expected<RunInfo> R = decodeRunRecord(C); !R)
        return EndPass(R.takeError());
      StreamNext.clear();
      SkippedInRun = 0;
      PreviousIsRing = false;
      continue;
    }
    if (CutError && isCutRunRecordChunk(C))
      // No records in it to show: the cut is all there is to say.
      return EndPass(std::move(*CutError));
    const RecordLimits Limits = limitsOf(C);
    Expected<RingDecoder> D =
        CutError
            ? RingDecoder::createCut(C, C.Header.ContentLength, Current, Limits)
            : RingDecoder::create(C, Current, Mode, Limits);
    if (!D) {
      if (CutError)
        consumeError(std::move(*CutError));
      return EndPass(D.takeError());
    }
    releaseAsDecoded(*D, C);
    const RingInfo &Info = D->info();
    if (Info.Trailer && (Info.Trailer->Flags & format::kTrailerStream)) {
      const format::RingTrailer &T = *Info.Trailer;
      uint64_t &Next = StreamNext[T.RingId];
      // A gap as wide as the chunks skipped so far is those chunks (their
      // loss is reported already).
      if (T.ChunkSequence > Next && T.ChunkSequence - Next <= SkippedInRun) {
        SkippedInRun -= T.ChunkSequence - Next;
        Next = T.ChunkSequence;
      }
      if (T.ChunkSequence != Next)
        return EndPass(chunkError(
            Info.Where,
            Info.FileOffset + format::ringTrailerOffset(Info.Size) +
                offsetof(format::RingTrailer, ChunkSequence),
            Twine("chunk ") + Twine(T.ChunkSequence) + " of stream-mode ring " +
                Twine(T.RingId) + " where its chunk " + Twine(Next) +
                " was due: a chunk of the ring is missing or out of place"));
      ++Next;
    }
    if (FirstPass)
      countRing(Info);
    Joiner.beginRing(Info);
    Buffers.beginRing(Info.Meta);
    RingInfo ToolInfo = Info;
    ToolInfo.Buffers = &Buffers.buffers();
    for (AnalysisTool *T : Tools)
      T->beginRing(ToolInfo);
    RingTrailers.push_back(Info.Trailer);
    RingOffsets.emplace_back();
    OffsetTable &Offsets = RingOffsets.back();
    Error E = decodeRecords(*D, RecordTools, Filter.active(), WantTiming,
                            Joiner, Buffers, Offsets);
    if (FirstPass)
      countUninstrumentedCalls(Info.Meta, D->uninstrumentedCalls());
    for (AnalysisTool *T : Tools)
      T->endRing(Info);
    EndWorkgroups();
    std::sort(Offsets.begin(), Offsets.end());
    // Tools keep no pointers into a ring after endRing().
    releaseChunk(C);
    if (CutError) {
      // Damage before the cut is the first thing wrong.
      if (E) {
        consumeError(std::move(*CutError));
        return EndPass(std::move(E));
      }
      return EndPass(std::move(*CutError));
    }
    if (E)
      return EndPass(std::move(E));
    PreviousIsRing = true;
  }
}

} // namespace wgtrace::viewer

namespace wgtrace::viewer {

namespace {
/// A chunk of the file as the reading on several threads meets it.
struct PlannedChunk {
  Chunk C;
  /// A metadata chunk's metadata.
  const Metadata *Meta = nullptr;
  /// A plain ring chunk's decoder, made by the plan.
  std::optional<RingDecoder> Ring;
  /// A compressed chunk (a ring chunk; C as it is in the file): the plan's
  /// survey looks at its trailer in its tail's frame, decompressed alone
  /// (codecs 3 and 4), or in the whole chunk decompressed (codecs 1 and 2,
  /// and where the records must tell, RingDecoder::survey). The survey
  /// decodes the first chunks of the window too, ahead of the decision to
  /// read on threads; a later one is decompressed by the thread that
  /// decodes it, so that at most one decompressed chunk per thread is in
  /// memory.
  bool Compressed = false;
  /// A compressed chunk's metadata (what the decoder is made with).
  const Metadata *RingMeta = nullptr;
  /// A compressed chunk whose frame cannot be read but whose size is
  /// known: skipped as one thread skips it, its error line this problem.
  std::optional<std::string> SkipProblem;
  /// What the plan checks of a ring chunk: whether its decoder could be
  /// made, its trailer, and whether a chunk without trailer ends near full.
  bool Readable = false;
  std::optional<format::RingTrailer> Trailer;
  bool NearFull = false;

  bool isRing() const { return Ring || (Compressed && !SkipProblem); }
};

/// What one ring chunk read on a thread of its own found.
struct ShardResult {
  explicit ShardResult(const WorkgroupFilter &Filter) : Joiner(Filter) {}
  WorkgroupJoiner Joiner;
  BufferResolver Buffers;
  /// The chunk's ring (a copy: a compressed chunk's decoder goes with its
  /// decompressed bytes once decoded).
  RingInfo Info;
  /// A shard of each tool that reads records, in the reader's order.
  std::vector<std::unique_ptr<AnalysisTool>> Tools;
  std::map<uint64_t, uint64_t> UninstrumentedCalls;
  /// Damage in the chunk's records: the reading stops after them.
  Error Damage = Error::success();
  /// The chunk's decoder could be made (always, but for a compressed chunk
  /// that decompressed differently from the survey): else Damage says why,
  /// and the reading stops before the chunk, as on one thread.
  bool Decoded = false;
  /// A compressed chunk whose records' frame cannot be read, which the
  /// survey of its tail did not decompress: skipped as one thread skips
  /// it, its error line this problem.
  std::optional<std::string> SkipProblem;
};
} // namespace

/// Decodes ring chunk \p Ring into \p S's joiner and tool shards, as the
/// reading on one thread would decode it after a chunk that ends every
/// invocation.
static void decodeShard(const RingDecoder &Ring, ShardResult &S,
                        bool FilterActive) {
  const RingInfo &Info = Ring.info();
  S.Decoded = true;
  S.Info = Info;
  S.Joiner.beginRing(Info);
  S.Buffers.beginRing(Info.Meta);
  RingInfo ToolInfo = Info;
  ToolInfo.Buffers = &S.Buffers.buffers();
  SmallVector<AnalysisTool *, 4> Shards;
  for (std::unique_ptr<AnalysisTool> &T : S.Tools) {
    T->beginRing(ToolInfo);
    Shards.push_back(T.get());
  }
  OffsetTable Unused;
  if (Error E =
          decodeRecords(Ring, Shards, FilterActive,
                        /*WantTiming=*/false, S.Joiner, S.Buffers, Unused))
    S.Damage = joinErrors(std::move(S.Damage), std::move(E));
  S.UninstrumentedCalls = Ring.uninstrumentedCalls();
  for (AnalysisTool *T : Shards)
    T->endRing(Info);
  S.Joiner.endFile();
  std::vector<uint64_t> Ended = S.Joiner.takeEnded();
  if (!Ended.empty())
    for (AnalysisTool *T : Shards)
      T->endWorkgroups(Ended);
}

/// The problem of chunk error \p E, the line a chunk is skipped with.
static std::string skipProblem(Error E) {
  std::string Problem;
  handleAllErrors(std::move(E), [&](const ChunkErrorInfo &Info) {
    Problem = Info.problem();
  });
  return Problem;
}

std::optional<Error> TraceReader::runShards(ArrayRef<AnalysisTool *> Tools,
                                            bool FirstPass) {
  if (Mode != RingMode::WrapAware)
    return std::nullopt;
  // Tools that read records need shards; the others (notes, progress)
  // see the chunks go by.
  std::vector<AnalysisTool *> Sharded, Watching;
  for (AnalysisTool *T : Tools) {
    if (T->wantsTiming())
      return std::nullopt;
    if (!T->wantsRecords()) {
      Watching.push_back(T);
      continue;
    }
    if (!T->newShard())
      return std::nullopt;
    Sharded.push_back(T);
  }

  // A pass over the chunk headers, the metadata and the ring geometry:
  // whether a state of the reader would cross ring chunks. Compressed
  // chunks are handed out as they are; after the pass, the pool
  // decompresses the tail of each (its own frame: a trailer ends the
  // chunk, and a zstd frame decodes from its start) to look at its
  // geometry and trailer, and decodes the first of them whole (below).
  if (FirstPass)
    AllMetadata.clear();
  DefaultThreadPool Pool(hardware_concurrency(Threads));
  std::shared_ptr<ChunkMemory> Memory = ChunkMemory::create();
  std::vector<PlannedChunk> Plan;
  size_t Rings = 0;
  // Where one thread's reading ends without a ring's records to show
  // (a damaged chunk header, a chunk cut by the end of the file): after
  // the chunks before it.
  Error End = Error::success();
  bool Ended = false;
  // Chunks decoded ahead of the merge, by the survey or after it.
  std::vector<std::unique_ptr<ShardResult>> Results;
  std::vector<std::shared_future<void>> Done;
  auto OnOneThread = [&]() -> std::optional<Error> {
    Pool.wait();
    for (std::unique_ptr<ShardResult> &S : Results)
      if (S)
        consumeError(std::move(S->Damage));
    consumeError(std::move(End));
    return std::nullopt;
  };
  const Metadata *Current = nullptr;
  TraceFile::ChunkIterator It = File.chunks();
  It.keepCompressed();
  while (true) {
    PlannedChunk P;
    Expected<bool> More = It.next(P.C);
    if (!More) {
      // A ring chunk cut by the end of the file that one thread reads up
      // to the cut (runChunks()) is read so.
      const Chunk *Cut = It.cutChunk();
      if (Cut && Cut->type() == format::ChunkType::DispatchRingBuffer &&
          Current && Current->RunRecordPromised) {
        consumeError(More.takeError());
        return OnOneThread();
      }
      End = More.takeError();
      Ended = true;
      break;
    }
    if (!*More)
      break;
    const Chunk &C = P.C;
    if (C.type() == format::ChunkType::WorkgroupTiming)
      return OnOneThread();
    if (C.Where.Compressed) {
      if (Error E = TraceFile::ChunkIterator::endOfReading(C)) {
        End = std::move(E);
        Ended = true;
        break;
      }
      P.Compressed = true;
      P.RingMeta = Current;
      ++Rings;
    } else if (C.type() == format::ChunkType::DispatchMetadata) {
      Expected<Metadata> M = Metadata::decode(C);
      if (!M) {
        consumeError(M.takeError());
        return OnOneThread();
      }
      AllMetadata.push_back(std::move(*M));
      Current = P.Meta = &AllMetadata.back();
    } else if (isRunRecordChunk(C)) {
      Expected<RunInfo> R = decodeRunRecord(C);
      if (!R) {
        consumeError(R.takeError());
        return OnOneThread();
      }
    } else {
      Expected<RingDecoder> D =
          RingDecoder::create(C, Current, Mode, limitsOf(C));
      if (!D) {
        consumeError(D.takeError());
        return OnOneThread();
      }
      P.Ring.emplace(std::move(*D));
      releaseAsDecoded(*P.Ring, C);
      ++Rings;
    }
    Plan.push_back(std::move(P));
  }
  if (Rings < 2)
    return OnOneThread();

  // Chunks decoded ahead of the merge: what bounds the memory.
  const size_t Window = 2 * size_t(Pool.getMaxConcurrency());
  Results.resize(Plan.size());
  Done.resize(Plan.size());
  size_t InFlight = 0;
  auto NewResult = [&](size_t I) -> ShardResult & {
    auto S = std::make_unique<ShardResult>(Filter);
    for (AnalysisTool *T : Sharded)
      S->Tools.push_back(T->newShard());
    Results[I] = std::move(S);
    ++InFlight;
    return *Results[I];
  };
  // A compressed chunk's decoder that decompresses its records as it
  // reads them (RingDecoder::createStreamed), or std::nullopt where the
  // chunk is decompressed whole; or in \p Skip the problem with which one
  // thread skips it.
  auto StreamedDecoder = [this](const PlannedChunk &P,
                                std::optional<std::string> &Skip)
      -> Expected<std::optional<RingDecoder>> {
    Expected<std::optional<CompressedTail>> Tail =
        TraceFile::ChunkIterator::decompressTail(P.C);
    if (!Tail) {
      Skip = skipProblem(Tail.takeError());
      return std::nullopt;
    }
    if (!*Tail)
      return std::nullopt;
    return RingDecoder::createStreamed(P.C, std::move(**Tail), P.RingMeta,
                                       limitsOf(P.C));
  };
  // decodeShard() with a streamed decoder: a records' frame that zstd
  // cannot read is skipped with the line that decompressing it whole gives
  // (what one thread says), the records read from it dropped with \p S.
  auto DecodeStreamed = [this, &Memory](const RingDecoder &D,
                                        const PlannedChunk &P, ShardResult &S) {
    decodeShard(D, S, Filter.active());
    if (D.frameProblem().empty()) {
      releaseChunk(P.C);
      return;
    }
    Chunk Plain = P.C;
    if (Error E = TraceFile::ChunkIterator::decompress(Plain, &*Memory))
      S.SkipProblem = skipProblem(std::move(E));
    else
      S.SkipProblem =
          "its records' frame, read as a stream: " + D.frameProblem() +
          "; read whole, it gives no error";
  };
  // The survey of the compressed chunks (the plan's vector no longer
  // grows: its elements stay where they are). Those among the window's
  // ring chunks are decoded too, by the task that decompressed them, into
  // results that the merge takes if the file is read on threads, and
  // drops if not (as it drops those decoded ahead of damage): a chunk is
  // then decompressed once, not once to survey it and once to decode it.
  // The survey decides only after every chunk, so the later ones are
  // decompressed when decoded, the survey having read only their tails
  // (or, for codecs 1 and 2, the whole chunk, once more): memory stays at
  // the window's results and, per thread, a stream's window or at most one
  // chunk decompressed whole.
  size_t RingsSeen = 0;
  for (size_t I = 0; I < Plan.size(); ++I) {
    PlannedChunk &P = Plan[I];
    if (!P.isRing())
      continue;
    const bool Ahead = RingsSeen++ < Window;
    if (!P.Compressed)
      continue;
    ShardResult *S = Ahead ? &NewResult(I) : nullptr;
    std::shared_future<void> F =
        Pool.async([this, &P, S, &Memory, &StreamedDecoder, &DecodeStreamed] {
          if (S) {
            // Decoded as it is decompressed, where its tail allows.
            std::optional<std::string> Skip;
            Expected<std::optional<RingDecoder>> D = StreamedDecoder(P, Skip);
            if (Skip) {
              P.SkipProblem = std::move(Skip);
              return;
            }
            if (!D) {
              consumeError(D.takeError());
              return;
            }
            if (*D) {
              const RingInfo &Info = (*D)->info();
              P.Readable = true;
              P.Trailer = Info.Trailer;
              P.NearFull = WorkgroupJoiner::endsNearFull(Info);
              if (P.Trailer && (P.Trailer->Flags & format::kTrailerStream))
                return;
              DecodeStreamed(**D, P, *S);
              P.SkipProblem = std::move(S->SkipProblem);
              return;
            }
          } else {
            // Its tail alone says what the plan needs (codecs 3 and 4).
            Expected<std::optional<CompressedTail>> Tail =
                TraceFile::ChunkIterator::decompressTail(P.C);
            if (!Tail) {
              P.SkipProblem = skipProblem(Tail.takeError());
              return;
            }
            if (*Tail) {
              Expected<std::optional<RingInfo>> Info = RingDecoder::survey(
                  P.C, **Tail, P.RingMeta, Mode, limitsOf(P.C));
              if (!Info) {
                consumeError(Info.takeError());
                return;
              }
              if (*Info) {
                P.Readable = true;
                P.Trailer = (*Info)->Trailer;
                P.NearFull = WorkgroupJoiner::endsNearFull(**Info);
                return;
              }
            }
          }
          Chunk Plain = P.C;
          if (Error E = TraceFile::ChunkIterator::decompress(Plain, &*Memory)) {
            // endOfReading() let it through: its size is known, and one
            // thread skips it with this line.
            P.SkipProblem = skipProblem(std::move(E));
            return;
          }
          Expected<RingDecoder> D =
              RingDecoder::create(Plain, P.RingMeta, Mode, limitsOf(Plain));
          if (!D) {
            consumeError(D.takeError());
            return;
          }
          P.Readable = true;
          P.Trailer = D->info().Trailer;
          P.NearFull = WorkgroupJoiner::endsNearFull(D->info());
          // A stream-mode chunk is read on one thread: not worth decoding.
          if (!S || (P.Trailer && (P.Trailer->Flags & format::kTrailerStream)))
            return;
          decodeShard(*D, *S, Filter.active());
          releaseChunk(P.C);
        });
    if (S)
      Done[I] = std::move(F);
  }
  Pool.wait();
  // A chunk decoded ahead whose frame turned out damaged is skipped: no
  // result, and no place in the window.
  for (size_t I = 0; I < Plan.size(); ++I)
    if (Results[I] && Plan[I].SkipProblem) {
      consumeError(std::move(Results[I]->Damage));
      Results[I].reset();
      --InFlight;
    }
  std::set<uint32_t> RingIds;
  // A chunk without trailer that ends near full: a later one may continue
  // its last invocation (WorkgroupJoiner).
  bool MayBeContinued = false;
  for (PlannedChunk &P : Plan) {
    if (P.Ring) {
      P.Readable = true;
      P.Trailer = P.Ring->info().Trailer;
      P.NearFull = WorkgroupJoiner::endsNearFull(P.Ring->info());
    } else if (!P.isRing()) {
      continue;
    }
    // Damage outside a ring's records: one thread reads up to it.
    if (!P.Readable)
      return OnOneThread();
    if (P.Trailer) {
      if ((P.Trailer->Flags & format::kTrailerStream) ||
          !RingIds.insert(P.Trailer->RingId).second)
        return OnOneThread();
    } else {
      if (MayBeContinued)
        return OnOneThread();
      MayBeContinued = P.NearFull;
    }
  }

  size_t NextRing = 0;
  auto Submit = [&] {
    for (; NextRing < Plan.size() && InFlight < Window; ++NextRing) {
      PlannedChunk &P = Plan[NextRing];
      // Not a ring, or decoded by the survey (its result may have been
      // merged already).
      if (!P.isRing() || Done[NextRing].valid())
        continue;
      Done[NextRing] = Pool.async([this, &P, &S = NewResult(NextRing), &Memory,
                                   &StreamedDecoder, &DecodeStreamed] {
        // A compressed chunk is decompressed here, on the pool, as it is
        // decoded where its tail allows, else whole and let go once
        // decoded; the survey made the same decoder.
        std::optional<RingDecoder> Decompressed;
        if (P.Compressed) {
          Expected<std::optional<RingDecoder>> D =
              StreamedDecoder(P, S.SkipProblem);
          if (S.SkipProblem)
            return;
          if (!D) {
            S.Damage = D.takeError();
            return;
          }
          if (*D) {
            DecodeStreamed(**D, P, S);
            return;
          }
        }
        if (P.Compressed) {
          Chunk Plain = P.C;
          if (Error E = TraceFile::ChunkIterator::decompress(Plain, &*Memory)) {
            S.SkipProblem = skipProblem(std::move(E));
            return;
          }
          Expected<RingDecoder> D =
              RingDecoder::create(Plain, P.RingMeta, Mode, limitsOf(Plain));
          if (!D) {
            S.Damage = D.takeError();
            return;
          }
          Decompressed.emplace(std::move(*D));
        }
        decodeShard(P.Compressed ? *Decompressed : *P.Ring, S, Filter.active());
        releaseChunk(P.C);
      });
    }
  };

  WorkgroupJoiner Joiner(Filter);
  BufferResolver Buffers;
  // The lines of skipped compressed chunks, then the damage that ends the
  // reading: in the order one thread reports them.
  Error Damage = Error::success();
  bool Damaged = false;
  std::vector<uint32_t> BufferMap;
  Submit();
  for (size_t I = 0; I < Plan.size() && !Damaged; ++I) {
    PlannedChunk &P = Plan[I];
    std::unique_ptr<ShardResult> S;
    if (P.isRing()) {
      Done[I].wait();
      S = std::move(Results[I]);
      --InFlight;
      Submit();
      // Its records' frame, which the survey of its tail did not read,
      // is damaged: skipped as the survey skips one.
      if (S->SkipProblem)
        P.SkipProblem = std::move(S->SkipProblem);
    }
    if (P.SkipProblem) {
      Damage = joinErrors(std::move(Damage),
                          make_error<ChunkErrorInfo>(
                              P.C.Where, P.C.Where.FileOffset, *P.SkipProblem));
      continue;
    }
    if (FirstPass)
      ++Census.Chunks;
    if (P.Meta) {
      if (FirstPass)
        ++Census.MetadataChunks;
      for (AnalysisTool *T : Tools)
        T->metadata(*P.Meta, P.C.Where);
    }
    if (!S)
      continue;
    if (!S->Decoded) {
      Damage = joinErrors(std::move(Damage), std::move(S->Damage));
      Damaged = true;
      break;
    }
    const RingInfo &Info = S->Info;
    if (FirstPass)
      countRing(Info);
    BufferMap.clear();
    for (const BufferInfo &B : S->Buffers.buffers())
      BufferMap.push_back(Buffers.intern(B));
    ShardPlace Place;
    Place.FirstInvocation = Joiner.invocations();
    Place.Buffers = BufferMap;
    Place.FileOffset = Info.Where.FileOffset;
    Joiner.addCounts(S->Joiner);
    RingInfo ToolInfo = Info;
    ToolInfo.Buffers = &Buffers.buffers();
    for (AnalysisTool *T : Watching)
      T->beginRing(ToolInfo);
    for (size_t K = 0; K < Sharded.size(); ++K)
      Sharded[K]->mergeShard(*S->Tools[K], Place);
    if (FirstPass)
      countUninstrumentedCalls(Info.Meta, S->UninstrumentedCalls);
    for (AnalysisTool *T : Watching)
      T->endRing(Info);
    if (S->Damage) {
      Damage = joinErrors(std::move(Damage), std::move(S->Damage));
      Damaged = true;
    }
  }
  // After damage, the chunks decoded ahead are not part of the reading.
  Pool.wait();
  for (std::unique_ptr<ShardResult> &S : Results)
    if (S)
      consumeError(std::move(S->Damage));
  if (Ended && !Damaged)
    Damage = joinErrors(std::move(Damage), std::move(End));
  else
    consumeError(std::move(End));
  Joiner.endFile();
  if (FirstPass)
    finishCensus(Joiner, Buffers);
  return Damage;
}

} // namespace wgtrace::viewer
