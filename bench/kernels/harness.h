//===- harness.h - Timing a kernel the same way in every build ------------===//
//
// Each benchmark program runs its dispatch a few times and prints the best
// time; the overhead script runs the plain, instrumented and comparison
// builds of the same source and divides their times.
//
//===----------------------------------------------------------------------===//

#ifndef WGTRACE_BENCH_HARNESS_H
#define WGTRACE_BENCH_HARNESS_H

#include <wgtrace/wgtrace.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bench {

/// --size=N scales the problem (the overhead script uses the sizes of the
/// issue; tests use small ones); --reps=N repetitions.
struct Options {
  long Size;
  int Reps = 3;
};

inline Options parse(int argc, char **argv, long default_size) {
  if (!wgtrace::parseCommonFlags(argc, argv))
    std::exit(2);
  Options O{default_size};
  for (int i = 1; i < argc; ++i) {
    if (!std::strncmp(argv[i], "--size=", 7))
      O.Size = std::atol(argv[i] + 7);
    else if (!std::strncmp(argv[i], "--reps=", 7))
      O.Reps = std::atoi(argv[i] + 7);
    else {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      std::exit(2);
    }
  }
  return O;
}

/// The inputs and the output of an elementwise product of n floats, the
/// inputs filled as the OpenMP simple_mul and iteration benchmarks fill
/// them, and the output's checksum.
struct ProductVectors {
  std::vector<float> a, b, c;
  explicit ProductVectors(size_t n) : a(n), b(n), c(n) {
    for (size_t i = 0; i < n; ++i) {
      a[i] = float(i % 7);
      b[i] = float(i % 5) * 0.5f;
    }
  }
  double checksum() const {
    double s = 0;
    for (float v : c)
      s += v;
    return s;
  }
};

/// Runs \p body Reps times; prints the best time and a checksum of the
/// result so that builds can be compared for equal output.
template <class Body, class Check>
int run(const Options &O, Body body, Check checksum) {
  double best = 1e30;
  for (int r = 0; r < O.Reps; ++r) {
    auto start = std::chrono::steady_clock::now();
    body();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (seconds < best)
      best = seconds;
  }
  std::printf("kernel_seconds: %.9f\nchecksum: %.17g\n", best, checksum());
  return 0;
}

} // namespace bench

#endif // WGTRACE_BENCH_HARNESS_H
