// --openmp traces the loops of a project header's static member functions
// as it traces its free functions' (openmp-header-copied.cc): gapbs's
// `BuilderBase::ParallelPrefixSum` and `CSRGraph::GenIndex`, static
// members of class templates, are copied as function templates over the
// class's parameters, their loops traced in the copies. No argument
// deduces those parameters: the calls name them, the specialization's
// (`Builder::` is `BuilderBase<int, int, int, true>`, defaults included)
// from outside, the class's own from the copy of another of its members
// (`ParallelPrefixSum(...)` in MakeIndex), and a call through another
// class template named with the caller's parameters
// (`CSRGraph<NodeID_, DestID_>::GenIndex`) the one specialization that
// every instantiation calls. Before, the loops were reported untraced:
// "it is a static member function".
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -fopenmp -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --allow-empty --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %if gxx %{ %gxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc %}
#include "omp-static-members.h"

// No warning: every loop is traced.
// WARN-NOT: warning

// CHECK: {"omp for at {{.*}}Inputs/omp-static-members.h:19 in CSRGraph::GenIndex", {{.*}}
// CHECK: {"omp for at {{.*}}Inputs/omp-static-members.h:33 in BuilderBase::ParallelPrefixSum", {{.*}}
// CHECK: template <class NodeID_, class DestID_, bool MakeInverse> inline static DestID_ **CSRGraph_GenIndex_wgtrace_[[GEN:[0-9]+]](const SGOffset *offsets, NodeID_ length,
// CHECK: {{.*}}WGTRACE_STORE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, index)[n]) = WGTRACE_LOAD_AT({{[0-9]+}}, neighs) + WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, offsets)[n]); } }
// CHECK: template <typename NodeID_, typename DestID_, typename WeightT_, bool invert> inline static void BuilderBase_ParallelPrefixSum_wgtrace_[[SUM:[0-9]+]](const NodeID_ *degrees, SGOffset *prefix,
// CHECK: {{.*}}total += WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, degrees)[i]); } }
// CHECK: template <typename NodeID_, typename DestID_, typename WeightT_, bool invert> inline static DestID_ **BuilderBase_MakeIndex_wgtrace_[[INDEX:[0-9]+]](const NodeID_ *degrees, SGOffset *offsets,
// CHECK-NEXT: NodeID_ n, DestID_ *neighs) {
// CHECK-NEXT: ::BuilderBase_ParallelPrefixSum_wgtrace_[[SUM]]<NodeID_, DestID_, WeightT_, invert>(degrees, offsets, n);
// CHECK-NEXT: return ::CSRGraph_GenIndex_wgtrace_[[GEN]]<int, int, true>(offsets, n, neighs);

int **build(const int *degrees, SGOffset *offsets, int n, int *neighs) {
  Builder::ParallelPrefixSum(degrees, offsets, n);
  // CHECK: ::BuilderBase_ParallelPrefixSum_wgtrace_[[SUM]]<int, int, int, true>(degrees, offsets, n);
  return Builder::MakeIndex(degrees, offsets, n, neighs);
  // CHECK: return ::BuilderBase_MakeIndex_wgtrace_[[INDEX]]<int, int, int, true>(degrees, offsets, n, neighs);
}
