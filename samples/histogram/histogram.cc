//===- histogram.cc - A cross-workgroup race and its fix ------------------===//
//
// Counts 65536 bytes into 256 bins, 16 workgroups of 4096 bytes each.
//
// histogram_racy: every workgroup increments the shared bins directly. Two
// workgroups running at once lose increments: `wgtrace-view races` reports
// the read-write and write-write pairs on `bins`, even from a run on
// local-sync where the result happened to be right.
//
// histogram_private + histogram_merge (the fix): each workgroup counts into
// its own row of partial bins, then a second dispatch sums the rows, each
// workgroup owning 16 bins. No two workgroups of one launch touch the same
// bytes, and the two launches are ordered.
//
// histogram_atomic (the other fix, --atomic): every workgroup adds to the
// shared bins with std::atomic_ref's fetch_add. wgtrace records each as an
// atomic update, and atomic operations on the same bytes do not race.
//
//===----------------------------------------------------------------------===//

#include <wgtrace/wgtrace.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr uint32_t kBins = 256;
constexpr uint32_t kPerWorkgroup = 4096;
constexpr uint32_t kWorkgroups = 16;

WGTRACE_DISPATCH void histogram_racy(const wgtrace::Workgroup &wg,
                                     const uint8_t *data, uint32_t *bins) {
  const uint8_t *slice = data + wg.id[0] * kPerWorkgroup;
  for (uint32_t i = 0; i < kPerWorkgroup; ++i)
    bins[slice[i]] += 1;
}

WGTRACE_DISPATCH void histogram_atomic(const wgtrace::Workgroup &wg,
                                       const uint8_t *data, uint32_t *bins) {
  const uint8_t *slice = data + wg.id[0] * kPerWorkgroup;
  for (uint32_t i = 0; i < kPerWorkgroup; ++i)
    std::atomic_ref<uint32_t>(bins[slice[i]])
        .fetch_add(1, std::memory_order_relaxed);
}

WGTRACE_DISPATCH void histogram_private(const wgtrace::Workgroup &wg,
                                        const uint8_t *data,
                                        uint32_t *partials) {
  const uint8_t *slice = data + wg.id[0] * kPerWorkgroup;
  uint32_t *row = partials + wg.id[0] * kBins;
  for (uint32_t i = 0; i < kPerWorkgroup; ++i)
    row[slice[i]] += 1;
}

WGTRACE_DISPATCH void histogram_merge(const wgtrace::Workgroup &wg,
                                      const uint32_t *partials,
                                      uint32_t *bins) {
  const uint32_t per_workgroup = kBins / wg.count[0];
  for (uint32_t b = wg.id[0] * per_workgroup;
       b < (wg.id[0] + 1) * per_workgroup; ++b) {
    uint32_t sum = 0;
    for (uint32_t w = 0; w < kWorkgroups; ++w)
      sum += partials[w * kBins + b];
    bins[b] = sum;
  }
}

int main(int argc, char **argv) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    return 2;
  bool racy = argc > 1 && std::strcmp(argv[1], "--racy") == 0;
  bool atomic = argc > 1 && std::strcmp(argv[1], "--atomic") == 0;
  std::vector<uint8_t> data(kWorkgroups * kPerWorkgroup);
  uint32_t state = 12345;
  for (uint8_t &d : data) {
    state = state * 1103515245u + 12345u;
    d = uint8_t(state >> 16);
  }
  std::vector<uint32_t> expected(kBins, 0);
  for (uint8_t d : data)
    ++expected[d];

  std::vector<uint32_t> bins(kBins, 0);
  if (racy) {
    wgtrace::dispatch(histogram_racy, wgtrace::Grid{kWorkgroups, 1, 1},
                      data.data(), bins.data());
  } else if (atomic) {
    wgtrace::dispatch(histogram_atomic, wgtrace::Grid{kWorkgroups, 1, 1},
                      data.data(), bins.data());
  } else {
    std::vector<uint32_t> partials(kWorkgroups * kBins, 0);
    wgtrace::dispatch(histogram_private, wgtrace::Grid{kWorkgroups, 1, 1},
                      data.data(), partials.data());
    wgtrace::dispatch(histogram_merge, wgtrace::Grid{16, 1, 1}, partials.data(),
                      bins.data());
  }

  uint32_t lost = 0;
  for (uint32_t b = 0; b < kBins; ++b)
    lost += expected[b] - bins[b];
  if (lost) {
    // The racy version may lose increments on local-task; that is the bug
    // it demonstrates, not a failure of the sample.
    std::printf("histogram%s: %u increments lost to the race\n",
                racy ? " (racy)" : "", lost);
    return racy ? 0 : 1;
  }
  std::printf("histogram%s: %zu bytes counted, all bins right\n",
              racy ? " (racy)" : "", data.size());
  return 0;
}
