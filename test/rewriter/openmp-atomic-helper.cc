// `omp atomic` in the helpers an OpenMP loop's iterations call (in this
// file, or copied from a project header) is recorded as in the loop's own
// body: the object's atomic operation before the construct, so that
// `races` takes two iterations' updates for synchronised.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include "omp-atomic-helpers.h"

#include <vector>


static void count(int *histogram, int key) {
#pragma omp atomic update
  histogram[key]++;
}
// CHECK: { static_cast<void>(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &(histogram[key]))); _Pragma("omp atomic update")
// CHECK-NEXT:   histogram[key]++; }

// An element of a std::vector, as miniFE's sum_into_vector adds into its
// vector's coefficients: taking its address twice (for the record, then in
// the construct) calls operator[] twice, which computes the same address.
// A call that may do more is not repeated: that access stays untraced.
static void add_to(std::vector<double> &v, int k, double value) {
#pragma omp atomic
  v[k] += value;
}
// CHECK: { static_cast<void>(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &(v[k]))); _Pragma("omp atomic")
// CHECK-NEXT:   v[k] += value; }
static int next(int &cursor) { return cursor++; }
static void add_next(double *row, int &cursor, double value) {
#pragma omp atomic
  row[next(cursor)] += value;
}
// WARN: {{.*}}.cc:[[#@LINE-2]]:3: warning: atomic update of 'row[next(cursor)]' is not traced: it is the object of an 'omp atomic' construct whose address has side effects, which recording it would repeat

// The header's helper, copied before the loop that calls it.
// CHECK: static inline void add_into_wgtrace_0(double *row, int k, double value) {
// CHECK-NEXT: { static_cast<void>(WGTRACE_ATOMIC_UPDATE_AT({{[0-9]+}}, &(row[k]))); _Pragma("omp atomic")
// CHECK-NEXT:   row[k] += value; }
// CHECK-NEXT: }
void assemble(double *row, int *histogram, std::vector<double> &v,
              const int *keys, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    add_into(row, keys[i], 1.0);
    count(histogram, keys[i]);
    add_to(v, keys[i], 1.0);
    int cursor = i;
    add_next(row, cursor, 1.0);
  }
}
