//===- make_corpus.cc - Write the fuzzer's seed corpus --------------------===//
//
// Usage: wgtrace-make-corpus DIR
// Writes small, valid traces covering every record type, value type, a
// wrapped ring, a spilling record, several chunks and atomic marks; the
// fuzzer mutates from there. The output is committed in test/viewer/corpus/.
//
//===----------------------------------------------------------------------===//

#include "TraceBuilder.h"

#include <cstdio>
#include <string>

using namespace wgtrace;
using namespace wgtrace::testing;

static bool write(const std::string &Dir, const char *Name,
                  const TraceBuilder &B) {
  std::string Path = Dir + "/" + Name;
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    return false;
  bool Ok =
      std::fwrite(B.bytes().data(), 1, B.bytes().size(), F) == B.bytes().size();
  return std::fclose(F) == 0 && Ok;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 1;
  }
  std::string Dir = argv[1];
  bool Ok = true;

  { // Every record and value type in one small ring.
    RingBuilder Ring(1024);
    Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
    Ring.load(0x7F0000001000, 4);
    Ring.store(0x7F0000002000, 8);
    for (unsigned T = 0; T < format::kValueTypeCount; ++T)
      Ring.value(format::ValueType(T), uint8_t(T), 0xFFFFFFFFFFFF8001ull);
    Ring.print("hello");
    Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 1);
    Ring.print(std::string(40, 'p'));
    TraceBuilder B;
    addSimpleMetadata(B).ring(Ring);
    Ok &= write(Dir, "all-records.bin", B);
  }
  { // A wrapped ring with a cut print and a spilling record.
    RingBuilder Ring(256);
    for (uint32_t X = 0; X < 6; ++X) {
      Ring.workgroup(0, {X, 0, 0}, {6, 1, 1});
      Ring.print("x" + std::string(X * 7, 'y'));
      Ring.load(X * 0x100, 4);
    }
    TraceBuilder B;
    addSimpleMetadata(B).ring(Ring);
    Ok &= write(Dir, "wrapped.bin", B);
  }
  { // Two modules, two rings each, sparse metadata fields.
    RingBuilder A(512), C(512), D(512);
    A.workgroup(1, {0, 0, 0}, {1, 1, 1});
    A.store(0x10, 2);
    C.workgroup(0, {0, 0, 0}, {1, 1, 1});
    D.workgroup(2, {0, 1, 0}, {1, 2, 1});
    D.load(0x20, 1);
    TraceBuilder B;
    B.metadata({{"a", {}, "L", {}}, {"b", "T", {}, "src"}}, {0, 1})
        .ring(A)
        .ring(C);
    B.metadata({{std::nullopt, {}, {}, {}}}, {0, 0, 0}).ring(D);
    Ok &= write(Dir, "multi-chunk.bin", B);
  }
  { // Atomic operations: their marks, a filler, plain accesses between.
    RingBuilder Ring(512);
    Ring.workgroup(0, {0, 0, 0}, {2, 1, 1}, 0);
    Ring.load(0x7F0000001000, 4);
    Ring.atomic(format::AtomicOp::Update, 0x7F0000002000, 4);
    Ring.atomic(format::AtomicOp::Load, 0x7F0000002004, 8);
    Ring.value(format::ValueType::Atomic, 0, uint64_t(format::AtomicOp::None));
    Ring.workgroup(0, {1, 0, 0}, {2, 1, 1}, 1);
    Ring.atomic(format::AtomicOp::Store, 0x7F0000002000, 4);
    Ring.store(0x7F0000003000, 2);
    TraceBuilder B;
    addSimpleMetadata(B).ring(Ring);
    Ok &= write(Dir, "atomics.bin", B);
  }
  { // Metadata only.
    TraceBuilder B;
    addSimpleMetadata(B, 3);
    Ok &= write(Dir, "metadata-only.bin", B);
  }
  return Ok ? 0 : 1;
}
