//===- make_big_trace.cc - Synthetic traces of any size for benchmarks ----===//
//
// wgtrace-make-big-trace OUT SIZE_MIB [--workers N] [--access-sites] [--demo]
//
// Writes a metadata chunk and one ring chunk per worker, each ring filled
// (without wrapping) with the workgroups of a tiled matrix multiply, the
// access pattern of a typical kernel: per workgroup, its panels of A and B
// read row by row and its tile of C written, plus one VALUE. Workgroups are
// handed to workers round robin, like the local-task pool would. The same
// matrices are reused over and over, so a larger file has more records but
// not more distinct addresses, as when a real program runs longer.
//
// --access-sites gives every load and store its source line, as the
// rewriter does (wgtrace's metadata extension with an access site per
// expression of the kernels, whose ids go into the address words), for the
// reports by source line (annotate).
//
// --demo writes a small, readable trace instead (a 64 x 64 matmul in 16 x 16
// tiles and a transpose), for screenshots.
//
// Records are encoded with format.h, the metadata with the FlatBuffers
// builder: the same code paths as the runtime.
//
//===----------------------------------------------------------------------===//

#include "wgtrace/dispatch_instrument_generated.h"
#include "wgtrace/format.h"

#include <flatbuffers/flatbuffers.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace wgtrace;

namespace {

void writeChunk(FILE *F, format::ChunkType Type, const void *Data,
                uint64_t Length) {
  format::ChunkHeader H{format::kChunkMagic, uint16_t(Type), 0, Length};
  std::fwrite(&H, sizeof(H), 1, F);
  std::fwrite(Data, 1, Length, F);
  static const char Zero[16] = {};
  std::fwrite(Zero, 1, format::alignUp(Length, 16) - Length, F);
}

/// Access site ids (access_sites entry + 1) of the kernels' expressions.
enum : uint64_t { kSiteA = 1, kSiteB, kSiteC, kSiteIn, kSiteOut };
bool WithSites = false;

/// The address word of an access made at access site \p Site.
uint64_t at(uint64_t Address, uint64_t Site) {
  return WithSites ? Address | format::accessSiteBits(Site) : Address;
}

/// wgtrace's extension naming the kernels' access sites (bench.cc, lines
/// of a matmul and a transpose kernel).
flatbuffers::Offset<fb::WgtraceDef>
accessSites(flatbuffers::FlatBufferBuilder &B) {
  struct Site {
    uint32_t Line, Column;
    fb::AccessKind Kind;
    const char *Scope, *Text;
  };
  const Site Sites[] = {
      {12, 14, fb::AccessKind::Load, "matmul_tiled", "a[row * n + k]"},
      {12, 33, fb::AccessKind::Load, "matmul_tiled", "b[k * n + col]"},
      {13, 5, fb::AccessKind::Store, "matmul_tiled", "c[row * n + col]"},
      {22, 30, fb::AccessKind::Load, "transpose", "in[row * n + col]"},
      {22, 5, fb::AccessKind::Store, "transpose", "out[col * n + row]"}};
  std::vector<flatbuffers::Offset<fb::AccessSiteDef>> Defs;
  for (const Site &S : Sites) {
    fb::SourceLocation Where(1, S.Line, S.Column);
    Defs.push_back(fb::CreateAccessSiteDef(
        B, &Where, S.Kind, B.CreateString(S.Scope), B.CreateString(S.Text)));
  }
  auto Files = B.CreateVectorOfStrings({"", "bench.cc"});
  return fb::CreateWgtraceDef(B, 1, Files, 0, 0, B.CreateVector(Defs));
}

void writeMetadata(FILE *F) {
  flatbuffers::FlatBufferBuilder B;
  auto Fn = [&](const char *Name, const char *Source) {
    return fb::CreateDispatchFunctionDef(
        B, B.CreateString(Name), B.CreateString("x86_64-linux-gnu -O2"),
        B.CreateString("(const float*, const float*, float*)"),
        B.CreateString(Source));
  };
  std::vector<flatbuffers::Offset<fb::DispatchFunctionDef>> Fns = {
      Fn("matmul_tiled", "void matmul_tiled(const wgtrace::Workgroup&, ...)"),
      Fn("transpose", "void transpose(const wgtrace::Workgroup&, ...)")};
  std::vector<flatbuffers::Offset<fb::DispatchSiteDef>> Sites = {
      fb::CreateDispatchSiteDef(B, 0), fb::CreateDispatchSiteDef(B, 1)};
  auto FnTable = B.CreateVector(Fns);
  auto SiteTable = B.CreateVector(Sites);
  flatbuffers::Offset<fb::WgtraceDef> X;
  if (WithSites)
    X = accessSites(B);
  fb::DispatchInstrumentDefBuilder Root(B);
  Root.add_functions(FnTable);
  Root.add_sites(SiteTable);
  if (WithSites)
    Root.add_wgtrace(X);
  fb::FinishDispatchInstrumentDefBuffer(B, Root.Finish());
  writeChunk(F, format::ChunkType::DispatchMetadata, B.GetBufferPointer(),
             B.GetSize());
}

/// A ring being filled by one worker.
struct Ring {
  std::vector<uint8_t> Bytes;
  uint64_t Size;
  uint64_t Head = 0;
  uint64_t Key = 0;
  explicit Ring(uint64_t Size)
      : Bytes(format::ringChunkContentLength(Size), 0), Size(Size) {}
  uint8_t *reserve(uint64_t N) {
    uint8_t *P = Bytes.data() + (Head & (Size - 1));
    Head += N;
    return P;
  }
  void workgroup(uint32_t Site, uint32_t X, uint32_t Y, uint32_t CX,
                 uint32_t CY, uint32_t Pid) {
    Key = Head & (Size - 1);
    format::encodeWorkgroup(reserve(format::kWorkgroupRecordSize),
                            {Site, {X, Y, 0}, {CX, CY, 1}, Pid});
  }
  void access(bool Store, uint64_t Address, uint32_t Length) {
    format::encodeMemory(reserve(format::kMemoryRecordSize), Store, Length, Key,
                         Address);
  }
  void value(uint64_t Bits) {
    format::encodeValue(reserve(format::kValueRecordSize),
                        format::ValueType::Float32, 0, Key, Bits);
  }
  void write(FILE *F) {
    std::memcpy(Bytes.data() + Bytes.size() - format::kRingHeadSize, &Head,
                sizeof(Head));
    writeChunk(F, format::ChunkType::DispatchRingBuffer, Bytes.data(),
               Bytes.size());
  }
};

/// The records of workgroup (Tx, Ty) of an N x N matmul in T x T tiles.
uint64_t matmulRecords(uint32_t N, uint32_t T) {
  return 1 + 2 * uint64_t(T) * N + uint64_t(T) * T + 1;
}

void matmul(Ring &R, uint32_t N, uint32_t T, uint32_t Tx, uint32_t Ty,
            uint32_t Pid) {
  const uint64_t A = 0x7f3a00000000, B = A + 0x4000000, C = B + 0x4000000;
  R.workgroup(0, Tx, Ty, N / T, N / T, Pid);
  for (uint32_t I = 0; I < T; ++I)
    for (uint32_t K = 0; K < N; ++K)
      R.access(false, at(A + 4 * (uint64_t(Ty * T + I) * N + K), kSiteA), 4);
  for (uint32_t K = 0; K < N; ++K)
    for (uint32_t J = 0; J < T; ++J)
      R.access(false, at(B + 4 * (uint64_t(K) * N + Tx * T + J), kSiteB), 4);
  for (uint32_t I = 0; I < T; ++I)
    for (uint32_t J = 0; J < T; ++J)
      R.access(true,
               at(C + 4 * (uint64_t(Ty * T + I) * N + Tx * T + J), kSiteC), 4);
  R.value(0x3F800000);
}

void transpose(Ring &R, uint32_t N, uint32_t T, uint32_t Tx, uint32_t Ty,
               uint32_t Pid) {
  const uint64_t In = 0x7f3b00000000, Out = In + 0x100000;
  R.workgroup(1, Tx, Ty, N / T, N / T, Pid);
  for (uint32_t I = 0; I < T; ++I)
    for (uint32_t J = 0; J < T; ++J) {
      uint64_t Row = Ty * T + I, Col = Tx * T + J;
      R.access(false, at(In + 4 * (Row * N + Col), kSiteIn), 4);
      R.access(true, at(Out + 4 * (Col * N + Row), kSiteOut), 4);
    }
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::fprintf(stderr,
                 "usage: wgtrace-make-big-trace OUT SIZE_MIB [--workers N] "
                 "[--access-sites] [--demo]\n");
    return 1;
  }
  const char *Out = Argv[1];
  uint64_t SizeMiB = std::strtoull(Argv[2], nullptr, 10);
  uint32_t Workers = 4;
  bool Demo = false;
  for (int I = 3; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--workers") && I + 1 < Argc)
      Workers = std::atoi(Argv[++I]);
    else if (!std::strcmp(Argv[I], "--demo"))
      Demo = true;
    else if (!std::strcmp(Argv[I], "--access-sites"))
      WithSites = true;
  }
  FILE *F = std::fopen(Out, "wb");
  if (!F) {
    std::perror(Out);
    return 1;
  }
  writeMetadata(F);
  if (Demo) {
    std::vector<Ring> Rings(Workers, Ring(1 << 20));
    for (uint32_t I = 0; I < 16; ++I)
      matmul(Rings[I % Workers], 64, 16, I % 4, I / 4, I % Workers);
    for (uint32_t I = 0; I < 16; ++I)
      transpose(Rings[I % Workers], 32, 8, I % 4, I / 4, I % Workers);
    for (Ring &R : Rings)
      R.write(F);
    std::fclose(F);
    return 0;
  }
  // One ring per worker, a power of two, together about SIZE_MIB.
  uint64_t RingSize = 1 << 20;
  while (RingSize * 2 * Workers <= SizeMiB << 20)
    RingSize *= 2;
  const uint32_t N = 512, T = 32, Tiles = N / T;
  const uint64_t WorkgroupBytes =
      matmulRecords(N, T) * 16 + format::kWorkgroupRecordSize;
  uint64_t Index = 0;
  for (uint32_t W = 0; W < Workers; ++W) {
    Ring R(RingSize);
    while (R.Head + WorkgroupBytes <= RingSize) {
      uint32_t Tile = Index++ % (Tiles * Tiles);
      matmul(R, N, T, Tile % Tiles, Tile / Tiles, W);
    }
    R.write(F);
  }
  std::fclose(F);
  return 0;
}
