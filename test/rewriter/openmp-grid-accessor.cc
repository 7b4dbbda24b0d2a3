// --openmp on the pattern of mini-apps that keep their fields in a class
// template with an element accessor (UoB-HPC CloverLeaf's OpenMP model:
// `parallel for simd collapse(2)` loops over 2D grids read through
// operator()(i, j)). Checked exact on CloverLeaf, line by line against
// the trace; this pins it: one record per element the iteration reads or
// writes, at the accessor's call (the element it returns), none for the
// grid's own fields (its size, its pointer: the accessor's bookkeeping),
// the loop variables or the reduction's copy; a scalar of the function
// that the iterations share is memory (one load per use). No warning.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp --strict %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --allow-empty --implicit-check-not=warning: --check-prefix=WARN %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc

// WARN-NOT: untraced

// Seven access sites in all: five in relax, two in smallest.
// CHECK: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 7, 1, "omp for at {{.*}} in relax", "b(i, j)"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 17, 0, "omp for at {{.*}} in relax", "b(i, j)"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 27, 0, "omp for at {{.*}} in relax", "half"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 35, 0, "omp for at {{.*}} in relax", "a(i - 1, j)"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 49, 0, "omp for at {{.*}} in relax", "a(i, j - 1)"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 25, 0, "omp for at {{.*}} in smallest", "a(i, j)"},
// CHECK-NEXT: {"{{.*}}.cc", [[#]], 11, 0, "omp for at {{.*}} in smallest", "a(i, j)"},
// CHECK-NEXT: };

// The accessor is the grid's: it is not rewritten (its loads of nx and
// cells are not the program's data).
// CHECK: template <typename T> struct Grid {
// CHECK-NEXT:   unsigned long nx, ny;
// CHECK-NEXT:   T *cells;
// CHECK-NEXT:   T &operator()(unsigned long i, unsigned long j) const {
// CHECK-NEXT:     return cells[i + j * nx];
// CHECK-NEXT:   }
// CHECK-NEXT: };
template <typename T> struct Grid {
  unsigned long nx, ny;
  T *cells;
  T &operator()(unsigned long i, unsigned long j) const {
    return cells[i + j * nx];
  }
};

// Per iteration: 3 element loads, 1 element store, 1 load of half.
// CHECK: { auto wgtrace_omp_0 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(0)); static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(1), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>, ::wgtrace::detail::OmpDim<decltype(1), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>> wgtrace_omp_bounds_0; _Pragma("omp parallel for simd collapse(2) shared(wgtrace_omp_0)")
// CHECK-NEXT:   for (int j = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_0, 1); j < ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_0, n); j++) {
// CHECK-NEXT:     for (int i = ::wgtrace::detail::ompLower<1>(wgtrace_omp_bounds_0, 1); i < ::wgtrace::detail::ompBound<1>(wgtrace_omp_bounds_0, n); i++) { WGTRACE_OMP_ITERATION(wgtrace_omp_0, wgtrace_omp_bounds_0, 0, j, i); WGTRACE_BUFFERS(::wgtrace::detail::objectBuffer(b), ::wgtrace::detail::objectBuffer(half), ::wgtrace::detail::objectBuffer(a));
// CHECK-NEXT:       WGTRACE_STORE_AT(1, b(i, j)) = WGTRACE_LOAD_AT(2, b(i, j)) - WGTRACE_LOAD_AT(3, half) * (WGTRACE_LOAD_AT(4, a(i - 1, j)) + WGTRACE_LOAD_AT(5, a(i, j - 1)));
// CHECK-NEXT:     }
// CHECK-NEXT:   } }
void relax(int n, double w, Grid<double> &a, Grid<double> &b) {
  double half = 0.5 * w;
#pragma omp parallel for simd collapse(2)
  for (int j = 1; j < n; j++) {
    for (int i = 1; i < n; i++) {
      b(i, j) = b(i, j) - half * (a(i - 1, j) + a(i, j - 1));
    }
  }
}

// A reduction(min) over the grid: the element loads only, not m.
// CHECK: { auto wgtrace_omp_1 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(1)); static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(0), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>, ::wgtrace::detail::OmpDim<decltype(0), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>> wgtrace_omp_bounds_1; _Pragma("omp parallel for simd collapse(2) reduction(min : m) shared(wgtrace_omp_1)")
// CHECK-NEXT:   for (int j = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_1, 0); j < ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_1, n); j++)
// CHECK-NEXT:     for (int i = ::wgtrace::detail::ompLower<1>(wgtrace_omp_bounds_1, 0); i < ::wgtrace::detail::ompBound<1>(wgtrace_omp_bounds_1, n); i++)
// CHECK-NEXT:       { WGTRACE_OMP_ITERATION(wgtrace_omp_1, wgtrace_omp_bounds_1, 1, j, i); WGTRACE_BUFFERS(::wgtrace::detail::objectBuffer(a)); m = WGTRACE_LOAD_AT(7, a(i, j)) < m ? WGTRACE_LOAD_AT(6, a(i, j)) : m; } }
double smallest(int n, Grid<double> &a) {
  double m = 1e30;
#pragma omp parallel for simd collapse(2) reduction(min : m)
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      m = a(i, j) < m ? a(i, j) : m;
  return m;
}
