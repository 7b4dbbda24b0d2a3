//===- make_extension_trace.cc - A trace with wgtrace's extension ---------===//
//
// Usage: python-make-extension-trace OUT [atomics|critical]
//
// Writes, with the viewer tests' TraceBuilder (format.h encoders, the
// FlatBuffers builder), a small trace that uses wgtrace's metadata extension
// (docs/FORMAT.md): kernel "scale" with buffer parameters "in" and "out",
// three numbered access sites and one untraced access, and two workgroups
// whose LOAD/STORE records carry access site ids. The Python tests know
// what it holds (test_extension.py); the runtime writes such records only
// once its writers are done.
//
// With `atomics`: kernel "hist" whose two workgroups each load in[w]
// plainly, then update out[0] and load out[1] with atomic operations
// (atomic marks, docs/FORMAT.md).
//
// With `critical`: kernel "keep", accesses inside OpenMP critical sections
// (criticalTrace()).
//
//===----------------------------------------------------------------------===//

#include "TraceBuilder.h"

#include <cstdio>
#include <string>

using namespace wgtrace;
using namespace wgtrace::testing;

namespace {

TraceBuilder atomicsTrace() {
  ExtensionSpec X;
  X.FunctionParams = {{{"in", "const int *", 1, 0, 4, false},
                       {"out", "int *", 2, 0, 4, false}}};
  X.AccessSites = {
      {"hist.cc", 8, 13, 0, "hist", "in[w]"},
      {"hist.cc", 9, 3, 6, "hist", "std::atomic_ref<int>(out[0]).fetch_add(k)"},
      {"hist.cc", 10, 11, 4, "hist", "out[1].load()"}};
  TraceBuilder B;
  B.metadata({{"hist", "test", "(wg, in, out)", "void hist(...)"}}, {0}, &X);
  const uint64_t In = 0x7F0000001000, Out = 0x7F0000002000;
  RingBuilder Ring(4096);
  for (uint32_t W = 0; W < 2; ++W) {
    Ring.workgroup(0, {W, 0, 0}, {2, 1, 1}, W);
    Ring.value(format::ValueType::BufferBase, 0, In);
    Ring.value(format::ValueType::BufferBase, 1, Out);
    Ring.load((In + 4 * W) | format::accessSiteBits(1), 4);
    Ring.atomic(format::AtomicOp::Update, Out | format::accessSiteBits(2), 4);
    Ring.atomic(format::AtomicOp::Load, (Out + 4) | format::accessSiteBits(3),
                4);
  }
  B.ring(Ring);
  return B;
}

/// Kernel "keep" (an OpenMP loop's iterations as workgroups): each loads
/// in[w] plainly, updates out[0] in a critical statement (a Critical mark),
/// enters section "kept" and stores out[1] in a helper it calls (no mark
/// of its own), leaves it and loads out[1] outside any section.
TraceBuilder criticalTrace() {
  ExtensionSpec X;
  X.FunctionParams = {{{"in", "const int *", 1, 0, 4, false},
                       {"out", "int *", 2, 0, 4, false}}};
  X.AccessSites = {{"keep.cc", 8, 13, 0, "keep", "in[w]"},
                   {"keep.cc", 10, 5, 2, "keep", "out[0]"},
                   {"keep.h", 3, 3, 1, "keep", "out[1]"},
                   {"keep.cc", 14, 7, 0, "keep", "out[1]"}};
  TraceBuilder B;
  B.metadata({{"keep", "test", "(wg, in, out)", "void keep(...)"}}, {0}, &X);
  const uint64_t In = 0x7F0000001000, Out = 0x7F0000002000;
  const uint64_t Kept = format::criticalNameHash("kept");
  RingBuilder Ring(4096);
  for (uint32_t W = 0; W < 2; ++W) {
    Ring.workgroup(0, {W, 0, 0}, {2, 1, 1}, W);
    Ring.value(format::ValueType::BufferBase, 0, In);
    Ring.value(format::ValueType::BufferBase, 1, Out);
    Ring.load((In + 4 * W) | format::accessSiteBits(1), 4);
    Ring.critical("sum", format::AtomicOp::Update, Out, 4,
                  format::accessSiteBits(2));
    Ring.value(format::ValueType::CriticalSection, 1, Kept);
    Ring.store((Out + 4) | format::accessSiteBits(3), 4);
    Ring.value(format::ValueType::CriticalSection, 0, Kept);
    Ring.load((Out + 4) | format::accessSiteBits(4), 4);
  }
  B.ring(Ring);
  return B;
}

} // namespace

int main(int argc, char **argv) {
  const std::string Kind = argc == 3 ? argv[2] : "";
  if (argc != 2 && !(argc == 3 && (Kind == "atomics" || Kind == "critical"))) {
    std::fprintf(stderr, "usage: %s OUT [atomics|critical]\n", argv[0]);
    return 1;
  }
  if (argc == 3) {
    TraceBuilder B = Kind == "atomics" ? atomicsTrace() : criticalTrace();
    FILE *F = std::fopen(argv[1], "wb");
    if (!F) {
      std::perror(argv[1]);
      return 1;
    }
    bool Ok = std::fwrite(B.bytes().data(), 1, B.bytes().size(), F) ==
              B.bytes().size();
    Ok &= std::fclose(F) == 0;
    return Ok ? 0 : 1;
  }
  ExtensionSpec X;
  X.FunctionParams = {{{"in", "const float *", 1, 0, 4, false},
                       {"out", "float *", 2, 0, 4, false}}};
  X.SiteLocations = {{"scale.cc", 30}};
  X.AccessSites = {{"scale.cc", 12, 14, 0, "scale", "in[i]"},
                   {"scale.cc", 12, 5, 1, "scale", "out[i]"},
                   {"scale.cc", 13, 5, 2, "scale", "out[0] += 1"}};
  X.Untraced = {{"scale.cc", 15, 3, "scale", "std::memcpy(out, in, n)",
                 "a library call the rewriter does not model"}};
  TraceBuilder B;
  B.metadata({{"scale", "test", "(wg, in, out)", "void scale(...)"}}, {0}, &X);

  const uint64_t In = 0x7F0000001000, Out = 0x7F0000002000;
  RingBuilder Ring(4096);
  for (uint32_t W = 0; W < 2; ++W) {
    Ring.workgroup(0, {W, 0, 0}, {2, 1, 1}, W);
    Ring.value(format::ValueType::BufferBase, 0, In);
    Ring.value(format::ValueType::BufferBase, 1, Out);
    for (uint64_t I = 0; I < 4; ++I) {
      const uint64_t Element = (W * 4 + I) * 4;
      Ring.load((In + Element) | format::accessSiteBits(1), 4);
      Ring.store((Out + Element) | format::accessSiteBits(2), 4);
    }
    Ring.load(Out | format::accessSiteBits(3), 4);
    Ring.store(Out | format::accessSiteBits(3), 4);
    // An access without a site, and one naming a site the table lacks.
    Ring.load(In, 4);
    Ring.load(In | format::accessSiteBits(9), 4);
  }
  B.ring(Ring);

  FILE *F = std::fopen(argv[1], "wb");
  if (!F) {
    std::perror(argv[1]);
    return 1;
  }
  bool Ok =
      std::fwrite(B.bytes().data(), 1, B.bytes().size(), F) == B.bytes().size();
  Ok &= std::fclose(F) == 0;
  return Ok ? 0 : 1;
}
