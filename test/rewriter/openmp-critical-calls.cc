// --openmp: a critical section whose block calls code (a helper, a library
// call recorded as the library does it) opens the section for the
// iteration with the section macro and the name hashed, so that
// what the called code records is inside the section too; a statement that
// is not a block becomes one. A block that calls nothing only marks its
// own accesses. A helper the loop calls is marked and opened the same way.
// The metadata names the sections opened so.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --allow-empty --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc
// Without --openmp a critical section is not marked.
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags | FileCheck --match-full-lines --check-prefix=PLAIN --implicit-check-not='WGTRACE_OMP_{{C}}RITICAL' %s

#include <vector>

// CHECK: const char *const wgtrace_critical_section_names_[] = {"sum", "", "kept"};
// CHECK-NEXT: ::wgtrace::detail::OmpCriticalNames wgtrace_critical_sections_(wgtrace_critical_section_names_, 3);

static void add(double *t, double v) { *t += v; }

void sections(const double *x, double *total, std::vector<double> &kept,
              int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    double v = x[i];
#pragma omp critical(sum)
    add(total, v);
#pragma omp critical
    {
      kept.push_back(v);
    }
#pragma omp critical(sum)
    total[1] += v;
  }
}
// CHECK: #pragma omp critical(sum)
// CHECK-NEXT: { WGTRACE_OMP_CRITICAL_SECTION(0x82719E195D0FC4A8ull); add(WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0x82719E195D0FC4A8ull, total), v); }
// CHECK-NEXT: #pragma omp critical
// CHECK-NEXT: { WGTRACE_OMP_CRITICAL_SECTION(0xCBF29CE484222325ull);
// CHECK-NEXT: ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), kept).push_back(v);
// CHECK-NEXT: }
// CHECK-NEXT: #pragma omp critical(sum)
// CHECK-NEXT: WGTRACE_OMP_CRITICAL_UPDATE_AT({{[0-9]+}}, 0x82719E195D0FC4A8ull, WGTRACE_OMP_CRITICAL_LOAD_AT({{[0-9]+}}, 0x82719E195D0FC4A8ull, total)[1]) += v;

// WARN-NOT: warning

// A helper the loop calls: its critical section is marked and opened as
// the loop's own are (the iteration that calls it enters it).
static void keep(std::vector<double> &kept, double v) {
#pragma omp critical(kept)
  kept.push_back(v);
}
// CHECK: #pragma omp critical(kept)
// CHECK-NEXT: { WGTRACE_OMP_CRITICAL_SECTION(0x{{[0-9A-F]+}}ull); ::wgtrace::detail::recorded::vector<'-'>(WGTRACE_ACCESS_SITE({{[0-9]+}}), kept).push_back(v); }
// PLAIN: #pragma omp critical(kept)
// PLAIN-NEXT: kept.push_back(v);

void viaHelper(const double *x, std::vector<double> &kept, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    keep(kept, x[i]);
}
