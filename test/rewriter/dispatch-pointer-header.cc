// A dispatch through a function pointer that holds a kernel of a project
// header (copied into this file, its uses redirected to the copy) gets a
// site for it, as for a kernel of the file: one per header kernel of the
// pointer's type that the file uses before the call, named after the
// kernel, the copy's address given to siteOfKernel (the address the
// redirected uses put in the pointer). Without it PRK's stencil-vector,
// whose star1..grid5 live in stencil_vector.hpp, recorded under the
// direct-call sites, without the dispatch's place.
// RUN: %strip-checks %s > %t.cc
// RUN: %wgtrace-rewrite %t.cc -- %wgtrace-flags -I %S/Inputs > %t.out.cc
// RUN: FileCheck --match-full-lines %s < %t.out.cc
// RUN: %cxx -fsyntax-only -Wall -Wextra -Werror -std=c++17 -I %wgtrace-include -I %S/Inputs %t.out.cc
#include "pointer-stencils.h"

using Stencil = void (*)(const wgtrace::Workgroup &, const float *, float *);

WGTRACE_DISPATCH void own(const wgtrace::Workgroup &wg, const float *in,
                          float *out) {
  out[wg.id[0]] = -in[wg.id[0]];
}

// CHECK: const ::wgtrace::detail::SiteInfo wgtrace_sites_[] = {
// CHECK-NEXT: {"own", "{{.*}}.cc:[[#LINE:]]"},
// CHECK-NEXT: {"star1", "{{.*}}.cc:[[#LINE]]"},
// CHECK-NEXT: {"gen::star2", "{{.*}}.cc:[[#LINE]]"},
// CHECK-NEXT: {"grid1", "{{.*}}.cc:[[#LINE+2]]"},
// CHECK-NEXT: {"star3", "{{.*}}.cc:[[#LINE+3]]"},
// CHECK-NEXT: };

void run(int radius, const float *in, float *out, const double *din,
         double *dout) {
  Stencil stencil = radius == 0 ? own : radius == 1 ? star1 : gen::star2;
  wgtrace::Grid g{4, 1, 1};
  wgtrace::dispatch(stencil, g, in, out);
  // CHECK: wgtrace::dispatch(::wgtrace::detail::siteOfKernel(stencil, ::wgtrace::detail::SiteRef{}, &::own, WGTRACE_SITE(0), &::star1_wgtrace_{{[0-9]+}}, WGTRACE_SITE(1), &::gen::star2_wgtrace_{{[0-9]+}}, WGTRACE_SITE(2)), stencil, g, in, out);
  wgtrace::dispatch(grid1, g, din, dout);
  wgtrace::dispatch(star3, g, in, out);
}
