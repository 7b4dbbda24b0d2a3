// An access to storage a container local to the function owns (by value:
// the kernel's, a helper's, an OpenMP loop body's `std::vector<double>
// tmp`) has an access site marked workgroup-owned (`nullptr, true` after
// its text): races leave it out, as another workgroup's container may get
// the same addresses once this one is freed. A container the iterations
// share, a static one, and one reached through a reference or an
// iterator (not followed, so not known to be owned) are not. The
// construction of such a local (`std::vector<double> tmp(8)`, recorded as
// libstdc++'s stores into its new storage) is owned too.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include %t.out.cc

#include <vector>

// CHECK: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 3, "omp for at {{.*}}:{{[0-9]+}} in loop", "tmp(8)", nullptr, true},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}}:{{[0-9]+}} in loop", "tmp[k]", nullptr, true},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}}:{{[0-9]+}} in loop", "shared[i]"},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 0, "omp for at {{.*}}:{{[0-9]+}} in loop", "tmp.data()[1]", nullptr, true},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}}:{{[0-9]+}} in loop", "view[0]"},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 3, "omp for at {{.*}}:{{[0-9]+}} in loop", "tmp.push_back(1.0)", nullptr, true},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}}:{{[0-9]+}} in loop", "kept[i]"},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "omp for at {{.*}}:{{[0-9]+}} in loop", "*it"},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 3, "fill", "v(n)", nullptr, true},
// CHECK-NEXT: {"{{.*}}", {{[0-9]+}}, {{[0-9]+}}, 1, "fill", "v[k]", nullptr, true},

static void fill(int n) {
  std::vector<int> v(n);
  for (int k = 0; k < n; ++k) v[k] = k;
}

void loop(std::vector<double> &shared, int n) {
  static std::vector<double> kept(64);
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    std::vector<double> tmp(8);
    for (int k = 0; k < 8; ++k) tmp[k] = i;
    for (int k = 0; k < 8; ++k) shared[i] = k;
    double x = 0; x += tmp.data()[1];
    auto &view = tmp; view[0] = x;
    tmp.push_back(1.0);
    if (i < 64) kept[i] = x;
    auto it = tmp.begin(); *it = 2;
    fill(4);
  }
}
