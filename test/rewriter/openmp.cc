// --openmp: each OpenMP worksharing loop is a dispatch site named after its
// place. The `#pragma` becomes a `_Pragma` after the launch, which the
// encountering thread begins before a `parallel for` (its bounds evaluated
// once more), and which one thread of the team begins for an `omp for` of a
// region (`single copyprivate`). Each iteration opens with
// WGTRACE_OMP_ITERATION and the loop variables, outermost first; the shared
// variables it uses are its buffers and memory; the body's own variables,
// the loop's private and reduction copies, and the region's own variables
// are not. `omp atomic` records its object before the construct, as an
// atomic operation. Other constructs that run code in parallel are
// untraced warnings. No line is added.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: not %wgtrace-rewrite --openmp --strict %t.cc -- %wgtrace-flags 2>&1 | FileCheck --check-prefix=STRICT %s
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | diff %t.cc -

// CHECK: #include <wgtrace/detail/openmp.h>
// CHECK: {"omp for at {{.*}}.cc:33 in scale", "{{[^"]*}}", "#pragma omp parallel for schedule(dynamic, 4)", "#pragma omp parallel for schedule(dynamic, 4)\n  for (int i = 0; i < n; ++i)\n    out[i] = factor * in[i];", "{{.*}}.cc", 33, 1, 3, wgtrace_params_ + 0, 3},
// CHECK-NEXT: {"omp for at {{.*}}.cc:41 in grid", {{.*}}, 41, 1, 3, wgtrace_params_ + 3, 1},
// CHECK-NEXT: {"omp for at {{.*}}.cc:62 in region", {{.*}}, 62, 1, 3, wgtrace_params_ + 4, 2},
// CHECK: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT:     {"omp for at {{.*}}.cc:33 in scale", "{{.*}}.cc:33"},
// CHECK-NEXT:     {"omp for at {{.*}}.cc:41 in grid", "{{.*}}.cc:41"},
// CHECK-NEXT:     {"omp for at {{.*}}.cc:62 in region", "{{.*}}.cc:62"},

// CHECK: { auto wgtrace_omp_0 = ::wgtrace::detail::ompLaunch(WGTRACE_SITE(0), ::wgtrace::detail::ompDim(0, n, (1), ::wgtrace::detail::OmpCompare::Less)); _Pragma("omp parallel for schedule(dynamic, 4) shared(wgtrace_omp_0)")
// CHECK-NEXT:   for (int i = 0; i < n; ++i)
// CHECK-NEXT:     { WGTRACE_OMP_ITERATION(wgtrace_omp_0, 0, i); WGTRACE_BUFFERS(out, ::wgtrace::detail::objectBuffer(factor), in); WGTRACE_STORE_AT({{[0-9]+}}, out[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, factor) * WGTRACE_LOAD_AT({{[0-9]+}}, in[i]); } }
void scale(float *out, const float *in, float factor, int n) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < n; ++i)
    out[i] = factor * in[i];
}

// collapse(2): the inner loop runs down; its variable is x of the id.
// CHECK: { auto wgtrace_omp_1 = ::wgtrace::detail::ompLaunch(WGTRACE_SITE(1), ::wgtrace::detail::ompDim(0, 10, (1), ::wgtrace::detail::OmpCompare::Less), ::wgtrace::detail::ompDim(cols, 0, -(2), ::wgtrace::detail::OmpCompare::Greater)); _Pragma("omp parallel for collapse(2) private(rows) shared(wgtrace_omp_1)") // two loops
void grid(int *m, int rows, int cols) {
#pragma omp parallel for collapse(2) private(rows) // two loops
  for (int i = 0; i < 10; ++i)
    for (int j = cols; j > 0; j -= 2) {
      rows = i * j;
      m[i * 100 + j] = rows;
    }
// CHECK: for (int j = cols; j > 0; j -= 2) { WGTRACE_OMP_ITERATION(wgtrace_omp_1, 1, i, j); WGTRACE_BUFFERS(m);
// CHECK-NEXT: rows = i * j;
// CHECK-NEXT: WGTRACE_STORE_AT({{[0-9]+}}, m[i * 100 + j]) = rows;
// CHECK-NEXT: } }
}

// `omp for` in a parallel region: one thread begins the launch. The
// region's own variable and the reduction's copy are not memory; the
// atomic update's object is recorded before the construct.
void region(int *h, const int *keys, int n) {
  long sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    int own = 1;
// CHECK: { decltype(::wgtrace::detail::ompLaunch(WGTRACE_SITE(2), ::wgtrace::detail::ompDim(0, n, (1), ::wgtrace::detail::OmpCompare::Less))) wgtrace_omp_2; _Pragma("omp single copyprivate(wgtrace_omp_2)") wgtrace_omp_2 = ::wgtrace::detail::ompLaunch(WGTRACE_SITE(2), ::wgtrace::detail::ompDim(0, n, (1), ::wgtrace::detail::OmpCompare::Less)); _Pragma("omp for nowait")
#pragma omp for nowait
    for (int i = 0; i < n; ++i) {
      int k = keys[i];
      sum += k + own;
#pragma omp atomic
      h[k] += 1;
    }
// CHECK: for (int i = 0; i < n; ++i) { WGTRACE_OMP_ITERATION(wgtrace_omp_2, 2, i); WGTRACE_BUFFERS(keys, h);
// CHECK-NEXT: int k = WGTRACE_LOAD_AT({{[0-9]+}}, keys[i]);
// CHECK-NEXT: sum += k + own;
// CHECK-NEXT: { static_cast<void>(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &(h[k]))); _Pragma("omp atomic")
// CHECK-NEXT: h[k] += 1; }
// CHECK-NEXT: } }
  }
  h[0] += int(sum);
}

// In a critical section: the accesses carry the atomic mark.
void critical(int *total, const int *x, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical(sum)
    *total += x[i];
  }
}
// CHECK: #pragma omp critical(sum)
// CHECK-NEXT: WGTRACE_OMP_CRITICAL_UPDATE_AT({{[0-9]+}}, *total) += WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, x[i]);

// Not traced: a region without a loop, a task, a loop whose bounds have
// side effects (a call in them is evaluated once more: OpenMP requires it
// to give the same value each time).
void untraced(int *a, int n) {
  int m = n;
#pragma omp parallel for
  for (int i = 0; i < m++; ++i)
    a[i] = i;
  // WARN: [[@LINE-3]]:1: warning: '#pragma omp parallel for' loop is not traced: its loop's bounds or step have side effects, which the launch before the loop would repeat
#pragma omp parallel
  a[0] = n;
  // WARN: [[@LINE-2]]:1: warning: '#pragma omp parallel' is not traced: wgtrace traces worksharing loops only: the region's code runs on every thread of the team and its accesses are not recorded
#pragma omp task
  a[1] = n;
  // WARN: [[@LINE-2]]:1: warning: '#pragma omp task' is not traced: wgtrace traces worksharing loops only: a task's accesses are not recorded
}
// STRICT: error: '#pragma omp parallel for' loop is not traced
