//===- RunRecord.cc -------------------------------------------------------===//

#include "reader/RunRecord.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

#include <cstddef>
#include <cstring>
#include <signal.h>
#include <string.h>

using namespace llvm;

namespace wgtrace::viewer {

std::string signalName(uint32_t Signal) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
  if (Signal > 0 && Signal < 128)
    if (const char *Name = sigabbrev_np(int(Signal)))
      return std::string("SIG") + Name;
#endif
  return fmt::format("signal {}", Signal);
}

std::string RunInfo::endText() const {
  switch (End) {
  case format::RunEnd::Running:
    return "still running (the trace was written by flushTrace or "
           "snapshotTrace)";
  case format::RunEnd::Exit:
    return ExitStatus < 0 ? "exited (status not known)"
                          : fmt::format("exited with status {}", ExitStatus);
  case format::RunEnd::Signal:
    return fmt::format("ended by signal {} ({})", Signal, signalName(Signal));
  case format::RunEnd::Crash:
    return fmt::format("crashed: signal {} ({}); the workgroup running then "
                       "is cut short",
                       Signal, signalName(Signal));
  }
  return "ended in an unknown way";
}

json::Object RunInfo::json() const {
  const char *Names[] = {"running", "exit", "signal", "crash"};
  json::Object O{{"end", Names[unsigned(End) & 3]},
                 {"workgroups", Workgroups},
                 {"uninstrumented_launches", UninstrumentedLaunches}};
  O["status"] = End == format::RunEnd::Exit && ExitStatus >= 0
                    ? json::Value(ExitStatus)
                    : json::Value(nullptr);
  bool Signalled =
      End == format::RunEnd::Signal || End == format::RunEnd::Crash;
  O["signal"] = Signalled ? json::Value(Signal) : json::Value(nullptr);
  O["signal_name"] =
      Signalled ? json::Value(signalName(Signal)) : json::Value(nullptr);
  return O;
}

namespace {

/// The trailer of ring chunk \p C, when its content has room for one.
bool trailerOf(const Chunk &C, format::RingTrailer &T, uint64_t &RingSize) {
  if (C.type() != format::ChunkType::DispatchRingBuffer ||
      C.Content.size() < format::kRingPadding + format::kRecordAlignment)
    return false;
  RingSize = C.Content.size() - format::kRingPadding;
  std::memcpy(&T, C.Content.data() + format::ringTrailerOffset(RingSize),
              sizeof(T));
  return T.Magic == format::kRingTrailerMagic;
}

} // namespace

bool isRunRecordChunk(const Chunk &C) {
  format::RingTrailer T;
  uint64_t RingSize;
  return trailerOf(C, T, RingSize) && (T.Flags & format::kTrailerRunRecord);
}

bool isCutRunRecordChunk(const Chunk &C) {
  uint32_t Magic;
  if (C.type() != format::ChunkType::DispatchRingBuffer ||
      C.Header.ContentLength !=
          format::ringChunkContentLength(format::kRunRecordRingSize) ||
      C.Content.size() < sizeof(Magic))
    return false;
  std::memcpy(&Magic, C.Content.data(), sizeof(Magic));
  return Magic == format::kRunRecordMagic;
}

Expected<RunInfo> decodeRunRecord(const Chunk &C) {
  format::RingTrailer T;
  uint64_t R = 0;
  if (!trailerOf(C, T, R))
    return chunkError(C.Where, C.contentOffset(), "not a run record chunk");
  const uint64_t Content = C.contentOffset();
  auto Fail = [&](uint64_t At, const Twine &Problem) {
    return chunkError(C.Where, Content + At, "run record: " + Problem);
  };
  // Its trailer is exactly what the writer writes: nothing in it counts.
  const uint64_t TrailerAt = format::ringTrailerOffset(R);
  // Version 2: its tail checksum covers the whole chunk (a run record's
  // ring is smaller than a block).
  if (T.Version == format::kRingTrailerVersion) {
    format::ChecksumHeader H;
    const uint64_t HeaderAt = format::checksumHeaderOffset(R);
    std::memcpy(&H, C.Content.data() + HeaderAt, sizeof(H));
    const uint32_t Sum =
        format::tailChecksum(C.Content.data(), C.Content.size());
    if (Sum != H.TailChecksum)
      return Fail(HeaderAt + offsetof(format::ChecksumHeader, TailChecksum),
                  "checksum mismatch in the chunk [0x0, 0x" +
                      Twine::utohexstr(C.Content.size()) + "): 0x" +
                      Twine::utohexstr(Sum) + ", expected 0x" +
                      Twine::utohexstr(H.TailChecksum) + ": it is damaged");
    if (H.BlockSize != format::checksumBlockSize(R) ||
        H.BlockCount != format::checksumBlockCount(R))
      return Fail(HeaderAt, "its checksum header is not a run record's");
  }
  if ((T.Version != format::kRingTrailerVersion &&
       T.Version != format::kRingTrailerVersionUnchecked) ||
      T.Flags != format::kTrailerRunRecord ||
      T.RingId != format::kRunRecordRingId || T.LostSiteCount ||
      T.ChunkSequence || T.BaseVirtualOffset || T.RingSize != R ||
      T.BytesLost || T.RecordsLost || T.WorkgroupsLost)
    return Fail(TrailerAt, "its ring trailer is not the run record's (version "
                           "1 or 2, flags 0x10, ring 0xFFFFFFFF, ring size " +
                               Twine(R) + ", nothing lost)");
  uint64_t Head;
  std::memcpy(&Head,
              C.Content.data() + C.Content.size() - format::kRingHeadSize,
              sizeof(Head));
  if (Head != 0)
    return Fail(C.Content.size() - format::kRingHeadSize,
                Twine("head ") + Twine(Head) + " is not 0");
  const uint64_t Room = format::runRecordRoom(R, T.Version);
  format::RunRecord Rec;
  std::memcpy(&Rec, C.Content.data(), sizeof(Rec));
  if (Rec.Magic != format::kRunRecordMagic)
    return Fail(0,
                "bad magic 0x" + Twine::utohexstr(Rec.Magic) + ", expected 0x" +
                    Twine::utohexstr(format::kRunRecordMagic) + " (\"WGRN\")");
  if (Rec.Version != format::kRunRecordVersion)
    return Fail(4, Twine("version ") + Twine(Rec.Version) +
                       " is not the supported version " +
                       Twine(format::kRunRecordVersion));
  if (Rec.End > uint16_t(format::RunEnd::Crash))
    return Fail(6, Twine("unknown end of run ") + Twine(Rec.End));
  uint64_t Entries = sizeof(Rec) + uint64_t(Rec.UninstrumentedSites) *
                                       sizeof(format::UninstrumentedSite);
  if (Entries + Rec.StringBytes > Room)
    return Fail(28, Twine(Rec.UninstrumentedSites) +
                        " uninstrumented launch places and " +
                        Twine(Rec.StringBytes) +
                        " bytes of strings do not fit in its " + Twine(Room) +
                        " bytes");
  {
    std::vector<uint8_t> Copy(C.Content.begin(),
                              C.Content.begin() + Entries + Rec.StringBytes);
    std::memset(Copy.data() + offsetof(format::RunRecord, Checksum), 0, 4);
    uint32_t Sum = format::runRecordChecksum(Copy.data(), Copy.size());
    if (Sum != Rec.Checksum)
      return Fail(offsetof(format::RunRecord, Checksum),
                  "checksum 0x" + Twine::utohexstr(Rec.Checksum) +
                      " does not match its contents (0x" +
                      Twine::utohexstr(Sum) + "): it is damaged");
  }
  // What follows the strings up to the checksums (version 1: the trailer)
  // is zero, as written.
  for (uint64_t I = Entries + Rec.StringBytes; I < Room; ++I)
    if (C.Content[I])
      return Fail(I, "bytes after its strings are not zero");
  RunInfo Info;
  Info.Chunk = C.Where.Index;
  Info.FileOffset = C.Offset;
  Info.End = static_cast<format::RunEnd>(Rec.End);
  Info.ExitStatus = Rec.ExitStatus;
  Info.Signal = Rec.Signal;
  Info.Workgroups = Rec.Workgroups;
  Info.MaxProcessorId = Rec.MaxProcessorId;
  Info.UninstrumentedLaunches = Rec.UninstrumentedLaunches;
  StringRef Strings(reinterpret_cast<const char *>(C.Content.data()) + Entries,
                    Rec.StringBytes);
  for (uint32_t I = 0; I < Rec.UninstrumentedSites; ++I) {
    uint64_t At =
        sizeof(Rec) + uint64_t(I) * sizeof(format::UninstrumentedSite);
    format::UninstrumentedSite E;
    std::memcpy(&E, C.Content.data() + At, sizeof(E));
    auto String = [&](uint32_t Offset, std::string &Out) {
      size_t End = Offset < Strings.size() ? Strings.find('\0', Offset)
                                           : StringRef::npos;
      if (End == StringRef::npos)
        return false;
      Out = Strings.slice(Offset, End).str();
      return true;
    };
    UninstrumentedLaunch L;
    if (!String(E.File, L.File) || !String(E.Kernel, L.Kernel))
      return Fail(At + 16, Twine("uninstrumented launch place ") + Twine(I) +
                               " names a string outside its " +
                               Twine(Rec.StringBytes) + " bytes of strings");
    L.Line = E.Line;
    L.DispatchId = E.DispatchId;
    L.Launches = E.Launches;
    L.Workgroups = E.Workgroups;
    Info.Uninstrumented.push_back(std::move(L));
  }
  return Info;
}

} // namespace wgtrace::viewer
