//===- naive_dump.cc - The baseline: one fprintf per record ---------------===//
//
// naive-dump FILE
//
// What a first decoder looks like (and what IREE's iree-dump-instruments
// does): read the file, walk the chunks, and fprintf one line per record
// in the dump format. No validation beyond staying inside the file, no
// metadata, no wrap handling. wgtrace-view's dump is measured against it.
//
//===----------------------------------------------------------------------===//

#include "wgtrace/format.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace wgtrace;

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    std::fprintf(stderr, "usage: naive-dump FILE\n");
    return 1;
  }
  FILE *F = std::fopen(Argv[1], "rb");
  if (!F) {
    std::perror(Argv[1]);
    return 1;
  }
  std::fseek(F, 0, SEEK_END);
  long Size = std::ftell(F);
  std::fseek(F, 0, SEEK_SET);
  std::vector<uint8_t> Bytes(Size);
  if (std::fread(Bytes.data(), 1, Size, F) != size_t(Size))
    return 1;
  std::fclose(F);
  uint64_t Offset = 0;
  while (Offset + format::kChunkHeaderSize <= Bytes.size()) {
    format::ChunkHeader H;
    std::memcpy(&H, Bytes.data() + Offset, sizeof(H));
    const uint8_t *C = Bytes.data() + Offset + format::kChunkHeaderSize;
    if (H.Magic != format::kChunkMagic ||
        Offset + format::kChunkHeaderSize + H.ContentLength > Bytes.size())
      return 2;
    if (H.Type == uint16_t(format::ChunkType::DispatchRingBuffer)) {
      uint64_t Head;
      std::memcpy(&Head, C + H.ContentLength - 8, 8);
      for (uint64_t A = 0; A < Head;) {
        const uint8_t *P = C + A;
        switch (format::Tag(format::recordTag(P))) {
        case format::Tag::Workgroup: {
          format::WorkgroupRecord W = format::decodeWorkgroup(P);
          std::fprintf(stdout,
                       "%016" PRIX64 " | WORKGROUP dispatch(%u) %u,%u,%u "
                       "pid:%u\n",
                       A, W.DispatchId, W.Id[0], W.Id[1], W.Id[2],
                       W.ProcessorId);
          A += format::kWorkgroupRecordSize;
          break;
        }
        case format::Tag::MemoryLoad:
        case format::Tag::MemoryStore: {
          format::MemoryRecord M = format::decodeMemory(P);
          std::fprintf(stdout, "%016" PRIX64 " | %s %016" PRIX64 " %u\n",
                       M.WorkgroupOffset, M.IsStore ? "STORE" : "LOAD ",
                       M.Address, M.Length);
          A += format::kMemoryRecordSize;
          break;
        }
        case format::Tag::Value: {
          format::ValueRecord V = format::decodeValue(P);
          std::fprintf(stdout, "%016" PRIX64 " | VALUE %04u = %" PRIu64 "\n",
                       V.WorkgroupOffset, unsigned(V.Ordinal), V.Bits);
          A += format::kValueRecordSize;
          break;
        }
        case format::Tag::Print: {
          format::PrintRecord PR = format::decodePrintHeader(P);
          std::fprintf(stdout, "%016" PRIX64 " | PRINT %.*s\n",
                       PR.WorkgroupOffset, int(PR.Length),
                       reinterpret_cast<const char *>(P) + 8);
          A += format::printRecordSize(PR.Length);
          break;
        }
        default:
          return 2;
        }
      }
    }
    Offset = format::nextChunkOffset(Offset, H.ContentLength);
  }
  return 0;
}
