// --openmp: a doacross loop (`ordered(n)` with `ordered depend(sink: ...)`)
// is traced like any worksharing loop, each iteration a workgroup; but its
// sink makes iterations wait for one another, which workgroups do not, so
// the race report would list the dependences it orders as races. The sink
// is said at its place (an error under --strict); `depend(source)` waits
// for nothing and is not.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: not %wgtrace-rewrite --openmp --strict %t.cc -- %wgtrace-flags 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -fopenmp-version=52 2>&1 >/dev/null | FileCheck --check-prefix=WARN52 %s

#define PRAGMA(x) _Pragma(#x)
#define OMP_ORDERED(x) PRAGMA(omp ordered x)

void wavefront(double *g, int m, int n) {
#pragma omp parallel for collapse(2) ordered(2)
  for (int i = 1; i < m; ++i)
    for (int j = 1; j < n; ++j) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
      // WARN: [[@LINE-1]]:1: warning: '#pragma omp ordered' is not traced: its 'depend(sink: ...)' makes each iteration of this doacross loop wait for others, which wgtrace does not model: every iteration is recorded as an independent workgroup, and races reports the accesses this orders as racing
      g[i * n + j] = g[(i - 1) * n + j] + g[i * n + j - 1];
#pragma omp ordered depend(source)
    }
}
// CHECK: {{.*}}WGTRACE_OMP_ITERATION(wgtrace_omp_0, wgtrace_omp_bounds_0, 0, i, j); WGTRACE_BUFFERS(g, ::wgtrace::detail::objectBuffer(n));
// CHECK-NEXT: #pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)

// Written in a macro, as the Parallel Research Kernels write theirs.
void pipeline(double *g, int n) {
#pragma omp parallel for ordered(1)
  for (int i = 1; i < n; ++i) {
    OMP_ORDERED(depend(sink : i - 1))
    // WARN: [[@LINE-1]]:5: warning: '#pragma omp ordered' is not traced: its 'depend(sink: ...)' makes each iteration of this doacross loop wait for others, which wgtrace does not model: every iteration is recorded as an independent workgroup, and races reports the accesses this orders as racing
    g[i] += g[i - 1];
    OMP_ORDERED(depend(source))
  }
}
// CHECK: {{.*}}WGTRACE_OMP_ITERATION(wgtrace_omp_1, wgtrace_omp_bounds_1, 1, i); WGTRACE_BUFFERS(g);

// OpenMP 5.2 spells it `doacross(sink: ...)`.
#if _OPENMP >= 202111
void pipeline52(double *g, int n) {
#pragma omp parallel for ordered(1)
  for (int i = 1; i < n; ++i) {
#pragma omp ordered doacross(sink : i - 1)
    // WARN52: [[@LINE-1]]:1: warning: '#pragma omp ordered' is not traced: its 'doacross(sink: ...)' makes each iteration of this doacross loop wait for others, which wgtrace does not model: every iteration is recorded as an independent workgroup, and races reports the accesses this orders as racing
    g[i] += g[i - 1];
#pragma omp ordered doacross(source :)
  }
}
#endif

// STRICT: error: '#pragma omp ordered' is not traced
