// OpenMP worksharing loops traced as dispatches (wgtrace-rewrite --openmp):
// each mode runs one kind of loop and prints what it computed, so that the
// plain and the instrumented builds can be compared, and the trace of each
// checked with `wgtrace-view races`.
//
//   vectors    independent `parallel for` over vectors, calling a helper
//   collapse   collapse(2) with a dynamic schedule
//   reduction  a sum with reduction(+:)
//   histogram  `omp atomic` updates of shared bins
//   region     `omp for` (static, then nowait) inside a parallel region
//   carried    a loop-carried dependence: a[i] = a[i - 1] + b[i] (a race)
//   shared     a shared scalar updated without synchronisation (a race)
//   critical   the same update inside `omp critical`
//   critical_same   one total updated in two critical sections of one name
//   critical_names  the same in sections of two names (a race)
//   critical_calls  a critical section that calls a helper and push_back;
//                   a helper with a critical section of its own
//   bounds     bounds with side effects, evaluated as OpenMP does
//   jacobi     a loop run 8 times, its buffers swapped, 3 iterations
//              on a dynamic schedule
//   grid       `parallel for collapse(2)` over 2D grids of a class template
//              read through its operator()(i, j) (CloverLeaf's OpenMP
//              model's pattern, less its simd: clang cannot vectorize the
//              loop and warns), then a reduction(min) over one
#include <atomic>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

static float scaled(const float *x, int i) { return 2.0f * x[i]; }

static void vectors(int n) {
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = float(n - i);
  }
  const float *pa = a.data();
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i)
    c[i] = a[i] * b[i] + scaled(pa, i);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += c[i];
  std::printf("vectors %.1f %.1f\n", sum, double(c[n - 1]));
}

static void collapse(int rows, int cols) {
  std::vector<int> m(rows * cols, 0);
  int *out = m.data();
#pragma omp parallel for collapse(2) schedule(dynamic, 3)
  for (int i = 0; i < rows; ++i)
    for (int j = cols - 1; j >= 0; j -= 1) {
      int v = i * 1000 + j;
      out[i * cols + j] = v;
    }
  long total = 0;
  for (int v : m)
    total += v;
  std::printf("collapse %ld %d\n", total, m[rows * cols - 1]);
}

static void reduction(int n) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.5 * i;
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i)
    sum += x[i];
  std::printf("reduction %.1f\n", sum);
}

static void histogram(int n) {
  std::vector<int> data(n), bins(16, 0);
  for (int i = 0; i < n; ++i)
    data[i] = (i * 7 + i / 13) % 16;
  int *h = bins.data();
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    int k = data[i];
#pragma omp atomic
    h[k] += 1;
  }
  std::printf("histogram");
  for (int v : bins)
    std::printf(" %d", v);
  std::printf("\n");
}

static void region(int n) {
  std::vector<float> a(n, 1.0f), b(n, 0.0f);
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; ++i)
      a[i] += float(i);
#pragma omp for nowait
    for (int i = n - 1; i >= 0; --i)
      b[i] = 3.0f * float(i);
  }
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[i] + b[i];
  std::printf("region %.1f\n", sum);
}

static void carried(int n) {
  std::vector<long> a(n, 1), b(n);
  for (int i = 0; i < n; ++i)
    b[i] = i;
  // With one thread this computes the prefix sums; with more, anything.
#pragma omp parallel for schedule(static, 1)
  for (int i = 1; i < n; ++i)
    a[i] = a[i - 1] + b[i];
  std::printf("carried %ld\n", a[1]);
}

static void shared(int n) {
  std::vector<int> x(n, 1);
  int total = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    total += x[i];
  std::printf("shared %d\n", total > 0);
}

static void critical(int n) {
  std::vector<int> x(n, 1);
  int total = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical(total)
    total += x[i];
  }
  std::printf("critical %d\n", total);
}

// Even and odd iterations update one total in two critical sections: of
// one name (synchronised), or of two names (a race: OpenMP lets them run
// at once).
static void critical_same(int n) {
  int total = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    if (i % 2) {
#pragma omp critical(total)
      total += i;
    } else {
#pragma omp critical(total)
      total += 2 * i;
    }
  }
  std::printf("critical_same %d\n", total);
}

static void critical_names(int n) {
  int total = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    if (i % 2) {
#pragma omp critical(odd)
      total += i;
    } else {
#pragma omp critical(even)
      total += 2 * i;
    }
  }
  std::printf("critical_names %d\n", total > 0);
}

// Odd iterations update the total in critical(inner) written inside a
// critical(outer) block, even ones in critical(outer) alone: every update
// holds the outer lock, so there is no race.
static void critical_nested(int n) {
  int total = 0, odd = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    if (i % 2) {
#pragma omp critical(outer)
      {
        odd += 1;
#pragma omp critical(inner)
        total += i;
      }
    } else {
#pragma omp critical(outer)
      total += 2 * i;
    }
  }
  std::printf("critical_nested %d %d\n", total, odd);
}

// A critical section whose block calls code: a helper (long enough that a
// stream-mode trace of small buffers changes buffers inside the section)
// and a vector's push_back record without a mark of their own, inside the
// section still.
static void addAll(int *total, const std::vector<int> &x) {
  for (int v : x)
    *total += v;
}

// A helper whose own critical section the iteration enters.
static void keepIndex(std::vector<int> &kept, int i) {
#pragma omp critical(kept)
  kept.push_back(i);
}

static void critical_calls(int n) {
  std::vector<int> x(300, 1), kept, indexes;
  // Storage that never moves: a buffer one vector frees and the other
  // allocates would be the same bytes written under two names.
  kept.reserve(n);
  indexes.reserve(n);
  int total = 0;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical(total)
    {
      addAll(&total, x);
      kept.push_back(i);
    }
    keepIndex(indexes, i);
  }
  std::printf("critical_calls %d %zu %zu\n", total, kept.size(),
              indexes.size());
}

// A Jacobi step whose input and output swap between its executions, with
// fewer iterations than threads and a dynamic schedule: a thread may run
// no iteration of an execution, and the iterations of two executions must
// not be taken for one launch.
static void step(const float *in, float *out, int n) {
#pragma omp parallel for schedule(dynamic)
  for (int i = 1; i < n - 1; ++i)
    out[i] = 0.5f * (in[i - 1] + in[i + 1]);
}

static void jacobi() {
  std::vector<float> a(5, 1.0f), b(5, 0.0f);
  float *p = a.data(), *q = b.data();
  for (int t = 0; t < 8; ++t) {
    step(p, q, 5);
    std::swap(p, q);
  }
  std::printf("jacobi %.3f\n", double(p[2]));
}

// A bound with a side effect: a counter of its calls (atomic: each thread
// of the team evaluates the bound, as OpenMP evaluates it, once with clang
// and GCC). The rewritten loop notes its value and calls it no more often:
// the count printed is the plain build's.
static std::atomic<int> evaluations{0};
static int upTo(int n) { return evaluations.fetch_add(1), n; }

static void bounds(int n) {
  std::vector<int> a(n, 0);
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 3; i < upTo(n); i += 2)
    a[i] = i;
  long sum = 0;
  for (int i = 0; i < n; ++i)
    sum += a[i];
  std::printf("bounds %ld %d\n", sum, evaluations.load());
}

// A grid of cells as mini-apps keep their fields: its size and storage
// are the accessor's bookkeeping, not the program's data.
template <typename T> struct Grid2 {
  size_t nx, ny;
  T *cells;
  T &operator()(size_t i, size_t j) const { return cells[i + j * nx]; }
};

// Each iteration of the first loop: 4 cell loads, 1 cell store and the
// load of half (shared); of the second: 1 cell load (m is the reduction's).
static void grid_relax(int n, double w, Grid2<double> &a, Grid2<double> &b) {
  double half = 0.5 * w;
#pragma omp parallel for collapse(2)
  for (int j = 1; j < n - 1; j++) {
    for (int i = 1; i < n - 1; i++) {
      b(i, j) = b(i, j) - half * (a(i - 1, j) + a(i, j - 1) + a(i, j));
    }
  }
}

static double grid_min(int n, Grid2<double> &a) {
  double m = 1e30;
#pragma omp parallel for collapse(2) reduction(min : m)
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      double v = a(i, j);
      if (v < m)
        m = v;
    }
  return m;
}

static void grid(int n) {
  std::vector<double> ca(size_t(n) * n), cb(size_t(n) * n);
  for (size_t k = 0; k < ca.size(); ++k) {
    ca[k] = double(k % 7);
    cb[k] = double(k % 5);
  }
  Grid2<double> a{size_t(n), size_t(n), ca.data()};
  Grid2<double> b{size_t(n), size_t(n), cb.data()};
  grid_relax(n, 0.5, a, b);
  double sum = 0;
  for (double v : cb)
    sum += v;
  std::printf("grid %.4f %.4f\n", sum, grid_min(n, b));
}

// Included here, not above: the checks name the lines of the loops above.
#include "stencils.h"

// Mode `header`: loops of a project header's functions (stencils.h), one
// called, one whose address is taken, as the Parallel Research Kernels
// pick theirs, one reached through other functions of the header, a class
// template's member and a functor's operator() called through a template.
static void header(int n) {
  std::vector<double> in(size_t(n) * n), out(size_t(n) * n, 0.0);
  for (size_t k = 0; k < in.size(); ++k)
    in[k] = double(k % 11);
  auto stencil = star1;
  for (int iter = 0; iter < 2; ++iter)
    stencil(n, in.data(), out.data());
  drive(out.data(), n * n);
  Field<double> field{out.data(), n * n};
  field.scale(0.5);
  std::vector<double> smooth(size_t(n) * n, 0.0);
  smoothWith(Smooth(), out.data(), smooth.data(), n * n);
  std::printf("header %.4f %.4f %.4f\n", total(out.data(), n * n),
              total(in.data(), n * n), total(smooth.data(), n * n));
}

#include <omp.h>

// Mode `per_thread`: storage each thread has its own, as NPB IS sorts its
// keys into buckets: a histogram per thread, chosen by
// omp_get_thread_num(), then a threadprivate array of bucket pointers that
// each thread advances as it places its keys. One thread's iterations take
// turns at its storage: races reports nothing.
static int bucket_ptrs[16];
#pragma omp threadprivate(bucket_ptrs)

static void per_thread(int n) {
  std::vector<int> keys(n), sorted(n, -1);
  for (int i = 0; i < n; ++i)
    keys[i] = (i * 7 + i / 13) % 64;
  const int threads = omp_get_max_threads();
  std::vector<std::vector<int>> counts(threads, std::vector<int>(16, 0));
  std::vector<int *> bucket_size(threads);
  for (int t = 0; t < threads; ++t)
    bucket_size[t] = counts[t].data();
  const int *key = keys.data();
  int **sizes = bucket_size.data();
  int *out = sorted.data();
#pragma omp parallel
  {
    int myid = omp_get_thread_num();
    int nthreads = omp_get_num_threads();
    int *work_buff = sizes[myid];
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i)
      work_buff[key[i] >> 2]++;
    // One iteration per thread, thread t's the t-th: where its keys of
    // each bucket go (after the lower buckets' keys and the keys of this
    // bucket that threads before it hold).
#pragma omp for schedule(static)
    for (int t = 0; t < nthreads; ++t)
      for (int b = 0; b < 16; ++b) {
        bucket_ptrs[b] = 0;
        for (int u = 0; u < nthreads; ++u)
          for (int c = 0; c < b + (u < t); ++c)
            bucket_ptrs[b] += sizes[u][c];
      }
#pragma omp for schedule(static)
    for (int i = 0; i < n; ++i) {
      int k = key[i];
      out[bucket_ptrs[k >> 2]++] = k;
    }
  }
  long check = 0;
  for (int i = 0; i < n; ++i)
    check += long(sorted[i]) * (i % 97 + 1);
  std::printf("per_thread %ld %d %d\n", check, sorted[0], sorted[n - 1]);
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "vectors";
  if (!std::strcmp(Mode, "vectors"))
    vectors(1000);
  else if (!std::strcmp(Mode, "collapse"))
    collapse(13, 7);
  else if (!std::strcmp(Mode, "reduction"))
    reduction(1000);
  else if (!std::strcmp(Mode, "histogram"))
    histogram(4000);
  else if (!std::strcmp(Mode, "region"))
    region(500);
  else if (!std::strcmp(Mode, "carried"))
    carried(100);
  else if (!std::strcmp(Mode, "shared"))
    shared(100);
  else if (!std::strcmp(Mode, "critical"))
    critical(100);
  else if (!std::strcmp(Mode, "critical_same"))
    critical_same(100);
  else if (!std::strcmp(Mode, "critical_names"))
    critical_names(100);
  else if (!std::strcmp(Mode, "critical_nested"))
    critical_nested(100);
  else if (!std::strcmp(Mode, "critical_calls"))
    critical_calls(100);
  else if (!std::strcmp(Mode, "jacobi"))
    jacobi();
  else if (!std::strcmp(Mode, "bounds"))
    bounds(100);
  else if (!std::strcmp(Mode, "grid"))
    grid(9);
  else if (!std::strcmp(Mode, "header"))
    header(10);
  else if (!std::strcmp(Mode, "per_thread"))
    per_thread(4000);
  else
    return 2;
  return 0;
}
