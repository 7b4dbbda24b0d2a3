//===- TraceReader.cc -----------------------------------------------------===//

#include "reader/TraceReader.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
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
  TraceFile::ChunkIterator It = File.chunks();
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
  Error E = runChunks(Tools, /*FirstPass=*/true);
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
    consumeError(runChunks(Again, /*FirstPass=*/false));
  }
  for (AnalysisTool *T : Tools)
    T->census(Census);
  for (AnalysisTool *T : Tools)
    T->finish();
  return E;
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

Error TraceReader::runChunks(ArrayRef<AnalysisTool *> Tools, bool FirstPass) {
  AllMetadata.clear();
  TraceFile::ChunkIterator It = File.chunks();
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
    // The run record after the chunk bounds its processor ids.
    RecordLimits Limits;
    for (const RunInfo &Run : Census.Runs)
      if (Run.Chunk > C.Where.Index) {
        Limits.MaxProcessorId = Run.MaxProcessorId;
        break;
      }
    Expected<RingDecoder> D =
        CutError
            ? RingDecoder::createCut(C, C.Header.ContentLength, Current, Limits)
            : RingDecoder::create(C, Current, Mode, Limits);
    if (!D) {
      if (CutError)
        consumeError(std::move(*CutError));
      return EndPass(D.takeError());
    }
    // A decompressed chunk is in memory of its own, not in the mapping.
    // The decoder names plain offsets (ChunkLocation).
    if (!C.Where.Compressed)
      D->onConsumed([this, Shift = C.Where.FileOffset - C.Where.PlainOffset](
                        uint64_t Begin, uint64_t End) {
        File.release(Begin + Shift, End + Shift);
      });
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
    Error E = Error::success();
    if (!Filter.active() && !Buffers.active() && RecordTools.size() == 1) {
      // The common case, as lean as the decoder: one tool, every record.
      AnalysisTool *T = RecordTools[0];
      if (WantTiming)
        E = D->decode(
            [T, &Offsets](Record &R) {
              if (R.Tag == format::Tag::Workgroup && R.Workgroup)
                Offsets.emplace_back(R.Offset, R.Workgroup->Invocation);
              T->record(R);
            },
            &Joiner);
      else
        E = D->decode([T](Record &R) { T->record(R); }, &Joiner);
    } else if (!Filter.active() && !Buffers.active() && !WantTiming) {
      // Several tools (diff: races and profile), every record.
      E = D->decode(
          [Tools = ArrayRef<AnalysisTool *>(RecordTools)](Record &R) {
            for (AnalysisTool *T : Tools)
              T->record(R);
          },
          &Joiner);
    } else {
      const bool ResolveBuffers = Buffers.active();
      E = D->decode(
          [&](Record &R) {
            if (ResolveBuffers) {
              if (R.Tag == format::Tag::Value)
                Buffers.value(R);
              else if (R.Tag == format::Tag::MemoryLoad ||
                       R.Tag == format::Tag::MemoryStore)
                R.Buffer = Buffers.resolve(R);
            }
            if (R.Workgroup) {
              if (WantTiming && R.Tag == format::Tag::Workgroup)
                Offsets.emplace_back(R.Offset, R.Workgroup->Invocation);
              if (!R.Workgroup->Selected)
                return;
            }
            for (AnalysisTool *T : RecordTools)
              T->record(R);
          },
          &Joiner);
    }
    if (FirstPass)
      countUninstrumentedCalls(Info.Meta, D->uninstrumentedCalls());
    for (AnalysisTool *T : Tools)
      T->endRing(Info);
    EndWorkgroups();
    std::sort(Offsets.begin(), Offsets.end());
    // Tools keep no pointers into a ring after endRing().
    File.release(C.Where.FileOffset, C.Where.Compressed
                                         ? C.Where.FileOffset + C.FileLength
                                         : C.Where.FileOffset +
                                               format::kChunkHeaderSize +
                                               C.Content.size());
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
