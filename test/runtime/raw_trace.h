//===- raw_trace.h - A trace file read with format.h alone ----------------===//
//
// What the runtime wrote, byte for byte: chunks, each ring chunk's records
// from offset 0 to its head as IREE's dump tool reads them, its trailer and
// lost sites, and the workgroup invocations its records belong to (copies
// joined by their Continuation VALUE). Independent of the viewer's decoder,
// so that the tests check the writer against the format, not against
// another reading of it.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_TEST_RUNTIME_RAW_TRACE_H
#define WGTRACE_TEST_RUNTIME_RAW_TRACE_H

#include "wgtrace/format.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace wgtrace::test {

struct RawRecord {
  uint64_t Offset;
  format::Tag Tag;
  const uint8_t *Bytes;
  /// The workgroup offset of a non-WORKGROUP record.
  uint64_t Key = 0;
};

struct RawRing {
  uint64_t RingSize = 0;
  uint64_t Head = 0;
  std::vector<RawRecord> Records;
  /// Where reading the records as IREE's tool does stopped early (a tag it
  /// does not know, a record past the head): empty when it read them all.
  std::string Problem;
  std::optional<format::RingTrailer> Trailer;
  std::vector<format::LostSite> LostSites;
};

struct RawChunk {
  format::ChunkType Type;
  uint16_t Version;
  const uint8_t *Content;
  uint64_t Length;
  /// Index into RawTrace::Rings for a ring chunk.
  size_t Ring = 0;
  /// The run record chunk (a ring chunk without records, format.h): not
  /// in RawTrace::Rings.
  bool RunRecord = false;
};

/// One workgroup invocation: its pieces' records joined.
struct RawInvocation {
  uint32_t Site = 0;
  uint32_t Id[3] = {};
  uint32_t ProcessorId = 0;
  uint64_t Loads = 0, Stores = 0, Values = 0, Prints = 0;
  /// Its first WORKGROUP record is followed at once by an Unselected VALUE
  /// (the filter left it out), whose bits are UnselectedBy.
  bool Unselected = false;
  uint64_t UnselectedBy = 0;
  /// Pieces (the original record or copies) seen.
  unsigned Pieces = 0;
  bool SawFirst = false;
  /// Addresses of its memory records, its buffer VALUEs (ordinal: base,
  /// extent) as each piece names them, and the addresses of memory records
  /// that fall in no buffer their piece named.
  std::vector<uint64_t> Addresses;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> PieceBuffers;
  std::vector<uint64_t> PieceAddressesBad;
};

struct RawTrace {
  std::vector<uint8_t> File;
  std::vector<RawChunk> Chunks;
  std::vector<RawRing> Rings;
  /// The run records (the last chunk of every trace wgtrace writes).
  std::vector<format::RunRecord> Runs;
  /// The ring chunks (the run record's too) whose trailer is not version 2
  /// or whose checksums are not those format::sealRingChunk computes from
  /// the chunk in memory: empty when the streamed ones are all right.
  std::string ChecksumProblems;

  static RawTrace read(const std::string &Path) {
    RawTrace T;
    std::ifstream In(Path, std::ios::binary);
    T.File.assign(std::istreambuf_iterator<char>(In),
                  std::istreambuf_iterator<char>());
    for (uint64_t Offset = 0; Offset + 16 <= T.File.size();) {
      format::ChunkHeader H;
      std::memcpy(&H, T.File.data() + Offset, sizeof(H));
      if (H.Magic != format::kChunkMagic)
        break;
      RawChunk C{static_cast<format::ChunkType>(H.Type), H.Version,
                 T.File.data() + Offset + 16, H.ContentLength};
      if (C.Type == format::ChunkType::DispatchRingBuffer) {
        RawRing R = readRing(C);
        std::vector<uint8_t> Sealed(C.Content, C.Content + C.Length);
        format::sealRingChunk(Sealed.data(), Sealed.size());
        if (!R.Trailer || R.Trailer->Version != format::kRingTrailerVersion ||
            std::memcmp(Sealed.data(), C.Content, C.Length) != 0)
          T.ChecksumProblems += "chunk at " + std::to_string(Offset) + " ";
        C.RunRecord =
            R.Trailer && (R.Trailer->Flags & format::kTrailerRunRecord);
        if (C.RunRecord) {
          format::RunRecord Run;
          std::memcpy(&Run, C.Content, sizeof(Run));
          T.Runs.push_back(Run);
        } else {
          C.Ring = T.Rings.size();
          T.Rings.push_back(std::move(R));
        }
      }
      T.Chunks.push_back(C);
      Offset = format::nextChunkOffset(Offset, H.ContentLength);
    }
    return T;
  }

  /// IREE's dump tool: records from 0 to min(head, R), stopping at a tag it
  /// does not know.
  static RawRing readRing(const RawChunk &C) {
    RawRing R;
    R.RingSize = C.Length - format::kRingPadding;
    std::memcpy(&R.Head, C.Content + C.Length - 8, 8);
    uint64_t End = std::min(R.Head, R.RingSize);
    for (uint64_t At = 0; At < End;) {
      const uint8_t *P = C.Content + At;
      uint64_t Size = format::recordSize(P);
      if (Size == 0) {
        R.Problem = "unknown tag " + std::to_string(P[0]) + " at offset " +
                    std::to_string(At);
        break;
      }
      RawRecord Rec{At, static_cast<format::Tag>(P[0]), P};
      if (Rec.Tag != format::Tag::Workgroup) {
        uint64_t Word;
        std::memcpy(&Word, P, 8);
        Rec.Key = format::wordWorkgroupOffset(Word);
      }
      R.Records.push_back(Rec);
      At += Size;
    }
    uint64_t TrailerAt = format::ringTrailerOffset(R.RingSize);
    format::RingTrailer T;
    std::memcpy(&T, C.Content + TrailerAt, sizeof(T));
    if (T.Magic == format::kRingTrailerMagic) {
      R.Trailer = T;
      for (uint32_t I = 0; I < T.LostSiteCount; ++I) {
        format::LostSite S;
        std::memcpy(&S,
                    C.Content + format::lostSitesEnd(R.RingSize, T.Version) -
                        (I + 1) * sizeof(S),
                    sizeof(S));
        R.LostSites.push_back(S);
      }
    }
    return R;
  }

  /// The invocations of every ring chunk, keyed by (ring id, lifetime
  /// offset of the first record); checks that every record's key names a
  /// WORKGROUP record before it in its chunk (else \p Bad is set).
  std::map<std::pair<uint32_t, uint64_t>, RawInvocation>
  invocations(std::string *Bad = nullptr) const {
    std::map<std::pair<uint32_t, uint64_t>, RawInvocation> Out;
    for (const RawRing &R : Rings) {
      uint32_t RingId = R.Trailer ? R.Trailer->RingId : 0;
      uint64_t Base = R.Trailer ? R.Trailer->BaseVirtualOffset : 0;
      // Chunk offset of each WORKGROUP record -> its invocation and piece.
      std::map<uint64_t, std::pair<RawInvocation *, size_t>> Pieces;
      for (size_t I = 0; I < R.Records.size(); ++I) {
        const RawRecord &Rec = R.Records[I];
        if (Rec.Tag == format::Tag::Workgroup) {
          uint64_t First = Base + Rec.Offset;
          bool Copy = false;
          if (I + 1 < R.Records.size() &&
              R.Records[I + 1].Tag == format::Tag::Value) {
            format::ValueRecord V = format::decodeValue(R.Records[I + 1].Bytes);
            if (V.Type == format::ValueType::Continuation &&
                V.WorkgroupOffset == Rec.Offset) {
              First = V.Bits;
              Copy = true;
            }
          }
          RawInvocation &Inv = Out[{RingId, First}];
          if (!Copy && I + 1 < R.Records.size() &&
              R.Records[I + 1].Tag == format::Tag::Value) {
            format::ValueRecord V = format::decodeValue(R.Records[I + 1].Bytes);
            if (V.Type == format::ValueType::Unselected &&
                V.WorkgroupOffset == Rec.Offset &&
                R.Records[I + 1].Offset ==
                    ((Rec.Offset + format::kWorkgroupRecordSize) &
                     (R.RingSize - 1))) {
              Inv.Unselected = true;
              Inv.UnselectedBy = V.Bits;
              ++I; // the mark: no record of the invocation's own
            }
          }
          format::WorkgroupRecord W = format::decodeWorkgroup(Rec.Bytes);
          Inv.Site = W.DispatchId;
          std::memcpy(Inv.Id, W.Id, sizeof(Inv.Id));
          Inv.ProcessorId = W.ProcessorId;
          Inv.SawFirst |= !Copy;
          ++Inv.Pieces;
          Inv.PieceBuffers.emplace_back();
          Pieces[Rec.Offset] = {&Inv, Inv.PieceBuffers.size() - 1};
          continue;
        }
        auto It = Pieces.find(Rec.Key);
        if (It == Pieces.end() || Rec.Key >= Rec.Offset) {
          if (Bad && Bad->empty())
            *Bad = "record at offset " + std::to_string(Rec.Offset) +
                   " keyed to " + std::to_string(Rec.Key) +
                   ", which is no earlier WORKGROUP record";
          continue;
        }
        RawInvocation &Inv = *It->second.first;
        auto &Buffers = Inv.PieceBuffers[It->second.second];
        switch (Rec.Tag) {
        case format::Tag::MemoryLoad:
        case format::Tag::MemoryStore: {
          format::MemoryRecord M = format::decodeMemory(Rec.Bytes);
          (M.IsStore ? Inv.Stores : Inv.Loads) += 1;
          uint64_t Address = format::addressOfWord(M.Address);
          Inv.Addresses.push_back(Address);
          bool Inside = false;
          for (auto &[B, E] : Buffers)
            Inside |= Address >= B && Address < B + E;
          if (!Inside)
            Inv.PieceAddressesBad.push_back(Address);
          break;
        }
        case format::Tag::Value: {
          format::ValueRecord V = format::decodeValue(Rec.Bytes);
          if (V.Type == format::ValueType::BufferBase) {
            if (Buffers.size() <= V.Ordinal)
              Buffers.resize(V.Ordinal + 1, {0, 0});
            Buffers[V.Ordinal].first = V.Bits;
          } else if (V.Type == format::ValueType::BufferExtent) {
            if (Buffers.size() <= V.Ordinal)
              Buffers.resize(V.Ordinal + 1, {0, 0});
            Buffers[V.Ordinal].second = V.Bits;
          } else if (V.Type != format::ValueType::Continuation) {
            ++Inv.Values;
          }
          break;
        }
        case format::Tag::Print:
          ++Inv.Prints;
          break;
        default:
          break;
        }
      }
    }
    return Out;
  }
};

inline std::vector<format::TimingRecord> timingEntries(const RawChunk &C,
                                                       size_t Skip = 0) {
  std::vector<format::TimingRecord> Entries((C.Length - Skip) /
                                            sizeof(format::TimingRecord));
  std::memcpy(Entries.data(), C.Content + Skip,
              Entries.size() * sizeof(format::TimingRecord));
  return Entries;
}

} // namespace wgtrace::test

#endif // WGTRACE_TEST_RUNTIME_RAW_TRACE_H
