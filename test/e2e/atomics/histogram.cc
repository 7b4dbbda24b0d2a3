// A histogram of 4000 small numbers by 4 workgroups of 1000, into 16 bins
// that every workgroup adds to: made correct with
// std::atomic_ref<int>(bins[k]).fetch_add(1), or racy with `bins[k] += 1`.
// Usage: histogram atomic|plain; prints the bins.
#include <wgtrace/wgtrace.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace {

constexpr unsigned kBins = 16;
constexpr unsigned kPerGroup = 1000;
constexpr unsigned kGroups = 4;

} // namespace

WGTRACE_DISPATCH void histogram_atomic(const wgtrace::Workgroup &wg,
                                       const int *data, int *bins) {
  for (unsigned i = 0; i < kPerGroup; ++i) {
    int k = data[wg.id[0] * kPerGroup + i];
    std::atomic_ref<int>(bins[k]).fetch_add(1);
  }
}

WGTRACE_DISPATCH void histogram_plain(const wgtrace::Workgroup &wg,
                                      const int *data, int *bins) {
  for (unsigned i = 0; i < kPerGroup; ++i) {
    int k = data[wg.id[0] * kPerGroup + i];
    bins[k] += 1;
  }
}

int main(int argc, char **argv) {
  if (argc != 2 || (std::strcmp(argv[1], "atomic") != 0 &&
                    std::strcmp(argv[1], "plain") != 0)) {
    std::fprintf(stderr, "usage: histogram atomic|plain\n");
    return 2;
  }
  static int data[kGroups * kPerGroup];
  for (unsigned i = 0; i < kGroups * kPerGroup; ++i)
    data[i] = static_cast<int>((i * 7 + i / 13) % kBins);
  alignas(64) static int bins[kBins];
  if (std::strcmp(argv[1], "atomic") == 0)
    wgtrace::dispatch(histogram_atomic, wgtrace::Grid{kGroups, 1, 1}, data,
                      bins);
  else
    wgtrace::dispatch(histogram_plain, wgtrace::Grid{kGroups, 1, 1}, data,
                      bins);
  for (unsigned k = 0; k < kBins; ++k)
    std::printf("%d%s", bins[k], k + 1 < kBins ? " " : "\n");
  return 0;
}
