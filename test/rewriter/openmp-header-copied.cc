// --openmp traces the loops of a project header's functions that this file
// uses (calls, takes the address of), as it traces this file's: each such
// function is copied here, its loops instrumented in the copy, and this
// file's uses call the copy; the header stays as it is. So are the header
// functions through which this file's calls reach such a function (a chain
// of calls, through templates and macro arguments), recording nothing, the
// copies calling each other. The loops keep the header's place in their
// names, sites and access sites. Untraced, with the reason: the loops of a
// function this file does not use, of one that cannot be copied, and the
// runs of a loop whose function the header's other functions call (a
// function the file does not use: it calls the original). A member on the
// way is copied too (openmp-header-member.cc).
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include "omp-header-copied.h"

// CHECK: {"omp for at {{.*}}Inputs/omp-header-copied.h:10 in lib::scale", "{{[^"]*}}", "#pragma omp parallel for schedule(dynamic)", "#pragma omp parallel for schedule(dynamic)\n  for (int i = 0; i < n; ++i)\n    out[i] = in[i] * 2;", "{{.*}}Inputs/omp-header-copied.h", 10, 1, 3, wgtrace_params_ + 0, 2},
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-copied.h:17 in lib::fill", "{{[^"]*}}", "#pragma omp for", {{.*}}, "{{.*}}Inputs/omp-header-copied.h", 17, 1, 3, nullptr, 0},
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-copied.h:24 in star1", "{{[^"]*}}", "OMP_FOR(collapse(2))", {{.*}}, "{{.*}}Inputs/omp-header-copied.h", 24, 3, 3, nullptr, 0},
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-copied.h:66 in axpy", "{{[^"]*}}", "#pragma omp parallel for", {{.*}}, "{{.*}}Inputs/omp-header-copied.h", 66, 1, 3, wgtrace_params_ + 2, 2},
// CHECK-NEXT: };
// CHECK-NEXT: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-copied.h:10 in lib::scale", "{{.*}}Inputs/omp-header-copied.h:10"},
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-copied.h:17 in lib::fill", "{{.*}}Inputs/omp-header-copied.h:17"},
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-copied.h:24 in star1", "{{.*}}Inputs/omp-header-copied.h:24"},
// CHECK-NEXT: {"omp for at {{.*}}Inputs/omp-header-copied.h:66 in axpy", "{{.*}}Inputs/omp-header-copied.h:66"},
// CHECK-NEXT: };
// The accesses of the copies' loops, at the header's places; the shared
// parameters of a `parallel for` are memory, an orphaned loop's are not.
// CHECK-NEXT: const ::wgtrace::detail::AccessSiteInfo wgtrace_access_sites_[] = {
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 12, 5, 1, "omp for at {{.*}}:10 in lib::scale", "out[i]"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 12, 5, 0, "omp for at {{.*}}:10 in lib::scale", "out"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 12, 14, 0, "omp for at {{.*}}:10 in lib::scale", "in[i]"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 12, 14, 0, "omp for at {{.*}}:10 in lib::scale", "in"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 19, 5, 1, "omp for at {{.*}}:17 in lib::fill", "out[i]"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 27, 7, 2, "omp for at {{.*}}:24 in star1", "out[i * n + j]"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 27, 25, 0, "omp for at {{.*}}:24 in star1", "in[i * n + j - 1]"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 27, 45, 0, "omp for at {{.*}}:24 in star1", "in[(i - 1) * n + j]"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 68, 5, 2, "omp for at {{.*}}:66 in axpy", "y[i]"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 68, 5, 0, "omp for at {{.*}}:66 in axpy", "y"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 68, 13, 0, "omp for at {{.*}}:66 in axpy", "x[i]"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 68, 13, 0, "omp for at {{.*}}:66 in axpy", "x"},
// CHECK-NEXT: };
// CHECK-NEXT: const ::wgtrace::detail::UntracedInfo wgtrace_untraced_[] = {
// CHECK-NEXT: {"{{.*}}.cc", {{[0-9]+}}, 1, "run", "'#pragma omp parallel'", {{.*}}},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 32, 1, "reset", "'#pragma omp parallel for'", "it is in a header, and wgtrace-rewrite traces the OpenMP code of the files it rewrites, not of the headers they include (rewrite a source file that holds the code)"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 40, 1, "counted", "'#pragma omp parallel for' loop", "it is in a header, in 'counted', which this file uses but which cannot be copied here to trace it (it has a static local variable, which a copy would duplicate)"},
// CHECK-NEXT: {"{{.*}}Inputs/omp-header-copied.h", 10, 1, "lib::scale", "'#pragma omp parallel for' loop", "it is traced in the copy of 'lib::scale' that this file's uses call, but 'untouched' ({{.*}}omp-header-copied.h) uses the header's original, whose runs are not recorded"},
// CHECK-NEXT: };

// WARN-DAG: {{.*}}.cc:{{[0-9]+}}:1: warning: '#pragma omp parallel' is not traced: {{.*}}
// WARN-DAG: {{.*}}omp-header-copied.h:10:1: warning: '#pragma omp parallel for' loop is not traced: it is traced in the copy of 'lib::scale' that this file's uses call, but 'untouched' {{.*}}
// WARN-DAG: {{.*}}omp-header-copied.h:32:1: warning: '#pragma omp parallel for' is not traced: it is in a header, {{.*}}
// WARN-DAG: {{.*}}omp-header-copied.h:40:1: warning: '#pragma omp parallel for' loop is not traced: it is in a header, in 'counted', which this file uses but which cannot be copied here to trace it (it has a static local variable, which a copy would duplicate)

// The copies: renamed, internal, in their namespace, the launch before the
// loop (a `_Pragma` macro stays as written), the iteration's prologue in
// the body, the accesses wrapped; between #line directives that name the
// header's lines.
// CHECK: namespace lib {
// CHECK-NEXT: #line 9 "{{.*}}Inputs/omp-header-copied.h"
// CHECK-NEXT: static inline void scale_wgtrace_0(float *out, const float *in, int n) {
// CHECK-NEXT: { auto wgtrace_omp_0 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(0)); {{.*}} _Pragma("omp parallel for schedule(dynamic) shared(wgtrace_omp_0)")
// CHECK: {{ +}}{ WGTRACE_OMP_ITERATION(wgtrace_omp_0, wgtrace_omp_bounds_0, 0, i); WGTRACE_BUFFERS(out, in); WGTRACE_STORE_AT(1, WGTRACE_LOAD_AT(2, out)[i]) = WGTRACE_LOAD_AT(3, WGTRACE_LOAD_AT(4, in)[i]) * 2; } }
// CHECK: template <class T> static inline void fill_wgtrace_1(T *out, T value, int n) {
// CHECK-NEXT: { ::wgtrace::detail::OmpLaunch wgtrace_omp_1; {{.*}} _Pragma("omp single copyprivate(wgtrace_omp_1)") wgtrace_omp_1 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(1)); _Pragma("omp for")
// CHECK: #line 23 "{{.*}}Inputs/omp-header-copied.h"
// CHECK-NEXT: static inline void star1_wgtrace_2(const int n, const double *in, double *out) {
// CHECK-NEXT: {{ +}}{ ::wgtrace::detail::OmpLaunch wgtrace_omp_2; {{.*}} wgtrace_omp_2 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(2)); OMP_FOR(collapse(2))
// CHECK: {{ +}}{ WGTRACE_OMP_ITERATION(wgtrace_omp_2, wgtrace_omp_bounds_2, 2, i, j); WGTRACE_UPDATE_AT(6, out[i * n + j]) += WGTRACE_LOAD_AT(7, in[i * n + j - 1]) + WGTRACE_LOAD_AT(8, in[(i - 1) * n + j]); } }
// CHECK-NEXT: }
// The functions on the way to a loop: copied as written but for the names
// they call, the macro's argument too.
// CHECK-NEXT: #line 48 "{{.*}}Inputs/omp-header-copied.h"
// CHECK-NEXT: static inline void twice_wgtrace_4(float *out, const float *in, int n) {
// CHECK-NEXT:   lib::scale_wgtrace_0(out, in, n);
// CHECK-NEXT:   lib::scale_wgtrace_0(out, out, n);
// CHECK-NEXT: }
// CHECK-NEXT: #line 65 "{{.*}}Inputs/omp-header-copied.h"
// CHECK-NEXT: template <class T> static inline void axpy_wgtrace_3(T *y, const T *x, int n) {
// CHECK: {{ +}}{ WGTRACE_OMP_ITERATION(wgtrace_omp_3, wgtrace_omp_bounds_3, 3, i); WGTRACE_BUFFERS(y, x); WGTRACE_UPDATE_AT(9, WGTRACE_LOAD_AT(10, y)[i]) += WGTRACE_LOAD_AT(11, WGTRACE_LOAD_AT(12, x)[i]); } }
// CHECK-NEXT: }
// CHECK-NEXT: #line 70 "{{.*}}Inputs/omp-header-copied.h"
// CHECK-NEXT: template <class T> static inline void solve_wgtrace_5(T *y, const T *x, int n) { TIMED(axpy_wgtrace_3(y, x, n)); }
// CHECK-NEXT: #line 71 "{{.*}}Inputs/omp-header-copied.h"
// CHECK-NEXT: template <class T> static inline void driver_wgtrace_7(T *y, const T *x, int n) { solve_wgtrace_5(y, x, n); }
// A member on the way: a free function taking its object (unnamed: the
// body does not use it).
// CHECK-NEXT: #line 76 "{{.*}}Inputs/omp-header-copied.h"
// CHECK-NEXT: static inline void Runner_go_wgtrace_6(::Runner &, double *y, const double *x, int n) { axpy_wgtrace_3(y, x, n); }
// CHECK-NEXT: #line [[#@LINE+2]] "{{.*}}.cc"
// The uses: calls and the address taken call the copies.
void run(float *a, float *b, double *x, double *y, int n) {
  lib::scale(b, a, n);
// CHECK: {{^}}  lib::scale_wgtrace_0(b, a, n);
#pragma omp parallel
  {
    lib::fill(a, 1.0f, n);
// CHECK: {{^}}    lib::fill_wgtrace_1(a, 1.0f, n);
  }
  auto stencil = star1;
// CHECK: {{^}}  auto stencil = star1_wgtrace_2;
  stencil(n, x, y);
  counted(a, n);
// CHECK: {{^}}  counted(a, n);
  twice(b, a, n);
// CHECK: {{^}}  twice_wgtrace_4(b, a, n);
  driver(y, x, n);
// CHECK: {{^}}  driver_wgtrace_7(y, x, n);
  Runner().go(y, x, n);
// CHECK: {{^}}  ::Runner_go_wgtrace_6([](auto &&wgtrace_object) -> auto & { return wgtrace_object; }(Runner()), y, x, n);
}
