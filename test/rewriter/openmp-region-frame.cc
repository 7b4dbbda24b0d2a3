// --openmp: every `#pragma omp parallel` region of the file notes, on each
// thread of its team, the frame the region runs in (WGTRACE_OMP_REGION, on
// the line of the region's `{`; a region whose statement is a call, as NPB
// FT writes `#pragma omp parallel` then `fft(1, u1, u0);`, is made a block
// on its line). Below that frame the thread's stack is its own: an `omp
// for` of the region, also one orphaned in a function the region calls,
// says so after each iteration's WORKGROUP record (a ThreadStack VALUE),
// and races leaves out pairs of one thread there. A region whose
// statement is any other kind of statement is not marked.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc

// CHECK: #include <wgtrace/detail/openmp.h>

static void rows(double *line, int n) {
#pragma omp for
  for (int i = 0; i < n; ++i)
    line[i] = i;
}

static void work(int n) {
  double line[64];
  rows(line, n);
}

#define PARALLEL _Pragma("omp parallel")

void regions(int n) {
// CHECK: #pragma omp parallel
// CHECK-NEXT:   { WGTRACE_OMP_REGION();
#pragma omp parallel
  {
    work(n);
  }
// CHECK: #pragma omp parallel
// CHECK-NEXT:     { WGTRACE_OMP_REGION(); work(n); }
#pragma omp parallel
    work(n);
// CHECK: #pragma omp parallel num_threads(2)
// CHECK-NEXT:   { WGTRACE_OMP_REGION(); work(n); } // the team's size
#pragma omp parallel num_threads(2)
  work(n); // the team's size
// CHECK: PARALLEL
// CHECK-NEXT:   { WGTRACE_OMP_REGION(); work(n); }
  PARALLEL
  { work(n); }
// CHECK: #pragma omp parallel
// CHECK-NEXT:   for (int k = 0; k < 2; ++k)
// CHECK-NEXT:     work(k);
#pragma omp parallel
  for (int k = 0; k < 2; ++k)
    work(k);
}
