// --openmp on directives written with the _Pragma operator, directly or in
// a macro, as the Parallel Research Kernels write all of theirs
// (Cxx11/prk_openmp.h): the directive stays as written and the launch goes
// before it, on its line; a `parallel for` shares the launch by default.
// Untraced, with the reason: a `parallel for` whose `default(none)` would
// not share it (a macro's text cannot take `shared(...)`), and a macro that
// also holds the loop.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc %}
// RUN: not %wgtrace-rewrite --openmp --strict %t.cc -- %wgtrace-flags 2>&1 | FileCheck --check-prefix=STRICT %s
#define PRAGMA(x) _Pragma(#x)
#define OMP_PARALLEL(x) PRAGMA(omp parallel x)
#define OMP_FOR(x) PRAGMA(omp for x)
#define OMP_PARALLEL_FOR_REDUCE(x) PRAGMA(omp parallel for reduction(x))
#define OMP_PARALLEL_FOR_NONE PRAGMA(omp parallel for default(none) shared(a, n))
#define LOOP(n) PRAGMA(omp parallel for) for (int i = 0; i < n; ++i)

// CHECK: {"omp for at {{.*}}.cc:34 in nstream", "{{[^"]*}}", "OMP_FOR(schedule(static))", "OMP_FOR(schedule(static))\n    for (int i = 0; i < n; ++i)\n      a[i] += b[i];", "{{.*}}.cc", 34, 5, 3, wgtrace_params_ + 0, 2},
// CHECK-NEXT: {"omp for at {{.*}}.cc:45 in norm", "{{[^"]*}}", "OMP_PARALLEL_FOR_REDUCE(+ : sum)", {{.*}}
// CHECK-NEXT: {"omp for at {{.*}}.cc:55 in direct", "{{[^"]*}}", "_Pragma(\"omp parallel for\")", {{.*}}
// CHECK-NEXT: };
// CHECK: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT: {"omp for at {{.*}}.cc:34 in nstream", "{{.*}}.cc:34"},
// CHECK-NEXT: {"omp for at {{.*}}.cc:45 in norm", "{{.*}}.cc:45"},
// CHECK-NEXT: {"omp for at {{.*}}.cc:55 in direct", "{{.*}}.cc:55"},
// CHECK-NEXT: };
void nstream(double *a, const double *b, int n) {
  OMP_PARALLEL()
  {
    OMP_FOR(schedule(static))
    for (int i = 0; i < n; ++i)
      a[i] += b[i];
  }
}
// CHECK: {{ +}}{ ::wgtrace::detail::OmpLaunch wgtrace_omp_0; static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(0), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>> wgtrace_omp_bounds_0; _Pragma("omp single copyprivate(wgtrace_omp_0)") wgtrace_omp_0 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(0)); OMP_FOR(schedule(static))
// CHECK-NEXT: for (int i = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_0, 0); i < ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_0, n); ++i)
// CHECK-NEXT: { WGTRACE_OMP_ITERATION(wgtrace_omp_0, wgtrace_omp_bounds_0, 0, i); WGTRACE_BUFFERS(a, b); WGTRACE_UPDATE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, a)[i]) += WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, b)[i]); } }

double norm(const double *a, int n) {
  double sum = 0.0;
  OMP_PARALLEL_FOR_REDUCE(+ : sum)
  for (int i = 0; i < n; ++i)
    sum += a[i];
  return sum;
}
// CHECK: { auto wgtrace_omp_1 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(1)); static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(0), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>> wgtrace_omp_bounds_1; OMP_PARALLEL_FOR_REDUCE(+ : sum)
// CHECK-NEXT: for (int i = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_1, 0); i < ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_1, n); ++i)
// CHECK-NEXT: { WGTRACE_OMP_ITERATION(wgtrace_omp_1, wgtrace_omp_bounds_1, 1, i); WGTRACE_BUFFERS(a); sum += WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, a)[i]); } }

void direct(double *a, int n) {
  _Pragma("omp parallel for")
  for (int i = 0; i < n; ++i)
    a[i] = 0.0;
}
// CHECK: { auto wgtrace_omp_2 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(2)); {{.*}} wgtrace_omp_bounds_2; _Pragma("omp parallel for")

void none(double *a, int n) {
  OMP_PARALLEL_FOR_NONE
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:3: warning: '#pragma omp parallel for' loop is not traced: it is written with _Pragma or in a macro, which wgtrace cannot add 'shared(...)' to, and its 'default(none)' would not share the launch with the team
  for (int i = 0; i < n; ++i)
    a[i] = 1.0;
}

void whole(double *a, int n) {
  LOOP(n) a[i] = 2.0;
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:3: warning: '#pragma omp parallel for' loop is not traced: it is written with _Pragma or in a macro whose invocation also holds its loop or is not in this file, which wgtrace cannot rewrite
}
// STRICT: error: '#pragma omp parallel for' loop is not traced
