//===- record_bench_temporal.cc - Records with ordinary stores ------------===//
//
// The atomic benchmarks of record_bench_atomics.inc in a file that records
// with ordinary stores, as wgtrace-rewrite makes files with atomic
// operations record (WGTRACE_TEMPORAL_RECORDS, <wgtrace/detail/
// thread_state.h>).
//
//===----------------------------------------------------------------------===//

#define WGTRACE_TEMPORAL_RECORDS 1
#include "wgtrace/instrument.h"

#include <benchmark/benchmark.h>

#include <vector>

#define SUFFIX Temporal
#include "record_bench_atomics.inc"
