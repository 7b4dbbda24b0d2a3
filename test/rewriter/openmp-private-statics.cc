// --openmp: a variable of static storage (a global, a static local) that a
// data-sharing clause of the loop, or of the region around it, makes each
// thread's own (reduction, also of an array section, private,
// firstprivate, lastprivate, linear) names the thread's copy inside the
// loop: no other iteration of another thread sees it, so its accesses are
// not memory of the trace (recorded, they were races between the copies,
// as NAS CG's `omp for reduction(+ : d)` of a static local showed). A global
// no clause privatises stays shared memory, and recorded.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --allow-empty --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc

// WARN-NOT: warning:

double total, shared_total;
double hist[8];
int scratch;

// An orphaned `omp for` (its region is in a caller), as NAS CG writes it.
void dot(const double *p, const double *q, int n, double *out) {
  static double d;
#pragma omp for reduction(+ : d)
  for (int j = 0; j < n; j++)
    d += p[j] * q[j];
  *out = d;
}
// CHECK: WGTRACE_OMP_ITERATION(wgtrace_omp_0, wgtrace_omp_bounds_0, 0, j); d += WGTRACE_LOAD_AT(1, p[j]) * WGTRACE_LOAD_AT(2, q[j]); } }

void globals(const double *x, int n) {
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < n; ++i)
    total += x[i];
#pragma omp parallel for private(scratch)
  for (int i = 0; i < n; ++i) {
    scratch = i;
    shared_total += x[scratch];
  }
#pragma omp parallel for reduction(+ : hist[0 : 8])
  for (int i = 0; i < n; ++i)
    hist[i % 8] += x[i];
#pragma omp parallel firstprivate(scratch)
  {
#pragma omp for lastprivate(total)
    for (int i = 0; i < n; ++i) {
      scratch += i;
      total = scratch;
    }
  }
}
// CHECK: WGTRACE_OMP_ITERATION(wgtrace_omp_1, wgtrace_omp_bounds_1, 1, i); WGTRACE_BUFFERS(x); total += WGTRACE_LOAD_AT(3, WGTRACE_LOAD_AT(4, x)[i]); } }
// CHECK: {{^}}    scratch = i;
// CHECK-NEXT: {{^}}    WGTRACE_UPDATE_AT(5, shared_total) += WGTRACE_LOAD_AT(6, WGTRACE_LOAD_AT(7, x)[scratch]);
// CHECK: WGTRACE_OMP_ITERATION(wgtrace_omp_3, wgtrace_omp_bounds_3, 3, i); WGTRACE_BUFFERS(x); hist[i % 8] += WGTRACE_LOAD_AT(8, WGTRACE_LOAD_AT(9, x)[i]); } }
// CHECK: WGTRACE_OMP_ITERATION(wgtrace_omp_4, wgtrace_omp_bounds_4, 4, i);
// CHECK-NEXT: {{^}}      scratch += i;
// CHECK-NEXT: {{^}}      total = scratch;
