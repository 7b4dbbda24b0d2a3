// --openmp on LULESH's forms (lulesh.cc:565 and :969, :1159): a `parallel
// for` that runs only when the program has more than one thread is traced
// as any other (on one thread it does not run, and records nothing); a
// header member function it calls that no copy can reach (it uses a private
// type) is untraced at each call, in each loop (not only at the file's
// first call); a parallel region whose loops are each under an `if` has its
// loops traced, and only its own code (the conditions) reported.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: not %wgtrace-rewrite --openmp --strict %t.cc -- %wgtrace-flags -I %S/Inputs 2>&1 | FileCheck --check-prefix=STRICT %s
#include "omp-mesh.h"

// CHECK: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT:     {"omp for at {{.*}}.cc:23 in gather", "{{.*}}.cc:23"},
// CHECK-NEXT:     {"omp for at {{.*}}.cc:42 in gatherAgain", "{{.*}}.cc:42"},
// CHECK-NEXT:     {"omp for at {{.*}}.cc:57 in boundary", "{{.*}}.cc:57"},
// CHECK-NEXT: };
void gather(Mesh &mesh, const double *elem, int threads, int n) {
  if (threads > 1) {
#pragma omp parallel for firstprivate(n)
    for (int node = 0; node < n; ++node) {
      int count = mesh.count(node);
      // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:19: warning: call of 'Mesh::count' is not traced: 'Mesh::count' is defined in {{.*}}omp-mesh.h, which is not rewritten, and cannot be copied into this file (it is a member function and it uses the non-public member 'nodes' (its type names 'Nodes', a type that no code outside its class can name), which a free copy cannot)
      double sum = 0.0;
      for (int i = 0; i < count; ++i)
        sum += elem[i];
      mesh.force(node) = sum;
    }
  }
}
// CHECK: { auto wgtrace_omp_0 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(0)); static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(0), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>> wgtrace_omp_bounds_0; _Pragma("omp parallel for firstprivate(n) shared(wgtrace_omp_0)")
// CHECK-NEXT: for (int node = ::wgtrace::detail::ompLower<0>(wgtrace_omp_bounds_0, 0); node < ::wgtrace::detail::ompBound<0>(wgtrace_omp_bounds_0, n); ++node) { WGTRACE_OMP_ITERATION(wgtrace_omp_0, wgtrace_omp_bounds_0, 0, node); WGTRACE_BUFFERS(::wgtrace::detail::objectBuffer(mesh), elem);
// CHECK: sum += WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, elem)[i]);
// CHECK-NEXT: WGTRACE_STORE_AT({{[0-9]+}}, mesh.force(node)) = sum;

// The same call in a second loop is reported there too.
void gatherAgain(Mesh &mesh, int threads, int n) {
  if (threads > 1) {
#pragma omp parallel for firstprivate(n)
    for (int node = 0; node < n; ++node)
      mesh.force(node) += mesh.count(node);
    // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:27: warning: call of 'Mesh::count' is not traced: 'Mesh::count' is defined in {{.*}}omp-mesh.h, which is not rewritten, and cannot be copied into this file (it is a member function and it uses the non-public member 'nodes' (its type names 'Nodes', a type that no code outside its class can name), which a free copy cannot)
  }
}
// CHECK: { WGTRACE_OMP_ITERATION(wgtrace_omp_1, wgtrace_omp_bounds_1, 1, node); WGTRACE_BUFFERS(::wgtrace::detail::objectBuffer(mesh)); WGTRACE_UPDATE_AT({{[0-9]+}}, mesh.force(node)) += mesh.count(node); } }

// Each loop of the region is under an `if`: the loop is traced, the
// region's own code (the condition, on every thread) is reported as such.
void boundary(Mesh &mesh, int n) {
#pragma omp parallel
  // WARN-DAG: {{.*}}.cc:[[@LINE-1]]:1: warning: '#pragma omp parallel' is not traced: the region's code outside its worksharing loops runs on every thread of the team and its accesses are not recorded (its loops are)
  {
    if (!mesh.empty()) {
#pragma omp for nowait firstprivate(n)
      for (int i = 0; i < n; ++i)
        mesh.symm[i] = 0;
    }
  }
}
// CHECK: { ::wgtrace::detail::OmpLaunch wgtrace_omp_2; static thread_local ::wgtrace::detail::OmpBounds<::wgtrace::detail::OmpDim<decltype(0), decltype(n), int, false, ::wgtrace::detail::OmpCompare::Less>> wgtrace_omp_bounds_2; _Pragma("omp single copyprivate(wgtrace_omp_2)") wgtrace_omp_2 = ::wgtrace::detail::OmpLaunch(WGTRACE_SITE(2)); _Pragma("omp for nowait firstprivate(n)")
// CHECK: { WGTRACE_OMP_ITERATION(wgtrace_omp_2, wgtrace_omp_bounds_2, 2, i); WGTRACE_BUFFERS(::wgtrace::detail::objectBuffer(mesh)); WGTRACE_STORE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, mesh.symm)[i]) = 0; } }
// STRICT: error: call of 'Mesh::count' is not traced
