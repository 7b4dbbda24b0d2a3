// --openmp: a critical block that holds another critical construct opens
// its section for the iteration, as one that calls code does: the inner
// statement's marks name the inner section alone, and the trace must show
// that it runs inside the outer one too (races then know both locks are
// held). A block without calls or inner sections only marks its accesses.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --allow-empty --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc

// CHECK: const char *const wgtrace_critical_section_names_[] = {"outer"};

void nested(int *total, int *odd, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    if (i % 2) {
#pragma omp critical(outer)
      {
        *odd += 1;
#pragma omp critical(inner)
        *total += i;
      }
    } else {
#pragma omp critical(outer)
      {
        *total += 2 * i;
      }
    }
  }
}
// CHECK:      {{^}}#pragma omp critical(outer)
// CHECK-NEXT: {{^}}      { WGTRACE_OMP_CRITICAL_SECTION(0x30E6ED678F5E1BD4ull);
// CHECK-NEXT: {{^}}        WGTRACE_OMP_CRITICAL_UPDATE_AT({{[0-9]+}}, 0x30E6ED678F5E1BD4ull, *WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0x30E6ED678F5E1BD4ull, odd)) += 1;
// CHECK-NEXT: {{^}}#pragma omp critical(inner)
// CHECK-NEXT: {{^}}        WGTRACE_OMP_CRITICAL_UPDATE_AT({{[0-9]+}}, 0x2D4C068F5F889287ull, *WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0x2D4C068F5F889287ull, total)) += i;
// CHECK:      {{^}}#pragma omp critical(outer)
// CHECK-NEXT: {{^}}      {
// CHECK-NEXT: {{^}}        WGTRACE_OMP_CRITICAL_UPDATE_AT({{[0-9]+}}, 0x30E6ED678F5E1BD4ull, *WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0x30E6ED678F5E1BD4ull, total)) += 2 * i;
// WARN-NOT: warning
