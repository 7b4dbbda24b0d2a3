// A member function of this file calls a project header's member through
// `this` (implicitly): the call is redirected to the member's instrumented
// copy with `*this` for its object, as `this->is_left(ic)` and `m.is_left(ic)`
// are, instead of being reported untraced (CLAMR's Mesh::calc_celltype
// calling is_left_boundary(ic) of mesh.h: 24 loads an iteration). With
// --whole-target the function is exported for other files too; what its
// loops cannot record is still warned about (a function whose loops are
// traced is no quiet scope): it was held back, and the loop lost the call's
// accesses in silence.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite --openmp %t.cc -- %wgtrace-flags -fopenmp -I %S/Inputs > %t.out.cc 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
// RUN: %wgtrace-rewrite --openmp --whole-target %t.cc -- %wgtrace-flags -fopenmp -I %S/Inputs > %t.whole.cc 2> %t.whole.err
// RUN: FileCheck --check-prefix=WHOLE --match-full-lines %s < %t.whole.cc
// RUN: FileCheck --check-prefix=WARN --implicit-check-not=warning: %s < %t.whole.err
// RUN: %cxx -fsyntax-only -fopenmp -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.whole.cc
#include "omp-member-this.h"

#define LEFT(m, ic) (m).is_left(ic)

// CHECK: static inline int Mesh_is_left_wgtrace_0(::Mesh &self, int ic) { return (WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.i)[ic]) < WGTRACE_LOAD_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, self.lev)[ic])); }
void Mesh::calc(int n) {
#pragma omp parallel for
  for (int ic = 0; ic < n; ++ic) {
    if (is_left(ic)) celltype[ic] = 1;
    // CHECK: if (::Mesh_is_left_wgtrace_0(*this, ic)) WGTRACE_STORE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, celltype)[ic]) = 1;
    // WHOLE: if (::Mesh_is_left_wgtrace_0(*this, ic)) WGTRACE_STORE_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, celltype)[ic]) = 1;
    celltype[ic] += this->is_left(ic) + is_left (ic + 1);
    // CHECK: WGTRACE_UPDATE_AT({{[0-9]+}}, WGTRACE_LOAD_AT({{[0-9]+}}, celltype)[ic]) += ::Mesh_is_left_wgtrace_0(*this, ic) + ::Mesh_is_left_wgtrace_0(*this, ic + 1);
    // WHOLE: WGTRACE_UPDATE_AT({{[0-9]+}}, WGTRACE_LOAD_REF_AT({{[0-9]+}}, celltype)[ic]) += ::Mesh_is_left_wgtrace_0(*this, ic) + ::Mesh_is_left_wgtrace_0(*this, ic + 1);
  }
}

void Mesh::calc_macro(int n) {
#pragma omp parallel for
  for (int ic = 0; ic < n; ++ic) {
    celltype[ic] = LEFT(*this, ic);
    // WARN: {{.*}}.cc:[[@LINE-1]]:20: warning: call of 'Mesh::is_left' is not traced: it is spelled in a macro expansion, and is not redirected to the instrumented copy of 'Mesh::is_left': what that call accesses is not recorded
  }
}
