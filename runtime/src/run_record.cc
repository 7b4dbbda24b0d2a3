//===- run_record.cc - How the run ended, as the trace's last chunk -------===//

#include "run_record.h"

#include "ring_chunk.h"
#include "thread_ring.h"
#include "uninstrumented.h"

#include <algorithm>
#include <cstring>

namespace wgtrace::runtime {
namespace {

size_t length(const char *Text, size_t Max) {
  size_t N = 0;
  while (N < Max && Text[N])
    ++N;
  return N;
}

} // namespace

void writeRunRecordChunk(Sink &Out, const RunEnding &How, bool Unlocked) {
  format::RunRecord R = {};
  R.Magic = format::kRunRecordMagic;
  R.Version = format::kRunRecordVersion;
  R.End = static_cast<uint16_t>(How.End);
  R.ExitStatus = How.End == format::RunEnd::Exit ? How.Status : 0;
  R.Signal =
      How.End == format::RunEnd::Signal || How.End == format::RunEnd::Crash
          ? static_cast<uint32_t>(How.Signal)
          : 0;
  // One pointer captured: std::function holds it without allocating.
  auto Count = [P = &R](ThreadRing &TR) {
    P->Workgroups += TR.Counts.Workgroups;
    P->MaxProcessorId = std::max(P->MaxProcessorId, TR.Counts.MaxProcessorId);
  };
  if (Unlocked)
    forEachRingUnlocked(Count);
  else
    forEachRing(Count);

  // The record, then as many places as the ring storage holds with their
  // strings; the total counts them all.
  constexpr uint64_t RingSize = format::kRunRecordRingSize;
  uint8_t Storage[format::runRecordRoom(RingSize)] = {};
  unsigned Places;
  const UninstrumentedPlace *Place =
      uninstrumentedPlaces(Places, R.UninstrumentedLaunches);
  size_t Listed = 0, Strings = 0;
  for (; Listed < Places; ++Listed) {
    const UninstrumentedPlace &P = Place[Listed];
    size_t Need =
        length(P.File, sizeof(P.File)) + length(P.Kernel, sizeof(P.Kernel)) + 2;
    if (sizeof(R) + (Listed + 1) * sizeof(format::UninstrumentedSite) +
            Strings + Need >
        sizeof(Storage))
      break;
    Strings += Need;
  }
  R.UninstrumentedSites = static_cast<uint32_t>(Listed);
  R.StringBytes = static_cast<uint32_t>(Strings);
  std::memcpy(Storage, &R, sizeof(R));
  uint8_t *Entries = Storage + sizeof(R);
  char *Text = reinterpret_cast<char *>(
      Entries + Listed * sizeof(format::UninstrumentedSite));
  uint32_t At = 0;
  for (size_t I = 0; I < Listed; ++I) {
    const UninstrumentedPlace &P = Place[I];
    format::UninstrumentedSite E = {};
    E.Launches = P.Launches;
    E.Workgroups = P.Workgroups;
    E.Line = P.Line;
    E.DispatchId = P.DispatchId;
    E.File = At;
    size_t N = length(P.File, sizeof(P.File));
    std::memcpy(Text + At, P.File, N);
    At += static_cast<uint32_t>(N + 1);
    E.Kernel = At;
    N = length(P.Kernel, sizeof(P.Kernel));
    std::memcpy(Text + At, P.Kernel, N);
    At += static_cast<uint32_t>(N + 1);
    std::memcpy(Entries + I * sizeof(E), &E, sizeof(E));
  }
  R.Checksum = format::runRecordChecksum(
      Storage,
      sizeof(R) + Listed * sizeof(format::UninstrumentedSite) + Strings);
  std::memcpy(Storage, &R, sizeof(R));

  writeChunkHeader(Out, format::ChunkType::DispatchRingBuffer,
                   format::ringChunkContentLength(RingSize));
  ChecksumSink Content(Out, RingSize);
  Content.write(Storage, sizeof(Storage));
  format::RingTrailer T = {};
  T.Magic = format::kRingTrailerMagic;
  T.Version = format::kRingTrailerVersion;
  T.Flags = format::kTrailerRunRecord;
  T.RingId = format::kRunRecordRingId;
  T.RingSize = RingSize;
  // The head is 0: no reader of rings finds a record here.
  writeTail(Content, RingSize, T, nullptr, /*Head=*/0);
}

} // namespace wgtrace::runtime
