//===- TraceReader.cc -----------------------------------------------------===//

#include "TraceReader.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

using namespace llvm;

namespace wgtrace::viewer {

Error TraceReader::run(ArrayRef<AnalysisTool *> Tools) {
  Error E = runChunks(Tools);
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
    AllMetadata.clear();
    consumeError(runChunks(Again));
  }
  for (AnalysisTool *T : Tools)
    T->finish();
  return E;
}

Error TraceReader::runChunks(ArrayRef<AnalysisTool *> Tools) {
  TraceFile::ChunkIterator It = File.chunks();
  const Metadata *Current = nullptr;
  // The ring a timing chunk describes is the chunk right before it.
  std::optional<RingInfo> PreviousRing;
  std::vector<format::TimingRecord> Entries;
  SmallVector<AnalysisTool *, 4> RecordTools;
  for (AnalysisTool *T : Tools)
    if (T->wantsRecords())
      RecordTools.push_back(T);
  Chunk C;
  while (true) {
    Expected<bool> More = It.next(C);
    if (!More)
      return More.takeError();
    if (!*More)
      return Error::success();
    if (C.type() == format::ChunkType::DispatchMetadata) {
      Expected<Metadata> M = Metadata::decode(C);
      if (!M)
        return M.takeError();
      PreviousRing.reset();
      AllMetadata.push_back(std::move(*M));
      Current = &AllMetadata.back();
      for (AnalysisTool *T : Tools)
        T->metadata(*Current, C.Where);
      continue;
    }
    if (C.type() == format::ChunkType::WorkgroupTiming) {
      // wgtrace's extension: start/end times of the previous ring's
      // workgroups.
      if (C.Content.size() % sizeof(format::TimingRecord) != 0)
        return chunkError(
            C.Where, C.Offset + 8,
            Twine("timing content of ") + Twine(C.Content.size()) +
                " bytes is not a whole number of " +
                Twine(sizeof(format::TimingRecord)) + "-byte entries");
      if (PreviousRing) {
        // Copied out: the content is only 16-byte aligned relative to the
        // start of the file, which a caller's buffer need not be.
        Entries.resize(C.Content.size() / sizeof(format::TimingRecord));
        if (!Entries.empty())
          std::memcpy(Entries.data(), C.Content.data(), C.Content.size());
        for (AnalysisTool *T : Tools)
          T->timing(*PreviousRing, Entries);
      }
      PreviousRing.reset();
      continue;
    }
    Expected<RingDecoder> D = RingDecoder::create(C, Current, Mode);
    if (!D)
      return D.takeError();
    D->onConsumed(
        [this](uint64_t Begin, uint64_t End) { File.release(Begin, End); });
    for (AnalysisTool *T : Tools)
      T->beginRing(D->info());
    Error E =
        RecordTools.size() == 1
            ? D->decode([T = RecordTools[0]](const Record &R) { T->record(R); })
            : D->decode([&](const Record &R) {
                for (AnalysisTool *T : RecordTools)
                  T->record(R);
              });
    for (AnalysisTool *T : Tools)
      T->endRing(D->info());
    // Tools keep no pointers into a ring after endRing().
    File.release(C.Offset, C.contentOffset() + C.Content.size());
    if (E)
      return E;
    PreviousRing = D->info();
  }
}

} // namespace wgtrace::viewer
