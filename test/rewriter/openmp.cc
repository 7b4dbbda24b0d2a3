// --openmp: each OpenMP worksharing loop is a dispatch site named after its
// place. The `#pragma` becomes a `_Pragma` after the launch, which the
// encountering thread begins before a `parallel for`, and which one thread
// of the team begins for an `omp for` of a region (`single copyprivate`);
// the loop's bounds note their values in the thread's OmpBounds as OpenMP
// evaluates them. Each iteration opens with
// WGTRACE_OMP_ITERATION and the loop variables, outermost first; the shared
// variables it uses are its buffers and memory (a shared pointer's loads
// too); the body's own variables,
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
// CHECK: {"omp for at {{.*}}.cc:40 in scale", "{{[^"]*}}", "#pragma omp parallel for schedule(dynamic, 4)", "#pragma omp parallel for schedule(dynamic, 4)\n  for (int i = 0; i < n; ++i)\n    out[i] = factor * in[i];", "{{.*}}.cc", 40, 1, 3, wgtrace_params_ + 0, 3},
// CHECK-NEXT: {"omp for at {{.*}}.cc:48 in grid", {{.*}}, 48, 1, 3, wgtrace_params_ + 3, 1},
// CHECK-NEXT: {"omp for at {{.*}}.cc:70 in region", {{.*}}, 70, 1, 3, wgtrace_params_ + 4, 2},
// CHECK: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT:     {"omp for at {{.*}}.cc:40 in scale", "{{.*}}.cc:40"},
// CHECK-NEXT:     {"omp for at {{.*}}.cc:48 in grid", "{{.*}}.cc:48"},
// CHECK-NEXT:     {"omp for at {{.*}}.cc:70 in region", "{{.*}}.cc:70"},
// CHECK: {"{{.*}}.cc", [[#]], 5, 2, "omp for at {{.*}} in critical", "*total", "sum"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 6, 0, "omp for at {{.*}} in critical", "total", "sum"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 15, 0, "omp for at {{.*}} in critical", "x[i]", "sum"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 15, 0, "omp for at {{.*}} in critical", "x", "sum"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 5, 1, "omp for at {{.*}} in critical", "total[1]", ""},

// CHECK: { auto wgtrace_omp_0 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(0)); static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(0), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>> wgtrace_omp_bounds_0; _Pragma("omp parallel for schedule(dynamic, 4) shared(wgtrace_omp_0)")
// CHECK-NEXT:   for (int i = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_0, 0); i < ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_0, n); ++i)
// CHECK-NEXT:     { WGTRACE_OMP_ITERATION(wgtrace_omp_0, wgtrace_omp_bounds_0, 0, i); WGTRACE_BUFFERS(out, ::wgtrace::detail::objectBuffer(factor), in); WGTRACE_STORE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, out)[i]) = WGTRACE_LOAD_AT({{[0-9]+}}, factor) * WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, in)[i]); } }
void scale(float *out, const float *in, float factor, int n) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < n; ++i)
    out[i] = factor * in[i];
}

// collapse(2): the inner loop runs down; its variable is x of the id.
// CHECK: { auto wgtrace_omp_1 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(1)); static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(0), decltype(10), int, false, ::wgtrace::detail::OmpCompare::Less>, ::wgtrace::detail::OmpDim<decltype(cols), decltype(0), decltype(2), true, ::wgtrace::detail::OmpCompare::Greater>> wgtrace_omp_bounds_1; _Pragma("omp parallel for collapse(2) private(rows) shared(wgtrace_omp_1)") // two loops
void grid(int *m, int rows, int cols) {
#pragma omp parallel for collapse(2) private(rows) // two loops
  for (int i = 0; i < 10; ++i)
    for (int j = cols; j > 0; j -= 2) {
      rows = i * j;
      m[i * 100 + j] = rows;
    }
// CHECK: for (int i = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_1, 0); i < ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_1, 10); ++i)
// CHECK-NEXT: for (int j = ::wgtrace::detail::ompLower<1>(wgtrace_omp_bounds_1, cols); j > ::wgtrace::detail::ompBound<1>(wgtrace_omp_bounds_1, 0); j -= ::wgtrace::detail::ompStep<1>(wgtrace_omp_bounds_1, 2)) { WGTRACE_OMP_ITERATION(wgtrace_omp_1, wgtrace_omp_bounds_1, 1, i, j); WGTRACE_BUFFERS(m);
// CHECK-NEXT: rows = i * j;
// CHECK-NEXT: WGTRACE_STORE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, m)[i * 100 + j]) = rows;
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
// CHECK: { ::wgtrace::detail::OmpLaunch wgtrace_omp_2; static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(0), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>> wgtrace_omp_bounds_2; _Pragma("omp single copyprivate(wgtrace_omp_2)") wgtrace_omp_2 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(2)); _Pragma("omp for nowait")
#pragma omp for nowait
    for (int i = 0; i < n; ++i) {
      int k = keys[i];
      sum += k + own;
#pragma omp atomic
      h[k] += 1;
    }
// CHECK: for (int i = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_2, 0); i < ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_2, n); ++i) { WGTRACE_OMP_ITERATION(wgtrace_omp_2, wgtrace_omp_bounds_2, 2, i); WGTRACE_BUFFERS(keys, h);
// CHECK-NEXT: int k = WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, keys)[i]);
// CHECK-NEXT: sum += k + own;
// CHECK-NEXT: { static_cast<void>(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &(h[k]))); _Pragma("omp atomic")
// CHECK-NEXT: WGTRACE_LOAD_AT({{[0-9]+}}, h)[k] += 1; }
// CHECK-NEXT: } }
  }
  h[0] += int(sum);
}

// In a critical section: the accesses carry a critical mark with the
// section's name hashed (FNV-1a: "sum", and "" for the unnamed section);
// their access sites name the section (above).
void critical(int *total, const int *x, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
#pragma omp critical(sum)
    *total += x[i];
#pragma omp critical
    total[1] = x[i];
  }
}
// CHECK: #pragma omp critical(sum)
// CHECK-NEXT: WGTRACE_OMP_CRITICAL_UPDATE_AT({{[0-9]+}}, 0x82719E195D0FC4A8ull, *WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0x82719E195D0FC4A8ull, total)) += WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0x82719E195D0FC4A8ull, WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0x82719E195D0FC4A8ull, x)[i]);
// CHECK-NEXT: #pragma omp critical
// CHECK-NEXT: WGTRACE_OMP_CRITICAL_STORE_AT({{[0-9]+}}, 0xCBF29CE484222325ull, WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0xCBF29CE484222325ull, total)[1]) = WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0xCBF29CE484222325ull, WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0xCBF29CE484222325ull, x)[i]);

// Bounds with side effects, and calls: they stay in the loop, evaluated as
// OpenMP evaluates them (by each thread, once), each value noted in the
// thread's bounds; the type of one with a side effect that decltype
// would warn of (`m--`) is spelled, a call (`bound(0)`) keeps decltype.
int calls = 0;
int bound(int n) { return ++calls, n; }
void counted(int *a, int n) {
  int m = n;
#pragma omp parallel for
  for (int i = m--; i > bound(0); i -= bound(1))
    a[i] = i;
}
// CHECK: { auto wgtrace_omp_4 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(4)); static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<int, decltype(bound(0)), decltype(bound(1)), true, ::wgtrace::detail::OmpCompare::Greater>> wgtrace_omp_bounds_4; _Pragma("omp parallel for shared(wgtrace_omp_4)")
// CHECK-NEXT: for (int i = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_4, m--); i > ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_4, bound(0)); i -= ::wgtrace::detail::ompStep<0>(wgtrace_omp_bounds_4, bound(1)))

// A restrict-qualified shared pointer: its loads are recorded as others'
// are (the runtime takes its address whatever its qualifiers).
void restricted(double *__restrict a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    a[i] = 1.0;
}
// CHECK: { WGTRACE_OMP_ITERATION(wgtrace_omp_5, wgtrace_omp_bounds_5, 5, i); WGTRACE_BUFFERS(a); WGTRACE_STORE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, a)[i]) = 1.0; } }

// Not traced: a region without a loop, a task.
void untraced(int *a, int n) {
#pragma omp parallel
  a[0] = n;
  // WARN: [[@LINE-2]]:1: warning: '#pragma omp parallel' is not traced: wgtrace traces worksharing loops only: the region's code runs on every thread of the team and its accesses are not recorded
#pragma omp task
  a[1] = n;
  // WARN: [[@LINE-2]]:1: warning: '#pragma omp task' is not traced: wgtrace traces worksharing loops only: a task's accesses are not recorded
}
// STRICT: error: '#pragma omp parallel' is not traced
