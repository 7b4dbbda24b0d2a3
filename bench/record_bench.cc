//===- record_bench.cc - The cost of one record ---------------------------===//
//
// wgtrace's hot path (a per-thread ring) against IREE's CPU scheme (one
// ring whose head every thread advances with an atomic add), on one and
// two threads. Compare the items_per_second of the two on each thread
// count: the per-thread ring must not slow down as threads are added.
//
//===----------------------------------------------------------------------===//

#include "wgtrace/instrument.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <vector>

namespace {
const wgtrace::detail::FunctionInfo Functions[] = {{"bench", "", "", ""}};
wgtrace::detail::Module BenchModule(Functions, 1, nullptr, 0);

constexpr int kBatch = 1024;

void threadLocalRing(benchmark::State &State) {
  static std::vector<float> Data(kBatch * 64);
  wgtrace::Workgroup WG{};
  WG.processor_id = static_cast<uint32_t>(State.thread_index());
  wgtrace::detail::WorkgroupScope Scope(BenchModule, 0, WG);
  float *Row = Data.data() + State.thread_index() * kBatch;
  for (auto _ : State) {
    for (int I = 0; I < kBatch; ++I)
      benchmark::DoNotOptimize(*wgtrace::detail::load(&Row[I]));
  }
  State.SetItemsProcessed(State.iterations() * kBatch);
}

/// IREE's CPU scheme: every record advances one shared atomic head.
struct SharedRing {
  uint8_t *Data;
  uint64_t Mask;
  std::atomic<uint64_t> Head{0};
};
SharedRing &sharedRing() {
  static SharedRing *R = [] {
    auto *Ring = new SharedRing;
    Ring->Data = static_cast<uint8_t *>(std::calloc(1, (16 << 20) + 4096));
    Ring->Mask = (16 << 20) - 1;
    return Ring;
  }();
  return *R;
}

void globalAtomicHead(benchmark::State &State) {
  static std::vector<float> Data(kBatch * 64);
  SharedRing &R = sharedRing();
  float *Row = Data.data() + State.thread_index() * kBatch;
  for (auto _ : State) {
    for (int I = 0; I < kBatch; ++I) {
      uint64_t Head = R.Head.fetch_add(16, std::memory_order_relaxed);
      wgtrace::format::encodeMemory(R.Data + (Head & R.Mask), false, 4, 0,
                                    reinterpret_cast<uintptr_t>(&Row[I]));
      benchmark::DoNotOptimize(Row[I]);
    }
  }
  State.SetItemsProcessed(State.iterations() * kBatch);
}

/// The floor under any recording: nothing but the two non-temporal 8-byte
/// stores of each 16-byte record, into a 16 MiB ring per thread. Its
/// bytes_per_second is this machine's write bandwidth for traces: a kernel
/// whose records take longer than its allowed overhead at this rate cannot
/// meet that ratio with one record per access, and recording on two threads
/// cannot scale further than this does.
void recordBytesOnly(benchmark::State &State) {
  constexpr size_t kWords = (size_t{16} << 20) / sizeof(long long);
  thread_local std::vector<long long> Ring(kWords);
  size_t Word = 0;
  for (auto _ : State) {
    for (int I = 0; I < kBatch; ++I, Word = (Word + 2) & (kWords - 1)) {
      wgtrace::detail::storeNonTemporal(&Ring[Word], 4);
      wgtrace::detail::storeNonTemporal(&Ring[Word + 1], I);
    }
    benchmark::ClobberMemory();
  }
  State.SetBytesProcessed(State.iterations() * kBatch * 16);
}

} // namespace

#define SUFFIX NonTemporal
#include "record_bench_atomics.inc"
#undef SUFFIX

BENCHMARK(threadLocalRing)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(globalAtomicHead)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(recordBytesOnly)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK_MAIN();
